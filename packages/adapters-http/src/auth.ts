// Bearer-key authentication, per-IP and per-key rate limits, rate-limit headers and usage recording,
// as one HttpApi security middleware that provides the request's Principal.
import {
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpApp,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import {
  ApiKeyRepository,
  decideRate,
  IP_AUTH_ATTEMPTS_PER_MINUTE,
  ipBucket,
  KEY_REQUESTS_PER_MINUTE,
  keyBucket,
  missingScopes,
  parseApiKey,
  Principal,
  RATE_WINDOW_MS,
  type RateDecision,
  RateLimitStore,
  type RateLimitHit,
  verifyApiKey
} from "@folio/domain"
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import {
  type ForbiddenError,
  forbidden,
  InternalError,
  internal,
  RateLimitedError,
  rateLimited,
  UnauthorizedError,
  unauthorized
} from "./errors.js"
import { UsageBatcher } from "./usage-batcher.js"

/** The budgets; a Reference so tests and deployments can tighten them without code changes. */
export class RateLimitPolicy extends Context.Reference<RateLimitPolicy>()(
  "@folio/adapters-http/RateLimitPolicy",
  {
    defaultValue: () => ({
      perKeyPerMinute: KEY_REQUESTS_PER_MINUTE,
      authAttemptsPerIpPerMinute: IP_AUTH_ATTEMPTS_PER_MINUTE
    })
  }
) {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(UnauthorizedError, RateLimitedError, InternalError),
  provides: Principal,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const rateHeaders = (d: RateDecision): Record<string, string> => ({
  "x-ratelimit-limit": String(d.limit),
  "x-ratelimit-remaining": String(d.remaining),
  "x-ratelimit-reset": String(d.resetSeconds)
})

const withHeaders = (headers: Record<string, string>) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

const clientIp = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const limits = yield* RateLimitStore
    const batcher = yield* UsageBatcher
    return Authentication.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const policy = yield* RateLimitPolicy
          const now = yield* Clock.currentTimeMillis

          const ipKey = ipBucket(clientIp(request))
          const tooManyAttempts = (hit: RateLimitHit) => {
            const d = decideRate(hit.count, policy.authAttemptsPerIpPerMinute, hit.resetAt, now)
            return d.allowed
              ? Effect.void
              : Effect.zipRight(
                  withHeaders({ "retry-after": String(d.resetSeconds) }),
                  Effect.fail(
                    rateLimited("too many authentication attempts from this address", d.resetSeconds)
                  )
                )
          }
          // A rejected attempt still counts against the client's IP, so guessing keys is throttled.
          const reject = (message: string) =>
            Effect.flatMap(limits.hit(ipKey, RATE_WINDOW_MS, now), (hit) =>
              Effect.zipRight(tooManyAttempts(hit), Effect.fail(unauthorized(message)))
            )

          const presented = Redacted.value(token)
          const parsed = parseApiKey(presented)
          if (parsed === undefined) return yield* reject("missing or malformed API key")
          const found = yield* keys.findByPrefix(parsed.prefix)
          if (Option.isNone(found) || !verifyApiKey(presented, found.value.hash))
            return yield* reject("unknown API key")
          const key = found.value
          if (key.revokedAt !== null) return yield* reject("API key has been revoked")

          // The attempt and the key's request are counted in one round trip.
          const [ipHit, hit] = yield* limits.hitMany([ipKey, keyBucket(key.id)], RATE_WINDOW_MS, now)
          if (ipHit === undefined || hit === undefined) return yield* Effect.fail(internal())
          yield* tooManyAttempts(ipHit)
          const decision = decideRate(hit.count, policy.perKeyPerMinute, hit.resetAt, now)
          yield* HttpApp.appendPreResponseHandler((_request, response) =>
            Effect.as(
              batcher.add({
                workspaceId: key.workspaceId,
                keyId: key.id,
                status: response.status,
                at: new Date(now)
              }),
              HttpServerResponse.setHeaders(response, rateHeaders(decision))
            )
          )
          if (!decision.allowed) {
            yield* withHeaders({ "retry-after": String(decision.resetSeconds) })
            return yield* Effect.fail(
              rateLimited("rate limit exceeded for this API key", decision.resetSeconds)
            )
          }
          return { workspaceId: key.workspaceId, keyId: key.id, scopes: key.scopes }
        }).pipe(
          Effect.catchTag("StorageError", (e) =>
            Effect.zipRight(Effect.logError("authentication storage failure", e), Effect.fail(internal()))
          )
        )
    })
  })
)

/** Fails with 403 unless the caller holds every one of `scopes`. */
export const requireScopes = (
  ...scopes: ReadonlyArray<string>
): Effect.Effect<void, ForbiddenError, Principal> =>
  Effect.flatMap(Principal, (principal) => {
    const missing = missingScopes(principal, scopes)
    return missing.length === 0
      ? Effect.void
      : Effect.fail(
          forbidden(`this API key lacks the scope ${missing.join(", ")}`, { requiredScopes: scopes })
        )
  })
