// The `interview_analysis` job: a model's analysis of a finished interview replaces the built-in
// one; queued by the use cases (interview-use-cases.ts) in the write that completes the interview.
import { Clock, Effect, Option } from "effect"
import {
  type JobOutcome,
  JobFailed,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { storableJson } from "../../kernel/text.js"
import type { JobRecord } from "../../kernel/jobs/job.js"
import { retryOnStale } from "../../kernel/retry.js"
import { InterviewAnalyst, correctInterviewAnalysis, extractedFieldsOf } from "../interview/analysis.js"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { decodeInterview, liveInterviewOf } from "./interview-record.js"

/** Attempts of the analysis job (a model that keeps failing leaves the analysis `failed`). */
export const INTERVIEW_ANALYSIS_MAX_ATTEMPTS = 5

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const payloadIds = (job: JobRecord) => {
  const formId = job.payload.formId
  const responseId = job.payload.responseId
  return typeof formId === "string" && typeof responseId === "string" ? { formId, responseId } : undefined
}

/**
 * The `interview_analysis` job: the configured analyst reads the finished interview; its output,
 * checked by correctInterviewAnalysis, replaces the built-in analysis and the status becomes
 * `completed`. A failure is retried; whatever fails the last attempt (the model, storage, a
 * write that kept losing), the status becomes `failed` where it can still be written (the built-in
 * analysis stays). Nothing to do (`skipped`) when the response is gone or no longer pending.
 */
export const runInterviewAnalysisJob = (
  job: JobRecord
): Effect.Effect<JobOutcome, JobFailed, FormRepository | ResponseRepository> =>
  Effect.gen(function* () {
    const target = payloadIds(job)
    if (target === undefined)
      return yield* new JobFailed({
        code: "invalid_payload",
        message: "the job names no response",
        retryable: false
      })
    const responses = yield* ResponseRepository
    const forms = yield* FormRepository
    const analyst = yield* InterviewAnalyst
    const attempt = () =>
      Effect.gen(function* () {
        const found = yield* responses.get(job.tenantId, target.formId, target.responseId)
        if (Option.isNone(found) || found.value.status !== "completed")
          return Option.some(skipped({ reason: "response_not_completed" }))
        const current = found.value
        const stored = current.meta.interview as { analysisStatus?: unknown } | undefined
        if (stored?.analysisStatus !== "pending") return Option.some(skipped({ reason: "not_pending" }))
        const version = yield* forms.getVersion(job.tenantId, target.formId, current.formVersionId)
        const def = Option.isSome(version) ? yield* decodeInterview(version.value) : null
        const live = liveInterviewOf(current)
        if (def === null || Option.isNone(live)) return Option.some(skipped({ reason: "unreadable" }))
        const at = yield* now
        // The model's text is made storable (no NUL, no half of a surrogate pair) before it is kept.
        const write = (interview: Record<string, unknown>) =>
          responses.update(
            {
              ...current,
              meta: { ...current.meta, interview: storableJson(interview) },
              updatedAt: at,
              version: current.version + 1
            },
            { status: "completed", version: current.version }
          )
        const base = current.meta.interview as Record<string, unknown>
        if (analyst === null) {
          // The model was configured away since: the built-in analysis is what there is.
          const outcome = yield* write({ ...base, analysisStatus: "partial" })
          return outcome === "updated" ? Option.some(succeeded({ analysisStatus: "partial" })) : Option.none()
        }
        const proposed = yield* Effect.result(
          analyst.analyze({
            definition: def,
            locale: live.value.locale,
            session: live.value.session,
            extractedFields: extractedFieldsOf(live.value.session)
          })
        )
        if (proposed._tag === "Failure")
          return yield* new JobFailed({
            code: "analysis_failed",
            message: proposed.failure.reason,
            retryable: true
          })
        const analysis = correctInterviewAnalysis(
          def,
          live.value.locale,
          live.value.session,
          proposed.success
        )
        const outcome = yield* write({ ...base, ...analysis, analysisStatus: "completed" })
        return outcome === "updated" ? Option.some(succeeded({ analysisStatus: "completed" })) : Option.none()
      })
    const run = retryOnStale(
      2,
      attempt,
      () =>
        new JobFailed({
          code: "changed_meanwhile",
          message: "the response changed meanwhile",
          retryable: true
        })
    ).pipe(Effect.catchTag("StorageError", storageUnavailable("interview analysis")))
    if (job.attempts < job.maxAttempts) return yield* run
    // The last attempt: a failure leaves the analysis `failed`, never `pending` with no job behind it.
    return yield* run.pipe(
      Effect.tapError(() => markAnalysisFailed(responses, job.tenantId, target)),
      Effect.mapError((e) => new JobFailed({ code: e.code, message: e.message, retryable: false }))
    )
  })

/**
 * Sets a pending analysis to `failed` by compare-and-set, the built-in analysis kept; true when it
 * did (best effort: a store that is down, or a row that changed meanwhile, leaves it as it is).
 */
export const markAnalysisFailed = (
  responses: ResponseRepository["Service"],
  tenantId: string,
  target: { readonly formId: string; readonly responseId: string }
) =>
  Effect.gen(function* () {
    const found = yield* responses.get(tenantId, target.formId, target.responseId)
    if (Option.isNone(found)) return false
    const current = found.value
    const interview = current.meta.interview as Record<string, unknown> | undefined
    if (current.status !== "completed" || interview?.analysisStatus !== "pending") return false
    const outcome = yield* responses.update(
      {
        ...current,
        meta: { ...current.meta, interview: { ...interview, analysisStatus: "failed" } },
        updatedAt: yield* now,
        version: current.version + 1
      },
      { status: "completed", version: current.version }
    )
    return outcome === "updated"
  }).pipe(Effect.orElseSucceed(() => false))
