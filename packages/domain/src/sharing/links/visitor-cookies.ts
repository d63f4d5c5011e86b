// The cookies a public visit sets, as the domain decides them: the visitor's id (keeps A/B variants
// sticky) and the mark of a counted view (one view per visit), with their lifetimes, paths and flag.
import { VIEW_DEDUP_WINDOW_MS } from "../ports/views.js"

/** One cookie to set; every public cookie is HttpOnly and SameSite=Lax. */
export interface PublicCookie {
  readonly name: string
  readonly value: string
  readonly maxAgeSeconds: number
  readonly path: string
  /** Sent over HTTPS only: set when the public origin is https (the adapter decides it). */
  readonly secure: boolean
}

/** The path of a resource's public URL: what its cookies are scoped to and its forms post to. */
export const resourcePublicPath = (slug: string): string => `/s/${encodeURIComponent(slug)}`

/** The first-party visitor cookie: keeps A/B variants sticky and views counted once. */
export const VISITOR_COOKIE = "svc_v"
const VISITOR_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/

/**
 * The mark of a counted view: a cookie scoped to the resource's own URL, holding its id, for the
 * dedup window. A request carrying it is the same visit (a reload) and counts no view; any instance
 * reads it, and nothing per visitor is kept on the server. Clients without cookies count on every
 * request, as they would with any visitor id.
 */
export const SEEN_COOKIE = "svc_seen"

/** The visitor id a cookie holds, when it holds a well-formed one. */
const knownVisitorId = (cookie: string | undefined): string | undefined =>
  cookie !== undefined && VISITOR_ID.test(cookie) ? cookie : undefined

const visitorCookie = (id: string, secure: boolean): PublicCookie => ({
  name: VISITOR_COOKIE,
  value: id,
  maxAgeSeconds: VISITOR_MAX_AGE_SECONDS,
  path: "/s/",
  secure
})

export const seenCookie = (
  r: { readonly id: string; readonly slug: string },
  secure: boolean
): PublicCookie => ({
  name: SEEN_COOKIE,
  value: r.id,
  maxAgeSeconds: VIEW_DEDUP_WINDOW_MS / 1000,
  path: resourcePublicPath(r.slug),
  secure
})

/** A request's visitor: the id its cookie holds, or a new one and the cookie that keeps it. */
export const visitorOf = (
  cookie: string | undefined,
  newId: () => string,
  secure: boolean
): { readonly id: string; readonly minted: ReadonlyArray<PublicCookie> } => {
  const known = knownVisitorId(cookie)
  if (known !== undefined) return { id: known, minted: [] }
  const id = newId()
  return { id, minted: [visitorCookie(id, secure)] }
}
