// The public-visit decision: what opening a resource's public URL (`/s/{slug}`, and what lies under
// it) answers and records, decided once for the node:http fast path and the routes alike.
import { Option, Schema } from "effect"
import type { LinkClick } from "../ports/views.js"
import { servedPubliclyWhen } from "../public-access.js"
import type { ResourceRecord, ResourceRecordOf } from "../resources/resource.js"
import {
  availableDestination,
  type MatchedBy,
  type RoutableLink,
  type UnavailableReason,
  unavailability,
  unavailableDestination
} from "./destination.js"
import { RedirectRules } from "./rules.js"
import { TestVariants } from "./variants.js"
import type { Visit } from "./visit.js"
import { type PublicCookie, seenCookie, visitorOf } from "./visitor-cookies.js"

/** A link's routing fields, without the views counted so far. */
export type LinkRoute = Omit<RoutableLink, "views">

const decodeRules = Schema.decodeUnknownOption(RedirectRules)
const decodeVariants = Schema.decodeUnknownOption(TestVariants)

/** The routing fields of a stored link (its rules and variants are stored as JSON). */
export const linkRouteOf = (r: ResourceRecordOf<"link">): LinkRoute => ({
  key: r.id,
  target_url: r.data.targetUrl,
  redirect_rules: Option.getOrUndefined(decodeRules(r.data.redirectRules ?? [])),
  test_variants: Option.getOrUndefined(decodeVariants(r.data.testVariants ?? [])),
  fallback_url: r.data.fallbackUrl,
  starts_at: r.startsAt,
  expires_at: r.expiresAt,
  max_views: r.maxViews
})

/** What a decision chose as the owner wrote it (the visit's query not passed through): analytics. */
const ownerDestinationOf = (route: LinkRoute, matched: MatchedBy): string | undefined => {
  switch (matched.kind) {
    case "rule":
      return route.redirect_rules?.[matched.index]?.target_url
    case "variant":
      return route.test_variants?.[matched.index]?.url
    case "target":
      return route.target_url
    case "fallback":
      return route.fallback_url ?? undefined
  }
}

