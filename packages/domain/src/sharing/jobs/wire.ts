// Jobs on the wire: the record a client polls (`GET /jobs/{id}`), and the 202 answer of a route that
// queues work. Times are RFC 3339; `retry_after_seconds` is the wait before polling again.
import { Schema } from "effect"
import { JobStatus, pollAfterSeconds } from "../../kernel/jobs/job.js"
import { type SharingJobRecord, SharingJobType } from "./types.js"

export const JobErrorView = Schema.Struct({ code: Schema.String, message: Schema.String }).annotate({
  identifier: "JobError"
})

export const JobView = Schema.Struct({
  job_id: Schema.String,
  type: SharingJobType,
  status: JobStatus,
  /** The resource the job works on. */
  resource_id: Schema.NullOr(Schema.String),
  attempts: Schema.Int,
  max_attempts: Schema.Int,
  /** What a succeeded or skipped job did (or why it did nothing). */
  result: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  /** Why the last attempt failed (kept while a retry waits). */
  error: Schema.NullOr(JobErrorView),
  /** The job this one reruns (POST /jobs/{id}/retry). */
  retry_of: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  started_at: Schema.NullOr(Schema.String),
  finished_at: Schema.NullOr(Schema.String),
  /** When a queued job (a retry waiting out its backoff) may start. */
  next_attempt_at: Schema.NullOr(Schema.String),
  /** Seconds to wait before polling again; null once the job is final. */
  retry_after_seconds: Schema.NullOr(Schema.Int),
  poll_url: Schema.String
}).annotate({ identifier: "Job" })
export type JobView = typeof JobView.Type

/** What a route that queues work answers (202). */
export const JobAccepted = Schema.Struct({
  job_id: Schema.String,
  type: SharingJobType,
  status: JobStatus,
  poll_url: Schema.String,
  retry_after_seconds: Schema.Int
}).annotate({ identifier: "JobAccepted" })
export type JobAccepted = typeof JobAccepted.Type

/** The sharing REST API's root: poll URLs point under it, whichever surface queued the job. */
export const SHARING_API_PREFIX = "/share/api/v1"

export const JobList = Schema.Struct({
  items: Schema.Array(JobView),
  /** The cursor of the next page; null on the last page. */
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "JobList" })

export const jobPollUrl = (origin: string, apiRoot: string, id: string) => `${origin}${apiRoot}/jobs/${id}`

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export const jobView = (job: SharingJobRecord, pollUrl: string, nowMs: number): JobView => ({
  job_id: job.id,
  type: job.type,
  status: job.status,
  resource_id: job.resourceId,
  attempts: job.attempts,
  max_attempts: job.maxAttempts,
  result: job.result,
  error: job.error,
  retry_of: job.retryOf,
  created_at: job.createdAt.toISOString(),
  started_at: iso(job.startedAt),
  finished_at: iso(job.finishedAt),
  next_attempt_at: job.status === "queued" ? job.runAt.toISOString() : null,
  retry_after_seconds: pollAfterSeconds(job, nowMs),
  poll_url: pollUrl
})

export const jobAccepted = (job: SharingJobRecord, pollUrl: string, nowMs: number): JobAccepted => ({
  job_id: job.id,
  type: job.type,
  status: job.status,
  poll_url: pollUrl,
  retry_after_seconds: pollAfterSeconds(job, nowMs) ?? 1
})
