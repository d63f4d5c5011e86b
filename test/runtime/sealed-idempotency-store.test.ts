// The sealed idempotency store over the in-memory one: what the inner store keeps is sealed (an
// upload request's token in a first answer is not readable there), a replay opens it to the same
// bytes, a sealed body moved to another key or opened under another secret is refused, and answers
// stored before sealing existed still replay.
import { MemoryStorageLive, sealIdempotencyStore } from "@folio/adapters-storage"
import { IdempotencyStore } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"

const TENANT = "00000000-0000-4000-8000-000000000001"
const body = '{"id":"r1","token":"secret-token-shown-once","title":"Photos"}'

const claim = (key: string, token: string) => ({
  tenantId: TENANT,
  key,
  requestHash: "h",
  token,
  now: new Date()
})

describe("the sealed idempotency store", () => {
  it.effect("keeps answers sealed and replays them byte for byte", () =>
    Effect.gen(function* () {
      const inner = yield* IdempotencyStore
      const sealed = sealIdempotencyStore(inner, "secret-a")
      expect((yield* sealed.claim(claim("k1", "t1")))._tag).toBe("Claimed")
      expect(yield* sealed.complete(TENANT, "k1", "t1", "h", { status: 201, headers: {}, body })).toBe(true)
      const kept = yield* inner.claim(claim("k1", "t2"))
      expect(kept._tag).toBe("Answered")
      const keptBody = kept._tag === "Answered" ? kept.answer.body : ""
      expect(keptBody).toMatch(/^sealed:v1:/)
      expect(keptBody).not.toContain("secret-token-shown-once")
      const replay = yield* sealed.claim(claim("k1", "t3"))
      expect(replay).toMatchObject({ _tag: "Answered", answer: { status: 201, body } })
      // Another secret cannot open it.
      const rotated = yield* Effect.result(sealIdempotencyStore(inner, "secret-b").claim(claim("k1", "t4")))
      expect(rotated._tag).toBe("Failure")
    }).pipe(Effect.provide(MemoryStorageLive))
  )

  it.effect("binds a sealed body to its key, and replays an answer stored before sealing", () =>
    Effect.gen(function* () {
      const inner = yield* IdempotencyStore
      const sealed = sealIdempotencyStore(inner, "secret-a")
      yield* sealed.claim(claim("k1", "t1"))
      yield* sealed.complete(TENANT, "k1", "t1", "h", { status: 201, headers: {}, body })
      const kept = yield* inner.claim(claim("k1", "t2"))
      const keptBody = kept._tag === "Answered" ? kept.answer.body : ""
      // The same sealed bytes under another key do not open.
      yield* inner.claim(claim("k2", "t1"))
      yield* inner.complete(TENANT, "k2", "t1", "h", { status: 201, headers: {}, body: keptBody })
      expect((yield* Effect.result(sealed.claim(claim("k2", "t2"))))._tag).toBe("Failure")
      // A plain answer from before sealing replays as it is.
      yield* inner.claim(claim("k3", "t1"))
      yield* inner.complete(TENANT, "k3", "t1", "h", { status: 200, headers: {}, body: "{}" })
      expect(yield* sealed.claim(claim("k3", "t2"))).toMatchObject({
        _tag: "Answered",
        answer: { body: "{}" }
      })
    }).pipe(Effect.provide(MemoryStorageLive))
  )
})
