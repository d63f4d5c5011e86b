// Background jobs, whichever context queues them: their types, statuses and the rules the queue and
// its workers follow (what counts as the same work, how long to wait before a retry, when to poll).
import { Schema } from "effect"

/**
 * The kinds of queued work, of every context (one queue holds them all): sharing's
 * (`optimize_original`, `notion_refresh`, `webhook_delivery`) and forms' (`interview_analysis`,
 * `form_insights`;
 * `notification_email`: one e-mail of a completed response's notifications).
 * A context's routes show only its own types.
 */
export const JobType = Schema.Literals([
  "optimize_original",
  "notion_refresh",
  "webhook_delivery",
  "interview_analysis",
  "form_insights",
  "notification_email"
])
export type JobType = typeof JobType.Type

/**
 * `queued` (waiting, possibly until a retry's time), `running` (claimed under a lease), and the
 * final three: `succeeded`, `failed` (out of attempts, or a failure no retry can fix) and `skipped`
 * (nothing to do: the resource is gone, or the work would change nothing).
 */
export const JobStatus = Schema.Literals(["queued", "running", "succeeded", "failed", "skipped"])
export type JobStatus = typeof JobStatus.Type

export const ACTIVE_JOB_STATUSES: ReadonlyArray<JobStatus> = ["queued", "running"]

/** A job's failure as its owner sees it: a stable code and a value-free message. */
export interface JobError {
  readonly code: string
  readonly message: string
}

/** What a job asks for: its type's payload (resource ids, options), a JSON object. */
export type JobPayload = { readonly [key: string]: unknown }

export interface JobRecord {
  /** UUID v7: lists in creation order page well on it. */
  readonly id: string
  readonly tenantId: string
  readonly type: JobType
  /** The resource the job works on (null for none). */
  readonly resourceId: string | null
  /**
   * Jobs with the same key are the same work: at most one of them is queued or running at a time
   * (the queue refuses another with JobAlreadyActive).
   */
  readonly dedupeKey: string
  readonly payload: JobPayload
  readonly status: JobStatus
  /** Attempts started so far (a claim counts one; a release at shutdown gives it back). */
  readonly attempts: number
  readonly maxAttempts: number
  /** A queued job is not claimed before this instant (its retry's time). */
  readonly runAt: Date
  /** The worker holding a running job, and when its hold lapses unless renewed. */
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: Date | null
  readonly result: JobPayload | null
  readonly error: JobError | null
  /** The job this one reruns (POST /jobs/{id}/retry). */
  readonly retryOf: string | null
  readonly createdAt: Date
  readonly startedAt: Date | null
  readonly finishedAt: Date | null
  /**
   * The W3C `traceparent` of the span that queued the job (its run continues that trace); null or
   * absent with tracing off. Never shown in the jobs API.
   */
  readonly traceparent?: string | null
}

/** A job to queue: the fields a new job is given (the rest start empty, attempts at 0). */
export type NewJob = Pick<
  JobRecord,
  | "id"
  | "tenantId"
  | "type"
  | "resourceId"
  | "dedupeKey"
  | "payload"
  | "maxAttempts"
  | "runAt"
  | "retryOf"
  | "createdAt"
>

/**
 * The same work is one key: a job type on one resource (optimizing one file, refreshing one Notion
 * mirror: a page refresh and a whole refresh of the same mirror write the same pages, so they
 * exclude each other too).
 */
export const jobDedupeKey = (type: JobType, resourceId: string): string => `${type}:${resourceId}`

/** How the queue's workers retry. */
export interface RetryPolicy {
  /** The wait before the second attempt; each later one doubles it. */
  readonly baseDelayMs: number
  /** No wait is longer than this. */
  readonly maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 5_000, maxDelayMs: 10 * 60_000 }

/**
 * The wait before the next attempt after `attempts` failed ones: exponential, capped, with "equal
 * jitter" (half fixed, half random) so jobs that failed together do not all come back together.
 * `random` is in [0, 1).
 */
export const retryDelayMs = (attempts: number, policy: RetryPolicy, random: number): number => {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, Math.min(attempts - 1, 30))
  const capped = Math.min(policy.maxDelayMs, exponential)
  return Math.round(capped / 2 + (capped / 2) * Math.min(Math.max(random, 0), 1))
}

/** Only a job that ended without doing its work can be run again (as a new job). */
export const isRetryable = (status: JobStatus): boolean => status === "failed" || status === "skipped"

/**
 * The wait a client polling the job should take before asking again: until a queued retry's time,
 * a moment while it is waiting or running, nothing once it is final.
 */
export const pollAfterSeconds = (job: Pick<JobRecord, "status" | "runAt">, nowMs: number): number | null => {
  switch (job.status) {
    case "queued":
      return Math.max(1, Math.ceil((job.runAt.getTime() - nowMs) / 1000))
    case "running":
      return 2
    default:
      return null
  }
}
