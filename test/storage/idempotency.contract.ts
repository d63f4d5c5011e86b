// Contract of IdempotencyStore, run by register-contracts.ts against every storage target.
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  IdempotencyStore,
  type IdempotencyStoreService,
  type TenantRecord
} from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { uuid } from "./fixtures.js"

export interface IdempotencyHarness {
  readonly target: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, IdempotencyStore>) => Promise<A>
  readonly newWorkspace: () => Promise<TenantRecord>
}

export const registerIdempotencyContracts = ({ target, run, newWorkspace }: IdempotencyHarness) => {
  const store = <A, E>(f: (s: IdempotencyStoreService) => Effect.Effect<A, E>) =>
    run(IdempotencyStore.pipe(Effect.flatMap(f)))
  const t0 = Date.parse("2026-06-01T12:00:00.000Z")
  const claimOf = (tenantId: string, key: string, requestHash: string | null, ms = 0): IdempotencyClaim => ({
    tenantId,
    key,
    requestHash,
    token: uuid(),
    now: new Date(t0 + ms)
  })
  // A body as sent, keys in an order jsonb would not keep: it must come back byte for byte.
  const answer = {
    status: 201,
    headers: { location: "/share/api/v1/resources/abc" },
    body: '{"zeta":1,"items":[{"ok":true}],"alpha":"é\\u0000"}'
  }

  describe(`IdempotencyStore [${target}]`, () => {
    it("claims a key once, then names who holds it: the running request's digest, or the stored answer as sent", async () => {
      const ws = await newWorkspace()
      const key = `bulk-${uuid()}`
      const first = claimOf(ws.id, key, "hash-a")
      expect(await store((s) => s.claim(first))).toEqual({ _tag: "Claimed" })
      const running = { _tag: "InProgress", requestHash: "hash-a" }
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-a", 1000)))).toEqual(running)
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 1000)))).toEqual(running)

      // Only the claim's token stores its answer, once.
      expect(await store((s) => s.complete(ws.id, key, uuid(), "hash-a", answer))).toBe(false)
      expect(await store((s) => s.complete(ws.id, key, first.token, "hash-a", answer))).toBe(true)
      expect(
        await store((s) => s.complete(ws.id, key, first.token, "hash-a", { ...answer, status: 500 }))
      ).toBe(false)
      const answered = { _tag: "Answered", requestHash: "hash-a", answer }
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-a", 60_000)))).toEqual(answered)
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 60_000)))).toEqual(answered)
      // An answered key is not released.
      expect(await store((s) => s.release(ws.id, key, first.token))).toBe(false)

      // Keys are per tenant.
      const other = await newWorkspace()
      expect(await store((s) => s.claim(claimOf(other.id, key, "hash-b")))).toEqual({ _tag: "Claimed" })
    })

    it("claims for a streamed body with no digest yet, and takes the digest with the answer", async () => {
      const ws = await newWorkspace()
      const key = `upload-${uuid()}`
      const first = claimOf(ws.id, key, null)
      expect(await store((s) => s.claim(first))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.claim(claimOf(ws.id, key, null, 10)))).toEqual({
        _tag: "InProgress",
        requestHash: null
      })
      expect(await store((s) => s.complete(ws.id, key, first.token, "digest", answer))).toBe(true)
      expect(await store((s) => s.claim(claimOf(ws.id, key, null, 20)))).toEqual({
        _tag: "Answered",
        requestHash: "digest",
        answer
      })
    })

    it("forgets a key 24 hours after its claim", async () => {
      const ws = await newWorkspace()
      const key = `import-${uuid()}`
      const first = claimOf(ws.id, key, "hash-a")
      await store((s) => s.claim(first))
      await store((s) => s.complete(ws.id, key, first.token, "hash-a", answer))
      expect((await store((s) => s.claim(claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS - 1))))._tag).toBe(
        "Answered"
      )
      // Expired: claimed afresh, with any request.
      const fresh = claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS)
      expect(await store((s) => s.claim(fresh))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.complete(ws.id, key, first.token, "hash-a", answer))).toBe(false)
      expect(
        await store((s) => s.complete(ws.id, key, fresh.token, "hash-b", { ...answer, status: 200 }))
      ).toBe(true)
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS + 1)))).toEqual({
        _tag: "Answered",
        requestHash: "hash-b",
        answer: { ...answer, status: 200 }
      })
    })

    it("frees a released claim at once, and an unanswered one after its lease for the same request only", async () => {
      const ws = await newWorkspace()
      const key = `k-${uuid()}`
      const first = claimOf(ws.id, key, "hash-a")
      await store((s) => s.claim(first))
      expect(await store((s) => s.release(ws.id, key, uuid()))).toBe(false)
      expect(await store((s) => s.release(ws.id, key, first.token))).toBe(true)
      const second = claimOf(ws.id, key, "hash-a", 1000)
      expect(await store((s) => s.claim(second))).toEqual({ _tag: "Claimed" })

      // The holder went silent: within the lease the key stays held; after it, the same request takes
      // it over and the silent holder can no longer answer; another request is refused throughout.
      const lease = IDEMPOTENCY_LEASE_MS
      expect((await store((s) => s.claim(claimOf(ws.id, key, "hash-a", 1000 + lease - 1))))._tag).toBe(
        "InProgress"
      )
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 1000 + lease + 1)))).toEqual({
        _tag: "InProgress",
        requestHash: "hash-a"
      })
      const takeover = claimOf(ws.id, key, "hash-a", 1000 + lease)
      expect(await store((s) => s.claim(takeover))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.complete(ws.id, key, second.token, "hash-a", answer))).toBe(false)
      expect(await store((s) => s.complete(ws.id, key, takeover.token, "hash-a", answer))).toBe(true)
    })

    it("lets exactly one of many concurrent first requests with one key run", async () => {
      const ws = await newWorkspace()
      const key = `race-${uuid()}`
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store((s) => s.claim(claimOf(ws.id, key, "hash-a", i))))
      )
      expect(outcomes.filter((o) => o._tag === "Claimed")).toHaveLength(1)
      expect(outcomes.filter((o) => o._tag === "InProgress")).toHaveLength(11)
      // Concurrent requests with one key and different bodies: one runs, the rest conflict.
      const mixed = `race-${uuid()}`
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store((s) => s.claim(claimOf(ws.id, mixed, `hash-${i}`))))
      )
      expect(results.filter((o) => o._tag === "Claimed")).toHaveLength(1)
      expect(results.filter((o) => o._tag === "InProgress")).toHaveLength(11)
    })

    it("purges expired keys only", async () => {
      const ws = await newWorkspace()
      const old = claimOf(ws.id, `old-${uuid()}`, "h", -IDEMPOTENCY_TTL_MS - 1)
      const young = claimOf(ws.id, `young-${uuid()}`, "h")
      await store((s) => s.claim(old))
      await store((s) => s.claim(young))
      const purged = await store((s) => s.purgeExpired(new Date(t0)))
      expect(purged).toBeGreaterThanOrEqual(1)
      // The young key is still held; the old one is claimable by another request.
      expect((await store((s) => s.claim(claimOf(ws.id, young.key, "other"))))._tag).toBe("InProgress")
      expect((await store((s) => s.claim(claimOf(ws.id, old.key, "other"))))._tag).toBe("Claimed")
      expect(await store((s) => s.complete(ws.id, old.key, old.token, "h", answer))).toBe(false)
    })
  })
}
