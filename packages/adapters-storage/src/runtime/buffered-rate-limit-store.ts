// A RateLimitStore decorator that keeps the request path off the database: the first hit of a
// bucket in a window goes to the shared store (so a fresh process learns the global count), later
// hits are counted in memory on top of the last known total and written in batches every 100 ms;
// each batch also reads back the shared totals of the windows hit in the last second, so a process
// learns the other processes' hits. One process enforces its budgets exactly; several processes on one
// database see each other's hits within about two flush intervals. Pending hits are flushed when the
// process stops.
import { type RateLimitHit, RateLimitStore } from "@folio/domain"
import { Effect, Layer, Schedule } from "effect"

export const RATE_LIMIT_FLUSH_MS = 100

interface Window {
  readonly bucket: string
  readonly start: number
  readonly windowMs: number
  /** The shared total last read from the store (it includes our flushed hits). */
  known: number
  /** Hits counted here and not yet written. */
  pending: number
  /** When this process last counted a hit in the window. */
  lastHit: number
}

/** Windows hit this recently are read back on each flush, to learn other processes' hits. */
const REFRESH_RECENT_MS = 1_000

export const BufferedRateLimitStoreLive = Layer.effect(
  RateLimitStore,
  Effect.gen(function* () {
    const inner = yield* RateLimitStore
    const windows = new Map<string, Window>()
    const keyOf = (bucket: string, start: number) => `${start}|${bucket}`
    const startOf = (windowMs: number, nowMs: number) => Math.floor(nowMs / windowMs) * windowMs
    const view = (w: Window): RateLimitHit => ({ count: w.known + w.pending, resetAt: w.start + w.windowMs })

    const flush = Effect.suspend(() => {
      const now = Date.now()
      // Pending hits to write, and recently hit windows to read back (a zero add returns the total).
      const due = [...windows.values()].filter(
        (w) => w.pending > 0 || (now - w.lastHit < REFRESH_RECENT_MS && w.start + w.windowMs > now)
      )
      if (due.length === 0) return Effect.void
      const groups = new Map<string, Array<Window>>()
      for (const w of due) {
        const g = `${w.start}|${w.windowMs}`
        groups.set(g, [...(groups.get(g) ?? []), w])
      }
      return Effect.forEach(
        [...groups.values()],
        (group) => {
          const sent = group.map((w) => w.pending)
          const first = group[0] as Window
          return inner
            .addMany(
              group.map((w, i) => ({ bucket: w.bucket, hits: sent[i] ?? 0 })),
              first.windowMs,
              first.start
            )
            .pipe(
              Effect.map((totals) =>
                group.forEach((w, i) => {
                  // The returned total includes what was sent; hits counted meanwhile stay pending.
                  w.pending -= sent[i] ?? 0
                  w.known = totals[i]?.count ?? w.known + (sent[i] ?? 0)
                })
              ),
              Effect.catch((e) => Effect.logWarning("rate-limit hits not written; retrying", e))
            )
        },
        { discard: true }
      )
    })

    const prune = (nowMs: number) =>
      Effect.sync(() => {
        for (const [k, w] of windows) if (w.pending === 0 && w.start + w.windowMs < nowMs) windows.delete(k)
      })

    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.andThen(
          flush,
          Effect.flatMap(
            Effect.clockWith((c) => c.currentTimeMillis),
            prune
          )
        ),
        Schedule.spaced(`${RATE_LIMIT_FLUSH_MS} millis`)
      )
    )
    yield* Effect.addFinalizer(() => flush)

    /**
     * Counts one hit on every bucket whose window is known here, except those in `counted` (their
     * hit is in the total just read from the shared store); `counted` is used up.
     */
    const countLocally = (buckets: ReadonlyArray<string>, start: number, counted: Set<string>) =>
      buckets.map((bucket) => {
        const w = windows.get(keyOf(bucket, start)) as Window
        w.lastHit = Date.now()
        if (counted.has(bucket)) counted.delete(bucket)
        else w.pending += 1
        return view(w)
      })

    const hitMany = (buckets: ReadonlyArray<string>, windowMs: number, nowMs: number) =>
      Effect.suspend(() => {
        const start = startOf(windowMs, nowMs)
        const unknown = [...new Set(buckets.filter((b) => !windows.has(keyOf(b, start))))]
        // The request path: every window already known, so no round trip and no fiber work.
        if (unknown.length === 0) return Effect.succeed(countLocally(buckets, start, new Set()))
        return Effect.map(inner.hitMany(unknown, windowMs, nowMs), (fresh) => {
          unknown.forEach((bucket, i) => {
            const existing = windows.get(keyOf(bucket, start))
            const count = fresh[i]?.count ?? 1
            // A concurrent first hit may have registered the window meanwhile: keep the larger total.
            if (existing === undefined)
              windows.set(keyOf(bucket, start), {
                bucket,
                start,
                windowMs,
                known: count,
                pending: 0,
                lastHit: nowMs
              })
            else existing.known = Math.max(existing.known, count)
          })
          return countLocally(buckets, start, new Set(unknown))
        })
      })

    return RateLimitStore.of({
      hitMany,
      hit: (bucket, windowMs, nowMs) =>
        Effect.map(hitMany([bucket], windowMs, nowMs), (hits) => hits[0] as RateLimitHit),
      addMany: inner.addMany,
      peek: (bucket, windowMs, nowMs) => {
        const w = windows.get(keyOf(bucket, startOf(windowMs, nowMs)))
        return w === undefined ? inner.peek(bucket, windowMs, nowMs) : Effect.succeed(view(w))
      }
    })
  })
)
