// Contract of IdempotencyStore, run by contract.ts against every storage target.
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
  const claimOf = (tenantId: string, key: string, requestHash: string, ms = 0): IdempotencyClaim => ({
    tenantId,
    key,
    requestHash,
    token: uuid(),
    now: new Date(t0 + ms)
  })
  const answer = {
    status: 201,
    headers: { location: "/share/api/v1/resources/abc" },
    body: { items: [{ ok: true }] }
  }

  describe(`IdempotencyStore [${target}]`, () => {
    it("claims a key once, replays its answer for the same request and refuses another request", async () => {
      const ws = await newWorkspace()
      const key = `bulk-${uuid()}`
      const first = claimOf(ws.id, key, "hash-a")
      expect(await store((s) => s.claim(first))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-a", 1000)))).toEqual({ _tag: "InProgress" })
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 1000)))).toEqual({ _tag: "Mismatch" })

      // Only the claim's token stores its answer, once.
      expect(await store((s) => s.complete(ws.id, key, uuid(), answer))).toBe(false)
      expect(await store((s) => s.complete(ws.id, key, first.token, answer))).toBe(true)
      expect(await store((s) => s.complete(ws.id, key, first.token, { ...answer, status: 500 }))).toBe(false)
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-a", 60_000)))).toEqual({
        _tag: "Replay",
        answer
      })
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 60_000)))).toEqual({ _tag: "Mismatch" })
      // An answered key is not released.
      expect(await store((s) => s.release(ws.id, key, first.token))).toBe(false)

      // Keys are per tenant.
      const other = await newWorkspace()
      expect(await store((s) => s.claim(claimOf(other.id, key, "hash-b")))).toEqual({ _tag: "Claimed" })
    })

    it("forgets a key 24 hours after its claim", async () => {
      const ws = await newWorkspace()
      const key = `import-${uuid()}`
      const first = claimOf(ws.id, key, "hash-a")
      await store((s) => s.claim(first))
      await store((s) => s.complete(ws.id, key, first.token, answer))
      expect((await store((s) => s.claim(claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS - 1))))._tag).toBe(
        "Mismatch"
      )
      // Expired: claimed afresh, with any request.
      const fresh = claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS)
      expect(await store((s) => s.claim(fresh))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.complete(ws.id, key, first.token, answer))).toBe(false)
      expect(await store((s) => s.complete(ws.id, key, fresh.token, { ...answer, status: 200 }))).toBe(true)
      expect(await store((s) => s.claim(claimOf(ws.id, key, "hash-b", IDEMPOTENCY_TTL_MS + 1)))).toEqual({
        _tag: "Replay",
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
      expect((await store((s) => s.claim(claimOf(ws.id, key, "hash-b", 1000 + lease + 1))))._tag).toBe(
        "Mismatch"
      )
      const takeover = claimOf(ws.id, key, "hash-a", 1000 + lease)
      expect(await store((s) => s.claim(takeover))).toEqual({ _tag: "Claimed" })
      expect(await store((s) => s.complete(ws.id, key, second.token, answer))).toBe(false)
      expect(await store((s) => s.complete(ws.id, key, takeover.token, answer))).toBe(true)
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
      expect(results.filter((o) => o._tag === "Mismatch")).toHaveLength(11)
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
      expect((await store((s) => s.claim(claimOf(ws.id, young.key, "other"))))._tag).toBe("Mismatch")
      expect((await store((s) => s.claim(claimOf(ws.id, old.key, "other"))))._tag).toBe("Claimed")
      expect(await store((s) => s.complete(ws.id, old.key, old.token, answer))).toBe(false)
    })
  })
}
