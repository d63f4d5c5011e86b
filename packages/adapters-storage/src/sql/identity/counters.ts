// RateLimitStore and UsageStore over SQL, so every app instance on the same database shares one
// budget per key and one set of usage counts (and the keys' last use, written with the counts).
import { SqlClient } from "effect/sql"
import { RateLimitStore, UsageStore } from "@folio/domain"
import { Array as Arr, Effect } from "effect"
import { orStorageError } from "../errors.js"

const MINUTE = 60_000
const DAY = 86_400_000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const statusClass = (status: number): number => Math.min(5, Math.max(1, Math.floor(status / 100)))

export const makeRateLimitStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  let hitsSinceSweep = 0
  return RateLimitStore.of({
    hitMany: (buckets, windowMs, nowMs) =>
      orStorageError(
        Effect.gen(function* () {
          const start = new Date(Math.floor(nowMs / windowMs) * windowMs)
          const inserts = [...new Set(buckets)].map((bucket) => ({ bucket, window_start: start, hits: 1 }))
          if (!Arr.isArrayNonEmpty(inserts)) return []
          const rows = yield* sql<{ readonly bucket: string; readonly hits: number }>`
            insert into rate_limit_windows
            ${sql.insert(inserts)}
            on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
            returning bucket, hits`
          const resetAt = start.getTime() + windowMs
          return buckets.map((b) => ({ count: rows.find((r) => r.bucket === b)?.hits ?? 1, resetAt }))
        })
      ),
    addMany: (entries, windowMs, nowMs) =>
      orStorageError(
        Effect.gen(function* () {
          const start = new Date(Math.floor(nowMs / windowMs) * windowMs)
          const merged = new Map<string, number>()
          for (const e of entries) merged.set(e.bucket, (merged.get(e.bucket) ?? 0) + e.hits)
          // Rows in key order, so concurrent flushes lock shared rows in the same order.
          const inserts = [...merged]
            .filter(([, hits]) => hits > 0)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([bucket, hits]) => ({ bucket, window_start: start, hits }))
          // A zero add only reads the total back (hits must be positive in a row).
          const reads = [...merged].filter(([, hits]) => hits === 0).map(([bucket]) => bucket)
          const written = Arr.isArrayNonEmpty(inserts)
            ? yield* sql<{ readonly bucket: string; readonly hits: number }>`
                insert into rate_limit_windows
                ${sql.insert(inserts)}
                on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
                returning bucket, hits`
            : []
          const read =
            reads.length > 0
              ? yield* sql<{ readonly bucket: string; readonly hits: number }>`
                  select bucket, hits from rate_limit_windows
                  where window_start = ${start} and bucket in ${sql.in(reads)}`
              : []
          const rows = [...written, ...read]
          const resetAt = start.getTime() + windowMs
          return entries.map((e) => ({
            count: rows.find((r) => r.bucket === e.bucket)?.hits ?? e.hits,
            resetAt
          }))
        })
      ),
    hit: (bucket, windowMs, nowMs) =>
      orStorageError(
        Effect.gen(function* () {
          const start = Math.floor(nowMs / windowMs) * windowMs
          const rows = yield* sql<{ readonly hits: number }>`
            insert into rate_limit_windows (bucket, window_start, hits)
            values (${bucket}, ${new Date(start)}, 1)
            on conflict (bucket, window_start) do update set hits = rate_limit_windows.hits + 1
            returning hits`
          // Windows that ended are garbage; sweep them now and then rather than on every hit.
          if (++hitsSinceSweep >= 1000) {
            hitsSinceSweep = 0
            yield* sql`delete from rate_limit_windows where window_start < ${new Date(start - 10 * windowMs)}`
          }
          return { count: rows[0]?.hits ?? 1, resetAt: start + windowMs }
        })
      ),
    peek: (bucket, windowMs, nowMs) =>
      orStorageError(
        Effect.gen(function* () {
          const start = Math.floor(nowMs / windowMs) * windowMs
          const rows = yield* sql<{ readonly hits: number }>`
            select hits from rate_limit_windows where bucket = ${bucket} and window_start = ${new Date(start)}`
          return { count: rows[0]?.hits ?? 0, resetAt: start + windowMs }
        })
      )
  })
})

