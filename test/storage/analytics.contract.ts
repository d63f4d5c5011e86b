// Contract of the AnalyticsStore port, run by register-contracts.ts against every storage target: raw
// visits and the daily rollups written together (views and bot views, distinct visitors per day
// across batches and concurrent writers, ranked values by people only), ranges, tenants, the
// export's pages in time order with the capped count, deleted resources left out, old visitor
// hashes dropped, and an unknown resource id that cannot poison a batch.
import {
  AnalyticsStore,
  type AnalyticsStoreService,
  ResourceRepository,
  type TenantRecord,
  type VisitRecord
} from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { resource, uuid } from "./fixtures.js"

export interface AnalyticsHarness {
  readonly run: <A, E>(effect: Effect.Effect<A, E, AnalyticsStore | ResourceRepository>) => Promise<A>
  readonly newWorkspace: () => Promise<TenantRecord>
}

/** A visit of `r` at `at` from one desktop Chrome visitor, with `overrides`. */
export const visitRecordOf = (
  r: { readonly id: string; readonly tenantId: string },
  at: string,
  overrides: Partial<VisitRecord> = {}
): VisitRecord => ({
  resourceId: r.id,
  tenantId: r.tenantId,
  at: new Date(at),
  visitorHash: "a".repeat(32),
  bot: false,
  browser: "Chrome",
  system: "Windows",
  device: "desktop",
  referrerHost: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  country: null,
  destination: null,
  count: 1,
  ...overrides
})

