// Forgets idempotency keys past their 24 hours, now and then, in every app instance (the delete is
// one statement on an indexed column, so instances doing it at once cost nothing). Expired keys are
// already ignored by `claim`; this only keeps the table from growing without end.
import { IdempotencyStore } from "@folio/domain"
import { Clock, Duration, Effect, Layer, Schedule } from "effect"

export const IDEMPOTENCY_PURGE_INTERVAL = Duration.hours(1)

export const idempotencyHousekeeping = (every: Duration.Input = IDEMPOTENCY_PURGE_INTERVAL) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const purge = Effect.flatMap(Clock.currentTimeMillis, (now) => store.purgeExpired(new Date(now))).pipe(
        Effect.catch((e) =>
          Effect.logWarning("expired idempotency keys not purged; next round tries again", e)
        )
      )
      yield* Effect.forkScoped(Effect.repeat(purge, Schedule.spaced(every)))
    })
  )

export const IdempotencyHousekeepingLive = idempotencyHousekeeping()
