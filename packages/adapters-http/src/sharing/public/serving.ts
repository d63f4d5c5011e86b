// What every public route of the sharing service shares: the page response, the state pages, the
// lookup of a publicly served resource, the gate under its URL, and the routes' ports.
import {
  type BlobStore,
  decidePublicGate,
  isResourceSlug,
  type PasswordHasher,
  type PublicCookie,
  type RateLimitStore,
  type ResourceRecord,
  type ResourceRepository,
  resourcePublicPath,
  resourceServedPublicly,
  type UnavailableReason
} from "@folio/domain"
import { Effect, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Html } from "../../shared/index.js"
import {
  renderExpiredPage,
  renderNotFoundPage,
  renderNotStartedPage,
  renderViewLimitPage,
  SHARING_PAGE_HEADERS
} from "../pages/page.js"
import {
  cookiesOf,
  NO_STORE,
  publicCookiesOf,
  publicResourceOf,
  unlockedBy,
  type VisitDeps
} from "./public-visit.js"

export const PAGE_HEADERS = Object.fromEntries(
  Object.entries(SHARING_PAGE_HEADERS).filter(([name]) => name !== "content-type")
)

export const page = (
  body: Html | string,
  status: number,
  extra: Readonly<Record<string, string>> = {},
  cookies: ReadonlyArray<PublicCookie> = []
) =>
  HttpServerResponse.text(typeof body === "string" ? body : body.text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PAGE_HEADERS, "cache-control": NO_STORE, ...extra },
    cookies: cookiesOf(cookies)
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

export const pathAndQuery = (request: HttpServerRequest.HttpServerRequest, slug: string) => {
  const at = request.url.indexOf("?")
  return at < 0 ? resourcePublicPath(slug) : `${resourcePublicPath(slug)}${request.url.slice(at)}`
}

/** The request's query parameters. */
export const queryOf = (request: HttpServerRequest.HttpServerRequest) => {
  const at = request.url.indexOf("?")
  return new URLSearchParams(at < 0 ? "" : request.url.slice(at + 1))
}

export interface Deps extends VisitDeps {
  readonly blobs: BlobStore["Service"]
  readonly resources: ResourceRepository["Service"]
  readonly limits: RateLimitStore["Service"]
  readonly passwords: PasswordHasher["Service"]
  readonly origin: string
}

/** The live resource at `slug`, whoever may see it (anything but a slug names nothing: no lookup). */
export const findBySlug = (deps: Deps, slug: string) =>
  // Too long, `%00`, upper case: no lookup.
  !isResourceSlug(slug)
    ? Effect.succeed(Option.none<ResourceRecord>())
    : deps.resources.getBySlugAnyTenant(slug)

/**
 * The live resource publicly served at `slug`: private ones and those of a suspended account are
 * not (404 as if absent).
 */
export const findServed = (deps: Deps, slug: string) =>
  Effect.map(findBySlug(deps, slug), (found) =>
    Option.filter(found, (r) => resourceServedPublicly(deps.suspended, r))
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
  nowMs: number,
  sameVisit = false
): HttpServerResponse.HttpServerResponse | undefined => {
  const unlocked = unlockedBy(deps, r, publicCookiesOf(request.headers.cookie).unlock, nowMs)
  const gate = decidePublicGate(publicResourceOf(deps, r), unlocked, sameVisit, new Date(nowMs))
  switch (gate._tag) {
    case "StatePage":
      return page(STATE_PAGES[gate.reason].render(), STATE_PAGES[gate.reason].status)
    case "Locked":
      return HttpServerResponse.empty({
        status: 303,
        headers: { location: resourcePublicPath(r.slug), "cache-control": NO_STORE }
      })
    case "Open":
      return undefined
  }
}
