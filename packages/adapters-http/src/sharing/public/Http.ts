// The public pages' route table: GET /s/{slug} (what the domain's decidePublicVisit answers, carried
// out here: a link's redirect, a page, the password form, a state page) and POST /s/{slug} (the
// password form's answer), and everything under a resource's URL. The resource is read from the
// cached repository (no database when warm); a view is counted in memory (ViewCounter).
import {
  BlobStore,
  NotionMirrors,
  PasswordHasher,
  type PublicVisitDecision,
  RateLimitStore,
  type ResourceRecord,
  type ResourceRecordOf,
  ResourceRepository,
  SharingBio,
  SharingFiles,
  type StorageError,
  SuspendedAccounts,
  spendPasswordAttempt,
  ViewCounter,
  VisitRecorder,
  resourcePublicPath
} from "@folio/domain"
import { Clock, Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { BlobSigningSecret } from "../../blobs/index.js"
import { PublicOrigin, secureCookiesFor } from "../../public-origin.js"
import { clientIp, countShortLink, type Html, shortLinkOutcomeOf } from "../../shared/index.js"
import { renderFilePage, renderGalleryPage } from "../pages/files.js"
import {
  PASSWORD_FIELD,
  renderLinkPreviewPage,
  renderMarkdownPage,
  renderNotFoundPage,
  renderPasswordPage,
  renderPlaceholderPage
} from "../pages/page.js"
import { CountryHeader } from "../visit.js"
import { makeArtifactSite } from "./artifact-site.js"
import { bioPageHtml, postBioForm, serveBioMedia } from "./bio.js"
import {
  downloadGrantCookie,
  serveCollectionItemBytes,
  serveCollectionItemPreview,
  serveResourceBytes
} from "./file-bytes.js"
import { notionPageHtml, serveNotionAsset } from "./notion.js"
import { UNLOCK_COOKIE, UNLOCK_TTL_SECONDS, unlockSecretOf, unlockToken } from "./password.js"
import {
  cookiesOf,
  decideRequest,
  NO_STORE,
  recordDecided,
  redirectHeaders,
  robotsHeaders
} from "./public-visit.js"
import { ClientIpHeader } from "./record-visit.js"
import { type Deps, findBySlug, findServed, notFound, page, pathAndQuery, STATE_PAGES } from "./serving.js"

/** What the public routes use: the serving ports, and the bio forms' signing key and use cases. */
type PublicDeps = Deps & {
  readonly artifactEntry: (r: ResourceRecord, deploymentId: string, nowSeconds: number) => string
  readonly formSecret: string
  readonly bio: SharingBio["Service"]
  readonly files: SharingFiles["Service"]
  readonly notion: NotionMirrors["Service"]
}

/** Rendered Markdown pages by resource and row version (rendering and sanitizing cost milliseconds). */
const PAGE_CACHE_SIZE = 256
const pageCache = new Map<string, string>()
const cachedPage = (key: string, render: () => Html): string => {
  const hit = pageCache.get(key)
  if (hit !== undefined) return hit
  const text = render().text
  if (pageCache.size >= PAGE_CACHE_SIZE) {
    const oldest = pageCache.keys().next()
    if (oldest.done !== true) pageCache.delete(oldest.value)
  }
  pageCache.set(key, text)
  return text
}

/** The page of a resource the decision serves, by its type; undefined when it has none (a Notion page). */
const pageBody = (
  deps: PublicDeps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  nowMs: number,
  noindex: boolean
): Effect.Effect<string | undefined, StorageError> => {
  const url = `${deps.origin}${resourcePublicPath(r.slug)}`
  const title = r.title ?? r.slug
  const description = r.description ?? undefined
  switch (r.type) {
    case "markdown":
      return Effect.succeed(
        cachedPage(`${r.id}:${r.rowVersion}`, () =>
          renderMarkdownPage({ title, markdown: r.data.body, description, url, noindex })
        )
      )
    case "file":
    case "image":
      return Effect.succeed(
        renderFilePage({
          kind: r.type,
          title: r.title ?? r.data.fileName,
          description,
          fileName: r.data.fileName,
          contentType: r.data.contentType,
          size: r.data.size,
          url,
          contentPath: `${resourcePublicPath(r.slug)}/content`,
          downloadPath: `${resourcePublicPath(r.slug)}/download`,
          noindex
        }).text
      )
    case "bio":
      return Effect.succeed(bioPageHtml(deps, request, r, nowMs).text)
    case "collection": {
      const items = (r.data.items ?? []).map((item) => ({
        kind: item.kind,
        name: item.displayName ?? item.file.fileName,
        caption: item.caption,
        contentType: item.file.contentType,
        size: item.file.size,
        contentPath: `${resourcePublicPath(r.slug)}/items/${item.id}/content`,
        downloadPath: `${resourcePublicPath(r.slug)}/items/${item.id}/download`,
        previewPath: `${resourcePublicPath(r.slug)}/items/${item.id}/preview`
      }))
      return Effect.succeed(renderGalleryPage({ title, description, url, items, noindex }).text)
    }
    case "notion":
      return notionPageHtml(deps, request, r)
    default:
      return Effect.succeed(renderPlaceholderPage({ title, description, url, noindex }).text)
  }
}

/**
 * The decision's answer carried out: the response, and what a counted view records (after a page
 * was found to draw: a Notion mirror without the asked page is no view).
 */
const carryOut = (
  deps: PublicDeps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  decided: PublicVisitDecision,
  nowMs: number
): Effect.Effect<HttpServerResponse.HttpServerResponse, StorageError> => {
  const headers = robotsHeaders(decided.noindex)
  const recorded = <A>(response: A): A => {
    recordDecided(deps, r, decided, request, Option.getOrUndefined(request.remoteAddress))
    return response
  }
  const redirect = (location: string) =>
    HttpServerResponse.empty({
      status: 302,
      headers: redirectHeaders(decided.noindex, location),
      cookies: cookiesOf(decided.cookies)
    })
  const answer = decided.answer
  switch (answer._tag) {
    case "NotFound":
      return Effect.succeed(notFound())
    case "StatePage": {
      const state = STATE_PAGES[answer.reason]
      return Effect.succeed(page(state.render(), state.status, headers, decided.cookies))
    }
    case "PasswordPage":
      return Effect.succeed(
        page(renderPasswordPage({ action: pathAndQuery(request, r.slug) }), 200, headers, decided.cookies)
      )
    case "LinkPreview":
      return Effect.succeed(
        page(
          renderLinkPreviewPage({
            title: answer.title,
            description: answer.description,
            imageUrl: answer.imageUrl,
            url: `${deps.origin}${resourcePublicPath(r.slug)}`,
            destination: answer.destination,
            noindex: decided.noindex
          }),
          200,
          headers,
          decided.cookies
        )
      )
    case "LinkRedirect":
      return Effect.succeed(recorded(redirect(answer.location)))
    case "ArtifactRedirect":
      // The share link always leads to the latest deployment's own origin (unlocked there when it
      // has a password: the app's page checked it).
      return Effect.succeed(
        recorded(redirect(deps.artifactEntry(r, answer.deploymentId, Math.floor(nowMs / 1000))))
      )
    case "Page":
      return Effect.map(pageBody(deps, request, r, nowMs, decided.noindex), (body) => {
        if (body === undefined) return notFound()
        const grant = answer.downloadGrant
          ? [downloadGrantCookie(deps.unlockSecret, r, Math.floor(nowMs / 1000), deps.secureCookies)]
          : []
        return recorded(page(body, 200, headers, [...decided.cookies, ...grant]))
      })
  }
}

const getResource = (deps: PublicDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const slug = (yield* HttpRouter.params).slug ?? ""
    const found = Option.getOrUndefined(yield* findBySlug(deps, slug))
    if (found === undefined) return yield* Effect.as(countShortLink("not_found"), notFound())
    const now = yield* Clock.currentTimeMillis
    const decided = decideRequest(deps, request, found, now)
    yield* countShortLink(shortLinkOutcomeOf(decided.answer._tag))
    return yield* carryOut(deps, request, found, decided, now)
  }).pipe(Effect.catchTag("StorageError", () => Effect.succeed(page(renderNotFoundPage(), 503))))

