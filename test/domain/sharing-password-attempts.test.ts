// The guessing budget of the sharing service's public passwords, on the memory RateLimitStore:
// ten attempts per protected thing and client address in a window, the eleventh refused with the
// seconds left, and a fresh budget once the window has passed.
import { MemoryStorageLive } from "@folio/adapters-storage"
import {
  PASSWORD_ATTEMPT_WINDOW_MS,
  PASSWORD_ATTEMPTS,
  RateLimitStore,
  spendPasswordAttempt
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { describe, expect } from "vitest"

const spend = (id: string, client: string, nowMs: number) =>
  Effect.flatMap(Effect.service(RateLimitStore), (limits) =>
    Effect.result(spendPasswordAttempt(limits, "upload_request", id, client, nowMs))
  )

describe("spendPasswordAttempt", () => {
  it.effect("refuses the eleventh attempt of a window and allows again once it has passed", () =>
    Effect.gen(function* () {
      const start = 7 * PASSWORD_ATTEMPT_WINDOW_MS + 1_000
      for (let i = 0; i < PASSWORD_ATTEMPTS; i++)
        expect(Result.isSuccess(yield* spend("req-1", "192.0.2.1", start + i))).toBe(true)
      const refused = yield* spend("req-1", "192.0.2.1", start + 60_000)
      expect(Result.isFailure(refused)).toBe(true)
      if (Result.isFailure(refused)) {
        expect(refused.failure._tag).toBe("RateLimited")
        if (refused.failure._tag === "RateLimited")
          expect(refused.failure.retryAfterSeconds).toBe((PASSWORD_ATTEMPT_WINDOW_MS - 61_000) / 1000)
      }
      // Another address, or another request, has its own budget.
      expect(Result.isSuccess(yield* spend("req-1", "192.0.2.2", start + 60_000))).toBe(true)
      expect(Result.isSuccess(yield* spend("req-2", "192.0.2.1", start + 60_000))).toBe(true)
      // The next window starts fresh.
      expect(
        Result.isSuccess(yield* spend("req-1", "192.0.2.1", start - 1_000 + PASSWORD_ATTEMPT_WINDOW_MS))
      ).toBe(true)
    }).pipe(Effect.provide(MemoryStorageLive))
  )
})
