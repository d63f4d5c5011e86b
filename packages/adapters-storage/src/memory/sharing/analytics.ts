// AnalyticsStore in memory: the SQL adapter's semantics over the shared tables (raw visits in
// insertion order, rollups added to per batch, a visitor counted the first time its day sees it).
import {
  AnalyticsStore,
  type Dimension,
  type ExportedVisit,
  type ResourceRecord,
  rollupOf,
  type ValueCount
} from "@folio/domain"
import { Effect, Layer } from "effect"
import { type MemoryTables, MemoryStore } from "../store.js"

const inRange = (
  day: string,
  range: { readonly from?: string | undefined; readonly to?: string | undefined }
) => (range.from === undefined || day >= range.from) && (range.to === undefined || day <= range.to)

const liveResource = (tables: MemoryTables, id: string): ResourceRecord | undefined => {
  const r = tables.resources.get(id)
  return r === undefined || r.deletedAt !== null ? undefined : r
}

export const makeMemoryAnalyticsStore = (tables: MemoryTables) => {
  const t = tables.analytics
  // Row ids as the SQL identity column gives them: increasing, compared as numbers.
  let nextId = 1
  const isOwn = (tenantId: string, resourceId: string) =>
    tables.resources.get(resourceId)?.tenantId === tenantId

  const matching = (tenantId: string, filter: { resourceId?: string | undefined; from: Date; to: Date }) =>
    t.visits.filter(
      (v) =>
        v.tenantId === tenantId &&
        (filter.resourceId === undefined || v.resourceId === filter.resourceId) &&
        v.at.getTime() >= filter.from.getTime() &&
        v.at.getTime() < filter.to.getTime() &&
        liveResource(tables, v.resourceId) !== undefined
    )

  return AnalyticsStore.of({
    append: (visits) =>
      Effect.sync(() => {
        for (const v of visits) t.visits.push({ ...v, id: String(nextId++) })
        const rollup = rollupOf(visits)
        const fresh = new Map<string, number>()
        for (const v of rollup.visitors) {
          const key = `${v.resourceId}|${v.day}|${v.visitorHash}`
          if (t.visitors.has(key)) continue
          t.visitors.add(key)
          fresh.set(`${v.resourceId}|${v.day}`, (fresh.get(`${v.resourceId}|${v.day}`) ?? 0) + 1)
        }
        for (const d of rollup.daily) {
          if (!isOwn(d.tenantId, d.resourceId)) continue
          const key = `${d.resourceId}|${d.day}`
          const row = t.daily.get(key) ?? { views: 0, botViews: 0, visitors: 0 }
          row.views += d.views
          row.botViews += d.botViews
          row.visitors += fresh.get(key) ?? 0
          t.daily.set(key, row)
        }
        for (const v of rollup.values) {
          if (!isOwn(v.tenantId, v.resourceId)) continue
          const key = `${v.resourceId}|${v.day}|${v.dimension}|${v.value}`
          t.values.set(key, (t.values.get(key) ?? 0) + v.views)
        }
      }),

    rollups: (tenantId, resourceId, range, limit) =>
      Effect.sync(() => {
        if (!isOwn(tenantId, resourceId)) return { days: [], top: [] }
        const days = [...t.daily.entries()]
          .map(([key, row]) => ({ key: key.split("|"), row }))
          .filter(({ key: [r, day] }) => r === resourceId && day !== undefined && inRange(day, range))
          .map(({ key, row }) => ({ day: key[1] ?? "", ...row }))
          .sort((a, b) => (a.day < b.day ? -1 : 1))
        const sums = new Map<string, ValueCount>()
        for (const [key, views] of t.values) {
          const [r, day, dimension, ...rest] = key.split("|")
          if (r !== resourceId || day === undefined || dimension === undefined || !inRange(day, range))
            continue
          const value = rest.join("|")
          const k = `${dimension}|${value}`
          sums.set(k, { dimension: dimension as Dimension, value, views: (sums.get(k)?.views ?? 0) + views })
        }
        const byDimension = new Map<string, Array<ValueCount>>()
        for (const v of sums.values())
          byDimension.set(v.dimension, [...(byDimension.get(v.dimension) ?? []), v])
        const top = [...byDimension.keys()]
          .sort()
          .flatMap((d) =>
            (byDimension.get(d) ?? [])
              .sort((a, b) => b.views - a.views || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
              .slice(0, limit)
          )
        return { days, top }
      }),

    countVisits: (tenantId, filter, cap) =>
      Effect.sync(() =>
        matching(tenantId, filter)
          .sort((a, b) => a.at.getTime() - b.at.getTime() || Number(a.id) - Number(b.id))
          .slice(0, cap)
          .reduce((n, v) => n + v.count, 0)
      ),

    visits: (tenantId, filter, page) =>
      Effect.sync(() => {
        const after = page.after
        return matching(tenantId, filter)
          .filter(
            (v) =>
              after === undefined ||
              v.at.getTime() > after.at.getTime() ||
              (v.at.getTime() === after.at.getTime() && Number(v.id) > Number(after.id))
          )
          .sort((a, b) => a.at.getTime() - b.at.getTime() || Number(a.id) - Number(b.id))
          .slice(0, page.limit)
          .map((v): ExportedVisit => ({ ...v, slug: liveResource(tables, v.resourceId)?.slug ?? "" }))
      }),

    forgetVisitorsBefore: (day) =>
      Effect.sync(() => {
        for (const key of t.visitors) if ((key.split("|")[1] ?? "") < day) t.visitors.delete(key)
      })
  })
}

export const MemoryAnalyticsStoreLive = Layer.effect(
  AnalyticsStore,
  Effect.map(Effect.service(MemoryStore), makeMemoryAnalyticsStore)
)
