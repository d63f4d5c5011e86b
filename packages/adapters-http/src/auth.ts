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
import { Effect, Layer, Option, Redacted, Schema } from "effect"
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

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(UnauthorizedError, RateLimitedError, InternalError),
  provides: Principal,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const withHeaders = (headers: Record<string, string>) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

const clientIp = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

const toApiError = (
  e: Unauthorized | RateLimited | StorageError
): Effect.Effect<never, UnauthorizedError | RateLimitedError | InternalError> => {
  switch (e._tag) {
    case "Unauthorized":
      return Effect.fail(unauthorized(e.message))
    case "RateLimited":
      return Effect.zipRight(
        withHeaders({ "retry-after": String(e.retryAfterSeconds) }),
        Effect.fail(rateLimited(e.message, e.retryAfterSeconds))
      )
    case "StorageError":
      return Effect.zipRight(Effect.logError("authentication storage failure", e), Effect.fail(internal()))
  }
}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const batcher = yield* UsageBatcher
    const authenticate = yield* makeAuthenticate
    return Authentication.of({
      bearer: (token) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.matchEffect(authenticate(Redacted.value(token), clientIp(request)), {
            onFailure: toApiError,
            onSuccess: ({ principal, decision }) => {
              const now = new Date()
              // One pre-response handler: the budget headers (with Retry-After over budget) and the
              // usage tally go on every answer of an authenticated request, whichever layer
              // produced it (handler, envelope, 429).
              const decorate = HttpApp.appendPreResponseHandler((_request, response) =>
                Effect.as(
                  batcher.add({
                    workspaceId: principal.workspaceId,
                    keyId: principal.keyId,
                    status: response.status,
                    at: now
                  }),
                  HttpServerResponse.setHeaders(response, rateLimitHeaders(decision))
                )
              )
              return decision.allowed
                ? Effect.as(decorate, principal)
                : Effect.zipRight(
                    decorate,
                    Effect.fail(rateLimited("rate limit exceeded for this API key", decision.resetSeconds))
                  )
            }
          })
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
