// The public respondent routes carry no API key, so they are budgeted per client address: every
// request (read, start, save, complete, upload) counts, and a client over budget gets 429 with
// Retry-After before any work is done.
import { RateLimitStore, spendRespondentBudget } from "@folio/domain"
import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { clientIp } from "../../shared/index.js"
import { errorsOf, FormsErrors } from "../errors.js"

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
        yield* spendRespondentBudget(limits, clientIp(request)).pipe(Effect.catch(FormsErrors.fail))
        return yield* httpEffect
      })
    )
  })
)
