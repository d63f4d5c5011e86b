// A/B `test_variants`: destinations with integer weights, and the pick that keeps a visitor on one
// variant. The pick is a pure function of the link's key and the visitor id, so it stays sticky
// across requests and across app instances without storing anything.
import { Schema } from "effect"
import { sha256Bytes } from "../../kernel/digest.js"
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

const TWO_POW_48 = 2 ** 48

/**
 * Where in [0, 1) this visitor falls for this link: the first 48 bits of SHA-256(key NUL visitor).
 * A different link key reshuffles visitors independently, so one visitor is not always "variant A".
 */
export const visitorPoint = (linkKey: string, visitorId: string): number => {
  const h = sha256Bytes(`${linkKey}\u0000${visitorId}`)
  let n = 0
  for (let i = 0; i < 6; i++) n = n * 256 + (h[i] ?? 0)
  return n / TWO_POW_48
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
