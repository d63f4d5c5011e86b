// The owner's job routes (list, one, retry) and the one way use cases queue work: a job row for
// the caller's account, announced on the bus so an idle worker starts it at once.
import { Clock, Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { InvalidCursor, type Page } from "../../kernel/cursor.js"
import { isRetryable, type JobPayload, type JobStatus, jobDedupeKey } from "../../kernel/jobs/job.js"
import { announceJob } from "../../kernel/jobs/runner.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { JobActive, JobCursorUnknown, JobNotFailed, JobNotRetryable, ResourceNotFound } from "../errors.js"
import {
  isSharingJob,
  SHARING_JOB_TYPES,
  type SharingJobRecord,
  type SharingJobType,
  type SharingNewJob
} from "./types.js"

/** Attempts a job gets before it fails for good (a retry through the API starts a new job). */
export const JOB_MAX_ATTEMPTS = 5

export const JOBS_PAGE = { default: 50, max: 200 } as const

interface JobInput {
  readonly type: SharingJobType
  readonly resourceId: string
  readonly payload: JobPayload
  readonly retryOf?: string | undefined
}

/** The row of a new job of `tenantId`, due at once. */
const jobRow = (id: string, tenantId: string, at: Date, input: JobInput): SharingNewJob => ({
  id,
  tenantId,
  type: input.type,
  resourceId: input.resourceId,
  dedupeKey: jobDedupeKey(input.type, input.resourceId),
  payload: input.payload,
  maxAttempts: JOB_MAX_ATTEMPTS,
  runAt: at,
  retryOf: input.retryOf ?? null,
  createdAt: at
})

/** A new job row of the caller's account (not yet queued). */
export const newJob = (input: JobInput) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const id = yield* (yield* IdGen).uuidV7
    return jobRow(id, principal.tenant, new Date(yield* Clock.currentTimeMillis), input)
  })

/**
 * Queues the periodic work a sweep found due (one job of `type` per subject, with no Principal:
 * the sweep runs for every account), skipping what is already active (another instance's sweep got
 * there first). Answers how many it queued; idle workers are told once.
 */
export const enqueueDue = (
  type: SharingJobType,
  due: ReadonlyArray<{ readonly tenantId: string; readonly resourceId: string }>,
  payload: JobPayload,
  at: Date
) =>
  Effect.gen(function* () {
    const queue = yield* JobQueue
    const ids = yield* IdGen
    let queued = 0
    for (const subject of due) {
      const enqueued = yield* queue
        .enqueue(
          jobRow(yield* ids.uuidV7, subject.tenantId, at, { type, resourceId: subject.resourceId, payload })
        )
        .pipe(
          Effect.as(true),
          Effect.catchTag("JobAlreadyActive", () => Effect.succeed(false))
        )
      if (enqueued) queued++
    }
    if (queued > 0) yield* announceJob(type)
    return queued
  })

/** Queues `job` (JobActive when the same work is queued or running) and announces it. */
export const enqueueJob = (job: SharingNewJob) =>
  Effect.gen(function* () {
    const queue = yield* JobQueue
    const queued = yield* queue
      .enqueue(job)
      .pipe(
        Effect.catchTag("JobAlreadyActive", (e) => Effect.fail(new JobActive({ activeJobId: e.activeJobId })))
      )
    yield* announceJob(queued.id)
    const record: SharingJobRecord = { ...queued, type: job.type }
    return record
  })

/** The account's job of sharing's types (another context's job of the account is not found). */
const ownedJob = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const found = yield* (yield* JobQueue).get(principal.tenant, id)
    if (Option.isNone(found) || !isSharingJob(found.value)) return yield* new ResourceNotFound()
    return found.value
  })

/** `GET /jobs`: the account's jobs of sharing's types, newest first. */
export const listJobs = (query: {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly status?: JobStatus | undefined
  readonly type?: SharingJobType | undefined
}) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    return yield* (yield* JobQueue)
      .list(principal.tenant, {
        limit: Math.min(query.limit ?? JOBS_PAGE.default, JOBS_PAGE.max),
        cursor: query.cursor,
        status: query.status,
        type: query.type,
        types: SHARING_JOB_TYPES
      })
      .pipe(
        // The queue answered only sharing's types, as asked.
        Effect.map((page) => page as Page<SharingJobRecord>),
        Effect.catchIf(
          (e): e is InvalidCursor => e instanceof InvalidCursor,
          () => Effect.fail(new JobCursorUnknown())
        )
      )
  })

/** `GET /jobs/{id}`. */
export const getJob = (id: string) => ownedJob(id)

/** `POST /jobs/{id}/retry`: the same work as a new job, for a failed or skipped one. */
export const retryJob = (id: string) =>
  Effect.gen(function* () {
    const job = yield* ownedJob(id)
    if (!isRetryable(job.status)) {
      if (job.status === "queued" || job.status === "running")
        return yield* new JobActive({ activeJobId: job.id })
      return yield* new JobNotFailed()
    }
    if (job.resourceId === null) return yield* new JobNotRetryable()
    return yield* enqueueJob(
      yield* newJob({ type: job.type, resourceId: job.resourceId, payload: job.payload, retryOf: job.id })
    )
  })
