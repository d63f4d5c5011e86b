// A key's expiry is checked where every key is issued (issueApiKey: the CLI's --expires and the
// console's createKey alike): in the future and at most ten years ahead, else InvalidExpiry and no key.
import { IdGenLive, MemoryStorageLive } from "@folio/adapters-storage"
import { ApiKeyRepository, createTenant, issueApiKey, MAX_KEY_LIFETIME_MS } from "@folio/domain"
import { it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { describe, expect } from "vitest"

const ports = Layer.merge(MemoryStorageLive, IdGenLive)

describe("issueApiKey and expiry", () => {
  it.effect("refuses now, the past and beyond ten years; accepts a millisecond ahead and ten years", () =>
    Effect.gen(function* () {
      const tenant = yield* createTenant("Acme")
      const now = yield* Clock.currentTimeMillis
      const issue = (at: number) =>
        Effect.flip(
          issueApiKey({
            tenantId: tenant.id,
            service: "forms",
            name: "k",
            scopes: ["forms:read"],
            expiresAt: new Date(at)
          })
        )
      for (const at of [now, now - 86_400_000, now + MAX_KEY_LIFETIME_MS + 1])
        expect((yield* issue(at))._tag).toBe("InvalidExpiry")
      expect(yield* (yield* ApiKeyRepository).list(tenant.id)).toEqual([])
      for (const at of [now + 1, now + MAX_KEY_LIFETIME_MS]) {
        const key = yield* issueApiKey({
          tenantId: tenant.id,
          service: "forms",
          name: "k",
          scopes: ["forms:read"],
          expiresAt: new Date(at)
        })
        expect(key.record.expiresAt?.getTime()).toBe(at)
      }
      expect((yield* (yield* ApiKeyRepository).list(tenant.id)).length).toBe(2)
    }).pipe(Effect.provide(ports))
  )
})
