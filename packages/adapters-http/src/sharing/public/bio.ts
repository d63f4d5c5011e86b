// The public side of bio pages: the page itself (its pages by `?page=`), its stored files at
// `/s/{slug}/media/{id}`, and the visitor forms' posts to `/s/{slug}/forms/{blockId}`, guarded by a
// honeypot field, a signed time token (a form sent faster than a person can, or a day later, is
// refused) and a budget per address and page; after a post, a redirect back shows the thanks.
import {
  type BioRecord,
  bioFilesOf,
  bioPagesOf,
  bioProfileOf,
  isFieldRefusal,
  type SharingBio,
  type StoredFile,
  resourcePublicPath,
  noindexFor
} from "@folio/domain"
import { Clock, Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientIp } from "../../shared/index.js"
import { type BioFormState, FORM_TOKEN_FIELD, HONEYPOT_FIELD, renderBioPage } from "../pages/bio.js"
import { renderNotFoundPage } from "../pages/page.js"
import { streamStoredFile } from "./file-bytes.js"
import { expiringTokens } from "./signed-token.js"
import { NO_STORE } from "./public-visit.js"
import { type Deps, gateOf, page, queryOf } from "./serving.js"

/** A form sent sooner than this after the page was drawn is a bot's. */
export const FORM_MIN_SECONDS = 2
/** A form token lasts this long (then the page is drawn again with a fresh one). */
export const FORM_TOKEN_TTL_SECONDS = 24 * 60 * 60
/** Form posts per client address and bio page in one window. */
export const FORM_POSTS = 5
export const FORM_WINDOW_MS = 10 * 60_000
/** The most bytes a form post may hold (ten fields of 2,000 characters and their names). */
export const MAX_FORM_POST_BYTES = 32 * 1024

const formTokens = expiringTokens("bio-form")

/** The time token of a page drawn at `nowSeconds` (it expires FORM_TOKEN_TTL_SECONDS later). */
export const formToken = (secret: string, resourceId: string, nowSeconds: number) =>
  formTokens.make(secret, resourceId, nowSeconds + FORM_TOKEN_TTL_SECONDS)

/** Why a form token is refused, if it is. */
export const formTokenProblem = (
  secret: string,
  resourceId: string,
  token: string,
  nowSeconds: number
): "invalid" | "too_fast" | "expired" | undefined => {
  const exp = formTokens.check(secret, resourceId, token, Number.MIN_SAFE_INTEGER)
  if (exp === undefined) return "invalid"
  if (nowSeconds - (exp - FORM_TOKEN_TTL_SECONDS) < FORM_MIN_SECONDS) return "too_fast"
  if (exp <= nowSeconds) return "expired"
  return undefined
}

/** The stored file of a bio page named by the last segment of its key. */
const mediaOf = (r: BioRecord, mediaId: string): StoredFile | undefined =>
  bioFilesOf(bioProfileOf(r), bioPagesOf(r)).find((f) => f.blobKey.split("/").pop() === mediaId)

/** The bio page's HTML: the page `?page=` names (else the first), with a form's state when given. */
export const bioPageHtml = (
  deps: Deps & { readonly formSecret: string },
  request: HttpServerRequest.HttpServerRequest,
  r: BioRecord,
  nowMs: number,
  form?: BioFormState
) => {
  const pages = bioPagesOf(r)
  const query = queryOf(request)
  const asked = query.get("page")
  const current = pages.find((p) => p.slug === asked) ??
    pages[0] ?? { id: r.id, slug: "home", title: "Home", blocks: [] }
  const sent = query.get("sent")
  return renderBioPage({
    title: r.title ?? r.slug,
    url: `${deps.origin}${resourcePublicPath(r.slug)}`,
    path: resourcePublicPath(r.slug),
    theme: r.data.theme,
    profile: bioProfileOf(r),
    pages,
    page: current,
    mediaPath: (blobKey) => `${resourcePublicPath(r.slug)}/media/${blobKey.split("/").pop() ?? ""}`,
    formToken: formToken(deps.formSecret, r.id, Math.floor(nowMs / 1000)),
    form: form ?? (sent === null ? undefined : { blockId: sent, sent: true }),
    noindex: noindexFor(r)
  })
}

