// The usage batcher: requests are counted in memory as per-minute tallies and written in one batch,
// by `flush` (what /usage calls first), by the once-a-second loop, and when its scope closes.
import { MemoryStorageLive, UsageBatcherLive } from "@folio/adapters-storage"
import { type RequestTally, UsageBatcher, UsageStore } from "@folio/domain"
import { it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { describe, expect } from "vitest"

const tenantId = "00000000-0000-4000-8000-000000000001"
const keyId = "00000000-0000-4000-8000-000000000002"

describe("usage batcher", () => {
  it.live("writes per-minute tallies in batches: on flush, every second and at shutdown", () =>
    Effect.gen(function* () {
      const store = yield* Effect.provide(UsageStore, MemoryStorageLive)
      const batches: Array<ReadonlyArray<RequestTally>> = []
      const recording = Layer.succeed(
        UsageStore,
        UsageStore.of({
          ...store,
          recordMany: (tallies) =>
            Effect.andThen(
              Effect.sync(() => batches.push(tallies)),
              store.recordMany(tallies)
            )
        })
      )
      const scope = yield* Scope.make()
      const batcher = Context.get(
        yield* Layer.buildWithScope(Layer.provide(UsageBatcherLive, recording), scope),
        UsageBatcher
      )
      const minute = Math.floor(Date.now() / 60_000) * 60_000
      const now = new Date(minute + 30_000)
      for (const status of [200, 201, 404, 200])
        yield* batcher.add({ tenantId, service: "forms", keyId, status, at: now })
      expect(batches).toEqual([])
      expect((yield* store.counts(tenantId, "forms", now)).last24h).toBe(0)

      yield* batcher.flush
      expect(batches).toHaveLength(1)
      expect(new Set(batches[0]?.map((t) => `${t.status}x${t.count}@${t.at.getTime() - minute}`))).toEqual(
        new Set(["200x2@0", "201x1@0", "404x1@0"])
      )
      expect(yield* store.counts(tenantId, "forms", now)).toMatchObject({
        last24h: 4,
        byStatusLast24h: { ok: 3, clientError: 1, serverError: 0 }
      })
      // Nothing pending: flushing again writes nothing.
      yield* batcher.flush
      expect(batches).toHaveLength(1)

      yield* batcher.add({ tenantId, service: "forms", keyId, status: 500, at: now })
      yield* Effect.sleep("1500 millis")
      expect(batches).toHaveLength(2)

      yield* batcher.add({ tenantId, service: "forms", keyId, status: 200, at: now })
      yield* Scope.close(scope, Exit.void)
      expect(batches).toHaveLength(3)
      expect(yield* store.counts(tenantId, "forms", now)).toMatchObject({
        last24h: 6,
        byStatusLast24h: { ok: 4, clientError: 1, serverError: 1 }
      })
    })
  )
})
