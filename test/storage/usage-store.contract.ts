// Contract of UsageStore: a tenant's requests over 24 h and 7 d by status class, per service.
// Run by register-contracts.ts against every storage target.
import { UsageStore } from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"

export const registerUsageContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  describe(`UsageStore [${target}]`, () => {
    it("counts a workspace's requests over 24 h and 7 d by status class", async () => {
      const ws = await newWorkspace()
      const now = at("2026-08-10T12:00:00.000Z")
      const ago = (ms: number) => new Date(now.getTime() - ms)
      const H = 3_600_000
      const records = [
        { status: 200, at: ago(1 * H) },
        { status: 201, at: ago(2 * H) },
        { status: 404, at: ago(3 * H) },
        { status: 500, at: ago(4 * H) },
        { status: 200, at: ago(48 * H) },
        { status: 429, at: ago(72 * H) },
        { status: 200, at: ago(8 * 24 * H) }
      ]
      for (const r of records) {
        await run(
          UsageStore.pipe(
            Effect.flatMap((u) => u.record({ tenantId: ws.id, service: "forms", keyId: uuid(), ...r }))
          )
        )
      }
      const counts = await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "forms", now))))
      expect(counts).toEqual({
        last24h: 4,
        last7d: 6,
        byStatusLast24h: { ok: 2, clientError: 1, serverError: 1 }
      })
      const other = await newWorkspace()
      expect(
        (await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(other.id, "forms", now))))).last7d
      ).toBe(0)

      // Batched tallies add up with what is already there, in the same minute buckets.
      await run(
        UsageStore.pipe(
          Effect.flatMap((u) =>
            u.recordMany([
              { tenantId: ws.id, service: "forms", keyId: uuid(), status: 200, at: ago(1 * H), count: 5 },
              { tenantId: ws.id, service: "forms", keyId: uuid(), status: 200, at: ago(1 * H), count: 2 },
              { tenantId: ws.id, service: "forms", keyId: uuid(), status: 503, at: ago(30 * H), count: 3 },
              // The same tenant's sharing requests, in the same minutes, are the sharing API's.
              { tenantId: ws.id, service: "sharing", keyId: uuid(), status: 200, at: ago(1 * H), count: 4 }
            ])
          )
        )
      )
      expect(await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "forms", now))))).toEqual({
        last24h: 11,
        last7d: 16,
        byStatusLast24h: { ok: 9, clientError: 1, serverError: 1 }
      })
      expect(await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "sharing", now))))).toEqual({
        last24h: 4,
        last7d: 4,
        byStatusLast24h: { ok: 4, clientError: 0, serverError: 0 }
      })
    })
  })
}
