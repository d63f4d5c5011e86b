// The public respondent routes carry no API key, so they are budgeted per client address: every
// request (read, start, save, complete, upload) counts, and a client over budget gets 429 with
// Retry-After before any work is done.
import {
  decideRate,
  RATE_WINDOW_MS,
  RateLimited,
  RateLimitStore,
  RESPONDENT_REQUESTS_PER_MINUTE,
  respondentBucket
} from "@folio/domain"
import { Clock, Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { clientIp } from "../../shared/index.js"
import { errorsOf, FormsErrors } from "../errors.js"

export const RespondentRateLimitPolicy = Context.Reference<{ readonly perIpPerMinute: number }>(
  "@folio/adapters-http/RespondentRateLimitPolicy",
  { defaultValue: () => ({ perIpPerMinute: RESPONDENT_REQUESTS_PER_MINUTE }) }
)

export class RespondentRateLimit extends HttpApiMiddleware.Service<RespondentRateLimit>()(
  "RespondentRateLimit",
  {
    error: errorsOf("rate_limited", "internal")
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
        const ip = clientIp(request)
        const hit = yield* limits
          .hit(respondentBucket(ip), RATE_WINDOW_MS, now)
          .pipe(Effect.catch(FormsErrors.fail))
        const d = decideRate(hit.count, policy.perIpPerMinute, hit.resetAt, now)
        if (!d.allowed) {
          return yield* FormsErrors.fail(
            new RateLimited({
              message: "too many requests from this address; try again later",
              retryAfterSeconds: d.resetSeconds
            })
          )
        }
        return yield* httpEffect
      })
    )
  })
)
