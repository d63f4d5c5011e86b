// Port: respondents' responses, pinned to the form version they were collected under.
import { type Effect, Context, type Option, Schema } from "effect"
import type { InvalidCursor, Page } from "../../kernel/cursor.js"
import type { StorageError } from "../../kernel/errors.js"
import type { NewJob } from "../../kernel/jobs/job.js"

/** A response is partial until completed; wire schemas and adapters reuse this one definition. */
export const ResponseStatus = Schema.Literals(["partial", "completed"])
export type ResponseStatus = typeof ResponseStatus.Type

export interface ResponseRecord {
  readonly id: string
  readonly workspaceId: string
  readonly formId: string
  readonly formVersionId: string
  readonly status: ResponseStatus
  /** Answers keyed by block id (classic) or the interview payload; JSON decoded by the domain. */
  readonly answers: Readonly<Record<string, unknown>>
  /** Kind-specific extra data (presentation order, interview analysis, respondent estimate, ...). */
  readonly meta: Readonly<Record<string, unknown>>
  readonly createdAt: Date
  /** The time of the last write (start, save, completion or edit). */
  readonly updatedAt: Date
  /** When the response was completed; null while it is partial. */
  readonly completedAt: Date | null
  /** Row version: 1 when started, raised by every update; the compare-and-set token of `update`. */
  readonly version: number
}

/** A response as first stored: `insert` gives it version 1. */
export type NewResponseRecord = Omit<ResponseRecord, "version">

/** What a conditional update expects to find in storage. */
export interface ResponseExpectation {
  readonly status: ResponseStatus
  readonly version: number
  /**
   * When the update completes a partial response: the most completed responses the form may hold.
   * Checked atomically with the write (no two completions can both take the last place).
   */
  readonly maxCompleted?: number | undefined
}

/**
 * The outcome of a conditional update: written; `stale` when the stored row no longer has the
 * expected status and version (or is gone); `full` when a completion would exceed `maxCompleted`.
 */
export type ResponseUpdate = "updated" | "stale" | "full"

/** What else an update writes in its transaction. */
export interface ResponseUpdateOptions {
  /**
   * Jobs queued with the write (or not at all): a completed interview's analysis, a completion's
   * notification e-mails (one job each).
   */
  readonly enqueue?: ReadonlyArray<NewJob> | undefined
}

export interface ResponseListQuery {
  readonly limit: number
  readonly cursor?: string | undefined
  readonly status?: ResponseStatus | undefined
  /**
   * true: only responses whose `meta.quality.trapsMissed` is not empty; false: only the others.
   * Applied by the store before paging, so keyset pages stay whole and in order.
   */
  readonly flagged?: boolean | undefined
}

/**
 * Aggregates over the completed responses of a form, computed where the data lives (SQL in the
 * database adapters), never by loading every response.
 */
export interface AnswerStats {
  /** Responses with a non-empty answer, per block; numeric aggregates where the answers are numbers. */
  readonly blocks: ReadonlyArray<{
    readonly blockId: string
    readonly answered: number
    readonly average: number | null
    readonly min: number | null
    readonly max: number | null
  }>
  /** Counts of string answers and of array elements (choices, checkboxes), with the mean 1-based position of array elements. */
  readonly tokens: ReadonlyArray<{
    readonly blockId: string
    readonly token: string
    readonly count: number
    readonly avgPosition: number | null
  }>
  /** Up to `samplesPerBlock` most recent string answers of the requested blocks. */
  readonly samples: ReadonlyArray<{ readonly blockId: string; readonly text: string }>
  /** Stored score aggregates per score id (scales and quizzes). */
  readonly scores: ReadonlyArray<{
    readonly id: string
    readonly count: number
    readonly average: number | null
    readonly min: number | null
    readonly max: number | null
  }>
  /** Responses per stored cutoff label, per score id. */
  readonly scoreLabels: ReadonlyArray<{ readonly id: string; readonly label: string; readonly count: number }>
  /** Quality traps: responses checked (with a stored quality), flagged, and misses per trap block. */
  readonly quality: {
    readonly checked: number
    readonly flagged: number
    readonly traps: ReadonlyArray<{ readonly blockId: string; readonly missed: number }>
  }
}

/**
 * Where the kept aggregates hold quality facts, as kind-3 rows beside the scores. Score ids and
 * block ids never contain ":", so these keys cannot meet a score's.
 */
export const QUALITY_STAT = {
  checked: "quality:checked",
  flagged: "quality:flagged",
  /** One row per trap block, its token the block id. */
  trap: "quality:trap"
} as const

/**
 * One completed response's share of the AnswerStats aggregates, so a store can keep them
 * incrementally: kind 0 = a block answered (with its number, if numeric), 1 = a string answer,
 * 2 = an array element at a 1-based position, 3 = a stored fact of the completion: a score (token
 * ""), its cutoff label (token = the label), and the quality rows of QUALITY_STAT.
 */
export interface AnswerStatContribution {
  readonly blockId: string
  readonly kind: 0 | 1 | 2 | 3
  readonly token: string
  readonly n: number
  readonly numN: number
  readonly numSum: number
  /** The numeric value, for min and max (null when not numeric). */
  readonly num: number | null
  readonly posSum: number
}

