// Analytics on the wire: the summary of one resource (daily series, totals, top values per
// dimension) and the columns of the CSV export. Days are UTC `YYYY-MM-DD`.
import { Schema } from "effect"
import { csvLine } from "../../kernel/csv.js"
import type { DayTotals, ExportedVisit, ValueCount } from "../ports/analytics.js"
import { DIMENSIONS, type Dimension } from "./rollup.js"
import { addDays } from "./visit.js"

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const AnalyticsDay = Schema.Struct({
  date: Schema.String,
  /** Counted views (once per visitor per 30 minutes, as `view_count`), bots included. */
  views: Count,
  /** Distinct visitors of the day, bots excluded. */
  visitors: Count,
  /** How many of the views were bots (crawlers): already inside `views`. */
  bot_views: Count
}).annotate({ identifier: "AnalyticsDay" })

export const AnalyticsValue = Schema.Struct({ value: Schema.String, views: Count }).annotate({
  identifier: "AnalyticsValue"
})

const Values = Schema.Array(AnalyticsValue)

export const AnalyticsTop = Schema.Struct({
  browsers: Values,
  systems: Values,
  devices: Values,
  referrers: Values,
  countries: Values,
  destinations: Values,
  utm_sources: Values,
  utm_mediums: Values,
  utm_campaigns: Values,
  utm_terms: Values,
  utm_contents: Values
}).annotate({ identifier: "AnalyticsTop" })

export const AnalyticsSummary = Schema.Struct({
  slug: Schema.String,
  /** The first and last day covered (all time starts at the resource's first day). */
  from: Schema.String,
  to: Schema.String,
  /** Sums of the series; `visitors` is the sum of daily visitors (see README). */
  totals: Schema.Struct({ views: Count, visitors: Count, bot_views: Count }),
  /** One entry per day from `from` to `to`, days without views included as zeros. */
  series: Schema.Array(AnalyticsDay),
  /** The most viewed values of each dimension, by people (bots excluded), at most 10 each. */
  top: AnalyticsTop
}).annotate({ identifier: "AnalyticsSummary" })
export type AnalyticsSummary = typeof AnalyticsSummary.Type

/** The summary view: `days` (those with views) spread over every day of from..to. */
export const analyticsSummaryView = (input: {
  readonly slug: string
  readonly from: string
  readonly to: string
  readonly days: ReadonlyArray<DayTotals>
  readonly top: ReadonlyArray<ValueCount>
}): AnalyticsSummary => {
  const byDay = new Map(input.days.map((d) => [d.day, d]))
  const series: Array<typeof AnalyticsDay.Type> = []
  const totals = { views: 0, visitors: 0, bot_views: 0 }
  for (let day = input.from; day <= input.to; day = addDays(day, 1)) {
    const d = byDay.get(day)
    const entry = { date: day, views: d?.views ?? 0, visitors: d?.visitors ?? 0, bot_views: d?.botViews ?? 0 }
    totals.views += entry.views
    totals.visitors += entry.visitors
    totals.bot_views += entry.bot_views
    series.push(entry)
  }
  const lists = new Map<Dimension, Array<typeof AnalyticsValue.Type>>(DIMENSIONS.map((d) => [d, []]))
  for (const v of input.top) lists.get(v.dimension)?.push({ value: v.value, views: v.views })
  const of = (d: Dimension) => lists.get(d) ?? []
  const top: typeof AnalyticsTop.Type = {
    browsers: of("browser"),
    systems: of("system"),
    devices: of("device"),
    referrers: of("referrer"),
    countries: of("country"),
    destinations: of("destination"),
    utm_sources: of("utm_source"),
    utm_mediums: of("utm_medium"),
    utm_campaigns: of("utm_campaign"),
    utm_terms: of("utm_term"),
    utm_contents: of("utm_content")
  }
  return { slug: input.slug, from: input.from, to: input.to, totals, series, top }
}

/** The export's columns. `visitor` is the day's hash (no address is ever stored). */
export const VISIT_CSV_COLUMNS = [
  "time",
  "resource_id",
  "slug",
  "visitor",
  "bot",
  "browser",
  "system",
  "device",
  "referrer",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "country",
  "destination"
] as const

export const visitCsvHeader = csvLine(VISIT_CSV_COLUMNS)

/** One visit as a CSV line; cells are escaped against spreadsheet formulas (kernel/csv.ts). */
export const visitCsvLine = (v: ExportedVisit): string =>
  csvLine([
    v.at.toISOString(),
    v.resourceId,
    v.slug,
    v.visitorHash,
    v.bot ? "true" : "false",
    v.browser,
    v.system,
    v.device,
    v.referrerHost,
    v.utmSource,
    v.utmMedium,
    v.utmCampaign,
    v.utmTerm,
    v.utmContent,
    v.country,
    v.destination
  ])
