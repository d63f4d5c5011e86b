// Deletes blob objects no row names once they are older than the grace, at start and then hourly,
// in every app instance. A blob is written before the row that names it commits (a crash between
// the two leaves an orphan); the grace is what keeps a write still in flight from being taken for
// one. Several instances sweeping at once is safe: each key is asked about again before its
// delete, and deleting an object twice is no error.
import { deleteOrphanBlobs } from "@folio/domain"
import { Duration, Effect, Layer, Schedule } from "effect"

export const ORPHAN_SWEEP_INTERVAL = Duration.hours(1)

export const orphanSweep = (graceMs: number, every: Duration.Input = ORPHAN_SWEEP_INTERVAL) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const sweep = deleteOrphanBlobs(graceMs).pipe(
        Effect.tap((deleted) =>
          deleted > 0 ? Effect.logInfo("orphan blobs deleted", { deleted }) : Effect.void
        ),
        Effect.catch(() => Effect.logWarning("orphan blob sweep failed; the next round tries again"))
      )
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(every)))
    })
  )
