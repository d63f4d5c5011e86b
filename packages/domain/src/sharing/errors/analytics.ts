// Refused fields of an analytics query's date range (`days`, or `from` and `to`).
import { Data } from "effect"
import { RefusedAtWith, RefusedField, RefusedFieldWith } from "./fields.js"

/** One end of a range given without the other; `missing` is the end left out. */
export class RangeHalfGiven extends Data.TaggedError("RangeHalfGiven")<{ readonly missing: "from" | "to" }> {
  get field() {
    return this.missing
  }
  get reason() {
    return this.missing === "from" ? "give from together with to" : "give to together with from"
  }
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

/** An end of a range that is not a calendar date. */
export class RangeDateMalformed extends RefusedAtWith(
  "RangeDateMalformed",
  (_e: { readonly field: "from" | "to" }) => "must be a date YYYY-MM-DD"
) {}

/** A range that ends before it starts. */
export class RangeInverted extends RefusedField("RangeInverted", "to", "must not be before from") {}

/** A range that spans more days than a query may. */
export class RangeTooLong extends RefusedFieldWith(
  "RangeTooLong",
  "to",
  (e: { readonly maxDays: number }) => `a range spans at most ${e.maxDays} days`
) {}

/** `days` given together with `from` and `to`. */
export class RangeDaysWithDates extends RefusedField(
  "RangeDaysWithDates",
  "days",
  "give either days or from and to"
) {}

/** A `days` that is not a whole number from 1 to the limit. */
export class RangeDaysOutOfBounds extends RefusedFieldWith(
  "RangeDaysOutOfBounds",
  "days",
  (e: { readonly maxDays: number }) => `must be from 1 to ${e.maxDays}`
) {}

export const ANALYTICS_REFUSALS = [
  RangeHalfGiven,
  RangeDateMalformed,
  RangeInverted,
  RangeTooLong,
  RangeDaysWithDates,
  RangeDaysOutOfBounds
] as const
