// Port: upload requests, their submissions, and the events their changes emit (an outbox written
// in the transaction of the change, read by the webhook deliveries of a later part). Every method
// an owner calls takes the tenant id; the public page finds a request by its token's hash.
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type {
  SubmissionReview,
  UploadRequestRecord,
  UploadSubmissionRecord
} from "../upload-requests/upload-request.js"

/** One event of the sharing service (`upload_request.reviewed`, ...), as the outbox keeps it. */
export interface SharingEventRecord {
  readonly id: string
  readonly tenantId: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly createdAt: Date
}

export interface UploadRequestsService {
  readonly insert: (request: UploadRequestRecord) => Effect.Effect<void, StorageError>
  /** Every request of the tenant, newest first (the spec's single list). */
  readonly list: (tenantId: string) => Effect.Effect<ReadonlyArray<UploadRequestRecord>, StorageError>
  readonly get: (
    tenantId: string,
    id: string
  ) => Effect.Effect<Option.Option<UploadRequestRecord>, StorageError>
  readonly getByTokenHash: (
    tokenHash: string
  ) => Effect.Effect<Option.Option<UploadRequestRecord>, StorageError>
  /** Writes `next` if the stored row is still at `next.rowVersion - 1` (else `stale`). */
  readonly update: (
    tenantId: string,
    next: UploadRequestRecord
  ) => Effect.Effect<"updated" | "stale", StorageError>
  /**
   * Stamps `revokedAt` (and moves the row version) unless the request already has one, in one
   * statement whatever its version: a revoke never loses a race. The request as it is then; None
   * when the tenant has no such request.
   */
  readonly revoke: (
    tenantId: string,
    id: string,
    at: Date
  ) => Effect.Effect<Option.Option<UploadRequestRecord>, StorageError>
  /** A new submission and its `upload_request.submitted` event, in one transaction. */
  readonly insertSubmission: (
    submission: UploadSubmissionRecord,
    event: SharingEventRecord
  ) => Effect.Effect<void, StorageError>
  readonly listSubmissions: (
    tenantId: string,
    requestId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<
    { readonly items: ReadonlyArray<UploadSubmissionRecord>; readonly total: number },
    StorageError
  >
  readonly getSubmission: (
    tenantId: string,
    requestId: string,
    id: string
  ) => Effect.Effect<Option.Option<UploadSubmissionRecord>, StorageError>
  /**
   * Sets a submission's review and, in the same transaction, records `event` when the value changed;
   * None when the request has no such submission.
   */
  readonly review: (
    tenantId: string,
    requestId: string,
    id: string,
    review: SubmissionReview,
    at: Date,
    event: SharingEventRecord
  ) => Effect.Effect<Option.Option<UploadSubmissionRecord>, StorageError>
  /** The tenant's recorded events, oldest first. */
  readonly events: (tenantId: string) => Effect.Effect<ReadonlyArray<SharingEventRecord>, StorageError>
}

export class UploadRequests extends Context.Service<UploadRequests, UploadRequestsService>()(
  "@folio/domain/UploadRequests"
) {}
