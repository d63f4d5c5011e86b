// Contract of UsageStore: a tenant's requests over 24 h and 7 d by status class, per service, and
// each key's last use moved forward by the same flush. Run by register-contracts.ts against every
// storage target.
import { UsageBatcherLive } from "@folio/adapters-storage"
import { type ApiKeyRecord, ApiKeyRepository, UsageBatcher, UsageStore } from "@folio/domain"
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

    it("moves each key's lastUsedAt forward with the flush (never back), as the key list shows", async () => {
      const ws = await newWorkspace()
      const keyOf = (name: string): ApiKeyRecord => ({
        id: uuid(),
        tenantId: ws.id,
        service: "forms",
        name,
        prefix: Math.random().toString(36).slice(2, 8).padEnd(12, "u"),
        hash: "d".repeat(64),
        scopes: ["forms:read"],
        createdAt: at("2026-08-01T00:00:00.000Z"),
        revokedAt: null,
        lastUsedAt: null,
        expiresAt: at("2027-01-01T00:00:00.000Z"),
        createdBy: uuid(),
        tenantDisabled: false
      })
      const used = keyOf("used")
      const idle = keyOf("idle")
      for (const key of [used, idle]) await run(Effect.flatMap(ApiKeyRepository, (r) => r.create(key)))
      const listed = async () =>
        new Map((await run(Effect.flatMap(ApiKeyRepository, (r) => r.list(ws.id)))).map((k) => [k.id, k]))
      // Requests with the key, counted by the batcher the HTTP layer uses, then its flush.
      const request = (status: number, iso: string) =>
        Effect.flatMap(UsageBatcher, (b) =>
          b.add({ tenantId: ws.id, service: "forms", keyId: used.id, status, at: at(iso) })
        )
      await run(
        Effect.gen(function* () {
          yield* request(200, "2026-08-10T12:00:30.000Z")
          yield* request(404, "2026-08-10T12:03:10.000Z")
          yield* request(200, "2026-08-10T12:01:00.000Z")
          // Not written before the flush.
          expect(
            (yield* Effect.flatMap(ApiKeyRepository, (r) => r.list(ws.id)))[0]?.lastUsedAt ?? null
          ).toBeNull()
          yield* Effect.flatMap(UsageBatcher, (b) => b.flush)
        }).pipe(Effect.provide(UsageBatcherLive), Effect.scoped)
      )
      let keys = await listed()
      // The tallies' minute: the batcher counts per minute.
      expect(keys.get(used.id)?.lastUsedAt).toEqual(at("2026-08-10T12:03:00.000Z"))
      expect(keys.get(idle.id)?.lastUsedAt).toBeNull()
      // The list carries the console's columns.
      expect(keys.get(used.id)?.expiresAt).toEqual(used.expiresAt)
      expect(keys.get(used.id)?.createdBy).toBe(used.createdBy)
      // A late flush of older tallies does not move it back; a newer one moves it on.
      const tally = (iso: string) => ({
        tenantId: ws.id,
        service: "forms" as const,
        keyId: used.id,
        status: 200,
        at: at(iso),
        count: 1
      })
      await run(UsageStore.pipe(Effect.flatMap((u) => u.recordMany([tally("2026-08-10T11:00:00.000Z")]))))
      expect((await listed()).get(used.id)?.lastUsedAt).toEqual(at("2026-08-10T12:03:00.000Z"))
      await run(
        UsageStore.pipe(
          Effect.flatMap((u) =>
            u.recordMany([tally("2026-08-10T12:05:00.000Z"), tally("2026-08-10T12:04:00.000Z")])
          )
        )
      )
      keys = await listed()
      expect(keys.get(used.id)?.lastUsedAt).toEqual(at("2026-08-10T12:05:00.000Z"))
      expect(keys.get(idle.id)?.lastUsedAt).toBeNull()
    })
  })
}
