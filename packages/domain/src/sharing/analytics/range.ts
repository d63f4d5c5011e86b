// The day ranges of the analytics routes (UTC days, both ends inclusive): a summary covers all time
// unless `days` (1..365, ending today) or both `from` and `to` are given; an export covers the last
// 30 days unless `from` and `to` are given. Bad, lone, reversed or mixed values are refused fields.
import { Context, Effect } from "effect"
import { isCalendarDate } from "../../kernel/calendar.js"
import {
  RangeDateMalformed,
  RangeDaysOutOfBounds,
  RangeDaysWithDates,
  RangeHalfGiven,
  RangeInverted,
  RangeTooLong
} from "../errors.js"
import { addDays } from "./visit.js"

export const MAX_SUMMARY_DAYS = 365
export const EXPORT_DEFAULT_DAYS = 30
/** An export stops after this many rows (sharing-api.md, Limits). */
export const EXPORT_MAX_ROWS = 100_000
/** The longest `from`..`to` span a summary answers (its series has one entry per day). */
export const MAX_RANGE_DAYS = 3660
/** How many values of each dimension a summary lists. */
export const TOP_VALUES = 10

/** The export's row cap; the operator (and tests) may only lower it. */
export const AnalyticsPolicy = Context.Reference<{ readonly exportMaxRows: number }>(
  "@folio/domain/AnalyticsPolicy",
  {
    defaultValue: () => ({ exportMaxRows: EXPORT_MAX_ROWS })
  }
)

export interface RangeQuery {
  readonly days?: number | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

const spanDays = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1

/** Both `from` and `to`, checked: calendar days, neither alone, `from` not after `to`. */
const explicitRange = (query: RangeQuery) =>
  Effect.gen(function* () {
    const { from, to } = query
    if (from === undefined && to === undefined) return undefined
    if (from === undefined) return yield* new RangeHalfGiven({ missing: "from" })
    if (to === undefined) return yield* new RangeHalfGiven({ missing: "to" })
    if (!isCalendarDate(from)) return yield* new RangeDateMalformed({ field: "from" })
    if (!isCalendarDate(to)) return yield* new RangeDateMalformed({ field: "to" })
    if (from > to) return yield* new RangeInverted()
    return { from, to }
  })

/** The summary's range; `from` undefined means all time (the caller starts it at the first day). */
export const summaryRange = (query: RangeQuery, today: string) =>
  Effect.gen(function* () {
    const explicit = yield* explicitRange(query)
    if (query.days !== undefined) {
      if (explicit !== undefined) return yield* new RangeDaysWithDates()
      if (!Number.isInteger(query.days) || query.days < 1 || query.days > MAX_SUMMARY_DAYS)
        return yield* new RangeDaysOutOfBounds({ maxDays: MAX_SUMMARY_DAYS })
      return { from: addDays(today, 1 - query.days), to: today }
    }
    if (explicit === undefined) return { from: undefined, to: today }
    if (spanDays(explicit.from, explicit.to) > MAX_RANGE_DAYS)
      return yield* new RangeTooLong({ maxDays: MAX_RANGE_DAYS })
    return explicit
  })

/** The export's range: `from`..`to`, else the last 30 days up to today. */
export const exportRange = (query: Omit<RangeQuery, "days">, today: string) =>
  Effect.map(
    explicitRange(query),
    (explicit) => explicit ?? { from: addDays(today, 1 - EXPORT_DEFAULT_DAYS), to: today }
  )