export const makeUsageStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return UsageStore.of({
    record: (r) =>
      orStorageError(
        sql`insert into request_minutes (workspace_id, service, minute, status_class, requests)
            values (${r.tenantId}, ${r.service}, ${new Date(Math.floor(r.at.getTime() / MINUTE) * MINUTE)},
                    ${statusClass(r.status)}, 1)
            on conflict (workspace_id, service, minute, status_class)
            do update set requests = request_minutes.requests + 1`.pipe(Effect.asVoid)
      ),
    recordMany: (tallies) =>
      orStorageError(
        Effect.gen(function* () {
          // One row per (workspace, service, minute, class), so the upsert never touches a row twice.
          const merged = new Map<
            string,
            { tenantId: string; service: string; minute: Date; statusClass: number; count: number }
          >()
          for (const t of tallies) {
            const minute = new Date(Math.floor(t.at.getTime() / MINUTE) * MINUTE)
            const key = `${t.tenantId}|${t.service}|${minute.getTime()}|${statusClass(t.status)}`
            const entry = merged.get(key)
            if (entry === undefined)
              merged.set(key, {
                tenantId: t.tenantId,
                service: t.service,
                minute,
                statusClass: statusClass(t.status),
                count: t.count
              })
            else entry.count += t.count
          }
          const rows = [...merged.values()].map((m) => ({
            workspace_id: m.tenantId,
            service: m.service,
            minute: m.minute,
            status_class: m.statusClass,
            requests: m.count
          }))
          if (!Arr.isArrayNonEmpty(rows)) return
          // Each key's latest use in the batch: its last_used_at moves forward in the same flush, so
          // the console shows when a key was last used without a write per request.
          const lastUse = new Map<string, Date>()
          for (const t of tallies) {
            if (!UUID.test(t.keyId)) continue
            const seen = lastUse.get(t.keyId)
            if (seen === undefined || seen < t.at) lastUse.set(t.keyId, t.at)
          }
          const uses = [...lastUse].map(([id, at]) => ({ id, at: at.toISOString() }))
          yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`insert into request_minutes ${sql.insert(rows)}
                         on conflict (workspace_id, service, minute, status_class)
                         do update set requests = request_minutes.requests + excluded.requests`
              if (uses.length === 0) return
              // Only keys whose time moves are written (once a minute at most: tallies are per
              // minute), their rows locked in id order so concurrent flushes cannot deadlock.
              yield* sql`
                with used as (
                  select (e ->> 'id')::uuid as id, (e ->> 'at')::timestamptz as at
                  from jsonb_array_elements(${JSON.stringify(uses)}::jsonb) e
                ), due as (
                  select k.id, used.at from api_keys k join used on used.id = k.id
                  where k.last_used_at is null or k.last_used_at < used.at
                  order by k.id
                  for update of k
                )
                update api_keys k set last_used_at = greatest(coalesce(k.last_used_at, due.at), due.at)
                from due where k.id = due.id`
            })
          )
        })
      ),
    counts: (tenantId, service, now) =>
      orStorageError(
        Effect.gen(function* () {
          const t = now.getTime()
          // Minute buckets: a bucket counts when its minute began inside the window.
          const rows = yield* sql<{
            readonly status_class: number
            readonly day: number
            readonly week: number
          }>`
            select status_class,
                   coalesce(sum(requests) filter (where minute > ${new Date(t - DAY)}), 0)::int as day,
                   sum(requests)::int as week
            from request_minutes
            where workspace_id = ${tenantId} and service = ${service}
              and minute > ${new Date(t - 7 * DAY)} and minute <= ${now}
            group by status_class`
          const day = (pred: (c: number) => boolean) =>
            rows.filter((r) => pred(r.status_class)).reduce((n, r) => n + r.day, 0)
          return {
            last24h: day(() => true),
            last7d: rows.reduce((n, r) => n + r.week, 0),
            byStatusLast24h: {
              ok: day((c) => c <= 3),
              clientError: day((c) => c === 4),
              serverError: day((c) => c === 5)
            }
          }
        })
      )
  })
})
