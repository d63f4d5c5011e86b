// JobQueue over SQL: a claim is one UPDATE over rows picked with FOR UPDATE SKIP LOCKED, so
// concurrent workers (of any instance) never take the same job; leases are checked against the
// database's clock, so instances need not agree on theirs; only a lease holder can finish a job.
import {
  type JobError,
  type JobPayload,
  JobAlreadyActive,
  JobQueue,
  type JobRecord,
  type JobType,
  type NewJob,
  isUuid
} from "@folio/domain"
import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { isUniqueViolation, orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"
import { timeIdCursor, toPage } from "../keyset.js"
import { currentTraceparent } from "../../runtime/trace-context.js"

interface JobRow {
  readonly id: string
  readonly tenant_id: string
  readonly type: JobRecord["type"]
  readonly resource_id: string | null
  readonly dedupe_key: string
  readonly payload: JobPayload
  readonly status: JobRecord["status"]
  readonly attempts: number
  readonly max_attempts: number
  readonly run_at: Date
  readonly lease_owner: string | null
  readonly lease_expires_at: Date | null
  readonly result: JobPayload | null
  readonly error: JobError | null
  readonly retry_of: string | null
  readonly created_at: Date
  readonly started_at: Date | null
  readonly finished_at: Date | null
  readonly traceparent: string | null
}

const toJob = (r: JobRow): JobRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  type: r.type,
  resourceId: r.resource_id,
  dedupeKey: r.dedupe_key,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  runAt: r.run_at,
  leaseOwner: r.lease_owner,
  leaseExpiresAt: r.lease_expires_at,
  result: r.result,
  error: r.error,
  retryOf: r.retry_of,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  traceparent: r.traceparent
})

/**
 * Inserts a queued job with the caller's connection: inside a transaction it commits or rolls back
 * with the change that caused it. A second active job with the same key is JobAlreadyActive.
 */
export const insertJob = (sql: SqlClient.SqlClient, job: NewJob) =>
  Effect.suspend(
    () => sql<JobRow>`
    insert into jobs (id, tenant_id, type, resource_id, dedupe_key, payload, status, attempts, max_attempts,
                      run_at, retry_of, created_at, traceparent)
    values (${job.id}, ${job.tenantId}, ${job.type}, ${job.resourceId}, ${job.dedupeKey},
            ${jsonParam(job.payload)}::jsonb, 'queued', 0, ${job.maxAttempts}, ${job.runAt}, ${job.retryOf},
            ${job.createdAt}, ${currentTraceparent()})
    returning *`
  ).pipe(
    Effect.map((rows) => toJob(rows[0] as JobRow)),
    Effect.catchTag(
      "SqlError",
      (error): Effect.Effect<never, JobAlreadyActive | SqlError.SqlError> =>
        isUniqueViolation(error, "jobs_one_active")
          ? Effect.fail(new JobAlreadyActive(null))
          : Effect.fail(error)
    )
  )

