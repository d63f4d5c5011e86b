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
  type ApiKeyRepository,
  authenticate,
  missingScopes,
  Principal,
  rateLimitHeaders,
  RateLimitPolicy,
  type RateLimitStore,
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

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const batcher = yield* UsageBatcher
    const stores = yield* Effect.context<ApiKeyRepository | RateLimitStore>()
    return Authentication.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const { principal, decision } = yield* authenticate(Redacted.value(token), clientIp(request)).pipe(
            Effect.provide(stores)
          )
          const now = new Date()
          yield* HttpApp.appendPreResponseHandler((_request, response) =>
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
          if (!decision.allowed) {
            yield* withHeaders({ "retry-after": String(decision.resetSeconds) })
            return yield* Effect.fail(
              rateLimited("rate limit exceeded for this API key", decision.resetSeconds)
            )
          }
          return principal
        }).pipe(
          Effect.catchTags({
            Unauthorized: (e) => Effect.fail(unauthorized(e.message)),
            RateLimited: (e) =>
              Effect.zipRight(
                withHeaders({ "retry-after": String(e.retryAfterSeconds) }),
                Effect.fail(rateLimited(e.message, e.retryAfterSeconds))
              ),
            StorageError: (e) =>
              Effect.zipRight(Effect.logError("authentication storage failure", e), Effect.fail(internal()))
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
