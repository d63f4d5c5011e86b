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
