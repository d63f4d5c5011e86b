// Handlers of the public respondent routes.
import { encodeFormDefinition, publicSettings, Respondent, type ResponseRecord } from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { RequestInvalid } from "../../shared/index.js"
import { FormsApi } from "../Api.js"
import { data } from "../envelope.js"
import { requireEmptyBody } from "../empty-body.js"
import { FormsErrors } from "../errors.js"

/** The browser continuity cookie: one random token, hashed per form on the server (see decisions). */
export const CONTINUITY_COOKIE = "folio_rt"
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=")
    if (k === name) return v.join("=")
  }
  return undefined
}

/** What the request tells of the browser: its continuity cookie, if any, and its address and agent. */
const clientOf = (request: HttpServerRequest.HttpServerRequest) => ({
  continuityToken: cookieValue(request.headers.cookie, CONTINUITY_COOKIE),
  fingerprint: `${Option.getOrElse(request.remoteAddress, () => "")}\n${request.headers["user-agent"] ?? ""}`
})

/** Sets (or re-sets) the continuity cookie on the response this request gets. */
const setContinuityCookie = (continuityToken: string) =>
  Effect.gen(function* () {
    const origin = yield* PublicOrigin
    const secure = origin.startsWith("https:") ? "; Secure" : ""
    const cookie = `${CONTINUITY_COOKIE}=${continuityToken}; Path=/f/; Max-Age=${ONE_YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure}`
    yield* HttpEffect.appendPreResponseHandler((_req, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "set-cookie", cookie))
    )
  })

const view = (r: ResponseRecord) => ({
  responseId: r.id,
  status: r.status,
  answers: r.answers,
  completedAt: r.completedAt
})

export const RespondentLive = HttpApiBuilder.group(FormsApi, "respondent", (handlers) =>
  Effect.map(Effect.service(Respondent), (respondent) =>
    handlers
      .handle("form", ({ params }) =>
        Effect.gen(function* () {
          const { published, closed: reason } = yield* respondent.publicForm(params.slug)
          return data({
            formId: published.form.id,
            formVersionId: published.version.id,
            version: published.version.version,
            title: published.form.title,
            definition: encodeFormDefinition(published.definition),
            settings: publicSettings(published.settings),
            closed:
              reason === undefined
                ? null
                : { reason, message: published.settings.submission.closedMessage ?? null }
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("start", ({ params, payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* respondent.start(params.slug, payload.params ?? {}, {
            ...clientOf(request),
            confirmRepeat: payload.confirmRepeat
          })
          yield* setContinuityCookie(started.continuityToken)
          return data({
            responseId: started.response.id,
            formVersionId: started.response.formVersionId,
            token: started.token,
            presentation: started.presentation,
            respondent: started.respondent,
            repeatWarning: started.repeatWarning
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("resume", ({ params }) =>
        Effect.gen(function* () {
          yield* requireEmptyBody
          const request = yield* HttpServerRequest.HttpServerRequest
          const resumed = yield* respondent.resume(params.slug, clientOf(request))
          yield* setContinuityCookie(resumed.continuityToken)
          return data({
            responseId: resumed.response.id,
            formVersionId: resumed.response.formVersionId,
            token: resumed.token,
            presentation: resumed.presentation,
            respondent: resumed.respondent,
            repeatWarning: false,
            answers: resumed.response.answers
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("upload", ({ params, query, headers }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = yield* request.arrayBuffer.pipe(
            Effect.mapError(() => new RequestInvalid({ message: "the request body could not be read" }))
          )
          const file = yield* respondent.uploadFile(
            params.slug,
            params.responseId,
            headers["x-response-token"],
            {
              blockId: query.blockId,
              filename: query.filename ?? "upload",
              claimedType: request.headers["content-type"] ?? "",
              bytes: new Uint8Array(body)
            }
          )
          return data({
            key: file.key,
            id: file.id,
            filename: file.filename,
            contentType: file.contentType,
            size: file.size
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("save", ({ params, payload }) =>
        Effect.map(
          respondent.save(params.slug, params.responseId, payload.token, payload.answers, false),
          (r) => data(view(r))
        ).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("complete", ({ params, payload }) =>
        Effect.map(
          respondent.save(params.slug, params.responseId, payload.token, payload.answers ?? {}, true),
          (r) => data(view(r))
        ).pipe(Effect.catch(FormsErrors.fail))
      )
  )
)
