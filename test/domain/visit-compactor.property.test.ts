// The analytics recorder's compaction (visitCompactor) against a plain model of what it promises:
// visits agreeing on resource, second, visitor, bot flag and every dimension become one record
// carrying their summed count, at the first one's time, in the order each first arrived; nothing
// else is merged. Generated batches draw from few values per field, so merges, near-misses (one
// field apart, the next second) and a visitor with more distinct records than the compactor
// scans one by one all occur.
import { type VisitRecord, visitCompactor } from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { visitRecordOf } from "../storage/analytics.contract.js"

const optional = (...values: Array<string>) => fc.constantFrom<string | null>(null, ...values)

const record: fc.Arbitrary<VisitRecord> = fc.record({
  resourceId: fc.constantFrom("res_a", "res_b"),
  tenantId: fc.constant("ws_1"),
  at: fc.integer({ min: 0, max: 2999 }).map((ms) => new Date(1_767_225_600_000 + ms)),
  visitorHash: fc.constantFrom("v1", "v2", "v3"),
  bot: fc.boolean(),
  browser: optional("Chrome", ""),
  system: optional("Windows"),
  device: optional("desktop", "mobile"),
  referrerHost: optional("example.com"),
  utmSource: optional("news", "mail"),
  utmMedium: optional("email"),
  utmCampaign: optional("spring", "fall", "winter", "summer", "x"),
  utmTerm: optional("a", "b", "c"),
  utmContent: optional("c1", "c2"),
  country: optional("DE", "FR"),
  destination: optional("https://example.com/a", "https://example.com/b"),
  count: fc.integer({ min: 1, max: 3 })
})

/** The model: a visit's identity as a list of its fields (the second, not the instant). */
const identity = (v: VisitRecord) =>
  JSON.stringify([
    v.resourceId,
    Math.floor(v.at.getTime() / 1000),
    v.visitorHash,
    v.bot,
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

const modelOf = (visits: ReadonlyArray<VisitRecord>) => {
  const merged = new Map<string, VisitRecord>()
  for (const v of visits) {
    const known = merged.get(identity(v))
    merged.set(identity(v), known === undefined ? v : { ...known, count: known.count + v.count })
  }
  return [...merged.values()]
}

/** The fields a visit can differ by, each with another value it may take. */
const FIELD_CHANGES: ReadonlyArray<(v: VisitRecord) => VisitRecord> = [
  (v) => ({ ...v, resourceId: v.resourceId === "res_a" ? "res_b" : "res_a" }),
  (v) => ({ ...v, at: new Date(v.at.getTime() + 1000) }),
  (v) => ({ ...v, at: new Date(v.at.getTime() - (v.at.getTime() % 1000) + ((v.at.getTime() + 1) % 1000)) }),
  (v) => ({ ...v, visitorHash: `${v.visitorHash}x` }),
  (v) => ({ ...v, bot: !v.bot }),
  (v) => ({ ...v, browser: v.browser === null ? "" : null }),
  (v) => ({ ...v, system: v.system === null ? "Linux" : null }),
  (v) => ({ ...v, device: v.device === "mobile" ? "tablet" : "mobile" }),
  (v) => ({ ...v, referrerHost: v.referrerHost === null ? "b.example" : null }),
  (v) => ({ ...v, utmSource: v.utmSource === null ? "" : null }),
  (v) => ({ ...v, utmMedium: v.utmMedium === null ? "ads" : null }),
  (v) => ({ ...v, utmCampaign: `${v.utmCampaign ?? ""}2` }),
  (v) => ({ ...v, utmTerm: v.utmTerm === null ? "t" : null }),
  (v) => ({ ...v, utmContent: v.utmContent === null ? "c" : null }),
  (v) => ({ ...v, country: v.country === "DE" ? "FR" : "DE" }),
  (v) => ({ ...v, destination: v.destination === null ? "https://example.com/c" : null }),
  (v) => ({ ...v, count: v.count + 1 })
]

/**
 * A batch: a few generated visits, each repeated with no change or with one field changed (a
 * near-miss, or only its count), in any order.
 */
const batch = fc
  .tuple(
    fc.array(record, { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(fc.nat(3), fc.option(fc.nat(FIELD_CHANGES.length - 1), { nil: undefined })), {
      maxLength: 300
    })
  )
  .map(([bases, picks]) =>
    picks.map(([b, change]) => {
      const base = bases[b % bases.length] as VisitRecord
      return change === undefined ? base : (FIELD_CHANGES[change] as (v: VisitRecord) => VisitRecord)(base)
    })
  )

describe("visitCompactor", () => {
  it("merges exactly the visits that agree on everything, first-come order, counts summed", () => {
    fc.assert(
      fc.property(fc.oneof(batch, fc.array(record, { maxLength: 400 })), (visits) => {
        const compactor = visitCompactor()
        for (const v of visits) compactor.add(v)
        const expected = modelOf(visits)
        expect(compactor.size).toBe(expected.length)
        expect(compactor.records()).toEqual(expected)
      }),
      { numRuns: 300 }
    )
  })

  it("keeps one visitor's many distinct records of one resource apart, past the one-by-one scan", () => {
    const base = visitRecordOf({ id: "res_a", tenantId: "ws_1" }, "2026-01-01T00:00:00.000Z")
    const compactor = visitCompactor()
    // 100 campaigns, each visited three times: 100 records of count 3.
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 100; i++) compactor.add({ ...base, utmCampaign: `c${i}` })
    const records = compactor.records()
    expect(records.map((r) => [r.utmCampaign, r.count])).toEqual(
      Array.from({ length: 100 }, (_, i) => [`c${i}`, 3])
    )
  })
})