/** `/s/{slug}/media/{id}`: a stored file of a bio page, under the page's password and window. */
export const serveBioMedia = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: BioRecord,
  mediaId: string
) =>
  Effect.gen(function* () {
    const file = mediaOf(r, mediaId)
    if (file === undefined) return page(renderNotFoundPage(), 404)
    const gate = gateOf(deps, request, r, yield* Clock.currentTimeMillis)
    if (gate !== undefined) return gate
    const mode = queryOf(request).get("download") === null ? "content" : "download"
    return yield* streamStoredFile(deps.blobs, request, file, mode, {
      headers: {},
      cookies: [],
      lastModified: r.updatedAt
    })
  })

/**
 * `POST /s/{slug}/forms/{blockId}`: a visitor's answers. Every post spends the address's budget
 * first. A bot's post (the honeypot filled) is thanked and dropped; a bad token, a post over the budget or a wrong field draws the page again
 * with the answers kept and the reason said; a good one is stored and sent back to the thanks.
 */
export const postBioForm = (
  deps: Deps & { readonly formSecret: string; readonly bio: SharingBio["Service"] },
  request: HttpServerRequest.HttpServerRequest,
  r: BioRecord,
  blockId: string
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const gate = gateOf(deps, request, r, now)
    if (gate !== undefined) return gate
    const query = queryOf(request)
    const pageQuery = query.get("page") === null ? "" : `page=${encodeURIComponent(query.get("page") ?? "")}&`
    const back = (blocked: string) =>
      `${resourcePublicPath(r.slug)}?${pageQuery}sent=${encodeURIComponent(blocked)}#block-${encodeURIComponent(blocked)}`
    const text = yield* Effect.orElseSucceed(request.text, () => "")
    const posted = new URLSearchParams(text.length > MAX_FORM_POST_BYTES ? "" : text)
    const values: Record<string, string> = {}
    for (const [name, value] of posted)
      if (name !== HONEYPOT_FIELD && name !== FORM_TOKEN_FIELD) values[name] = value
    const again = (status: number, error: string, headers: Readonly<Record<string, string>> = {}) =>
      page(bioPageHtml(deps, request, r, now, { blockId, error, values }), status, headers, [])
    const hit = yield* deps.limits.hit(`sharing-bio-form:${r.id}:${clientIp(request)}`, FORM_WINDOW_MS, now)
    if (hit.count > FORM_POSTS)
      return again(429, "Too many messages from here. Try again in a few minutes.", {
        "retry-after": String(Math.max(1, Math.ceil((hit.resetAt - now) / 1000)))
      })
    if ((posted.get(HONEYPOT_FIELD) ?? "") !== "")
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: back(blockId), "cache-control": NO_STORE }
      })
    const problem = formTokenProblem(
      deps.formSecret,
      r.id,
      posted.get(FORM_TOKEN_FIELD) ?? "",
      Math.floor(now / 1000)
    )
    if (problem !== undefined)
      return again(
        400,
        problem === "expired"
          ? "This form was open too long. Send it again."
          : "Please wait a moment, then send the form again."
      )
    type Outcome =
      | { readonly _tag: "Stored" }
      | { readonly _tag: "Gone" }
      | { readonly _tag: "Wrong"; readonly field: string; readonly reason: string }
    const outcome: Outcome = yield* deps.bio.submit(r.slug, blockId, values).pipe(
      Effect.map((): Outcome => ({ _tag: "Stored" })),
      Effect.catchIf(isFieldRefusal, (e) =>
        Effect.succeed<Outcome>({ _tag: "Wrong", field: e.field, reason: e.reason })
      ),
      Effect.catchTag("ResourceNotFound", () => Effect.succeed<Outcome>({ _tag: "Gone" }))
    )
    if (outcome._tag === "Gone") return page(renderNotFoundPage(), 404)
    if (outcome._tag === "Wrong") return again(400, `Check the field “${outcome.field}”: ${outcome.reason}.`)
    return HttpServerResponse.empty({
      status: 303,
      headers: { location: back(blockId), "cache-control": NO_STORE }
    })
  })
