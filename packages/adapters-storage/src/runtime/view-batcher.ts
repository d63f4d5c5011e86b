// ViewCounter in memory: views are summed per resource and written with ResourceRepository.addViews
// every second and when the scope closes. A failed write keeps its counts for the next flush, so a
// database hiccup loses no views. (Which requests are views, once per visit, the public pages
// decide with a cookie; nothing per visitor is kept here, so a burst of visitors costs no memory.)
import { randomUUID } from "node:crypto"
import { ResourceRepository, type SharingEventRecord, ViewCounter } from "@folio/domain"
import { Effect, Layer, Schedule, Semaphore } from "effect"

export const ViewBatcherLive = Layer.effect(
  ViewCounter,
  Effect.gen(function* () {
    const resources = yield* ResourceRepository
    let pending = new Map<string, number>()
    let clicks: Array<SharingEventRecord> = []
    // The batch being written: still pending for `max_views` until the write lands.
    let inFlight: ReadonlyMap<string, number> = new Map()

    const merge = (into: Map<string, number>, from: ReadonlyMap<string, number>) => {
      for (const [id, n] of from) into.set(id, (into.get(id) ?? 0) + n)
    }
    // One flush at a time (the loop's and shutdown's), each run to its end: an interrupted write
    // would lose its batch.
    const lock = Semaphore.makeUnsafe(1)
    const flushOnce = Effect.suspend(() => {
      if (pending.size === 0 && clicks.length === 0) return Effect.void
      const batch = pending
      const batchClicks = clicks
      pending = new Map()
      clicks = []
      inFlight = batch
      return resources.addViews(batch, batchClicks).pipe(
        Effect.catch((e) =>
          Effect.andThen(
            Effect.sync(() => {
              merge(pending, batch)
              clicks = [...batchClicks, ...clicks]
            }),
            Effect.logWarning("views not written; kept for the next flush", e)
          )
        ),
        Effect.ensuring(Effect.sync(() => (inFlight = new Map())))
      )
    })
    const flush = Effect.uninterruptible(lock.withPermit(flushOnce))
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced("1 second")))
    yield* Effect.addFinalizer(() => flush)

    const recordNow = (resourceId: string): void => {
      pending.set(resourceId, (pending.get(resourceId) ?? 0) + 1)
    }

    return ViewCounter.of({
      record: (resourceId) => Effect.sync(() => recordNow(resourceId)),
      recordNow,
      recordClick: (click) => {
        clicks.push({
          id: randomUUID(),
          tenantId: click.tenantId,
          type: "link.clicked",
          payload: {
            resource: { id: click.resourceId, slug: click.slug, type: "link" },
            destination: click.destination,
            clicked_at: click.at.toISOString()
          },
          createdAt: click.at
        })
      },
      pending: (resourceId) => (pending.get(resourceId) ?? 0) + (inFlight.get(resourceId) ?? 0),
      flush
    })
  })
)
