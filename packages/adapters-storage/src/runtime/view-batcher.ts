// ViewCounter in memory: views are deduplicated per visitor and resource for VIEW_DEDUP_WINDOW_MS
// (in this process; a visitor switching instances within the window may count twice), summed per
// resource, and written with ResourceRepository.addViews every second and when the scope closes.
// A failed write keeps its counts for the next flush, so a database hiccup loses no views.
import { ResourceRepository, VIEW_DEDUP_WINDOW_MS, ViewCounter } from "@folio/domain"
import { Effect, Layer, Schedule, Semaphore } from "effect"

/** Visitor-and-resource pairs remembered for deduplication; the oldest go first beyond this. */
export const MAX_REMEMBERED_VISITS = 200_000

export const ViewBatcherLive = Layer.effect(
  ViewCounter,
  Effect.gen(function* () {
    const resources = yield* ResourceRepository
    let pending = new Map<string, number>()
    // The batch being written: still pending for `max_views` until the write lands.
    let inFlight: ReadonlyMap<string, number> = new Map()
    // Insertion order is expiry order: every entry lives the same window and a renewal re-inserts.
    const seen = new Map<string, number>()

    const merge = (into: Map<string, number>, from: ReadonlyMap<string, number>) => {
      for (const [id, n] of from) into.set(id, (into.get(id) ?? 0) + n)
    }
    // One flush at a time (the loop's and shutdown's), each run to its end: an interrupted write
    // would lose its batch.
    const lock = Semaphore.makeUnsafe(1)
    const flushOnce = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const batch = pending
      pending = new Map()
      inFlight = batch
      return resources.addViews(batch).pipe(
        Effect.catch((e) =>
          Effect.andThen(
            Effect.sync(() => merge(pending, batch)),
            Effect.logWarning("views not written; kept for the next flush", e)
          )
        ),
        Effect.ensuring(Effect.sync(() => (inFlight = new Map())))
      )
    })
    const flush = Effect.uninterruptible(lock.withPermit(flushOnce))
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced("1 second")))
    yield* Effect.addFinalizer(() => flush)

    const recordNow = (resourceId: string, visitorId: string, atMs: number): boolean => {
      // Forget what expired (from the oldest end), and the oldest beyond the bound.
      for (const [key, until] of seen) {
        if (until > atMs && seen.size < MAX_REMEMBERED_VISITS) break
        seen.delete(key)
      }
      const key = `${resourceId}|${visitorId}`
      const until = seen.get(key)
      if (until !== undefined && until > atMs) return false
      seen.delete(key)
      seen.set(key, atMs + VIEW_DEDUP_WINDOW_MS)
      pending.set(resourceId, (pending.get(resourceId) ?? 0) + 1)
      return true
    }

    return ViewCounter.of({
      record: (resourceId, visitorId, atMs) => Effect.sync(() => recordNow(resourceId, visitorId, atMs)),
      recordNow,
      pending: (resourceId) => (pending.get(resourceId) ?? 0) + (inFlight.get(resourceId) ?? 0),
      flush
    })
  })
)
