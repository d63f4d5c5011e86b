// The redirect of a public link, shared by the public routes and the node:http fast path in front of
// them, so both answer the same visitor the same 302: the visitor cookie, the mark of a counted
// view, the link's routing fields decoded once per cached record, the preview-bot rule and the
// response headers.
import { randomUUID } from "node:crypto"
import {
  chooseDestination,
  type LinkData,
  type LinkDestination,
  type MatchedBy,
  RedirectRules,
  type ResourceRecord,
  type RoutableLink,
  TestVariants,
  VIEW_DEDUP_WINDOW_MS,
  type Visit
} from "@folio/domain"
import { Option, Schema } from "effect"

/** The first-party visitor cookie: keeps A/B variants sticky and views counted once. */
export const VISITOR_COOKIE = "svc_v"
const VISITOR_MAX_AGE = 365 * 24 * 60 * 60
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/

export const NO_STORE = "private, no-store"

/**
 * The mark of a counted view: a cookie scoped to the resource's own URL, holding its id, for the
 * dedup window. A request carrying it is the same visit (a reload) and counts no view; any
 * instance reads it, and nothing per visitor is kept on the server. Clients without cookies count
 * on every request, as they would with any visitor id.
 */
export const SEEN_COOKIE = "svc_seen"

/**
 * What a view of `r` answers: whether it counts (no mark of a view of `r` in the window, `seen`
 * being the request's SEEN_COOKIE) and the cookies to set, `minted` (a new visitor's) plus the mark
 * when it counts.
 */
export const viewOf = (
  r: ResourceRecord,
  seen: string | undefined,
  minted: ReadonlyArray<string>,
  secure: string
): { readonly counts: boolean; readonly cookies: ReadonlyArray<string> } =>
  seen === r.id
    ? { counts: false, cookies: minted }
    : {
        counts: true,
        cookies: [
          ...minted,
          `${SEEN_COOKIE}=${r.id}; Max-Age=${VIEW_DEDUP_WINDOW_MS / 1000}; Path=/s/${r.slug}; HttpOnly${secure}; SameSite=Lax`
        ]
      }

export type LinkRecord = ResourceRecord & { readonly type: "link" }

/**
 * Link-preview bots (chat apps and social networks unfurling a link). They get the owner's og_*
 * tags instead of the redirect when the link has any; every other client, search crawlers included,
 * follows the redirect (and reads the destination's own tags).
 */
const PREVIEW_BOT =
  /facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|slackbot|linkedinbot|discordbot|whatsapp|telegrambot|pinterest|redditbot|embedly|skypeuripreview|vkshare|bitlybot|mastodon|iframely|google-pagerenderer|applebot/i

export const isPreviewBot = (userAgent: string | undefined): boolean =>
  userAgent !== undefined && PREVIEW_BOT.test(userAgent.slice(0, 512))

/** Whether a preview bot gets the link's own preview page instead of the redirect. */
export const previewsFor = (d: LinkData, userAgent: string | undefined): boolean =>
  (d.ogTitle !== null || d.ogDescription !== null || d.ogImageUrl !== null) && isPreviewBot(userAgent)

// Cookies are written with their attributes in the order effect's serializer writes them, so the
// routes (which set them through effect) and the fast path send the same bytes.

/** The visitor of a request: its cookie's id, or a new id and the cookie that keeps it. */
export const visitorFrom = (cookie: string | undefined, secure: string) => {
  if (cookie !== undefined && VISITOR_ID.test(cookie)) return { id: cookie, setCookie: undefined }
  // randomUUID draws from a cached entropy pool: no syscall per new visitor.
  const id = randomUUID()
  return {
    id,
    setCookie: `${VISITOR_COOKIE}=${id}; Max-Age=${VISITOR_MAX_AGE}; Path=/s/; HttpOnly${secure}; SameSite=Lax`
  }
}

/** The routing fields of a stored link, decoded once per cached record (rules are stored as JSON). */
const decodeRules = Schema.decodeUnknownOption(RedirectRules)
const decodeVariants = Schema.decodeUnknownOption(TestVariants)
const routableCache = new WeakMap<LinkData, Omit<RoutableLink, "views">>()
const routableOf = (r: LinkRecord): Omit<RoutableLink, "views"> => {
  const known = routableCache.get(r.data)
  if (known !== undefined) return known
  const routable = {
    key: r.id,
    target_url: r.data.targetUrl,
    redirect_rules: Option.getOrUndefined(decodeRules(r.data.redirectRules ?? [])),
    test_variants: Option.getOrUndefined(decodeVariants(r.data.testVariants ?? [])),
    fallback_url: r.data.fallbackUrl,
    starts_at: r.startsAt,
    expires_at: r.expiresAt,
    max_views: r.maxViews
  }
  routableCache.set(r.data, routable)
  return routable
}

/** Where the link sends this visit, with `views` counted so far (written and pending). */
export const destinationOf = (r: LinkRecord, visit: Visit, views: number): LinkDestination =>
  chooseDestination({ ...routableOf(r), views }, visit)

/** What a decision chose as the owner wrote it (the visit's query not passed through): analytics. */
export const ownerDestinationOf = (r: LinkRecord, matched: MatchedBy): string | undefined => {
  const routable = routableOf(r)
  switch (matched.kind) {
    case "rule":
      return routable.redirect_rules?.[matched.index]?.target_url
    case "variant":
      return routable.test_variants?.[matched.index]?.url
    case "target":
      return routable.target_url
    case "fallback":
      return routable.fallback_url ?? undefined
  }
}

/** Headers of the public pages of a resource that search engines should not list. */
export const indexHeaders = (r: ResourceRecord): Record<string, string> =>
  r.visibility === "unlisted" ? { "x-robots-tag": "noindex, nofollow" } : {}

/** The 302's headers (besides the request id): where to, never cached, and the cookies to set. */
export const redirectHeaders = (
  r: ResourceRecord,
  location: string,
  cookies: ReadonlyArray<string>
): Record<string, string | ReadonlyArray<string>> => ({
  ...indexHeaders(r),
  ...(cookies.length === 0 ? {} : { "set-cookie": cookies }),
  location,
  "cache-control": NO_STORE
})