/** Posted form fields are small: anything longer is not a password we stored. */
const MAX_FORM_BYTES = 4096

const postPassword = (deps: Deps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const slug = (yield* HttpRouter.params).slug ?? ""
    const found = yield* findServed(deps, slug)
    if (Option.isNone(found)) return notFound()
    const r = found.value
    const now = yield* Clock.currentTimeMillis
    const action = pathAndQuery(request, r.slug)
    if (r.passwordHash === null) {
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: action, "cache-control": NO_STORE }
      })
    }
    const limited = yield* spendPasswordAttempt(deps.limits, "resource", r.id, clientIp(request), now).pipe(
      Effect.as(undefined),
      Effect.catchTag("RateLimited", (e) => Effect.succeed(e))
    )
    if (limited !== undefined)
      return page(renderPasswordPage({ action, error: "rate_limited" }), 429, {
        "retry-after": String(limited.retryAfterSeconds)
      })
    const text = yield* Effect.orElseSucceed(request.text, () => "")
    const password = text.length > MAX_FORM_BYTES ? "" : (new URLSearchParams(text).get(PASSWORD_FIELD) ?? "")
    const ok = password !== "" && (yield* deps.passwords.verify(password, r.passwordHash))
    if (!ok) return page(renderPasswordPage({ action, error: "wrong_password" }), 403)
    const token = unlockToken(deps.unlockSecret, r.id, r.passwordHash, Math.floor(now / 1000))
    return HttpServerResponse.empty({
      status: 303,
      headers: { location: action, "cache-control": NO_STORE },
      cookies: cookiesOf([
        {
          name: UNLOCK_COOKIE,
          value: token,
          maxAgeSeconds: UNLOCK_TTL_SECONDS,
          path: resourcePublicPath(r.slug),
          secure: deps.secureCookies
        }
      ])
    })
  }).pipe(Effect.catchTag("StorageError", () => Effect.succeed(page(renderNotFoundPage(), 503))))

