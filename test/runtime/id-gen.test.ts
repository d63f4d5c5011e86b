// The IdGen adapter: random v4 ids, v7 ids ordered by the Effect clock, and random bytes of the
// asked length from a cryptographic source.
import { IdGenLive } from "@folio/adapters-storage"
import { IdGen } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("IdGenLive", () => {
  it.effect("makes distinct v4 ids, clock-ordered v7 ids and random bytes", () =>
    Effect.gen(function* () {
      const ids = yield* IdGen
      const v4 = yield* Effect.all(Array.from({ length: 100 }, () => ids.uuid))
      expect(v4.every((id) => V4.test(id))).toBe(true)
      expect(new Set(v4).size).toBe(100)

      yield* TestClock.setTime(1_700_000_000_000)
      const first = yield* ids.uuidV7
      yield* TestClock.adjust(1)
      const second = yield* ids.uuidV7
      expect([first, second].every((id) => V7.test(id))).toBe(true)
      expect(first.replaceAll("-", "").slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, "0"))
      expect(first < second).toBe(true)

      const bytes = yield* ids.randomBytes(64)
      expect(bytes).toBeInstanceOf(Uint8Array)
      expect(bytes).toHaveLength(64)
      expect(Buffer.from(bytes).equals(Buffer.from(yield* ids.randomBytes(64)))).toBe(false)
    }).pipe(Effect.provide(IdGenLive))
  )
})
