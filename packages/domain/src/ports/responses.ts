// Port: respondents' responses, pinned to the form version they were collected under.
import { type Effect, Context, type Option } from "effect"
import type { Page } from "../kernel/cursor.js"
import type { StorageError } from "../kernel/errors.js"
import type { InvalidCursor } from "./forms.js"

export type ResponseStatus = "partial" | "completed"

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
  readonly updatedAt: Date
  readonly completedAt: Date | null
}

export interface ResponseListQuery {
  readonly limit: number
  readonly cursor?: string | undefined
  readonly status?: ResponseStatus | undefined
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
}

export interface ResponseRepositoryService {
  readonly insert: (response: ResponseRecord) => Effect.Effect<void, StorageError>
  readonly update: (response: ResponseRecord) => Effect.Effect<boolean, StorageError>
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
  readonly count: (
    workspaceId: string,
    formId: string,
    status?: ResponseStatus
  ) => Effect.Effect<number, StorageError>
}

export class ResponseRepository extends Context.Tag("@folio/domain/ResponseRepository")<
  ResponseRepository,
  ResponseRepositoryService
>() {}
