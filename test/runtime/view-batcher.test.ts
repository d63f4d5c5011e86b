// The view batcher: views are summed, written in batches (on flush, every second, at shutdown), kept
// when a write fails, and visible to `max_views` through `pending` until written. (Once per visit is
// the public pages' cookie, tested in test/http/sharing-public.test.ts.)
import { MemoryStorageLive, ViewBatcherLive } from "@folio/adapters-storage"
import { ResourceRepository, StorageError, ViewCounter } from "@folio/domain"
import { it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { describe, expect } from "vitest"

const A = "00000000-0000-4000-8000-00000000000a"
const B = "00000000-0000-4000-8000-00000000000b"

describe("view batcher", () => {
  it.live("writes sums in batches, keeps them across a failed write and flushes at shutdown", () =>
    Effect.gen(function* () {
      const repo = yield* Effect.provide(ResourceRepository, MemoryStorageLive)
      const batches: Array<Record<string, number>> = []
      let failNext = false
      const recording = Layer.succeed(
        ResourceRepository,
        ResourceRepository.of({
          ...repo,
          addViews: (counts) =>
            Effect.suspend(() => {
              if (failNext) {
                failNext = false
                return Effect.fail(new StorageError({ message: "down" }))
              }
              batches.push(Object.fromEntries(counts))
              return Effect.void
            })
        })
      )
      const scope = yield* Scope.make()
      const views = Context.get(
        yield* Layer.buildWithScope(Layer.provide(ViewBatcherLive, recording), scope),
        ViewCounter
      )
      yield* views.record(A)
      yield* views.record(A)
      views.recordNow(A)
      yield* views.record(B)
      expect(views.pending(A)).toBe(3)
      expect(batches).toEqual([])

      failNext = true
      yield* views.flush
      expect(batches).toEqual([])
      expect(views.pending(A)).toBe(3)
      yield* views.flush
      expect(batches).toEqual([{ [A]: 3, [B]: 1 }])
      expect(views.pending(A)).toBe(0)

      yield* views.record(B)
      yield* Effect.sleep("1500 millis")
      expect(batches).toEqual([{ [A]: 3, [B]: 1 }, { [B]: 1 }])

      for (let i = 0; i < 50; i++) yield* views.record(A)
      yield* Scope.close(scope, Exit.void)
      expect(batches.at(-1)).toEqual({ [A]: 50 })
    })
  )
})
