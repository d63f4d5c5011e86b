// The public respondent routes carry no API key, so they are budgeted per client address: every
// request (read, start, save, complete, upload) counts, and a client over budget gets 429 with
// Retry-After before any work is done.
import {
  decideRate,
  RATE_WINDOW_MS,
  RateLimitStore,
  RESPONDENT_REQUESTS_PER_MINUTE,
  respondentBucket
} from "@folio/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { InternalError, internal, RateLimitedError, rateLimited } from "../errors.js"

export const RespondentRateLimitPolicy = Context.Reference<{ readonly perIpPerMinute: number }>(
  "@folio/adapters-http/RespondentRateLimitPolicy",
  { defaultValue: () => ({ perIpPerMinute: RESPONDENT_REQUESTS_PER_MINUTE }) }
)

export class RespondentRateLimit extends HttpApiMiddleware.Service<RespondentRateLimit>()(
  "RespondentRateLimit",
  {
    error: [RateLimitedError, InternalError]
  }
) {}

export const RespondentRateLimitLive = Layer.effect(
  RespondentRateLimit,
  Effect.gen(function* () {
    const limits = yield* RateLimitStore
    return RespondentRateLimit.of((httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const policy = yield* RespondentRateLimitPolicy
        const now = yield* Clock.currentTimeMillis
        const ip = Option.getOrElse(request.remoteAddress, () => "unknown")
        const hit = yield* limits
          .hit(respondentBucket(ip), RATE_WINDOW_MS, now)
          .pipe(
            Effect.catchTag("StorageError", (e) =>
              Effect.andThen(
                Effect.logError("respondent rate limit storage failure", e),
                Effect.fail(internal())
              )
            )
          )
        const d = decideRate(hit.count, policy.perIpPerMinute, hit.resetAt, now)
        if (!d.allowed) {
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(d.resetSeconds)))
          )
          return yield* Effect.fail(
            rateLimited("too many requests from this address; try again later", d.resetSeconds)
          )
        }
        return yield* httpEffect
      })
    )
  })
)
