// The visit batcher: hits are written in batches (on flush, every second, at shutdown) as records
// with a visitor hash instead of the address, the country looked up only when the header gave
// none; a failed write keeps its visits for the next flush; big batches go in slices.
import { MemoryStorageLive, nativeVisitorHasher, VisitBatcherLive } from "@folio/adapters-storage"
import {
  AnalyticsStore,
  StorageError,
  type VisitHit,
  type VisitRecord,
  VisitRecorder,
  visitorHasher
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { describe, expect } from "vitest"

const hit = (overrides: Partial<VisitHit> = {}): VisitHit => ({
  resourceId: "00000000-0000-4000-8000-00000000000a",
  tenantId: "00000000-0000-4000-8000-0000000000aa",
  at: Date.parse("2026-05-01T10:00:00.000Z"),
  ip: "198.51.100.23",
  userAgent: "Mozilla/5.0 Firefox/125.0",
  browser: "Firefox",
  system: "Linux",
  device: "desktop",
  bot: false,
  referer: "https://www.example.org/post?id=1",
  url: "/s/abc?utm_source=news",
  country: undefined,
  destination: undefined,
  ...overrides
})

/** A batcher over `append`, in a scope of its own the test closes (which flushes). */
const batcherOver = (
  append: AnalyticsStore["Service"]["append"],
  options: Omit<Parameters<typeof VisitBatcherLive>[0], "secret">
) =>
  Effect.gen(function* () {
    const real = yield* Effect.provide(AnalyticsStore, MemoryStorageLive)
    const store = Layer.succeed(AnalyticsStore, AnalyticsStore.of({ ...real, append }))
    const scope = yield* Scope.make()
    const built = yield* Layer.buildWithScope(
      Layer.provide(VisitBatcherLive({ secret: "test-secret", ...options }), store),
      scope
    )
    return { recorder: Context.get(built, VisitRecorder), scope }
  })

describe("visit batcher", () => {
  it("hashes visitors exactly as the domain's rule does, with node's HMAC", ({ expect }) => {
    for (const [ip, ua] of [
      ["198.51.100.23", "Mozilla/5.0 Firefox/125.0"],
      ["2001:db8::1", ""],
      ["unknown", `long ${"x".repeat(600)}`]
    ] as const)
      expect(nativeVisitorHasher("s", "2026-05-01")(ip, ua)).toBe(visitorHasher("s", "2026-05-01")(ip, ua))
  })

  it.live("writes hashed records in batches, keeps them across a failed write and flushes at shutdown", () =>
    Effect.gen(function* () {
      const batches: Array<ReadonlyArray<VisitRecord>> = []
      let failNext = false
      const lookups: Array<string> = []
      const { recorder, scope } = yield* batcherOver(
        (visits) =>
          Effect.suspend(() => {
            if (failNext) {
              failNext = false
              return Effect.fail(new StorageError({ message: "down" }))
            }
            batches.push(visits)
            return Effect.void
          }),
        {
          countryOf: (ip) => {
            lookups.push(ip)
            return ip === "198.51.100.23" ? "NL" : undefined
          },
          sliceSize: 3
        }
      )
      yield* recorder.record(hit())
      recorder.recordNow(hit({ country: "JP", ip: "192.0.2.1" }))
      recorder.recordNow(hit({ at: Date.parse("2026-05-02T10:00:00.000Z") }))
      expect(batches).toEqual([])

      failNext = true
      yield* recorder.flush
      expect(batches).toEqual([])
      yield* recorder.flush
      expect(batches).toHaveLength(1)
      const [a, b, c] = batches[0] ?? []
      expect(a).toMatchObject({
        country: "NL",
        referrerHost: "example.org",
        utmSource: "news",
        browser: "Firefox"
      })
      expect(b).toMatchObject({ country: "JP" })
      // The header's country is not looked up again; nothing of the address is kept.
      expect(lookups).toEqual(["198.51.100.23", "198.51.100.23"])
      expect(JSON.stringify(batches)).not.toContain("198.51.100.23")
      // The same address and agent: the same visitor on one day, another the next day.
      expect(a?.visitorHash).toMatch(/^[0-9a-f]{32}$/)
      expect(c?.visitorHash).not.toBe(a?.visitorHash)

      // Every second on its own: identical visits of one second (the same client) are one record
      // with their count; distinct ones more than a slice go in several writes.
      for (let i = 0; i < 5; i++) recorder.recordNow(hit())
      yield* Effect.sleep("1500 millis")
      expect(batches.slice(1).map((batch) => batch.map((v) => [v.visitorHash, v.count]))).toEqual([
        [[a?.visitorHash, 5]]
      ])
      for (let i = 0; i < 7; i++) recorder.recordNow(hit({ ip: `192.0.2.${i}` }))
      yield* recorder.flush
      expect(batches.slice(2).map((batch) => batch.length)).toEqual([3, 3, 1])
      expect(new Set(batches.slice(2).flatMap((batch) => batch.map((v) => v.visitorHash))).size).toBe(7)
      recorder.recordNow(hit({ at: Date.parse("2026-05-01T10:00:00.500Z") }))
      recorder.recordNow(hit({ at: Date.parse("2026-05-01T10:00:00.900Z"), referer: undefined }))
      recorder.recordNow(hit({ at: Date.parse("2026-05-01T10:00:01.000Z") }))
      yield* recorder.flush
      expect(batches.at(-1)?.map((v) => v.count)).toEqual([1, 1, 1])

      for (let i = 0; i < 2; i++) yield* recorder.record(hit({ bot: true }))
      yield* Scope.close(scope, Exit.void)
      expect(batches.at(-1)?.map((v) => [v.bot, v.count])).toEqual([[true, 2]])
    })
  )

  it.live(
    "makes a hit a record as it arrives, never throws one back, and holds at most maxWaiting records",
    () =>
      Effect.gen(function* () {
        const batches: Array<ReadonlyArray<VisitRecord>> = []
        const lookups: Array<string> = []
        const { recorder, scope } = yield* batcherOver(
          (visits) => Effect.sync(() => void batches.push(visits)),
          {
            countryOf: (ip) => {
              if (ip === "203.0.113.99") throw new Error("a lookup that fails")
              lookups.push(ip)
              return undefined
            },
            maxWaiting: 2
          }
        )
        // Looked up (made a record) when recorded, not at the flush.
        recorder.recordNow(hit({ ip: "192.0.2.1" }))
        expect(lookups).toEqual(["192.0.2.1"])
        // A hit that cannot be made a record is left out; the request that recorded it never sees it.
        expect(() => recorder.recordNow(hit({ ip: "203.0.113.99" }))).not.toThrow()
        // The same visitor's next hit merges into its record; a second visitor fills the two records
        // allowed to wait, and a third is dropped.
        recorder.recordNow(hit({ ip: "192.0.2.1" }))
        recorder.recordNow(hit({ ip: "192.0.2.2" }))
        recorder.recordNow(hit({ ip: "192.0.2.3" }))
        expect(lookups).toEqual(["192.0.2.1", "192.0.2.1", "192.0.2.2"])
        yield* recorder.flush
        expect(batches.map((batch) => batch.map((v) => v.count))).toEqual([[2, 1]])
        // The next second's records have room again.
        recorder.recordNow(hit({ ip: "192.0.2.3" }))
        yield* Scope.close(scope, Exit.void)
        expect(batches.at(-1)?.map((v) => v.count)).toEqual([1])
      })
  )
})