export const makeJobQueue = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const activeJobId = (tenantId: string, dedupeKey: string) =>
    sql<{
      readonly id: string
    }>`select id from jobs where tenant_id = ${tenantId} and dedupe_key = ${dedupeKey}
                                 and status in ('queued', 'running')`.pipe(
      Effect.map((rows) => rows[0]?.id ?? null)
    )

  return JobQueue.of({
    enqueue: (job) =>
      orStorageError(
        insertJob(sql, job).pipe(
          Effect.catchTag("JobAlreadyActive", () =>
            Effect.flatMap(activeJobId(job.tenantId, job.dedupeKey), (id) =>
              Effect.fail(new JobAlreadyActive(id))
            )
          )
        )
      ),

    get: (tenantId, id) =>
      isUuid(id)
        ? orStorageError(
            sql<JobRow>`select * from jobs where id = ${id} and tenant_id = ${tenantId}`.pipe(
              Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toJob))
            )
          )
        : Effect.succeed(Option.none()),

    list: (tenantId, query) =>
      orStorageError(
        Effect.gen(function* () {
          const after = yield* timeIdCursor.decode(query.cursor)
          const rows = yield* sql<JobRow>`
            select * from jobs where tenant_id = ${tenantId}
              ${query.status === undefined ? sql`` : sql`and status = ${query.status}`}
              ${query.type === undefined ? sql`` : sql`and type = ${query.type}`}
              ${
                query.types === undefined
                  ? sql``
                  : query.types.length === 0
                    ? sql`and false`
                    : sql`and type in ${sql.in(query.types)}`
              }
              ${after === undefined ? sql`` : sql`and (created_at, id) < (${new Date(after.at)}, ${after.id})`}
            order by created_at desc, id desc limit ${query.limit + 1}`
          return toPage(rows, query.limit, toJob, (r) => timeIdCursor.encode(r.created_at, r.id))
        })
      ),

    latestFor: (tenantId, resourceId, type) =>
      orStorageError(
        sql<JobRow>`select * from jobs where tenant_id = ${tenantId} and resource_id = ${resourceId}
                    and type = ${type} order by id desc limit 1`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toJob))
        )
      ),

    claim: (worker, limit, leaseMs) =>
      orStorageError(
        Effect.gen(function* () {
          // Lapsed leases first: the job goes back to the queue, or fails when that was its last
          // attempt. SKIP LOCKED: a job another claimer is looking at now is left to it.
          yield* sql`
            with lapsed as (
              select id from jobs where status = 'running' and lease_expires_at < now()
              order by lease_expires_at limit 100 for update skip locked
            )
            update jobs set
              status = case when attempts >= max_attempts then 'failed' else 'queued' end,
              error = ${jsonParam({ code: "lease_expired", message: "the worker running the job stopped answering" })}::jsonb,
              finished_at = case when attempts >= max_attempts then now() else null end,
              run_at = now(), lease_owner = null, lease_expires_at = null
            from lapsed where jobs.id = lapsed.id`
          if (limit <= 0) return []
          return yield* sql<JobRow>`
            with picked as (
              select id from jobs where status = 'queued' and run_at <= now()
              order by run_at, id limit ${limit} for update skip locked
            )
            update jobs set status = 'running', attempts = attempts + 1, lease_owner = ${worker},
              lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
              started_at = coalesce(started_at, now())
            from picked where jobs.id = picked.id
            returning jobs.*`.pipe(Effect.map((rows) => rows.map(toJob)))
        })
      ),

    renew: (worker, ids, leaseMs) => {
      const held = ids.filter(isUuid)
      if (held.length === 0) return Effect.succeed(ids)
      return orStorageError(
        sql<{ readonly id: string }>`
          update jobs set lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000})
          where id in ${sql.in(held)} and status = 'running' and lease_owner = ${worker}
          returning id`.pipe(
          Effect.map((rows) => {
            const renewed = new Set(rows.map((r) => r.id))
            return ids.filter((id) => !renewed.has(id))
          })
        )
      )
    },

    complete: (worker, id, completion) =>
      orStorageError(
        (completion.status === "queued"
          ? sql`update jobs set status = 'queued', error = ${jsonParam(completion.error)}::jsonb,
                  run_at = ${completion.runAt}, lease_owner = null, lease_expires_at = null
                where id = ${id} and status = 'running' and lease_owner = ${worker} returning id`
          : completion.status === "failed"
            ? sql`update jobs set status = 'failed', error = ${jsonParam(completion.error)}::jsonb,
                    finished_at = now(), lease_owner = null, lease_expires_at = null
                  where id = ${id} and status = 'running' and lease_owner = ${worker} returning id`
            : sql`update jobs set status = ${completion.status}, result = ${jsonParam(completion.result)}::jsonb,
                    error = null, finished_at = now(), lease_owner = null, lease_expires_at = null
                  where id = ${id} and status = 'running' and lease_owner = ${worker} returning id`
        ).pipe(Effect.map((rows) => rows.length > 0))
      ),

    release: (worker, ids) => {
      const held = ids.filter(isUuid)
      if (held.length === 0) return Effect.void
      return orStorageError(
        sql`update jobs set status = 'queued', attempts = greatest(attempts - 1, 0), run_at = now(),
              lease_owner = null, lease_expires_at = null
            where id in ${sql.in(held)} and status = 'running' and lease_owner = ${worker}`.pipe(
          Effect.asVoid
        )
      )
    },

    // Both statuses have a partial index (jobs_due, jobs_leased): the count reads only active jobs.
    depth: () =>
      orStorageError(
        sql<{ readonly type: JobType; readonly status: "queued" | "running"; readonly count: number }>`
          select type, status, count(*)::int as count from jobs
            where status in ('queued', 'running') group by type, status`
      )
  })
})
