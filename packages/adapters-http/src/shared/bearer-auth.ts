// Keyed requests as every service takes them: the bearer key read from the header, the identity's
// authenticate (the key, attempts per address, the budget per key), the budget headers and the usage
// tally on every answer, and the scope check. REST (an HttpApi security middleware) and MCP (a raw
// route) both authenticate through `makeRequestAuthenticator`.
import {
  type AccountDisabled,
  type Authenticate,
  InsufficientScope,
  makeAuthenticate,
  missingScopes,
  Principal,
  type PrincipalShape,
  RateLimited,
  type RateDecision,
  type ServiceName,
  type StorageError,
  type Unauthorized,
  UsageBatcher
} from "@folio/domain"
import { Context, Effect, Option } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Codes, ErrorSurface, Rows, Tagged } from "./error-surface.js"
import { rateLimitHeaders } from "./rate-limit-headers.js"

export const clientIp = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/**
 * The key is whatever follows the first seven characters ("Bearer "), untouched: another scheme or
 * stray spaces leave a string the key format check answers (401, missing or malformed), on REST and
 * MCP alike. Effect's bearer parser would trim the spaces and drop other schemes before the check,
 * so a key a client mangled could pass or read as absent.
 */
export const presentedKey = (request: HttpServerRequest.HttpServerRequest): string =>
  (request.headers.authorization ?? "").slice("Bearer ".length)

/** The budget headers on whatever answer the request gets. */
const reportBudget = (budget: RateDecision) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(budget)))
  )

/** The failures of authenticating a request. */
export type AuthenticationError = Unauthorized | AccountDisabled | RateLimited | StorageError

export type RequestAuthenticator = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<PrincipalShape, AuthenticationError, HttpServerRequest.HttpServerRequest>

/**
 * Builds, once, the authenticator of the keyed requests of `service` (its keys only). Once a key is
 * known, every answer to its request carries the budget headers (with Retry-After over budget) and
 * counts in the key's usage, whichever layer produced the answer (handler, envelope, 429); a key
 * over its budget is RateLimited.
 */
export const makeRequestAuthenticator = (service: ServiceName) =>
  Effect.flatMap(makeAuthenticate(service), (authenticate) => requestAuthenticatorOf(service, authenticate))

/**
 * The request side of an authenticate function (a key's, an OAuth token's): the presented bearer
 * in, the budget headers and the usage tally on every answer out.
 */
export const requestAuthenticatorOf = (service: ServiceName, authenticate: Authenticate) =>
  Effect.gen(function* () {
    const batcher = yield* UsageBatcher
    const authenticator: RequestAuthenticator = (request) =>
      Effect.flatMap(
        Effect.catch(authenticate(presentedKey(request), clientIp(request)), (e) =>
          // A refused key and a spent address budget still report that budget, as every answer does.
          "budget" in e && e.budget !== undefined
            ? Effect.andThen(reportBudget(e.budget), Effect.fail(e))
            : Effect.fail(e)
        ),
        ({ principal, decision }) => {
          const now = new Date()
          const tally = HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.as(
              batcher.add({
                tenantId: principal.tenant,
                service,
                keyId: principal.keyId,
                status: response.status,
                at: now
              }),
              HttpServerResponse.setHeaders(response, rateLimitHeaders(decision))
            )
          )
          return Effect.andThen(
            // The request's span names its workspace (an id, never the key); a no-op with tracing off.
            Effect.andThen(tally, Effect.annotateCurrentSpan("folio.workspace.id", principal.tenant)),
            decision.allowed
              ? Effect.succeed(principal)
              : Effect.fail(
                  new RateLimited({
                    message: "rate limit exceeded for this API key",
                    retryAfterSeconds: decision.resetSeconds,
                    budget: decision
                  })
                )
          )
        }
      )
    return authenticator
  })

/**
 * The caller of a keyed request the service's guard has already authenticated (and charged), before
 * reading its body: the security middleware takes it from here instead of authenticating again.
 */
export class GuardAuthenticated extends Context.Service<GuardAuthenticated, PrincipalShape>()(
  "@folio/adapters-http/GuardAuthenticated"
) {}

/**
 * The bearer handler of a service's HttpApi security middleware: the request's Principal provided to
 * the endpoint, every authentication failure as the service's REST error (its table has their rows).
 */
export const bearerMiddleware = <
  E extends Tagged,
  C extends Codes,
  R extends Rows<E | AuthenticationError, keyof C & string>
>(
  service: ServiceName,
  errors: ErrorSurface<E | AuthenticationError, C, R>
) =>
  Effect.map(
    makeRequestAuthenticator(service),
    (authenticate) =>
      <A, X, Req>(httpEffect: Effect.Effect<A, X, Req>) =>
        Effect.flatMap(Effect.serviceOption(GuardAuthenticated), (already) =>
          Option.isSome(already)
            ? Effect.provideService(httpEffect, Principal, already.value)
            : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
                Effect.flatMap(
                  Effect.catch(authenticate(request), (e) => errors.fail(e)),
                  (principal) => Effect.provideService(httpEffect, Principal, principal)
                )
              )
        )
  )

/** The scope check of an operation: InsufficientScope naming what is missing, or nothing. */
export const scopeFailure = (
  principal: PrincipalShape,
  required: ReadonlyArray<string>
): InsufficientScope | undefined => {
  const missing = missingScopes(principal, required)
  return missing.length === 0
    ? undefined
    : new InsufficientScope({
        message: `this API key lacks the scope ${missing.join(", ")}`,
        requiredScopes: required
      })
}

/** Fails with InsufficientScope unless the caller holds every one of `scopes`. */
export const requireScopes = (
  ...scopes: ReadonlyArray<string>
): Effect.Effect<void, InsufficientScope, Principal> =>
  Effect.flatMap(Effect.service(Principal), (principal) => {
    const failure = scopeFailure(principal, scopes)
    return failure === undefined ? Effect.void : Effect.fail(failure)
  })
