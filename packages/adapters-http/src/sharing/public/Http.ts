// Public serving of sharing resources: GET /s/{slug} (a link's redirect, a Markdown page, the
// password form, the state pages) and POST /s/{slug} (the password form's answer). The hot path, a
// warm link redirect, reads the resource from the cached repository (no database), decides in pure
// domain code, counts the view in memory (ViewCounter) and answers 302.
import {
  BlobStore,
  SharingBio,
  SharingFiles,
  RateLimitStore,
  type ResourceRecord,
  type ResourceRecordOf,
  type StorageError,
  ResourceRepository,
  ViewCounter,
  VisitRecorder,
  PasswordHasher,
  NotionMirrors,
  spendPasswordAttempt,
  SuspendedAccounts
} from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { BlobSigningSecret } from "../../blobs/index.js"
import { PublicOrigin } from "../../public-origin.js"
import { clientIp, type Html } from "../../shared/index.js"
import {
  PASSWORD_FIELD,
  renderLinkPreviewPage,
  renderMarkdownPage,
  renderNotFoundPage,
  renderPasswordPage,
  renderPlaceholderPage
} from "../pages/page.js"
import { renderFilePage, renderGalleryPage } from "../pages/files.js"
import { CountryHeader, visitFromRequest } from "../visit.js"
import { makeArtifactSite } from "./artifact-site.js"
import { bioPageHtml, postBioForm, serveBioMedia } from "./bio.js"
import { notionPageHtml, serveNotionAsset } from "./notion.js"
import {
  downloadGrantCookie,
  serveCollectionItemBytes,
  serveCollectionItemPreview,
  serveResourceBytes
} from "./file-bytes.js"
import {
  cookiesOf,
  type Deps,
  findServed,
  notFound,
  page,
  pathAndQuery,
  publicPath,
  STATE_PAGES,
  unavailableNow,
  unlocked
} from "./serving.js"
import {
  destinationOf,
  indexHeaders,
  NO_STORE,
  ownerDestinationOf,
  previewsFor,
  redirectHeaders,
  SEEN_COOKIE,
  VISITOR_COOKIE,
  viewOf,
  visitorFrom
} from "./link-redirect.js"
import { UNLOCK_COOKIE, UNLOCK_TTL_SECONDS, unlockToken } from "./password.js"
import { ClientIpHeader, recordVisit } from "./record-visit.js"

