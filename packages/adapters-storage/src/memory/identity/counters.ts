// In-memory RateLimitStore and UsageStore: the twins of sql/identity/counters.ts (fixed-window counters and
// per-request tallies kept eight days; a flush moves its keys' last use forward).
import { RateLimitStore, type RequestTally, UsageStore } from "@folio/domain"
import { Effect, Layer } from "effect"
import { MemoryStore } from "../store.js"

const windowOf = (windowMs: number, nowMs: number) => Math.floor(nowMs / windowMs) * windowMs

export const makeRateLimitStore = Effect.map(Effect.service(MemoryStore), ({ counters }) => {
  const hitNow = (bucket: string, windowMs: number, nowMs: number) => {
    const start = windowOf(windowMs, nowMs)
    const id = `${bucket}@${start}`
    const count = (counters.get(id) ?? 0) + 1
    counters.set(id, count)
    return { count, resetAt: start + windowMs }
  }
  return RateLimitStore.of({
    hitMany: (buckets, windowMs, nowMs) => Effect.sync(() => buckets.map((b) => hitNow(b, windowMs, nowMs))),
    addMany: (entries, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        for (const e of entries)
          counters.set(`${e.bucket}@${start}`, (counters.get(`${e.bucket}@${start}`) ?? 0) + e.hits)
        return entries.map((e) => ({
          count: counters.get(`${e.bucket}@${start}`) ?? 0,
          resetAt: start + windowMs
        }))
      }),
    hit: (bucket, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        const id = `${bucket}@${start}`
        const count = (counters.get(id) ?? 0) + 1
        counters.set(id, count)
        // Drop windows that ended, so the map stays as small as the set of active buckets.
        for (const key of counters.keys()) {
          const at = Number(key.slice(key.lastIndexOf("@") + 1))
          if (at + windowMs <= start) counters.delete(key)
        }
        return { count, resetAt: start + windowMs }
      }),
    peek: (bucket, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        return { count: counters.get(`${bucket}@${start}`) ?? 0, resetAt: start + windowMs }
      })
  })
})

const DAY = 86_400_000

export const makeUsageStore = Effect.map(Effect.service(MemoryStore), ({ requests, keys }) =>
  UsageStore.of({
    record: (request) => Effect.sync(() => void requests.push({ ...request, count: 1 })),
    recordMany: (tallies) =>
      Effect.sync(() => {
        requests.push(...tallies)
        // Each key's last use moves forward with the flush, as the SQL store does.
        for (const t of tallies) {
          const key = keys.get(t.keyId)
          if (key !== undefined && (key.lastUsedAt === null || key.lastUsedAt < t.at))
            keys.set(key.id, { ...key, lastUsedAt: t.at })
        }
        const latest = Math.max(...tallies.map((t) => t.at.getTime()))
        const horizon = latest - 8 * DAY
        for (let i = requests.length - 1; i >= 0; i--)
          if ((requests[i]?.at.getTime() ?? 0) < horizon) requests.splice(i, 1)
      }),
    counts: (tenantId, service, now) =>
      Effect.sync(() => {
        const t = now.getTime()
        const mine = requests.filter(
          (r) => r.tenantId === tenantId && r.service === service && r.at.getTime() <= t
        )
        const day = mine.filter((r) => r.at.getTime() > t - DAY)
        const sum = (rows: ReadonlyArray<RequestTally>) => rows.reduce((n, r) => n + r.count, 0)
        return {
          last24h: sum(day),
          last7d: sum(mine.filter((r) => r.at.getTime() > t - 7 * DAY)),
          byStatusLast24h: {
            ok: sum(day.filter((r) => r.status < 400)),
            clientError: sum(day.filter((r) => r.status >= 400 && r.status < 500)),
            serverError: sum(day.filter((r) => r.status >= 500))
          }
        }
      })
  })
)

export const MemoryRateLimitStoreLive = Layer.effect(RateLimitStore, makeRateLimitStore)
export const MemoryUsageStoreLive = Layer.effect(UsageStore, makeUsageStore)
