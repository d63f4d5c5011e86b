// In-memory JobQueue: the twin of sql/kernel/jobs.ts for one process (leases on this process's clock).
import {
  ACTIVE_JOB_STATUSES,
  decodeCursor,
  encodeCursor,
  InvalidCursor,
  JobAlreadyActive,
  type JobDepth,
  JobQueue,
  type JobRecord,
  type NewJob
} from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { toPage } from "../../paging.js"
import { currentTraceparent } from "../../runtime/trace-context.js"
import { MemoryStore } from "../store.js"

export const newJobRecord = (job: NewJob): JobRecord => ({
  ...job,
  status: "queued",
  attempts: 0,
  leaseOwner: null,
  leaseExpiresAt: null,
  result: null,
  error: null,
  startedAt: null,
  finishedAt: null,
  // The queuing span's context, as the SQL queue stores it.
  traceparent: currentTraceparent()
})

const newestFirst = (a: JobRecord, b: JobRecord) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export const MemoryJobQueueLive = Layer.effect(
  JobQueue,
  Effect.map(Effect.service(MemoryStore), ({ jobs }) => {
    const active = (tenantId: string, dedupeKey: string) =>
      [...jobs.values()].find(
        (j) => j.tenantId === tenantId && j.dedupeKey === dedupeKey && ACTIVE_JOB_STATUSES.includes(j.status)
      )
    const held = (worker: string, id: string) => {
      const job = jobs.get(id)
      return job !== undefined && job.status === "running" && job.leaseOwner === worker ? job : undefined
    }
    return JobQueue.of({
      enqueue: (job) =>
        Effect.suspend(() => {
          const existing = active(job.tenantId, job.dedupeKey)
          if (existing !== undefined) return Effect.fail(new JobAlreadyActive(existing.id))
          const record = newJobRecord(job)
          jobs.set(job.id, record)
          return Effect.succeed(record)
        }),
      get: (tenantId, id) =>
        Effect.sync(() => Option.filter(Option.fromNullishOr(jobs.get(id)), (j) => j.tenantId === tenantId)),
      list: (tenantId, query) =>
        Effect.suspend(() => {
          let after: string | undefined
          if (query.cursor !== undefined) {
            const position = decodeCursor(query.cursor)
            const [id, ...rest] = Option.getOrElse(position, () => [])
            if (typeof id !== "string" || rest.length > 0) return Effect.fail(new InvalidCursor())
            after = id
          }
          const rows = [...jobs.values()]
            .filter(
              (j) =>
                j.tenantId === tenantId &&
                (query.status === undefined || j.status === query.status) &&
                (query.type === undefined || j.type === query.type) &&
                (query.types === undefined || query.types.includes(j.type)) &&
                (after === undefined || j.id < after)
            )
            .sort(newestFirst)
            .slice(0, query.limit + 1)
          return Effect.succeed(
            toPage(
              rows,
              query.limit,
              (j) => j,
              (j) => encodeCursor([j.id])
            )
          )
        }),
      latestFor: (tenantId, resourceId, type) =>
        Effect.sync(() =>
          Option.fromNullishOr(
            [...jobs.values()]
              .filter((j) => j.tenantId === tenantId && j.resourceId === resourceId && j.type === type)
              .sort(newestFirst)[0]
          )
        ),
      claim: (worker, limit, leaseMs) =>
        Effect.sync(() => {
          const now = new Date()
          for (const j of jobs.values()) {
            if (j.status === "running" && j.leaseExpiresAt !== null && j.leaseExpiresAt < now) {
              const last = j.attempts >= j.maxAttempts
              jobs.set(j.id, {
                ...j,
                status: last ? "failed" : "queued",
                error: { code: "lease_expired", message: "the worker running the job stopped answering" },
                finishedAt: last ? now : null,
                runAt: now,
                leaseOwner: null,
                leaseExpiresAt: null
              })
            }
          }
          const due = [...jobs.values()]
            .filter((j) => j.status === "queued" && j.runAt <= now)
            .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : 1))
            .slice(0, Math.max(0, limit))
          return due.map((j) => {
            const claimed: JobRecord = {
              ...j,
              status: "running",
              attempts: j.attempts + 1,
              leaseOwner: worker,
              leaseExpiresAt: new Date(now.getTime() + leaseMs),
              startedAt: j.startedAt ?? now
            }
            jobs.set(j.id, claimed)
            return claimed
          })
        }),
      renew: (worker, ids, leaseMs) =>
        Effect.sync(() =>
          ids.filter((id) => {
            const job = held(worker, id)
            if (job === undefined) return true
            jobs.set(id, { ...job, leaseExpiresAt: new Date(Date.now() + leaseMs) })
            return false
          })
        ),
      complete: (worker, id, completion) =>
        Effect.sync(() => {
          const job = held(worker, id)
          if (job === undefined) return false
          const released = { ...job, leaseOwner: null, leaseExpiresAt: null }
          switch (completion.status) {
            case "queued":
              jobs.set(id, {
                ...released,
                status: "queued",
                error: completion.error,
                runAt: completion.runAt
              })
              break
            case "failed":
              jobs.set(id, { ...released, status: "failed", error: completion.error, finishedAt: new Date() })
              break
            default:
              jobs.set(id, {
                ...released,
                status: completion.status,
                result: completion.result,
                error: null,
                finishedAt: new Date()
              })
          }
          return true
        }),
      release: (worker, ids) =>
        Effect.sync(() => {
          for (const id of ids) {
            const job = held(worker, id)
            if (job !== undefined)
              jobs.set(id, {
                ...job,
                status: "queued",
                attempts: Math.max(0, job.attempts - 1),
                runAt: new Date(),
                leaseOwner: null,
                leaseExpiresAt: null
              })
          }
        }),
      depth: () =>
        Effect.sync(() => {
          const counts = new Map<string, JobDepth>()
          for (const job of jobs.values()) {
            if (job.status !== "queued" && job.status !== "running") continue
            const key = `${job.type} ${job.status}`
            const seen = counts.get(key)
            counts.set(key, { type: job.type, status: job.status, count: (seen?.count ?? 0) + 1 })
          }
          return [...counts.values()]
        })
    })
  })
)
