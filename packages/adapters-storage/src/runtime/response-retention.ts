// Deletes responses past their form's research retention (with their files) now and then, in every
// app instance: each delete is its own transaction and skips a response another instance took first.
import { purgeExpiredResponses } from "@folio/domain"
import { Duration, Effect, Layer, Schedule } from "effect"

export const RESPONSE_RETENTION_INTERVAL = Duration.hours(1)

export const responseRetention = (every: Duration.Input = RESPONSE_RETENTION_INTERVAL) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const sweep = purgeExpiredResponses().pipe(
        Effect.tap((deleted) =>
          deleted > 0
            ? Effect.logInfo("responses past their research retention deleted", { deleted })
            : Effect.void
        ),
        Effect.catch(() => Effect.logWarning("research retention sweep failed; the next round tries again"))
      )
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(every)))
    })
  )

export const ResponseRetentionLive = responseRetention()
