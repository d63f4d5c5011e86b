// The budget headers every keyed answer carries, on every service: the limit, what is left and when
// the window resets, with Retry-After only once the key is over its budget.
import type { RateDecision } from "@folio/domain"

export const rateLimitHeaders = (d: RateDecision): Record<string, string> => {
  const headers: Record<string, string> = {
    "x-ratelimit-limit": String(d.limit),
    "x-ratelimit-remaining": String(d.remaining),
    "x-ratelimit-reset": String(d.resetSeconds)
  }
  if (!d.allowed) headers["retry-after"] = String(d.resetSeconds)
  return headers
}
