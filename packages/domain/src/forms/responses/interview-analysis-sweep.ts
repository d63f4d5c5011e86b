// The sweep of interview analyses whose job died: a worker killed during the job's last attempt
// leaves no one to write the outcome (the queue fails the job when its lease lapses, without running
// anything), so the response would stay `pending` forever. Each instance's job workers run this
// sweep with their periodic work (JobRunner.schedule): it closes such rows as `failed`, the built-in
// analysis kept, by compare-and-set, so instances sweeping at once close each row once.
import { Clock, Effect } from "effect"
import { ResponseRepository } from "../ports/responses.js"
import { markAnalysisFailed } from "./interview-analysis-job.js"

/**
 * How long a completed interview may be pending with no analysis job at all before it is closed.
 * The job is queued in the write that completes the interview, so a missing one never comes: the
 * wait only keeps the sweep clear of anything unforeseen in that write's neighbourhood.
 */
export const INTERVIEW_ANALYSIS_NO_JOB_GRACE_MS = 10 * 60_000

/** Rows closed per pass at most; the next pass takes the rest. */
export const INTERVIEW_ANALYSIS_SWEEP_BATCH = 100

/**
 * Closes as `failed` the completed interviews whose analysis is pending with no job left to settle
 * it (ended, or none past the grace period); answers how many it closed. A row that changed since
 * it was read (a retried job finished, the response was edited) is left as it now is.
 */
export const closeStuckInterviewAnalyses = (
  graceMs: number = INTERVIEW_ANALYSIS_NO_JOB_GRACE_MS,
  batch: number = INTERVIEW_ANALYSIS_SWEEP_BATCH
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const responses = yield* ResponseRepository
    const stuck = yield* responses.stuckInterviewAnalyses(new Date(now - graceMs), batch)
    let closed = 0
    for (const row of stuck) if (yield* markAnalysisFailed(responses, row.workspaceId, row)) closed++
    if (closed > 0)
      yield* Effect.logInfo("interview analyses left pending by a dead job closed as failed", { closed })
    return closed
  })
