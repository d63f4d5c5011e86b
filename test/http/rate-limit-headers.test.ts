// The budget headers every keyed answer carries: the limit, what is left and when the window
// resets, with Retry-After only once the key is over its budget.
import { rateLimitHeaders } from "@folio/adapters-http/shared"
import { decideRate } from "@folio/domain"
import { describe, expect, it } from "vitest"

describe("rate-limit headers", () => {
  it("carry the budget on every answer and Retry-After only once the key is over it", () => {
    const resetAt = 30_500
    expect(rateLimitHeaders(decideRate(120, 120, resetAt, 0))).toEqual({
      "x-ratelimit-limit": "120",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "31"
    })
    expect(rateLimitHeaders(decideRate(121, 120, resetAt, 0))).toEqual({
      "x-ratelimit-limit": "120",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "31",
      "retry-after": "31"
    })
  })
})
