// In-memory IdempotencyStore: the twin of sql/kernel/idempotency.ts. A claim is one synchronous step, so
// of two concurrent first requests exactly one finds the key free.
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, IdempotencyStore, type ClaimOutcome } from "@folio/domain"
import { Effect, Layer } from "effect"
import { MemoryStore } from "../store.js"

const slot = (tenantId: string, key: string) => `${tenantId}${key}`

export const makeIdempotencyStore = Effect.map(Effect.service(MemoryStore), ({ idempotencyKeys }) =>
  IdempotencyStore.of({
    claim: (c) =>
      Effect.sync((): ClaimOutcome => {
        const held = idempotencyKeys.get(slot(c.tenantId, c.key))
        const now = c.now.getTime()
        const free =
          held === undefined ||
          held.expiresAt.getTime() <= now ||
          (held.answer === null &&
            held.claimedAt.getTime() <= now - IDEMPOTENCY_LEASE_MS &&
            (held.requestHash === null || c.requestHash === null || held.requestHash === c.requestHash))
        if (free) {
          idempotencyKeys.set(slot(c.tenantId, c.key), {
            tenantId: c.tenantId,
            key: c.key,
            requestHash: c.requestHash,
            token: c.token,
            answer: null,
            claimedAt: c.now,
            expiresAt: new Date(now + IDEMPOTENCY_TTL_MS)
          })
          return { _tag: "Claimed" }
        }
        if (held.answer === null || held.requestHash === null)
          return { _tag: "InProgress", requestHash: held.requestHash }
        return { _tag: "Answered", requestHash: held.requestHash, answer: held.answer }
      }),

    complete: (tenantId, key, token, requestHash, answer) =>
      Effect.sync(() => {
        const held = idempotencyKeys.get(slot(tenantId, key))
        if (held === undefined || held.token !== token || held.answer !== null) return false
        idempotencyKeys.set(slot(tenantId, key), { ...held, requestHash, answer: { ...answer } })
        return true
      }),

    release: (tenantId, key, token) =>
      Effect.sync(() => {
        const held = idempotencyKeys.get(slot(tenantId, key))
        if (held === undefined || held.token !== token || held.answer !== null) return false
        idempotencyKeys.delete(slot(tenantId, key))
        return true
      }),

    purgeExpired: (now) =>
      Effect.sync(() => {
        let purged = 0
        for (const [k, held] of idempotencyKeys) {
          if (held.expiresAt.getTime() <= now.getTime()) {
            idempotencyKeys.delete(k)
            purged++
          }
        }
        return purged
      })
  })
)

export const MemoryIdempotencyStoreLive = Layer.effect(IdempotencyStore, makeIdempotencyStore)
