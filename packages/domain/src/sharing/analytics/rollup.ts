// The daily rollups a batch of visits adds to: per resource and UTC day the views, the bot views and
// the day's distinct visitors (people only), and per dimension value (browser, system, referrer,
// UTM tag, country, destination...) the views of people. Storage adds them up at write time, so a
// summary reads rollups and never scans raw visits. One function for every adapter.
import { dayOf, type VisitRecord } from "./visit.js"

/** The dimensions a summary ranks, in the order of its `top` object. */
export const DIMENSIONS = [
  "browser",
  "system",
  "device",
  "referrer",
  "country",
  "destination",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content"
] as const
export type Dimension = (typeof DIMENSIONS)[number]

/** Where each dimension's value is in a visit (null: absent, not counted). */
const DIMENSION_VALUES: ReadonlyArray<readonly [Dimension, (v: VisitRecord) => string | null]> = [
  ["browser", (v) => v.browser],
  ["system", (v) => v.system],
  ["device", (v) => v.device],
  ["referrer", (v) => v.referrerHost],
  ["country", (v) => v.country],
  ["destination", (v) => v.destination],
  ["utm_source", (v) => v.utmSource],
  ["utm_medium", (v) => v.utmMedium],
  ["utm_campaign", (v) => v.utmCampaign],
  ["utm_term", (v) => v.utmTerm],
  ["utm_content", (v) => v.utmContent]
]

export interface DailyCount {
  readonly resourceId: string
  readonly tenantId: string
  readonly day: string
  readonly views: number
  readonly botViews: number
}

export interface DailyValueCount {
  readonly resourceId: string
  readonly tenantId: string
  readonly day: string
  readonly dimension: Dimension
  readonly value: string
  readonly views: number
}

export interface DailyVisitor {
  readonly resourceId: string
  readonly tenantId: string
  readonly day: string
  readonly visitorHash: string
}

export interface Rollup {
  readonly daily: ReadonlyArray<DailyCount>
  readonly values: ReadonlyArray<DailyValueCount>
  /** Once each; storage counts a visitor for a day only the first time it sees the pair. */
  readonly visitors: ReadonlyArray<DailyVisitor>
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

interface DayAcc {
  views: number
  botViews: number
  readonly tenantId: string
  readonly visitors: Set<string>
  readonly values: Map<Dimension, Map<string, number>>
}

/**
 * What `visits` add to the rollups, each list sorted by its key (so concurrent writers lock rows
 * in one order and cannot deadlock). Bots count in `views` and `botViews` and nowhere else. Built
 * with nested maps and the day of the previous visit reused: the recorder runs this for every
 * public view, so it allocates little per visit.
 */
export const rollupOf = (visits: ReadonlyArray<VisitRecord>): Rollup => {
  const byResource = new Map<string, Map<string, DayAcc>>()
  let dayFrom = 0
  let dayTo = 0
  let day = ""
  for (const v of visits) {
    const t = v.at.getTime()
    if (t < dayFrom || t >= dayTo) {
      day = dayOf(t)
      dayFrom = Date.parse(`${day}T00:00:00.000Z`)
      dayTo = dayFrom + 86_400_000
    }
    let days = byResource.get(v.resourceId)
    if (days === undefined) {
      days = new Map()
      byResource.set(v.resourceId, days)
    }
    let acc = days.get(day)
    if (acc === undefined) {
      acc = { views: 0, botViews: 0, tenantId: v.tenantId, visitors: new Set(), values: new Map() }
      days.set(day, acc)
    }
    acc.views += v.count
    if (v.bot) {
      acc.botViews += v.count
      continue
    }
    acc.visitors.add(v.visitorHash)
    for (const [dimension, of] of DIMENSION_VALUES) {
      const value = of(v)
      if (value === null) continue
      let counts = acc.values.get(dimension)
      if (counts === undefined) {
        counts = new Map()
        acc.values.set(dimension, counts)
      }
      counts.set(value, (counts.get(value) ?? 0) + v.count)
    }
  }
  const daily: Array<DailyCount> = []
  const values: Array<DailyValueCount> = []
  const visitors: Array<DailyVisitor> = []
  for (const resourceId of [...byResource.keys()].sort(byKey)) {
    const days = byResource.get(resourceId) ?? new Map<string, DayAcc>()
    for (const d of [...days.keys()].sort(byKey)) {
      const acc = days.get(d)
      if (acc === undefined) continue
      const { tenantId } = acc
      daily.push({ resourceId, tenantId, day: d, views: acc.views, botViews: acc.botViews })
      for (const visitorHash of [...acc.visitors].sort(byKey))
        visitors.push({ resourceId, tenantId, day: d, visitorHash })
      for (const dimension of [...acc.values.keys()].sort(byKey)) {
        const counts = acc.values.get(dimension) ?? new Map<string, number>()
        for (const value of [...counts.keys()].sort(byKey))
          values.push({ resourceId, tenantId, day: d, dimension, value, views: counts.get(value) ?? 0 })
      }
    }
  }
  return { daily, values, visitors }
}
