// GET /f/{slug}/images/<key>: the images of a respondent's page (image blocks, choice images, the
// theme's logo and cover), at the URLs `publicImageUrl` builds. The domain serves only keys the
// form's current published version points at; any other key is a 404, so the route reads no other
// blob. Counted against the respondent budget like every public route; cacheable for five minutes
// and revalidated by a strong ETag over the bytes.
import { createHash } from "node:crypto"
import { URL } from "node:url"
import {
  ImageNotFound,
  RateLimitStore,
  Respondent,
  StoredFormDocumentReader,
  spendRespondentBudget
} from "@folio/domain"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientIp, serverFault } from "../../shared/index.js"
import { FormsErrors } from "../errors.js"

/** Seconds a browser or proxy may reuse an image before revalidating it. */
const PUBLIC_IMAGE_MAX_AGE_SECONDS = 300

const IMAGE_PATH = /^\/f\/([^/]+)\/images\/(.+)$/

/** The slug and object key of an image URL (segments percent-decoded); undefined when malformed. */
const parsePublicImagePath = (url: string): { slug: string; key: string } | undefined => {
  const match = IMAGE_PATH.exec(new URL(url, "http://local").pathname)
  if (match === null) return undefined
  try {
    const slug = decodeURIComponent(match[1] ?? "")
    const key = (match[2] ?? "").split("/").map(decodeURIComponent).join("/")
    return { slug, key }
  } catch {
    return undefined
  }
}

/** A strong validator: the SHA-256 of the bytes, so it changes exactly when the image does. */
const etagOf = (bytes: Uint8Array) => `"${createHash("sha256").update(bytes).digest("base64url")}"`

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 asks for this header) or is `*`. */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  (ifNoneMatch ?? "")
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag)

const serveImage = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const limits = yield* RateLimitStore
  yield* spendRespondentBudget(limits, clientIp(request))
  const parsed = parsePublicImagePath(request.url)
  if (parsed === undefined) return yield* new ImageNotFound()
  const respondent = yield* Respondent
  const image = yield* respondent.publicImage(parsed.slug, parsed.key)
  const etag = etagOf(image.bytes)
  const headers = {
    etag,
    "cache-control": `public, max-age=${PUBLIC_IMAGE_MAX_AGE_SECONDS}`,
    "x-content-type-options": "nosniff",
    // Opened directly, an image is still never a page of this origin.
    "content-security-policy": "default-src 'none'; sandbox"
  }
  if (matches(request.headers["if-none-match"], etag))
    return HttpServerResponse.empty({ status: 304, headers })
  return HttpServerResponse.uint8Array(image.bytes, { contentType: image.contentType, headers })
}).pipe(
  Effect.catch((e) => FormsErrors.respond(e)),
  Effect.catchDefect(() => FormsErrors.respond(serverFault()))
)

export const RespondentImageRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    // The deployment's services, read once: the use case reads stored documents through its reader.
    const respondent = yield* Respondent
    const limits = yield* RateLimitStore
    const documents = yield* StoredFormDocumentReader
    yield* router.add(
      "GET",
      "/f/:slug/images/*",
      serveImage.pipe(
        Effect.provideService(Respondent, respondent),
        Effect.provideService(RateLimitStore, limits),
        Effect.provideService(StoredFormDocumentReader, documents)
      )
    )
  })
)
