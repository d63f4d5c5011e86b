// Bearer-key authentication, per-IP and per-key rate limits, rate-limit headers and usage recording,
// as one HttpApi security middleware that provides the request's Principal.
import {
  makeAuthenticate,
  missingScopes,
  Principal,
  type RateLimited,
  rateLimitHeaders,
  RateLimitPolicy,
  type StorageError,
  type Unauthorized,
  UsageBatcher
} from "@folio/domain"
import { Effect, Layer, Option, Result } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
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

export { RateLimitPolicy }

export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Principal }>()(
  "Authentication",
  {
    error: [UnauthorizedError, RateLimitedError, InternalError],
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}

const withHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

const clientIp = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/**
 * The key as Effect 3's bearer scheme read it: whatever follows the first seven characters
 * ("Bearer "). Effect 4's own parser drops extra spaces and refuses other schemes; reading the
 * header here keeps which keys count as missing, malformed or unknown exactly as before.
 */
const presentedKey = (request: HttpServerRequest.HttpServerRequest): string =>
  (request.headers.authorization ?? "").slice("Bearer ".length)

const toApiError = (
  e: Unauthorized | RateLimited | StorageError
): Effect.Effect<
  never,
  UnauthorizedError | RateLimitedError | InternalError,
  HttpServerRequest.HttpServerRequest
> => {
  switch (e._tag) {
    case "Unauthorized":
      return Effect.fail(unauthorized(e.message))
    case "RateLimited":
      return Effect.andThen(
        withHeaders({ "retry-after": String(e.retryAfterSeconds) }),
        Effect.fail(rateLimited(e.message, e.retryAfterSeconds))
      )
    case "StorageError":
      return Effect.andThen(Effect.logError("authentication storage failure", e), Effect.fail(internal()))
  }
}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const batcher = yield* UsageBatcher
    const authenticate = yield* makeAuthenticate("forms")
    return Authentication.of({
      bearer: (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const auth = yield* Effect.result(authenticate(presentedKey(request), clientIp(request)))
          if (Result.isFailure(auth)) return yield* toApiError(auth.failure)
          const { principal, decision } = auth.success
          const now = new Date()
          // One pre-response handler: the budget headers (with Retry-After over budget) and the
          // usage tally go on every answer of an authenticated request, whichever layer produced
          // it (handler, envelope, 429).
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.as(
              batcher.add({
                tenantId: principal.tenant,
                keyId: principal.keyId,
                status: response.status,
                at: now
              }),
              HttpServerResponse.setHeaders(response, rateLimitHeaders(decision))
            )
          )
          if (!decision.allowed)
            return yield* Effect.fail(
              rateLimited("rate limit exceeded for this API key", decision.resetSeconds)
            )
          return yield* Effect.provideService(httpEffect, Principal, principal)
        })
    })
  })
)

/** Fails with 403 unless the caller holds every one of `scopes`. */
export const requireScopes = (
  ...scopes: ReadonlyArray<string>
): Effect.Effect<void, ForbiddenError, Principal> =>
  Effect.flatMap(Effect.service(Principal), (principal) => {
    const missing = missingScopes(principal, scopes)
    return missing.length === 0
      ? Effect.void
      : Effect.fail(
          forbidden(`this API key lacks the scope ${missing.join(", ")}`, { requiredScopes: scopes })
        )
  })
