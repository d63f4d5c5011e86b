// Authentication per service: a key opens only the service it was issued for. Presented to another
// service it is refused exactly as an unknown key is (same error, same charge on the address's
// attempt budget), so no surface tells that a key works elsewhere.
import { IdGenLive, MemoryStorageLive } from "@folio/adapters-storage"
import {
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
})
