// A/B `test_variants`: destinations with integer weights, and the pick that keeps a visitor on one
// variant. The pick is a pure function of the link's key and the visitor id, so it stays sticky
// across requests and across app instances without storing anything.
import { Schema } from "effect"
import { DestinationUrl } from "./url.js"

export const MAX_TEST_VARIANTS = 20
export const MAX_VARIANT_WEIGHT = 10_000

export const TestVariant = Schema.Struct({
  url: DestinationUrl,
  weight: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_VARIANT_WEIGHT }))
}).annotate({ identifier: "TestVariant" })
export type TestVariant = typeof TestVariant.Type

export const TestVariants = Schema.Array(TestVariant)
  .check(Schema.isMaxLength(MAX_TEST_VARIANTS))
  .annotate({ identifier: "TestVariants" })
export type TestVariants = typeof TestVariants.Type

const TWO_POW_53 = 2 ** 53

/**
 * Where in [0, 1) this visitor falls for this link: a 53-bit cyrb53 hash of `key NUL visitor`.
 * A different link key reshuffles visitors independently, so one visitor is not always "variant A".
 * Not a cryptographic hash: the split only has to be even and stable, and this runs on every
 * redirect (SHA-256 in JavaScript was a tenth of a warm redirect's CPU).
 */
export const visitorPoint = (linkKey: string, visitorId: string): number => {
  const text = `${linkKey}\u0000${visitorId}`
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)) / TWO_POW_53
}

/**
 * The variant index for a visitor: the visitor's point scaled to [0, total weight), then the
 * variant whose cumulative weight range holds it. Undefined when there are no variants.
 */
export const pickVariant = (
  linkKey: string,
  visitorId: string,
  variants: ReadonlyArray<{ readonly weight: number }>
): number | undefined => {
  if (variants.length === 0) return undefined
  let total = 0
  for (const v of variants) total += v.weight
  const slot = Math.floor(visitorPoint(linkKey, visitorId) * total)
  let upper = 0
  for (let i = 0; i < variants.length; i++) {
    upper += variants[i]?.weight ?? 0
    if (slot < upper) return i
  }
  return variants.length - 1
}