export const registerAnalyticsContracts = ({ run, newWorkspace }: AnalyticsHarness) => {
  const store = <A, E>(f: (s: AnalyticsStoreService) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(AnalyticsStore, f))
  const newResource = async (tenantId: string) => {
    const r = resource(tenantId, "link")
    await run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
    return r
  }
  const rollups = (r: { id: string; tenantId: string }, range = {}, limit = 10) =>
    store((s) => s.rollups(r.tenantId, r.id, range, limit))

  describe("append and rollups", () => {
    it("counts views with bots, bot views, and each day's distinct people; ranks values by people", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      await store((s) =>
        s.append([
          visitRecordOf(r, "2026-05-01T10:00:00.000Z", {
            visitorHash: "p1",
            country: "DE",
            referrerHost: "news.example"
          }),
          visitRecordOf(r, "2026-05-01T11:00:00.000Z", {
            visitorHash: "p1",
            country: "DE",
            browser: "Firefox"
          }),
          visitRecordOf(r, "2026-05-01T12:00:00.000Z", {
            visitorHash: "p2",
            country: "FR",
            utmSource: "mail"
          }),
          visitRecordOf(r, "2026-05-01T13:00:00.000Z", {
            visitorHash: "bot1",
            bot: true,
            browser: "Googlebot",
            country: "US"
          }),
          visitRecordOf(r, "2026-05-02T09:00:00.000Z", {
            visitorHash: "p1",
            country: "DE",
            destination: "https://a.example/"
          })
        ])
      )
      const got = await rollups(r)
      expect(got.days).toEqual([
        { day: "2026-05-01", views: 4, botViews: 1, visitors: 2 },
        { day: "2026-05-02", views: 1, botViews: 0, visitors: 1 }
      ])
      const top = (dimension: string) =>
        got.top.filter((t) => t.dimension === dimension).map((t) => [t.value, t.views])
      expect(top("country")).toEqual([
        ["DE", 3],
        ["FR", 1]
      ])
      expect(top("browser")).toEqual([
        ["Chrome", 3],
        ["Firefox", 1]
      ])
      expect(top("referrer")).toEqual([["news.example", 1]])
      expect(top("utm_source")).toEqual([["mail", 1]])
      expect(top("destination")).toEqual([["https://a.example/", 1]])
      expect(top("device")).toEqual([["desktop", 4]])
    })

    it("counts a visitor once per day across batches and across concurrent writers", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      await store((s) => s.append([visitRecordOf(r, "2026-05-03T08:00:00.000Z", { visitorHash: "same" })]))
      await store((s) => s.append([visitRecordOf(r, "2026-05-03T09:00:00.000Z", { visitorHash: "same" })]))
      const batch = (n: number) =>
        Array.from({ length: 50 }, (_, i) =>
          visitRecordOf(r, `2026-05-03T10:${String(i).padStart(2, "0")}:00.000Z`, {
            visitorHash: `v${(i + n) % 60}`
          })
        )
      await run(
        Effect.all(
          [0, 10, 20, 30].map((n) => Effect.flatMap(AnalyticsStore, (s) => s.append(batch(n)))),
          { concurrency: 4, discard: true }
        )
      )
      const got = await rollups(r)
      // "same" plus v0..v59 seen across the four overlapping batches.
      expect(got.days).toEqual([{ day: "2026-05-03", views: 202, botViews: 0, visitors: 61 }])
    })

    it("limits each dimension's values, ties in value order, and bounds days both ends", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      const countries = ["AT", "BE", "CH", "DE"]
      await store((s) =>
        s.append([
          ...countries.map((c) => visitRecordOf(r, "2026-06-01T00:00:00.000Z", { country: c })),
          visitRecordOf(r, "2026-06-02T00:00:00.000Z", { country: "DE" }),
          visitRecordOf(r, "2026-06-03T23:59:59.999Z", { country: "CH" }),
          visitRecordOf(r, "2026-06-04T00:00:00.000Z", { country: "BE" })
        ])
      )
      const all = await rollups(r, {}, 3)
      expect(all.top.filter((t) => t.dimension === "country").map((t) => t.value)).toEqual(["BE", "CH", "DE"])
      const middle = await rollups(r, { from: "2026-06-02", to: "2026-06-03" })
      expect(middle.days.map((d) => d.day)).toEqual(["2026-06-02", "2026-06-03"])
      expect(middle.top.filter((t) => t.dimension === "country").map((t) => [t.value, t.views])).toEqual([
        ["CH", 1],
        ["DE", 1]
      ])
      expect((await rollups(r, { to: "2026-06-01" })).days.map((d) => d.day)).toEqual(["2026-06-01"])
      expect((await rollups(r, { from: "2026-06-04" })).days.map((d) => d.day)).toEqual(["2026-06-04"])
    })

    it("answers nothing of another tenant's resource", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const r = await newResource(ws.id)
      await store((s) => s.append([visitRecordOf(r, "2026-05-04T00:00:00.000Z", { country: "DE" })]))
      const foreign = await store((s) => s.rollups(other.id, r.id, {}, 10))
      expect(foreign).toEqual({ days: [], top: [] })
      const filter = { from: new Date("2026-05-01T00:00:00.000Z"), to: new Date("2026-06-01T00:00:00.000Z") }
      expect(await store((s) => s.countVisits(other.id, filter, 10))).toBe(0)
      expect(await store((s) => s.visits(other.id, { ...filter, resourceId: r.id }, { limit: 10 }))).toEqual(
        []
      )
    })

    it("stores visits of an unknown resource id without failing the batch or making rollups", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      const ghost = { id: uuid(), tenantId: ws.id }
      await store((s) =>
        s.append([
          visitRecordOf(ghost, "2026-05-05T00:00:00.000Z"),
          visitRecordOf(r, "2026-05-05T00:00:00.000Z")
        ])
      )
      expect((await rollups(r)).days).toEqual([{ day: "2026-05-05", views: 1, botViews: 0, visitors: 1 }])
      expect((await rollups(ghost)).days).toEqual([])
    })

    it("counts a row standing for several identical visits as that many, in rollups and exports", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      await store((s) =>
        s.append([
          visitRecordOf(r, "2026-05-08T00:00:00.000Z", { count: 3, country: "DE" }),
          visitRecordOf(r, "2026-05-08T00:00:01.000Z", { count: 2, bot: true, visitorHash: "bot" })
        ])
      )
      const got = await rollups(r)
      expect(got.days).toEqual([{ day: "2026-05-08", views: 5, botViews: 2, visitors: 1 }])
      expect(got.top.filter((t) => t.dimension === "country")).toEqual([
        { dimension: "country", value: "DE", views: 3 }
      ])
      const filter = {
        resourceId: r.id,
        from: new Date("2026-05-08T00:00:00.000Z"),
        to: new Date("2026-05-09T00:00:00.000Z")
      }
      expect(await store((s) => s.countVisits(ws.id, filter, 10))).toBe(5)
      // At most `cap` rows are read: one row of 3 already says "more than 2".
      expect(await store((s) => s.countVisits(ws.id, filter, 1))).toBe(3)
      expect((await store((s) => s.visits(ws.id, filter, { limit: 10 }))).map((v) => v.count)).toEqual([3, 2])
    })

    it("forgets finished days' visitor hashes, so only later days keep telling returning visitors", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      await store((s) =>
        s.append([
          visitRecordOf(r, "2026-05-06T00:00:00.000Z", { visitorHash: "x" }),
          visitRecordOf(r, "2026-05-07T00:00:00.000Z", { visitorHash: "x" })
        ])
      )
      await store((s) => s.forgetVisitorsBefore("2026-05-07"))
      await store((s) =>
        s.append([
          visitRecordOf(r, "2026-05-06T01:00:00.000Z", { visitorHash: "x" }),
          visitRecordOf(r, "2026-05-07T01:00:00.000Z", { visitorHash: "x" })
        ])
      )
      expect((await rollups(r)).days.map((d) => [d.day, d.visitors])).toEqual([
        ["2026-05-06", 2],
        ["2026-05-07", 1]
      ])
    })
  })

  describe("raw visits for exports", () => {
    it("pages one resource's visits in time order within [from, to), with slugs", async () => {
      const ws = await newWorkspace()
      const r = await newResource(ws.id)
      const other = await newResource(ws.id)
      const times = [
        "2026-07-01T00:00:00.000Z",
        "2026-07-01T00:00:00.000Z",
        "2026-07-01T05:00:00.000Z",
        "2026-07-02T00:00:00.000Z",
        "2026-07-03T00:00:00.000Z"
      ]
      // Written out of order and in two batches: the order is by time, then by insertion.
      await store((s) =>
        s.append([
          visitRecordOf(r, times[3] ?? "", { visitorHash: "d" }),
          visitRecordOf(r, times[0] ?? "", { visitorHash: "a" })
        ])
      )
      await store((s) =>
        s.append([
          visitRecordOf(r, times[1] ?? "", { visitorHash: "b", referrerHost: "=cmd" }),
          visitRecordOf(other, times[2] ?? ""),
          visitRecordOf(r, times[2] ?? "", { visitorHash: "c" }),
          visitRecordOf(r, times[4] ?? "", { visitorHash: "e" })
        ])
      )
      const filter = {
        resourceId: r.id,
        from: new Date("2026-07-01T00:00:00.000Z"),
        to: new Date("2026-07-03T00:00:00.000Z")
      }
      expect(await store((s) => s.countVisits(ws.id, filter, 100))).toBe(4)
      expect(await store((s) => s.countVisits(ws.id, filter, 3))).toBe(3)
      const first = await store((s) => s.visits(ws.id, filter, { limit: 2 }))
      expect(first.map((v) => v.visitorHash)).toEqual(["a", "b"])
      expect(first[1]).toMatchObject({ slug: r.slug, resourceId: r.id, referrerHost: "=cmd", bot: false })
      const last = first.at(-1)
      if (last === undefined) throw new Error("no page")
      const second = await store((s) =>
        s.visits(ws.id, filter, { limit: 2, after: { at: last.at, id: last.id } })
      )
      expect(second.map((v) => v.visitorHash)).toEqual(["c", "d"])
      const rest = second.at(-1)
      if (rest === undefined) throw new Error("no page")
      expect(
        await store((s) => s.visits(ws.id, filter, { limit: 2, after: { at: rest.at, id: rest.id } }))
      ).toEqual([])
    })

    it("pages the account's visits across resources, leaving deleted resources out", async () => {
      const ws = await newWorkspace()
      const kept = await newResource(ws.id)
      const deleted = await newResource(ws.id)
      await store((s) =>
        s.append([
          visitRecordOf(kept, "2026-08-01T00:00:00.000Z"),
          visitRecordOf(deleted, "2026-08-01T01:00:00.000Z"),
          visitRecordOf(kept, "2026-08-01T02:00:00.000Z")
        ])
      )
      await run(Effect.flatMap(ResourceRepository, (repo) => repo.softDelete(ws.id, deleted.id, new Date())))
      const filter = { from: new Date("2026-08-01T00:00:00.000Z"), to: new Date("2026-08-02T00:00:00.000Z") }
      expect(await store((s) => s.countVisits(ws.id, filter, 10))).toBe(2)
      const rows = await store((s) => s.visits(ws.id, filter, { limit: 10 }))
      expect(rows.map((v) => [v.slug, v.at.toISOString()])).toEqual([
        [kept.slug, "2026-08-01T00:00:00.000Z"],
        [kept.slug, "2026-08-01T02:00:00.000Z"]
      ])
    })
  })
}