/** The contributions of one response's answers and stored scores (AnswerStats semantics). */
export const answerContributions = (
  answers: Readonly<Record<string, unknown>>,
  meta: Readonly<Record<string, unknown>>
): ReadonlyArray<AnswerStatContribution> => {
  const rows = new Map<string, { -readonly [K in keyof AnswerStatContribution]: AnswerStatContribution[K] }>()
  const add = (blockId: string, kind: 0 | 1 | 2 | 3, token: string, num: number | null, pos: number) => {
    const k = `${kind}\u0000${blockId}\u0000${token}`
    const row = rows.get(k) ?? { blockId, kind, token, n: 0, numN: 0, numSum: 0, num: null, posSum: 0 }
    row.n += 1
    if (num !== null) {
      row.numN += 1
      row.numSum += num
      row.num = row.num === null ? num : Math.min(row.num, num)
    }
    row.posSum += pos
    rows.set(k, row)
  }
  for (const [blockId, value] of Object.entries(answers)) {
    add(blockId, 0, "", typeof value === "number" ? value : null, 0)
    if (typeof value === "string") add(blockId, 1, value, null, 0)
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries())
        add(blockId, 2, typeof v === "string" ? v : JSON.stringify(v), null, i + 1)
    }
  }
  const scores = meta.scores
  if (Array.isArray(scores)) {
    for (const s of scores as ReadonlyArray<{
      readonly id?: unknown
      readonly score?: unknown
      readonly label?: unknown
    }>) {
      if (typeof s?.id !== "string") continue
      add(s.id, 3, "", typeof s.score === "number" ? s.score : null, 0)
      if (typeof s.label === "string" && s.label !== "") add(s.id, 3, s.label, null, 0)
    }
  }
  const quality = meta.quality as { readonly trapsMissed?: unknown } | undefined
  if (typeof quality === "object" && quality !== null && Array.isArray(quality.trapsMissed)) {
    add(QUALITY_STAT.checked, 3, "", null, 0)
    const missed = quality.trapsMissed.filter((id): id is string => typeof id === "string")
    if (missed.length > 0) add(QUALITY_STAT.flagged, 3, "", null, 0)
    for (const id of new Set(missed)) add(QUALITY_STAT.trap, 3, id, null, 0)
  }
  return [...rows.values()]
}

/** A respondent upload stored in the blob store, committed to one response and one file_upload block. */
export interface ResponseFileRecord {
  readonly id: string
  readonly workspaceId: string
  readonly formId: string
  readonly responseId: string
  readonly blockId: string
  /** Blob store object key; the value a file_upload answer holds. */
  readonly key: string
  readonly filename: string
  readonly contentType: string
  readonly size: number
  readonly createdAt: Date
}

/**
 * Earlier responses of a form from the same browser (`respondentKey`, the form-scoped hash of the
 * continuity cookie) and from the same client fingerprint (`clientHash`, IP and user agent) since a
 * given time. Matched on `meta.respondentKey` / `meta.clientHash`.
 */
export interface RespondentHistory {
  readonly byKey: { readonly total: number; readonly completed: number }
  readonly byClient: { readonly total: number; readonly completed: number }
}

/** Response activity of a form in a date cohort [from, to) of start times. */
export interface ResponseActivity {
  readonly started: number
  readonly completed: number
  /** Seconds from start to completion, over the completed responses of the cohort. */
  readonly averageCompletionSeconds: number | null
  readonly medianCompletionSeconds: number | null
  /** Per UTC day of the start time, ascending. */
  readonly daily: ReadonlyArray<{
    readonly day: string
    readonly started: number
    readonly completed: number
  }>
}

/** Aggregates over interview responses (meta.interview), never their transcript text. */
/**
 * One validation item over a form's responses (meta.interview.runtime.validation): the responses it
 * was assigned to, and of the replies to its probe those with a comparable value and those agreeing.
 */
export interface ValidationItemStats {
  readonly fieldId: string
  readonly assigned: number
  readonly answered: number
  readonly agreed: number
}

export interface InterviewStats {
  readonly started: number
  /** Responses whose transcript has at least one respondent turn. */
  readonly engaged: number
  readonly completed: number
  /** Completed responses per analysisStatus. */
  readonly analysis: Readonly<Record<string, number>>
  /** Per qualitative code found in the stored insights (`code` or `codeId` of an insight). */
  readonly codes: ReadonlyArray<{
    readonly code: string
    readonly responses: number
    readonly mentions: number
  }>
  readonly averageExchangeCount: number | null
  /** Per capture type of the emergent items kept in completed interviews (`runtime.emergent`). */
  readonly emergent: ReadonlyArray<{
    readonly captureType: string
    readonly responses: number
    readonly mentions: number
  }>
}

/** A completed interview response whose analysis is still pending (see stuckInterviewAnalyses). */
export interface PendingInterviewAnalysis {
  readonly workspaceId: string
  readonly formId: string
  readonly responseId: string
  readonly completedAt: Date
}