/** What the public routes use: the serving ports, and the bio forms' signing key and use cases. */
type PublicDeps = Deps & {
  readonly artifactEntry: (r: ResourceRecord, deploymentId: string) => string
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

/** A resource that is servable and unlocked: the redirect or the page, counting the view. */
const serve = (
  deps: PublicDeps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  at: Date
): Effect.Effect<HttpServerResponse.HttpServerResponse, StorageError> => {
  const visitor = visitorFrom(request.cookies[VISITOR_COOKIE], deps.secure)
  const minted = visitor.setCookie === undefined ? [] : [visitor.setCookie]
  // A page that is not a view sets the visitor cookie only; a view also marks the visit.
  const headers = indexHeaders(r)
  const view = viewOf(r, request.cookies[SEEN_COOKIE], minted, deps.secure)
  const views = r.viewCount + deps.views.pending(r.id)
  const url = `${deps.origin}${publicPath(r.slug)}`
  const title = r.title ?? r.slug
  const description = r.description ?? undefined
  const noindex = r.visibility === "unlisted"
  // A HEAD (a link checker, a download manager sizing the file) reads nothing: it is no view.
  const counts = view.counts && request.method !== "HEAD"
  /** A view: counted once per visit, and marked so the visit's reloads are not. */
  // Each counted view is also a visit for analytics (`destination`: a link's, as its owner wrote it).
  const counted = (
    respond: (cookies: ReadonlyArray<string>) => HttpServerResponse.HttpServerResponse,
    destination?: string
  ) =>
    counts
      ? Effect.as(
          Effect.andThen(
            deps.views.record(r.id),
            Effect.sync(() =>
              recordVisit(
                deps.visits,
                r,
                request,
                Option.getOrUndefined(request.remoteAddress),
                at.getTime(),
                destination
              )
            )
          ),
          respond(view.cookies)
        )
      : Effect.succeed(respond(request.method === "HEAD" ? minted : view.cookies))

  if (r.type === "link") {
    const visit = visitFromRequest(request, { visitorId: visitor.id, at, countryHeader: deps.countryHeader })
    const decided = destinationOf(r, visit, views)
    if (decided.destination === null) {
      const state = STATE_PAGES[decided.matched.reason]
      return Effect.succeed(page(state.render(), state.status, headers, minted))
    }
    const d = r.data
    if (previewsFor(d, request.headers["user-agent"])) {
      return Effect.succeed(
        page(
          renderLinkPreviewPage({
            title: d.ogTitle ?? title,
            description: d.ogDescription ?? description,
            imageUrl: d.ogImageUrl ?? undefined,
            url,
            destination: decided.destination,
            noindex
          }),
          200,
          headers,
          minted
        )
      )
    }
    const location = decided.destination
    const redirect = (cookies: ReadonlyArray<string>) =>
      HttpServerResponse.empty({
        status: 302,
        headers: redirectHeaders(r, location, []),
        cookies: cookiesOf(cookies)
      })
    // The fallback of an unavailable link is not a view of the link.
    if (decided.matched.kind === "fallback") return Effect.succeed(redirect(minted))
    if (counts && d.webhookClicks)
      deps.views.recordClick({
        tenantId: r.tenantId,
        resourceId: r.id,
        slug: r.slug,
        destination: location,
        at
      })
    return counted(redirect, ownerDestinationOf(r, decided.matched))
  }

  // Availability was checked before the password (getResource).
  if (r.type === "markdown") {
    const body = cachedPage(`${r.id}:${r.rowVersion}`, () =>
      renderMarkdownPage({ title, markdown: r.data.body, description, url, noindex })
    )
    return counted((cookies) => page(body, 200, headers, cookies))
  }
  if (r.type === "file" || r.type === "image") {
    const body = renderFilePage({
      kind: r.type,
      title: r.title ?? r.data.fileName,
      description,
      fileName: r.data.fileName,
      contentType: r.data.contentType,
      size: r.data.size,
      url,
      contentPath: `${publicPath(r.slug)}/content`,
      downloadPath: `${publicPath(r.slug)}/download`,
      noindex
    })
    const grant = downloadGrantCookie(deps.unlockSecret, r, Math.floor(at.getTime() / 1000), deps.secure)
    return counted((cookies) => page(body, 200, headers, [...cookies, grant]))
  }
  if (r.type === "artifact") {
    // The share link always leads to the latest deployment's own origin (unlocked there when it
    // has a password: the app's page checked it).
    const location = deps.artifactEntry(r, r.data.deploymentId)
    return counted((cookies) =>
      HttpServerResponse.empty({
        status: 302,
        headers: { ...headers, location, "cache-control": NO_STORE },
        cookies: cookiesOf(cookies)
      })
    )
  }
  if (r.type === "bio") {
    const body = bioPageHtml(deps, request, r)
    return counted((cookies) => page(body, 200, headers, cookies))
  }
  if (r.type === "collection") {
    const items = (r.data.items ?? []).map((item) => ({
      kind: item.kind,
      name: item.displayName ?? item.file.fileName,
      caption: item.caption,
      contentType: item.file.contentType,
      size: item.file.size,
      contentPath: `${publicPath(r.slug)}/items/${item.id}/content`,
      downloadPath: `${publicPath(r.slug)}/items/${item.id}/download`,
      previewPath: `${publicPath(r.slug)}/items/${item.id}/preview`
    }))
    const body = renderGalleryPage({ title, description, url, items, noindex })
    return counted((cookies) => page(body, 200, headers, cookies))
  }
  if (r.type === "notion") {
    return Effect.flatMap(notionPageHtml(deps, request, r), (body) =>
      body === undefined
        ? Effect.succeed(notFound())
        : counted((cookies) => page(body, 200, headers, cookies))
    )
  }
  return counted((cookies) =>
    page(renderPlaceholderPage({ title, description, url, noindex }), 200, headers, cookies)
  )
}

const getResource = (deps: PublicDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const slug = (yield* HttpRouter.params).slug ?? ""
    const found = yield* findServed(deps, slug)
    if (Option.isNone(found)) return notFound()
    const r = found.value
    const at = new Date()
    // Before the password: a resource that cannot be shown says so (a link goes to its fallback_url,
    // which is public, when it has one: its decision in serve() does that and counts no view).
    const reason = unavailableNow(r, at, r.viewCount + deps.views.pending(r.id))
    if (reason !== undefined) {
      if (r.type === "link") return yield* serve(deps, request, r, at)
      return page(STATE_PAGES[reason].render(), STATE_PAGES[reason].status)
    }
    if (!unlocked(deps, request, r, at)) {
      return page(renderPasswordPage({ action: pathAndQuery(request, r.slug) }), 200, indexHeaders(r))
    }
    return yield* serve(deps, request, r, at)
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
    const at = new Date()
    const action = pathAndQuery(request, r.slug)
    if (r.passwordHash === null) {
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: action, "cache-control": NO_STORE }
      })
    }
    const limited = yield* spendPasswordAttempt(
      deps.limits,
      "resource",
      r.id,
      clientIp(request),
      at.getTime()
    ).pipe(
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
    const token = unlockToken(deps.unlockSecret, r.id, r.passwordHash, Math.floor(at.getTime() / 1000))
    return HttpServerResponse.empty({
      status: 303,
      headers: {
        location: action,
        "cache-control": NO_STORE,
        "set-cookie": `${UNLOCK_COOKIE}=${token}; Path=${publicPath(r.slug)}; Max-Age=${UNLOCK_TTL_SECONDS}; HttpOnly; SameSite=Lax${deps.secure}`
      }
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
    const deps: PublicDeps = {
      resources: yield* ResourceRepository,
      blobs: yield* BlobStore,
      views: yield* ViewCounter,
      limits: yield* RateLimitStore,
      passwords: yield* PasswordHasher,
      suspended: yield* SuspendedAccounts,
      origin,
      // Its own key, derived from the app's signing secret: an unlock is no download signature.
      unlockSecret: `sharing-unlock:${yield* BlobSigningSecret}`,
      secure: origin.startsWith("https:") ? "; Secure" : "",
      countryHeader: yield* CountryHeader,
      visits: {
        recorder: yield* VisitRecorder,
        ipHeader: yield* ClientIpHeader,
        countryHeader: yield* CountryHeader
      },
      formSecret: `sharing-bio-form:${yield* BlobSigningSecret}`,
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
