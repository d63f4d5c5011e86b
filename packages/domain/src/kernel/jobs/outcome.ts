// What a job's run comes to: done (with a result), nothing to do (skipped), or a failure that a
// later attempt may or may not fix. The worker turns it into the job's next status.
import { Data, Effect } from "effect"
import { type JobPayload, type JobRecord, type RetryPolicy, retryDelayMs } from "./job.js"

export type JobOutcome =
  | { readonly _tag: "Succeeded"; readonly result: JobPayload }
  | { readonly _tag: "Skipped"; readonly result: JobPayload }

export const succeeded = (result: JobPayload): JobOutcome => ({ _tag: "Succeeded", result })
export const skipped = (result: JobPayload): JobOutcome => ({ _tag: "Skipped", result })

/** A run that did not finish its work. `retryable`: a later attempt may succeed (a dependency down). */
export class JobFailed extends Data.TaggedError("JobFailed")<{
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  /** The least wait before retrying, when the failure says so (a rate limit's Retry-After). */
  readonly retryAfterMs?: number | undefined
}> {}

/** A job no runner knows (another context's type, or one from a newer release): not retried. */
export const unknownJobType = (job: Pick<JobRecord, "type">) =>
  new JobFailed({
    code: "unknown_job_type",
    message: `no runner for jobs of type ${job.type}`,
    retryable: false
  })

/** A job's storage (database or blob store) failed: logged with its cause, retried later. */
export const storageUnavailable = (job: string) => (cause: unknown) =>
  Effect.andThen(
    Effect.logWarning(`${job}: storage unavailable`, cause),
    Effect.fail(
      new JobFailed({ code: "storage_unavailable", message: "storage is unavailable", retryable: true })
    )
  )

/** How a finished run changes the job. */
export type JobCompletion =
  | { readonly status: "succeeded" | "skipped"; readonly result: JobPayload }
  | { readonly status: "failed"; readonly error: { readonly code: string; readonly message: string } }
  | {
      readonly status: "queued"
      readonly error: { readonly code: string; readonly message: string }
      readonly runAt: Date
    }

/**
 * The job's next state after a run: its outcome, or for a failure a retry after the backoff (never
 * sooner than the failure asks) while attempts remain and a retry can help, else failed.
 */
export const completionOf = (
  job: Pick<JobRecord, "attempts" | "maxAttempts">,
  outcome: JobOutcome | JobFailed,
  policy: RetryPolicy,
  nowMs: number,
  random: number
): JobCompletion => {
  if (outcome instanceof JobFailed) {
    const error = { code: outcome.code, message: outcome.message }
    if (!outcome.retryable || job.attempts >= job.maxAttempts) return { status: "failed", error }
    const wait = Math.max(retryDelayMs(job.attempts, policy, random), outcome.retryAfterMs ?? 0)
    return { status: "queued", error, runAt: new Date(nowMs + wait) }
  }
  return { status: outcome._tag === "Succeeded" ? "succeeded" : "skipped", result: outcome.result }
}