export interface ResponseRepositoryService {
  /** Stores a new response at version 1. */
  readonly insert: (response: NewResponseRecord) => Effect.Effect<void, StorageError>
  /**
   * Compare-and-set: writes `response` (whose `version` must be above the expected one) only if the
   * stored row still has the expected status and version, keeping any aggregates of completed
   * responses in the same transaction. Never a blind overwrite: a caller that read the row and lost a
   * race gets `stale` and decides what to do.
   */
  readonly update: (
    response: ResponseRecord,
    expected: ResponseExpectation,
    options?: ResponseUpdateOptions
  ) => Effect.Effect<ResponseUpdate, StorageError>
  readonly get: (
    workspaceId: string,
    formId: string,
    id: string
  ) => Effect.Effect<Option.Option<ResponseRecord>, StorageError>
  /** Keyset page, newest first (createdAt desc, id desc). */
  readonly list: (
    workspaceId: string,
    formId: string,
    query: ResponseListQuery
  ) => Effect.Effect<Page<ResponseRecord>, StorageError | InvalidCursor>
  readonly answerStats: (
    workspaceId: string,
    formId: string,
    options: { readonly sampleBlockIds: ReadonlyArray<string>; readonly samplesPerBlock: number }
  ) => Effect.Effect<AnswerStats, StorageError>
  /**
   * The newest (createdAt desc, id desc) partial response of the form at `formVersionId` whose
   * `meta.respondentKey` is `respondentKey`: what a browser's continuity cookie resumes. With
   * `includeCompleted` (a form that allows editing responses), the newest partial or completed one.
   */
  readonly findResumable: (
    workspaceId: string,
    formId: string,
    query: {
      readonly formVersionId: string
      readonly respondentKey: string
      readonly includeCompleted?: boolean
    }
  ) => Effect.Effect<Option.Option<ResponseRecord>, StorageError>
  readonly respondentHistory: (
    workspaceId: string,
    formId: string,
    query: { readonly respondentKey: string | null; readonly clientHash: string; readonly since: Date }
  ) => Effect.Effect<RespondentHistory, StorageError>
  readonly activity: (
    workspaceId: string,
    formId: string,
    cohort: { readonly from: Date; readonly to: Date }
  ) => Effect.Effect<ResponseActivity, StorageError>
  readonly interviewStats: (
    workspaceId: string,
    formId: string
  ) => Effect.Effect<InterviewStats, StorageError>
  /** Per validation item assigned in any response of the form, by field id. */
  readonly validationStats: (
    workspaceId: string,
    formId: string
  ) => Effect.Effect<ReadonlyArray<ValidationItemStats>, StorageError>
  /**
   * Stores a file row; with `maxPerBlock`, only while the response holds fewer files for that block,
   * counted and inserted atomically (concurrent uploads cannot both take the last place). Answers
   * whether the row was stored.
   */
  readonly insertFile: (
    file: ResponseFileRecord,
    maxPerBlock?: number
  ) => Effect.Effect<boolean, StorageError>
  readonly getFile: (
    workspaceId: string,
    formId: string,
    fileId: string
  ) => Effect.Effect<Option.Option<ResponseFileRecord>, StorageError>
  /** Files of the given responses, oldest first. */
  readonly listFiles: (
    workspaceId: string,
    formId: string,
    responseIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ResponseFileRecord>, StorageError>
  /**
   * Deletes the response and its file rows in one transaction, taking a completed response's share
   * out of the kept aggregates. Answers the deleted file rows (whose blobs the caller removes), or
   * none when no such response was there. A write racing it either lands first (and is deleted with
   * the row) or finds the row gone (`stale`).
   */
  readonly delete: (
    workspaceId: string,
    formId: string,
    id: string
  ) => Effect.Effect<Option.Option<ReadonlyArray<ResponseFileRecord>>, StorageError>
  /** Ids of the form's responses started (createdAt) before `before`, oldest first, at most `limit`. */
  readonly startedBefore: (
    workspaceId: string,
    formId: string,
    before: Date,
    limit: number
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * Completed interview responses, of every workspace, whose analysis is still `pending`
   * (`meta.interview.analysisStatus`) with no `interview_analysis` job left to settle it: none is
   * queued or running, and one ended (failed, skipped, or even succeeded and overwritten), or none
   * was ever there and the response was completed before `noJobCompletedBefore`. Oldest first, at
   * most `limit`. The sweep of analyses whose job died (interview-analysis-sweep.ts) reads them.
   */
  readonly stuckInterviewAnalyses: (
    noJobCompletedBefore: Date,
    limit: number
  ) => Effect.Effect<ReadonlyArray<PendingInterviewAnalysis>, StorageError>
  /** Recomputes any incrementally kept aggregates from the responses (all forms when omitted). */
  readonly rebuildAnswerStats: (formId?: string) => Effect.Effect<void, StorageError>
  readonly count: (
    workspaceId: string,
    formId: string,
    status?: ResponseStatus
  ) => Effect.Effect<number, StorageError>
}

export class ResponseRepository extends Context.Service<ResponseRepository, ResponseRepositoryService>()(
  "@folio/domain/ResponseRepository"
) {}
