// What every public route of the sharing service shares: the page response, the state pages, the
// lookup of a publicly served resource, its unlock and availability checks, and the routes' ports.
import {
  type BlobStore,
  type PasswordHasher,
  type RateLimitStore,
  type ResourceRecord,
  type ResourceRepository,
  type SuspendedAccounts,
  type UnavailableReason,
  type ViewCounter,
  isResourceSlug,
  resourceServedPublicly,
  unavailability
} from "@folio/domain"
import { Effect, Option } from "effect"
import { Cookies, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Html } from "../../shared/index.js"
import {
  renderExpiredPage,
  renderNotFoundPage,
  renderNotStartedPage,
  renderViewLimitPage,
  SHARING_PAGE_HEADERS
} from "../pages/page.js"
import { NO_STORE } from "./link-redirect.js"
import { isUnlocked, UNLOCK_COOKIE } from "./password.js"
import type { VisitRecording } from "./record-visit.js"

export const PAGE_HEADERS = Object.fromEntries(
  Object.entries(SHARING_PAGE_HEADERS).filter(([name]) => name !== "content-type")
)

/** Set-Cookie values as the response's cookies (a header value would be joined into one line). */
export const cookiesOf = (setCookies: ReadonlyArray<string>) =>
  setCookies.length === 0 ? undefined : Cookies.fromSetCookie(setCookies)

export const page = (
  body: Html | string,
  status: number,
  extra: Readonly<Record<string, string>> = {},
  setCookies: ReadonlyArray<string> = []
) =>
  HttpServerResponse.text(typeof body === "string" ? body : body.text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PAGE_HEADERS, "cache-control": NO_STORE, ...extra },
    cookies: cookiesOf(setCookies)
  })

export const STATE_PAGES: Record<
  UnavailableReason,
  { readonly status: number; readonly render: () => Html }
> = {
  not_started: { status: 404, render: renderNotStartedPage },
  expired: { status: 410, render: renderExpiredPage },
  view_limit_reached: { status: 410, render: renderViewLimitPage }
}

export const notFound = () => page(renderNotFoundPage(), 404)

/** The path of a resource's public URL (what cookies are scoped to and the form posts to). */
export const publicPath = (slug: string) => `/s/${encodeURIComponent(slug)}`

export const pathAndQuery = (request: HttpServerRequest.HttpServerRequest, slug: string) => {
  const at = request.url.indexOf("?")
  return at < 0 ? publicPath(slug) : `${publicPath(slug)}${request.url.slice(at)}`
}

/** The request's query parameters. */
export const queryOf = (request: HttpServerRequest.HttpServerRequest) => {
  const at = request.url.indexOf("?")
  return new URLSearchParams(at < 0 ? "" : request.url.slice(at + 1))
}

export interface Deps {
  readonly blobs: BlobStore["Service"]
  readonly resources: ResourceRepository["Service"]
  readonly views: ViewCounter["Service"]
  readonly limits: RateLimitStore["Service"]
  readonly passwords: PasswordHasher["Service"]
  readonly suspended: SuspendedAccounts["Service"]
  readonly origin: string
  readonly unlockSecret: string
  readonly secure: string
  readonly countryHeader: string | undefined
  /** Where counted views go as visits for analytics. */
  readonly visits: VisitRecording
}

/**
 * The live resource publicly served at `slug`: private ones and those of a suspended account are
 * not (404 as if absent).
 */
export const findServed = (deps: Deps, slug: string) =>
  // Anything but a slug (too long, `%00`, upper case) names nothing: no lookup.
  !isResourceSlug(slug)
    ? Effect.succeed(Option.none<ResourceRecord>())
    : Effect.map(deps.resources.getBySlugAnyTenant(slug), (found) =>
        Option.filter(found, (r) => resourceServedPublicly(deps.suspended, r))
      )

/** Whether the request carries this resource's unlock (or the resource has no password). */
export const unlocked = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  at: Date
) =>
  r.passwordHash === null ||
  isUnlocked(
    deps.unlockSecret,
    r.id,
    r.passwordHash,
    request.cookies[UNLOCK_COOKIE],
    Math.floor(at.getTime() / 1000)
  )

/** Why a resource cannot be shown now, if it cannot (the same rule for every type). */
export const unavailableNow = (r: ResourceRecord, at: Date, views: number) =>
  unavailability(
    {
      key: r.id,
      target_url: "",
      starts_at: r.startsAt,
      expires_at: r.expiresAt,
      max_views: r.maxViews,
      views
    },
    at
  )

/**
 * What a request for something under a resource's URL (its bytes, a form post) answers instead when
 * the resource cannot be shown now (its state page) or is locked (a redirect to its page, which asks
 * for the password); undefined when it may go on. `sameVisit`: the request belongs to the visit whose
 * view reached `max_views`, which may still finish what it opened.
 */
export const gateOf = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  at: Date,
  sameVisit = false
): HttpServerResponse.HttpServerResponse | undefined => {
  const reason = unavailableNow(r, at, r.viewCount + deps.views.pending(r.id))
  if (reason !== undefined && !(reason === "view_limit_reached" && sameVisit))
    return page(STATE_PAGES[reason].render(), STATE_PAGES[reason].status)
  if (!unlocked(deps, request, r, at))
    return HttpServerResponse.empty({
      status: 303,
      headers: { location: publicPath(r.slug), "cache-control": NO_STORE }
    })
  return undefined
}
