// Authentication of a presented API key, shared by every keyed surface of every service (REST and
// MCP): parse, look up, verify, refuse keys of another service, expired and revoked keys, and charge the
// client IP's attempt budget and the key's request budget in one round trip. A rejected attempt
// still counts against the IP, so guessing keys is throttled.
import { Clock, Context, Effect, Option } from "effect"
import { RateLimited, type StorageError, Unauthorized } from "../kernel/errors.js"
import { parseApiKey, verifyApiKey } from "./api-key.js"
import { ApiKeyRepository } from "./ports/api-keys.js"
import { RateLimitStore } from "./ports/rate-limit-store.js"
import type { PrincipalShape } from "./principal.js"
import {
  decideRate,
  IP_AUTH_ATTEMPTS_PER_MINUTE,
  ipBucket,
  KEY_REQUESTS_PER_MINUTE,
  keyBucket,
  RATE_WINDOW_MS,
  type RateDecision,
  tighterRate
} from "./rate-limit.js"
import { AccountDisabled } from "./errors.js"
import type { ServiceName } from "./service.js"

/** A service's own budgets, where they differ from the defaults (the sharing spec's 100 and 100). */
export interface ServiceBudgets {
  readonly perKeyPerMinute: number
  /** Keyed requests and authentication attempts per client address. */
  readonly perIpPerMinute: number
}

/** The budgets; a Reference so tests and deployments can change them without code changes. */
export const RateLimitPolicy = Context.Reference<{
  readonly perKeyPerMinute: number
  readonly authAttemptsPerIpPerMinute: number
  readonly byService?: Partial<Record<ServiceName, ServiceBudgets>>
}>("@folio/domain/RateLimitPolicy", {
  defaultValue: () => ({
    perKeyPerMinute: KEY_REQUESTS_PER_MINUTE,
    authAttemptsPerIpPerMinute: IP_AUTH_ATTEMPTS_PER_MINUTE
  })
})

const TOO_MANY_REQUESTS = "too many requests from this address"

/** An address over its budget, the answer carrying that budget. */
const addressLimited = (message: string, d: RateDecision) =>
  new RateLimited({ message, retryAfterSeconds: d.resetSeconds, budget: d })

/** A service's budgets as its requests are charged to them. */
export const budgetsOf = (service: ServiceName) =>
  Effect.gen(function* () {
    const policy = yield* RateLimitPolicy
    const own = policy.byService?.[service]
    return {
      own,
      perKey: own?.perKeyPerMinute ?? policy.perKeyPerMinute,
      perIp: own?.perIpPerMinute ?? policy.authAttemptsPerIpPerMinute,
      // A service with its own address budget counts it apart from the others'.
      bucketOfIp: (ip: string) => (own === undefined ? ipBucket(ip) : `${service}-ip:${ip}`)
    }
  })

/**
 * Charges one request from `clientIp` to the address budget a service's keyed requests share (a
 * public route of the API, such as its OpenAPI document, counts toward it as the spec's Limits
 * table says); over it, RateLimited carrying that budget.
 */
export const makeAddressBudget = (
  service: ServiceName
): Effect.Effect<
  (clientIp: string) => Effect.Effect<RateDecision, RateLimited | StorageError>,
  never,
  RateLimitStore
> =>
  Effect.gen(function* () {
    const limits = yield* RateLimitStore
    const { perIp, bucketOfIp } = yield* budgetsOf(service)
    return (clientIp) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatMap(limits.hit(bucketOfIp(clientIp), RATE_WINDOW_MS, now), (hit) => {
          const d = decideRate(hit.count, perIp, hit.resetAt, now)
          return d.allowed ? Effect.succeed(d) : Effect.fail(addressLimited(TOO_MANY_REQUESTS, d))
        })
      )
  })

/**
 * A valid key: its principal and, of the budgets the request spent (the key's and the address's),
 * the one closest to running out (`allowed` false = the key is over its budget).
 */
