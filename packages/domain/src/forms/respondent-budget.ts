// The public respondent routes' budget: they carry no key, so they are counted per client address,
// in buckets of their own in the shared RateLimitStore (beside the keyed budgets of identity).
import { Clock, Context, Effect } from "effect"
import type { StorageError } from "../kernel/errors.js"
import { RateLimited } from "../kernel/errors.js"
import type { RateLimitStore } from "../identity/ports/rate-limit-store.js"
import { decideRate, RATE_WINDOW_MS } from "../identity/rate-limit.js"

/** The respondent bucket of a client address. */
export const respondentBucket = (ip: string): string => `respondent-ip:${ip}`
/** Default budget of the public respondent routes per client address and minute. */
export const RESPONDENT_REQUESTS_PER_MINUTE = 300

/** The budget per client address; a Reference so deployments can change it from configuration. */
export const RespondentRateLimitPolicy = Context.Reference<{ readonly perIpPerMinute: number }>(
  "@folio/domain/RespondentRateLimitPolicy",
  { defaultValue: () => ({ perIpPerMinute: RESPONDENT_REQUESTS_PER_MINUTE }) }
)

/**
 * Counts one request from `ip` against the respondent budget; over it, fails with RateLimited
 * before any work is done. Every request counts (read, start, save, complete, upload).
 */
export const spendRespondentBudget = (
  limits: RateLimitStore["Service"],
  ip: string
): Effect.Effect<void, RateLimited | StorageError> =>
  Effect.gen(function* () {
    const policy = yield* RespondentRateLimitPolicy
    const now = yield* Clock.currentTimeMillis
    const hit = yield* limits.hit(respondentBucket(ip), RATE_WINDOW_MS, now)
    const d = decideRate(hit.count, policy.perIpPerMinute, hit.resetAt, now)
    if (!d.allowed)
      return yield* new RateLimited({
        message: "too many requests from this address; try again later",
        retryAfterSeconds: d.resetSeconds
      })
  })
