// The idempotency housekeeping: it purges expired keys on its interval, at the current time, keeps
// going after a failed round, and stops with its scope.
import { idempotencyHousekeeping } from "@folio/adapters-storage"
import { IdempotencyStore, StorageError } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { describe, expect } from "vitest"

describe("idempotency housekeeping", () => {
  it.live("purges on its interval, survives a failed round and stops with its scope", () =>
    Effect.gen(function* () {
      const rounds: Array<number> = []
      const store = Layer.succeed(
        IdempotencyStore,
        IdempotencyStore.of({
          claim: () => Effect.die("unused"),
          complete: () => Effect.die("unused"),
          release: () => Effect.die("unused"),
          purgeExpired: (now) =>
            Effect.suspend(() => {
              rounds.push(now.getTime())
              return rounds.length === 1
                ? Effect.fail(new StorageError({ message: "down" }))
                : Effect.succeed(0)
            })
        })
      )
      const scope = yield* Scope.make()
      const before = Date.now()
      yield* Layer.buildWithScope(Layer.provide(idempotencyHousekeeping("20 millis"), store), scope)
      yield* Effect.sleep("150 millis")
      yield* Scope.close(scope, Exit.void)
      const seen = rounds.length
      expect(seen).toBeGreaterThanOrEqual(3)
      expect(rounds[0]).toBeGreaterThanOrEqual(before)
      yield* Effect.sleep("60 millis")
      expect(rounds.length).toBe(seen)
    })
  )
})
