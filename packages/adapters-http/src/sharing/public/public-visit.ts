// Carrying out the domain's public-visit decision over HTTP, for the public routes and the node:http
// fast path alike: the request's facts and cookies read one way, the decided cookies written as
// effect's serializer writes them, and the one count/visit/click sequence of a counted view.
import {
  decidePublicVisit,
  type LinkData,
  type LinkRoute,
  linkRouteOf,
  type PublicCookie,
  type PublicRequestFacts,
  type PublicResource,
  type PublicVisitDecision,
  type ResourceRecord,
  type ResourceRecordOf,
  SEEN_COOKIE,
  type SuspendedAccounts,
  type ViewCounter,
  VISITOR_COOKIE
} from "@folio/domain"
import { Duration } from "effect"
import { Cookies } from "effect/http"
import { randomBase64UrlChars } from "../../shared/random-text.js"
import { type RequestLike, visitFactsOf } from "../visit.js"
import { isUnlocked, UNLOCK_COOKIE } from "./password.js"
import { recordVisit, type VisitRecording } from "./record-visit.js"

export const NO_STORE = "private, no-store"

/**
 * A new visitor's id: 22 base64url characters (132 random bits; the cookie takes 16 to 64) of the
 * shared random text (randomUUID's refills of 128 cost ~4% of a redirect whose visitors are new).
 */
export const newVisitorId = (): string => randomBase64UrlChars(22)

/** What carrying out a visit needs: the view counter, the accounts, the unlock key and analytics. */
export interface VisitDeps {
  readonly views: ViewCounter["Service"]
  readonly suspended: SuspendedAccounts["Service"]
  readonly unlockSecret: string
  /** The public pages' cookies are Secure (secureCookiesFor the public origin). */
  readonly secureCookies: boolean
  readonly countryHeader: string | undefined
  /** Where counted views go as visits for analytics. */
  readonly visits: VisitRecording
}

/** What a public request is to the decision (effect's request and node's both fit). */
export interface PublicRequest extends RequestLike {
  readonly method: string
}

/** The effect cookie of a decided one: every public cookie is HttpOnly and SameSite=Lax. */
const cookieOf = (c: PublicCookie): Cookies.Cookie =>
  Cookies.makeCookieUnsafe(c.name, c.value, {
    maxAge: Duration.seconds(c.maxAgeSeconds),
    path: c.path,
    httpOnly: true,
    secure: c.secure,
    sameSite: "lax"
  })

/** Decided cookies as a response's cookies (the routes). */
export const cookiesOf = (cookies: ReadonlyArray<PublicCookie>) =>
  cookies.length === 0 ? undefined : Cookies.fromIterable(cookies.map(cookieOf))

/** A cookie's attributes as effect serializes them (`; Max-Age=...; SameSite=Lax`), for its settings. */
interface CookieTail {
  readonly maxAgeSeconds: number
  readonly secure: boolean
  readonly tail: string
}

/** Paths whose cookies' attributes are kept (one per public resource served lately). */
const TAIL_MEMO = 10_000
const tails = new Map<string, Map<string, CookieTail>>()

/**
 * What follows `name=value` in a cookie's Set-Cookie value: serialized (and validated) by effect
 * once per path, name and settings, then kept; only the value changes from visit to visit.
 */
const tailOf = (c: PublicCookie): string => {
  let byName = tails.get(c.path)
  const known = byName?.get(c.name)
  if (known !== undefined && known.maxAgeSeconds === c.maxAgeSeconds && known.secure === c.secure)
    return known.tail
  const tail = Cookies.serializeCookie(cookieOf({ ...c, value: "" })).slice(c.name.length + 1)
  if (byName === undefined) {
    if (tails.size >= TAIL_MEMO) tails.clear()
    byName = new Map()
    tails.set(c.path, byName)
  }
  byName.set(c.name, { maxAgeSeconds: c.maxAgeSeconds, secure: c.secure, tail })
  return tail
}

