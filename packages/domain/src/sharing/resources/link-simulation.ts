// Link simulation: where a visit would go on an unsaved link, or on a saved one with some fields
// changed; nothing is read beyond the saved link and nothing is recorded.
import { Effect } from "effect"
import { LinkTargetMissing, ResourceOfOtherType } from "../errors.js"
import { chooseDestination, type LinkDestination, type RoutableLink } from "../links/destination.js"
import type { RedirectRule } from "../links/rules.js"
import type { TestVariant } from "../links/variants.js"
import type { Visit } from "../links/visit.js"
import type { ResourceRecordOf } from "./resource.js"
import type { LinkSimulationFields } from "./wire.js"
import { dateOrNull } from "./rules.js"
import { ownedBySlug } from "./use-cases.js"

/** The link a simulation routes: `fields` over `saved` (each omitted field keeps the saved value). */
export const simulationLink = (
  key: string,
  fields: LinkSimulationFields,
  saved?: ResourceRecordOf<"link">
): RoutableLink => {
  const pick = <A>(value: A | undefined, otherwise: A): A => (value === undefined ? otherwise : value)
  const rules = pick<unknown>(fields.redirect_rules, saved?.data.redirectRules ?? null)
  const variants = pick<unknown>(fields.test_variants, saved?.data.testVariants ?? null)
  return {
    key,
    target_url: fields.target_url ?? saved?.data.targetUrl ?? "",
    redirect_rules: (rules ?? []) as ReadonlyArray<RedirectRule>,
    test_variants: (variants ?? []) as ReadonlyArray<TestVariant>,
    fallback_url: pick(fields.fallback_url, saved?.data.fallbackUrl ?? null),
    starts_at: fields.starts_at === undefined ? (saved?.startsAt ?? null) : dateOrNull(fields.starts_at),
    expires_at: fields.expires_at === undefined ? (saved?.expiresAt ?? null) : dateOrNull(fields.expires_at),
    max_views: pick(fields.max_views, saved?.maxViews ?? null),
    views: fields.views ?? saved?.viewCount ?? 0
  }
}

/** `POST /links/simulate`: where `visit` would go on an unsaved link; nothing is read or written. */
export const simulateLink = (
  fields: LinkSimulationFields,
  visit: Visit
): Effect.Effect<LinkDestination, LinkTargetMissing> =>
  fields.target_url === undefined
    ? Effect.fail(new LinkTargetMissing())
    : Effect.succeed(chooseDestination(simulationLink("unsaved-link", fields), visit))

/** `POST /resources/{slug}/link/simulate`: the same on a saved link, omitted fields kept. Nothing recorded. */
export const simulateSavedLink = (slug: string, fields: LinkSimulationFields, visit: Visit) =>
  Effect.gen(function* () {
    const link = yield* ownedBySlug(slug)
    if (link.type !== "link")
      return yield* new ResourceOfOtherType({ resourceType: link.type, wanted: "a link" })
    return chooseDestination(simulationLink(link.id, fields, link), visit)
  })
