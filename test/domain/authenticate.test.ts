// Authentication per service: a key opens only the service it was issued for. Presented to another
// service it is refused exactly as an unknown key is (same error, same charge on the address's
// attempt budget), so no surface tells that a key works elsewhere. An expired key is refused the same
// way, also when the hot path's key cache still holds it.
import {
  CachedApiKeyRepositoryLive,
  IdGenLive,
  KEY_CACHE_TTL_MS,
  MemoryStorageLive
} from "@folio/adapters-storage"
import {
  ApiKeyRepository,
  createTenant,
  ipBucket,
  issueApiKey,
  makeAuthenticate,
  RATE_WINDOW_MS,
  RateLimitStore,
  type ServiceName,
  type Unauthorized
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Clock, Effect, Layer, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"

const ports = Layer.merge(MemoryStorageLive, IdGenLive)
const unknownKey = `folio_${"a".repeat(12)}_${"b".repeat(43)}`

/** A tenant with one key of each service. */
const keysOfBothServices = Effect.gen(function* () {
  const tenant = yield* createTenant("Acme")
  const issue = (service: ServiceName, scopes: ReadonlyArray<string>) =>
    issueApiKey({ tenantId: tenant.id, service, name: service, scopes })
  return {
    tenant,
    forms: yield* issue("forms", ["forms:read"]),
    sharing: yield* issue("sharing", ["read"])
  }
})

/** The attempts counted so far against a client address. */
const attemptsOf = (ip: string) =>
  Effect.gen(function* () {
    const limits = yield* RateLimitStore
    return (yield* limits.peek(ipBucket(ip), RATE_WINDOW_MS, yield* Clock.currentTimeMillis)).count
  })

describe("authentication per service", () => {
  it.effect("gives a key's own service a principal of its tenant, service and scopes", () =>
    Effect.gen(function* () {
      const { tenant, forms, sharing } = yield* keysOfBothServices
      for (const [service, key] of [
        ["forms", forms],
        ["sharing", sharing]
      ] as const) {
        const authenticated = yield* (yield* makeAuthenticate(service))(key.plaintext, "192.0.2.1")
        expect(authenticated.principal).toEqual({
          tenant: tenant.id,
          service,
          scopes: key.record.scopes,
          keyId: key.record.id
        })
        expect(authenticated.decision.allowed).toBe(true)
      }
    }).pipe(Effect.provide(ports))
  )

  it.effect("refuses a key of the other service exactly as an unknown key, charging the same attempt", () =>
    Effect.gen(function* () {
      const { forms, sharing } = yield* keysOfBothServices
      for (const [service, foreign] of [
        ["forms", sharing],
        ["sharing", forms]
      ] as const) {
        const authenticate = yield* makeAuthenticate(service)
        const ip = `198.51.100.${service.length}`
        const unknown = yield* Effect.result(authenticate(unknownKey, ip))
        const afterUnknown = yield* attemptsOf(ip)
        const wrongService = yield* Effect.result(authenticate(foreign.plaintext, ip))
        expect(Result.isFailure(wrongService)).toBe(true)
        // The same failure, its address budget one attempt further spent.
        if (Result.isFailure(wrongService) && Result.isFailure(unknown)) {
          const { budget: before, ...unknownFailure } = unknown.failure as Unauthorized
          const { budget: after, ...wrongFailure } = wrongService.failure as Unauthorized
          expect(wrongFailure).toEqual(unknownFailure)
          expect(after?.remaining).toBe((before?.remaining ?? 0) - 1)
        }
        expect(Result.isFailure(unknown) && unknown.failure._tag).toBe("Unauthorized")
        expect(yield* attemptsOf(ip)).toBe(afterUnknown + 1)
      }
    }).pipe(Effect.provide(ports))
  )

  /** Presents `key` at the key's expiry (and a little before): refused then exactly as `unknownKey`. */
  const expiresLikeUnknown = (ip: string) =>
    Effect.gen(function* () {
      const tenant = yield* createTenant("Acme")
      const now = yield* Clock.currentTimeMillis
      const expiresAt = new Date(now + 60_000)
      const key = yield* issueApiKey({
        tenantId: tenant.id,
        service: "forms",
        name: "expiring",
        scopes: ["forms:read"],
        expiresAt
      })
      const authenticate = yield* makeAuthenticate("forms")
      // A millisecond before its expiry the key works (and a cache in front now holds it).
      yield* TestClock.adjust(60_000 - 1)
      expect((yield* authenticate(key.plaintext, ip)).principal.keyId).toBe(key.record.id)
      yield* TestClock.adjust(1)
      expect(yield* Clock.currentTimeMillis).toBe(expiresAt.getTime())
      const unknown = yield* Effect.result(authenticate(unknownKey, ip))
      const afterUnknown = yield* attemptsOf(ip)
      const expired = yield* Effect.result(authenticate(key.plaintext, ip))
      expect(Result.isFailure(expired) && Result.isFailure(unknown)).toBe(true)
      if (Result.isFailure(expired) && Result.isFailure(unknown)) {
        const { budget: before, ...unknownFailure } = unknown.failure as Unauthorized
        const { budget: after, ...expiredFailure } = expired.failure as Unauthorized
        expect(expired.failure._tag).toBe("Unauthorized")
        expect(expiredFailure).toEqual(unknownFailure)
        expect(after?.remaining).toBe((before?.remaining ?? 0) - 1)
      }
      expect(yield* attemptsOf(ip)).toBe(afterUnknown + 1)
      // Later still, refused the same way.
      yield* TestClock.adjust(KEY_CACHE_TTL_MS * 2)
      expect(Result.isFailure(yield* Effect.result(authenticate(key.plaintext, ip)))).toBe(true)
    })

  it.effect("refuses a key from its expiry on exactly as an unknown key, charging the same attempt", () =>
    expiresLikeUnknown("203.0.113.9").pipe(Effect.provide(ports))
  )

  it.effect("refuses an expired key served from the hot path's key cache", () =>
    Effect.gen(function* () {
      // The cached repository in front of the store's, as in the app's hot path.
      const cached = yield* Effect.provide(ApiKeyRepository, CachedApiKeyRepositoryLive)
      return yield* expiresLikeUnknown("203.0.113.10").pipe(Effect.provideService(ApiKeyRepository, cached))
    }).pipe(Effect.provide(ports))
  )
})