/** Why a resource cannot be shown at `at` with `views` counted (the same rule for every type). */
export const resourceUnavailability = (
  r: ResourceRecord,
  views: number,
  at: Date
): UnavailableReason | undefined =>
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
 * Link-preview bots (chat apps and social networks unfurling a link). They get the owner's og_*
 * tags instead of the redirect when the link has any; every other client, search crawlers included,
 * follows the redirect (and reads the destination's own tags).
 */
const PREVIEW_BOT =
  /facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|slackbot|linkedinbot|discordbot|whatsapp|telegrambot|pinterest|redditbot|embedly|skypeuripreview|vkshare|bitlybot|mastodon|iframely|google-pagerenderer|applebot/i

const isPreviewBot = (userAgent: string | undefined): boolean =>
  userAgent !== undefined && PREVIEW_BOT.test(userAgent.slice(0, 512))

/** Whether a preview bot gets the link's own preview page instead of the redirect. */
const previewsFor = (r: ResourceRecordOf<"link">, userAgent: string | undefined): boolean =>
  (r.data.ogTitle !== null || r.data.ogDescription !== null || r.data.ogImageUrl !== null) &&
  isPreviewBot(userAgent)

/** An unlisted resource's own answers ask search engines not to index them. */
export const noindexFor = (r: Pick<ResourceRecord, "visibility">): boolean => r.visibility === "unlisted"

/** The resource a public URL names, as the decision needs it. */
export interface PublicResource {
  readonly record: ResourceRecord
  /** Views counted so far, written and pending: `max_views` is compared with it. */
  readonly views: number
  /** Its account is suspended: its public URLs answer as if it did not exist. */
  readonly ownerSuspended: boolean
  /** A link's routing, when the caller holds it decoded already (else it is decoded here). */
  readonly route?: LinkRoute | undefined
}

/** What the decision reads of the request, as the HTTP adapter read it. */
export interface PublicRequestFacts {
  /** GET or HEAD (a HEAD reads nothing: it is no view). */
  readonly method: string
  readonly userAgent: string | undefined
  /**
   * The visit as redirect rules read it, less its instant and visitor (the decision adds those);
   * read only for a link (parsing the user agent and languages costs microseconds).
   */
  readonly visit: () => Omit<Visit, "at" | "visitor_id">
  /** The request carries a live unlock of the resource's password (a signature the adapter checks). */
  readonly unlocked: boolean
  /** Cookies are set Secure (the public origin is https). */
  readonly secureCookies: boolean
  /** A new visitor id, drawn only for a request without one (randomness stays outside the domain). */
  readonly newVisitorId: () => string
}

/** The cookies the decision reads: the visitor's id and the mark of a counted view. */
export interface PublicVisitCookies {
  readonly visitor: string | undefined
  readonly seen: string | undefined
}

/** What to answer. The adapter renders pages; statuses of state pages are the adapter's table. */
export type PublicAnswer =
  /** Unknown, private, or its account suspended: the 404 page of an unknown slug. */
  | { readonly _tag: "NotFound" }
  /** Not started, expired or used up (a link without a fallback). */
  | { readonly _tag: "StatePage"; readonly reason: UnavailableReason }
  | { readonly _tag: "PasswordPage" }
  /** A preview bot at a link with og_* tags: the preview page, its tags, pointing at `destination`. */
  | {
      readonly _tag: "LinkPreview"
      readonly destination: string
      readonly title: string
      readonly description: string | undefined
      readonly imageUrl: string | undefined
    }
  | { readonly _tag: "LinkRedirect"; readonly location: string }
  /** An artifact's share link: a redirect to the deployment's own origin. */
  | { readonly _tag: "ArtifactRedirect"; readonly deploymentId: string }
  /** The resource's page (by its type); a file's page also grants its bytes for a while. */
  | { readonly _tag: "Page"; readonly downloadGrant: boolean }

/** A counted view's visit, for analytics: when, and a link's destination as its owner wrote it. */
export interface VisitToRecord {
  readonly at: Date
  readonly destination: string | undefined
}

export interface PublicVisitDecision {
  readonly answer: PublicAnswer
  /** The answer carries `X-Robots-Tag: noindex` (an unlisted resource's own answers). */
  readonly noindex: boolean
  readonly cookies: ReadonlyArray<PublicCookie>
  /** Whether this request is a view (then `visit` is its visit for analytics). */
  readonly countsView: boolean
  readonly visit: VisitToRecord | undefined
  /** A counted redirect of a link whose owner asked for `link.clicked` events. */
  readonly click: LinkClick | undefined
}

const answered = (
  answer: PublicAnswer,
  noindex = false,
  cookies: ReadonlyArray<PublicCookie> = []
): PublicVisitDecision => ({
  answer,
  noindex,
  cookies,
  countsView: false,
  visit: undefined,
  click: undefined
})

const NOT_FOUND = answered({ _tag: "NotFound" })

/**
 * What `GET /s/{slug}` answers: `resource` is what the slug names (undefined: nothing). Private
 * means not found; a resource that cannot be shown says so before asking for its password (a link
 * goes to its public fallback_url instead, when it has one, and that is no view of the link); a
 * view counts once per visit (the seen mark), never for a HEAD; a preview bot gets a link's preview.
 */
export const decidePublicVisit = (
  resource: PublicResource | undefined,
  facts: PublicRequestFacts,
  cookies: PublicVisitCookies,
  now: Date
): PublicVisitDecision => {
  if (resource === undefined || !servedPubliclyWhen(resource.record, resource.ownerSuspended))
    return NOT_FOUND
  const r = resource.record
  const noindex = noindexFor(r)
  const reason = resourceUnavailability(r, resource.views, now)
  if (reason !== undefined && r.type !== "link") return answered({ _tag: "StatePage", reason })
  if (reason === undefined && r.passwordHash !== null && !facts.unlocked)
    return answered({ _tag: "PasswordPage" }, noindex)

  const visitor = visitorOf(cookies.visitor, facts.newVisitorId, facts.secureCookies)
  const counts = cookies.seen !== r.id && facts.method !== "HEAD"
  const notViewed = (answer: PublicAnswer) => answered(answer, noindex, visitor.minted)
  const viewed = (answer: PublicAnswer, destination?: string, click?: LinkClick): PublicVisitDecision =>
    counts
      ? {
          answer,
          noindex,
          cookies: [...visitor.minted, seenCookie(r, facts.secureCookies)],
          countsView: true,
          visit: { at: now, destination },
          click
        }
      : notViewed(answer)

  switch (r.type) {
    case "link": {
      const route = resource.route ?? linkRouteOf(r)
      const visit: Visit = { ...facts.visit(), at: now, visitor_id: visitor.id }
      const decided =
        reason === undefined
          ? availableDestination(route, visit)
          : unavailableDestination(route, reason, visit)
      if (decided.destination === null)
        return notViewed({ _tag: "StatePage", reason: decided.matched.reason })
      if (previewsFor(r, facts.userAgent))
        return notViewed({
          _tag: "LinkPreview",
          destination: decided.destination,
          title: r.data.ogTitle ?? r.title ?? r.slug,
          description: r.data.ogDescription ?? r.description ?? undefined,
          imageUrl: r.data.ogImageUrl ?? undefined
        })
      const location = decided.destination
      // The fallback of an unavailable link is not a view of the link.
      if (decided.matched.kind === "fallback") return notViewed({ _tag: "LinkRedirect", location })
      const click = r.data.webhookClicks
        ? { tenantId: r.tenantId, resourceId: r.id, slug: r.slug, destination: location, at: now }
        : undefined
      return viewed({ _tag: "LinkRedirect", location }, ownerDestinationOf(route, decided.matched), click)
    }
    case "artifact":
      return viewed({ _tag: "ArtifactRedirect", deploymentId: r.data.deploymentId })
    case "file":
    case "image":
      return viewed({ _tag: "Page", downloadGrant: true })
    default:
      return viewed({ _tag: "Page", downloadGrant: false })
  }
}

/** What a request for something under a resource's URL (its bytes, media, a form post) meets first. */
export type PublicGate =
  | { readonly _tag: "Open" }
  | { readonly _tag: "StatePage"; readonly reason: UnavailableReason }
  /** Locked: the request is sent to the resource's page, which asks for the password. */
  | { readonly _tag: "Locked" }

/**
 * The gate of a request under a publicly served resource's URL. `sameVisit`: the request belongs
 * to the visit whose view reached `max_views`, which may still finish what it opened.
 */
export const decidePublicGate = (
  resource: PublicResource,
  unlocked: boolean,
  sameVisit: boolean,
  now: Date
): PublicGate => {
  const r = resource.record
  const reason = resourceUnavailability(r, resource.views, now)
  if (reason !== undefined && !(reason === "view_limit_reached" && sameVisit))
    return { _tag: "StatePage", reason }
  if (r.passwordHash !== null && !unlocked) return { _tag: "Locked" }
  return { _tag: "Open" }
}

/**
 * Whether a request for a file's bytes is a view, and the cookies it sets: it counts once per
 * visit, never for a HEAD nor for a range past byte 0 (a download already counted, resumed).
 */
export const decideBytesView = (
  r: ResourceRecord,
  facts: Pick<PublicRequestFacts, "method" | "secureCookies" | "newVisitorId">,
  cookies: PublicVisitCookies,
  fromFirstByte: boolean,
  now: Date
): Pick<PublicVisitDecision, "cookies" | "countsView" | "visit"> => {
  const visitor = visitorOf(cookies.visitor, facts.newVisitorId, facts.secureCookies)
  return cookies.seen !== r.id && facts.method !== "HEAD" && fromFirstByte
    ? {
        cookies: [...visitor.minted, seenCookie(r, facts.secureCookies)],
        countsView: true,
        visit: { at: now, destination: undefined }
      }
    : { cookies: visitor.minted, countsView: false, visit: undefined }
}
