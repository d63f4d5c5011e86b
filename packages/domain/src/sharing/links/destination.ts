// The redirect decision: where one visit of a link goes, and why. Availability first (a link not
// started, expired or over its views goes to `fallback_url`, or nowhere), then the first rule that
// matches, then the sticky A/B pick, then `target_url`; the visit's query rides along.
import { Schema } from "effect"
import { meetsConditions } from "./matching.js"
import { forwardQuery } from "./passthrough.js"
import { RedirectRules, type RedirectRule } from "./rules.js"
import { DestinationUrl } from "./url.js"
import { pickVariant, TestVariants, type TestVariant } from "./variants.js"
import type { Visit } from "./visit.js"

/** The routing fields of a link resource, as the sharing API reads and writes them. */
export const LinkRouting = Schema.Struct({
  target_url: DestinationUrl,
  redirect_rules: Schema.optionalKey(RedirectRules),
  test_variants: Schema.optionalKey(TestVariants),
  /** Where a visit goes while the link is not available (not started, expired, over max_views). */
  fallback_url: Schema.optionalKey(Schema.NullOr(DestinationUrl))
}).annotate({ identifier: "LinkRouting" })
export type LinkRouting = typeof LinkRouting.Type

export const UNAVAILABLE_REASONS = ["not_started", "expired", "view_limit_reached"] as const
export const UnavailableReason = Schema.Literals(UNAVAILABLE_REASONS)
export type UnavailableReason = typeof UnavailableReason.Type

const Index = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** What chose the destination: a rule or variant by its index in its list, the target, the fallback. */
export const MatchedBy = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("rule"), index: Index }),
  Schema.Struct({ kind: Schema.Literal("variant"), index: Index }),
  Schema.Struct({ kind: Schema.Literal("target") }),
  Schema.Struct({ kind: Schema.Literal("fallback"), reason: UnavailableReason })
]).annotate({ identifier: "LinkMatchedBy" })
export type MatchedBy = typeof MatchedBy.Type

/**
 * The decision, also the simulate routes' answer: a destination and what chose it, or no
 * destination because the link is unavailable and has no fallback (the public route then shows its
 * page: 404 before `starts_at`, 410 after `expires_at` or `max_views`).
 */
export const LinkDestination = Schema.Union([
  Schema.Struct({ destination: Schema.String, matched: MatchedBy }),
  Schema.Struct({
    destination: Schema.Null,
    matched: Schema.Struct({ kind: Schema.Literal("unavailable"), reason: UnavailableReason })
  })
]).annotate({ identifier: "LinkDestination" })
export type LinkDestination = typeof LinkDestination.Type

/** A link as the decision needs it. */
export interface RoutableLink {
  /** Stable across renames (the resource id): it seeds the sticky variant pick. */
  readonly key: string
  readonly target_url: string
  readonly redirect_rules?: ReadonlyArray<RedirectRule> | undefined
  readonly test_variants?: ReadonlyArray<TestVariant> | undefined
  readonly fallback_url?: string | null | undefined
  readonly starts_at?: Date | null | undefined
  readonly expires_at?: Date | null | undefined
  readonly max_views?: number | null | undefined
  /** Views counted so far (the visit being decided not included). */
  readonly views?: number | undefined
}

/** Why the link cannot be served at `at`, if it cannot: `starts_at` inclusive, `expires_at` exclusive. */
export const unavailability = (link: RoutableLink, at: Date): UnavailableReason | undefined => {
  const t = at.getTime()
  if (link.starts_at != null && t < link.starts_at.getTime()) return "not_started"
  if (link.expires_at != null && t >= link.expires_at.getTime()) return "expired"
  if (link.max_views != null && (link.views ?? 0) >= link.max_views) return "view_limit_reached"
  return undefined
}

const chosen = (destination: string, visit: Visit, matched: MatchedBy): LinkDestination => ({
  destination: forwardQuery(destination, visit.query),
  matched
})

/** Where an unavailable link sends a visit: its `fallback_url`, or nowhere (its state page). */
export const unavailableDestination = (
  link: RoutableLink,
  reason: UnavailableReason,
  visit: Visit
): LinkDestination =>
  link.fallback_url == null
    ? { destination: null, matched: { kind: "unavailable", reason } }
    : chosen(link.fallback_url, visit, { kind: "fallback", reason })

/** Where an available link sends a visit: the first matching rule, the sticky variant, the target. */
export const availableDestination = (link: RoutableLink, visit: Visit): LinkDestination => {
  const rules = link.redirect_rules ?? []
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]
    if (rule !== undefined && meetsConditions(rule.conditions, visit))
      return chosen(rule.target_url, visit, { kind: "rule", index })
  }
  const variants = link.test_variants ?? []
  const index = pickVariant(link.key, visit.visitor_id, variants)
  const variant = index === undefined ? undefined : variants[index]
  if (index !== undefined && variant !== undefined)
    return chosen(variant.url, visit, { kind: "variant", index })
  return chosen(link.target_url, visit, { kind: "target" })
}

export const chooseDestination = (link: RoutableLink, visit: Visit): LinkDestination => {
  const reason = unavailability(link, visit.at)
  return reason === undefined
    ? availableDestination(link, visit)
    : unavailableDestination(link, reason, visit)
}
