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
  UsageStore,
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
    const usage = yield* UsageStore
    return Authentication.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const policy = yield* RateLimitPolicy
          const now = yield* Clock.currentTimeMillis

          // Every attempt counts against the client's IP before any key lookup, so guessing keys is slow.
          const ipHit = yield* limits.hit(ipBucket(clientIp(request)), RATE_WINDOW_MS, now)
          const ipDecision = decideRate(ipHit.count, policy.authAttemptsPerIpPerMinute, ipHit.resetAt, now)
          if (!ipDecision.allowed) {
            yield* withHeaders({ "retry-after": String(ipDecision.resetSeconds) })
            return yield* Effect.fail(
              rateLimited("too many authentication attempts from this address", ipDecision.resetSeconds)
            )
          }

          const presented = Redacted.value(token)
          const parsed = parseApiKey(presented)
          if (parsed === undefined) return yield* Effect.fail(unauthorized("missing or malformed API key"))
          const found = yield* keys.findByPrefix(parsed.prefix)
          if (Option.isNone(found) || !verifyApiKey(presented, found.value.hash)) {
            return yield* Effect.fail(unauthorized("unknown API key"))
          }
          const key = found.value
          if (key.revokedAt !== null) return yield* Effect.fail(unauthorized("API key has been revoked"))

          const hit = yield* limits.hit(keyBucket(key.id), RATE_WINDOW_MS, now)
          const decision = decideRate(hit.count, policy.perKeyPerMinute, hit.resetAt, now)
          yield* HttpApp.appendPreResponseHandler((_request, response) =>
            // Usage is recorded off the response path: a counter upsert must not add latency.
            Effect.as(
              Effect.forkDaemon(
                Effect.ignoreLogged(
                  usage.record({
                    workspaceId: key.workspaceId,
                    keyId: key.id,
                    status: response.status,
                    at: new Date(now)
                  })
                )
              ),
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
