// Contract of RateLimitStore: fixed-window counts per bucket, under concurrency and in batches.
// Run by register-contracts.ts against every storage target.
import { RateLimitStore } from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { uuid } from "./fixtures.js"

export const registerRateLimitContracts = ({ target, run }: StorageHarness) => {
  describe(`RateLimitStore [${target}]`, () => {
    it("counts hits per bucket in fixed windows", async () => {
      const bucket = `key:${uuid()}`
      const t0 = Date.parse("2026-07-01T00:00:10.000Z")
      const hits = []
      for (let i = 0; i < 5; i++)
        hits.push(await run(RateLimitStore.pipe(Effect.flatMap((r) => r.hit(bucket, 60_000, t0 + i)))))
      expect(hits.map((h) => h.count)).toEqual([1, 2, 3, 4, 5])
      expect(hits[0]?.resetAt).toBe(Date.parse("2026-07-01T00:01:00.000Z"))
      expect((await run(RateLimitStore.pipe(Effect.flatMap((r) => r.peek(bucket, 60_000, t0))))).count).toBe(
        5
      )
      const nextWindow = await run(
        RateLimitStore.pipe(Effect.flatMap((r) => r.hit(bucket, 60_000, t0 + 60_000)))
      )
      expect(nextWindow.count).toBe(1)
      expect(
        (await run(RateLimitStore.pipe(Effect.flatMap((r) => r.peek(`other:${uuid()}`, 60_000, t0))))).count
      ).toBe(0)
      const concurrent = await Promise.all(
        Array.from({ length: 20 }, () =>
          run(RateLimitStore.pipe(Effect.flatMap((r) => r.hit(`${bucket}:c`, 60_000, t0))))
        )
      )
      expect(concurrent.map((h) => h.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1)
      )
    })

    it("adds batches, and a zero add reads a total back (the buffered store's refresh)", async () => {
      const bucket = `key:${uuid()}`
      const t0 = Date.parse("2026-07-01T00:00:10.000Z")
      const add = (entries: ReadonlyArray<{ bucket: string; hits: number }>) =>
        run(RateLimitStore.pipe(Effect.flatMap((r) => r.addMany(entries, 60_000, t0))))
      expect((await add([{ bucket, hits: 3 }])).map((h) => h.count)).toEqual([3])
      expect(
        (
          await add([
            { bucket, hits: 0 },
            { bucket: `${bucket}:new`, hits: 0 }
          ])
        ).map((h) => h.count)
      ).toEqual([3, 0])
      expect(
        (
          await add([
            { bucket, hits: 2 },
            { bucket: `${bucket}:b`, hits: 0 }
          ])
        ).map((h) => h.count)
      ).toEqual([5, 0])
    })
  })
}
