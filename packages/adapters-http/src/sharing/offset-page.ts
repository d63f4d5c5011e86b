// The `limit` and `offset` query of the sharing lists that page by offset and answer a `total`
// (bio form submissions, upload request submissions).
import { Schema } from "effect"

/** `limit` (1..max) and `offset` (0..1,000,000), both optional, as query strings. */
export const offsetPageQuery = (max: number) => ({
  limit: Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max }))
  ),
  offset: Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))
  )
})
