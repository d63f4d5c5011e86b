// The public upload page of an upload request at `/u/{token}`: GET draws the form (or why the
// request takes no files: the domain's openUploadRequest decides); POST takes a multipart submission,
// streamed to the owner's storage, and answers with a redirect to the thanks (or the form again).
import { isFieldRefusal, SharingUploadRequests } from "@folio/domain"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientIp, type Html } from "../../shared/index.js"
import { UploadParts } from "../files/parts.js"
import { renderNotFoundPage } from "../pages/page.js"
import { renderUploadClosedPage, renderUploadPage, UPLOAD_PAGE_CSP } from "../pages/upload-page.js"
import { NO_STORE } from "./public-visit.js"
import { PAGE_HEADERS } from "./serving.js"

const page = (body: Html, status: number, extra: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.text(body.text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      ...PAGE_HEADERS,
      "content-security-policy": UPLOAD_PAGE_CSP,
      "cache-control": NO_STORE,
      "x-robots-tag": "noindex, nofollow",
      ...extra
    }
  })

const CLOSED_STATUS = { paused: 403, completed: 410, revoked: 410, expired: 410 } as const

export const UploadPageRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const requests = yield* SharingUploadRequests
    const uploadParts = yield* UploadParts
    const tokenOf = Effect.map(HttpRouter.params, (p) => p.token ?? "")

    const form = (
      token: string,
      extra: { readonly sent?: boolean; readonly error?: string },
      status: number,
      headers: Readonly<Record<string, string>> = {}
    ) =>
      requests.open(token).pipe(
        Effect.map((r) =>
          page(
            renderUploadPage({
              title: r.title,
              description: r.description,
              action: `/u/${token}`,
              needsPassword: r.passwordHash !== null,
              ...extra
            }),
            status,
            headers
          )
        ),
        Effect.catchTags({
          ResourceNotFound: () => Effect.succeed(page(renderNotFoundPage(), 404)),
          UploadRequestClosed: (e) =>
            Effect.succeed(page(renderUploadClosedPage(e.reason), CLOSED_STATUS[e.reason])),
          StorageError: () => Effect.succeed(page(renderNotFoundPage(), 503))
        })
      )

    yield* router.add(
      "GET",
      "/u/:token",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = yield* tokenOf
        return yield* form(token, { sent: /[?&]sent=1(&|$)/.test(request.url) }, 200)
      })
    )

    yield* router.add(
      "POST",
      "/u/:token",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = yield* tokenOf
        const again = (status: number, error: string) => form(token, { error }, status)
        const parts = uploadParts(request.multipartStream, { maxParts: 40 })
        return yield* requests.submit(token, parts, clientIp(request)).pipe(
          Effect.as(
            HttpServerResponse.empty({
              status: 303,
              headers: { location: `/u/${token}?sent=1`, "cache-control": NO_STORE }
            })
          ),
          Effect.catchIf(isFieldRefusal, (e) =>
            again(400, `Check ${e.field === "files" ? "the files" : `the field “${e.field}”`}: ${e.reason}.`)
          ),
          Effect.catchTags({
            ResourceNotFound: () => Effect.succeed(page(renderNotFoundPage(), 404)),
            UploadRequestClosed: (e) =>
              Effect.succeed(page(renderUploadClosedPage(e.reason), CLOSED_STATUS[e.reason])),
            UploadRequestLocked: () => again(403, "That password is not right."),
            // The password's guessing budget is spent: even the right one waits for the window.
            RateLimited: (e) =>
              form(token, { error: "Too many password attempts. Try again later." }, 429, {
                "retry-after": String(e.retryAfterSeconds)
              }),
            UnsupportedMedia: () => again(415, "One of the files is of a type that cannot be sent here."),
            UploadTooLarge: (e) =>
              again(413, `A file is too large (the limit is ${Math.floor(e.maxBytes / 1024 / 1024)} MiB).`),
            StorageQuotaExceeded: () =>
              again(409, "There is no room left for these files. Contact the owner."),
            UploadBodyUnreadable: () => again(400, "The upload was cut off. Try again."),
            ResourceSlugInUse: () => again(503, "Try again in a moment."),
            StorageError: () => again(503, "Try again in a moment.")
          })
        )
      })
    )
  })
)