/**
 * Decided cookies as Set-Cookie values (the fast path): the bytes effect writes for the routes
 * (a test compares them). Effect made and validated a cookie object per value, twice over, which
 * cost ~4% of a redirect; a value's URI encoding is always a valid cookie value, and the rest is
 * effect's own serialization of the cookie's fixed attributes.
 */
export const setCookieValues = (cookies: ReadonlyArray<PublicCookie>): Array<string> =>
  cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}${tailOf(c)}`)

/** The cookies a public page reads, parsed as the routes' `request.cookies` parses them. */
export const publicCookiesOf = (header: string | undefined) => {
  const all = header === undefined ? {} : Cookies.parseHeader(header)
  return { visitor: all[VISITOR_COOKIE], seen: all[SEEN_COOKIE], unlock: all[UNLOCK_COOKIE] }
}

/** A link's routing fields, decoded once per cached record (rules are stored as JSON). */
const routes = new WeakMap<LinkData, LinkRoute>()
const routeOf = (r: ResourceRecordOf<"link">): LinkRoute => {
  const known = routes.get(r.data)
  if (known !== undefined) return known
  const route = linkRouteOf(r)
  routes.set(r.data, route)
  return route
}

/** A found resource as the decision sees it: with its pending views and its account's state. */
export const publicResourceOf = (deps: VisitDeps, r: ResourceRecord): PublicResource => ({
  record: r,
  views: r.viewCount + deps.views.pending(r.id),
  ownerSuspended: deps.suspended.isSuspended(r.tenantId),
  route: r.type === "link" ? routeOf(r) : undefined
})

/** Whether the request carries `r`'s unlock (the signed cookie the password form sets). */
export const unlockedBy = (deps: VisitDeps, r: ResourceRecord, token: string | undefined, nowMs: number) =>
  r.passwordHash !== null &&
  isUnlocked(deps.unlockSecret, r.id, r.passwordHash, token, Math.floor(nowMs / 1000))

/** What `GET /s/{slug}` answers for `found` (what the slug names, if anything) at `nowMs`. */
export const decideRequest = (
  deps: VisitDeps,
  request: PublicRequest,
  found: ResourceRecord | undefined,
  nowMs: number
): PublicVisitDecision => {
  const cookies = publicCookiesOf(request.headers.cookie)
  const facts: PublicRequestFacts = {
    method: request.method,
    userAgent: request.headers["user-agent"],
    visit: () => visitFactsOf(request, deps.countryHeader),
    unlocked: found !== undefined && unlockedBy(deps, found, cookies.unlock, nowMs),
    secureCookies: deps.secureCookies,
    newVisitorId
  }
  return decidePublicVisit(
    found === undefined ? undefined : publicResourceOf(deps, found),
    facts,
    { visitor: cookies.visitor, seen: cookies.seen },
    new Date(nowMs)
  )
}

/** Records what a decision says to: the view, its visit for analytics, a link's click. Synchronous. */
export const recordDecided = (
  deps: VisitDeps,
  r: ResourceRecord,
  decided: Pick<PublicVisitDecision, "countsView" | "visit"> & {
    readonly click?: PublicVisitDecision["click"]
  },
  request: RequestLike,
  socketAddress: string | undefined
): void => {
  if (!decided.countsView || decided.visit === undefined) return
  deps.views.recordNow(r.id)
  recordVisit(deps.visits, r, request, socketAddress, decided.visit.at.getTime(), decided.visit.destination)
  if (decided.click !== undefined) deps.views.recordClick(decided.click)
}

/** Headers of the public pages of a resource that search engines should not list. */
export const robotsHeaders = (noindex: boolean): Record<string, string> =>
  noindex ? { "x-robots-tag": "noindex, nofollow" } : {}

/** A redirect's headers (besides the request id and cookies): where to, and never cached. */
export const redirectHeaders = (noindex: boolean, location: string): Record<string, string> => ({
  ...robotsHeaders(noindex),
  location,
  "cache-control": NO_STORE
})