/**
 * A route under a public resource's URL: `handle` gets the request, the resource served at the
 * path's slug (a 404 page when none) and the path's params; the store being down is a 503 page.
 */
const underResource = (
  deps: Deps,
  handle: (
    request: HttpServerRequest.HttpServerRequest,
    r: ResourceRecord,
    params: Readonly<Record<string, string | undefined>>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, StorageError>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const found = yield* findServed(deps, params.slug ?? "")
    if (Option.isNone(found)) return notFound()
    return yield* handle(request, found.value, params)
  }).pipe(Effect.catchTag("StorageError", () => Effect.succeed(page(renderNotFoundPage(), 503))))

/** Only a bio page's: anything else at the slug has no such path. */
const onBio =
  (
    handle: (
      request: HttpServerRequest.HttpServerRequest,
      r: ResourceRecordOf<"bio">,
      params: Readonly<Record<string, string | undefined>>
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, StorageError>
  ) =>
  (
    request: HttpServerRequest.HttpServerRequest,
    r: ResourceRecord,
    params: Readonly<Record<string, string | undefined>>
  ) =>
    r.type === "bio" ? handle(request, r, params) : Effect.succeed(notFound())

/** GET and POST /s/{slug}, and the bytes of files, images and collection items under it. */
export const SharingPublicRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const origin = yield* PublicOrigin
    const signingSecret = yield* BlobSigningSecret
    const deps: PublicDeps = {
      resources: yield* ResourceRepository,
      blobs: yield* BlobStore,
      views: yield* ViewCounter,
      limits: yield* RateLimitStore,
      passwords: yield* PasswordHasher,
      suspended: yield* SuspendedAccounts,
      origin,
      unlockSecret: unlockSecretOf(signingSecret),
      secureCookies: secureCookiesFor(origin),
      countryHeader: yield* CountryHeader,
      visits: {
        recorder: yield* VisitRecorder,
        ipHeader: yield* ClientIpHeader,
        countryHeader: yield* CountryHeader
      },
      formSecret: `sharing-bio-form:${signingSecret}`,
      bio: yield* SharingBio,
      files: yield* SharingFiles,
      notion: yield* NotionMirrors,
      artifactEntry: (yield* makeArtifactSite).entryUrl
    }
    yield* router.add("GET", "/s/:slug", getResource(deps))
    yield* router.add("POST", "/s/:slug", postPassword(deps))
    // The bytes of a file or image resource: `/content` (shown) or `/download` (saved).
    for (const mode of ["content", "download"] as const) {
      yield* router.add(
        "GET",
        `/s/:slug/${mode}`,
        underResource(deps, (request, r) => serveResourceBytes(deps, request, r, mode))
      )
      yield* router.add(
        "GET",
        `/s/:slug/items/:itemId/${mode}`,
        underResource(deps, (request, r, p) =>
          serveCollectionItemBytes(deps, request, r, p.itemId ?? "", mode)
        )
      )
    }
    yield* router.add(
      "GET",
      "/s/:slug/items/:itemId/preview",
      underResource(deps, (request, r, p) => serveCollectionItemPreview(deps, request, r, p.itemId ?? ""))
    )
    yield* router.add(
      "GET",
      "/s/:slug/media/:mediaId",
      underResource(deps, (request, r, p) =>
        r.type === "bio"
          ? serveBioMedia(deps, request, r, p.mediaId ?? "")
          : r.type === "notion"
            ? serveNotionAsset(deps, request, r, p.mediaId ?? "")
            : Effect.succeed(notFound())
      )
    )
    yield* router.add(
      "POST",
      "/s/:slug/forms/:blockId",
      underResource(
        deps,
        onBio((request, r, p) => postBioForm(deps, request, r, p.blockId ?? ""))
      )
    )
  })
)