export interface Authenticated {
  readonly principal: PrincipalShape
  readonly decision: RateDecision
}

export type Authenticate = (
  presented: string,
  clientIp: string
) => Effect.Effect<Authenticated, Unauthorized | AccountDisabled | RateLimited | StorageError>

/**
 * Builds the authenticate function of one service once, with its ports and budgets captured, so a
 * request pays for the checks and nothing else (no per-request service lookups or context merges):
 * every keyed surface builds it when it starts. A key issued for another service is answered
 * exactly as an unknown key, so a surface never tells that a key works elsewhere.
 */
export const makeAuthenticate = (
  service: ServiceName
): Effect.Effect<Authenticate, never, ApiKeyRepository | RateLimitStore> =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const limits = yield* RateLimitStore
    const { own, perKey, perIp, bucketOfIp } = yield* budgetsOf(service)
    // Without a budget of its own, the address budget a service shares counts authentication attempts.
    const overAddress = (d: RateDecision) =>
      addressLimited(
        own === undefined ? "too many authentication attempts from this address" : TOO_MANY_REQUESTS,
        d
      )
    return (presented, clientIp) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const ipKey = bucketOfIp(clientIp)
        // A refused key still spends the address's budget, which its answer reports.
        const reject = (message: string) =>
          Effect.flatMap(limits.hit(ipKey, RATE_WINDOW_MS, now), (hit) => {
            const d = decideRate(hit.count, perIp, hit.resetAt, now)
            return Effect.fail(d.allowed ? new Unauthorized({ message, budget: d }) : overAddress(d))
          })
        const parsed = parseApiKey(presented)
        if (parsed === undefined) return reject("missing or malformed API key")
        return Effect.flatMap(
          keys.findByPrefix(parsed.prefix),
          (
            found
          ): Effect.Effect<Authenticated, Unauthorized | AccountDisabled | RateLimited | StorageError> => {
            // An expired key is answered as an unknown one: an expiry tells a guesser nothing either.
            if (
              Option.isNone(found) ||
              !verifyApiKey(presented, found.value.hash) ||
              found.value.service !== service ||
              (found.value.expiresAt !== null && found.value.expiresAt.getTime() <= now)
            )
              return reject("unknown API key")
            const key = found.value
            if (key.revokedAt !== null) return reject("API key has been revoked")
            if (key.tenantDisabled) return Effect.fail(new AccountDisabled())
            return Effect.flatMap(
              limits.hitMany([ipKey, keyBucket(key.id)], RATE_WINDOW_MS, now),
              ([ipHit, keyHit]): Effect.Effect<Authenticated, RateLimited> => {
                const byKey = decideRate(
                  keyHit?.count ?? Number.POSITIVE_INFINITY,
                  perKey,
                  keyHit?.resetAt ?? now,
                  now
                )
                const byIp =
                  ipHit === undefined ? undefined : decideRate(ipHit.count, perIp, ipHit.resetAt, now)
                if (byIp !== undefined && !byIp.allowed) return Effect.fail(overAddress(byIp))
                return Effect.succeed({
                  principal: {
                    tenant: key.tenantId,
                    service: key.service,
                    scopes: key.scopes,
                    keyId: key.id
                  },
                  decision: byIp === undefined ? byKey : tighterRate(byKey, byIp)
                })
              }
            )
          }
        )
      })
  })

/**
 * A key's budget now, without spending any of it (what a usage report shows): the same window and
 * limit authentication charges against.
 */
export const keyBudget = (
  limits: RateLimitStore["Service"],
  keyId: string
): Effect.Effect<RateDecision, StorageError> =>
  Effect.gen(function* () {
    const policy = yield* RateLimitPolicy
    const now = yield* Clock.currentTimeMillis
    const window = yield* limits.peek(keyBucket(keyId), RATE_WINDOW_MS, now)
    return decideRate(window.count, policy.perKeyPerMinute, window.resetAt, now)
  })
