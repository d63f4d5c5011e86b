// UploadRequests over SQL: requests guarded by their row version, submissions paged newest first,
// and a review written with its event in one transaction.
import {
  type SharingEventRecord,
  type SubmissionReview,
  type UploadRequestRecord,
  UploadRequests,
  type UploadSubmissionRecord,
  isUuid
} from "@folio/domain"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"
import { insertSharingEvent } from "./sharing-events.js"

interface RequestRow {
  readonly id: string
  readonly tenant_id: string
  readonly title: string
  readonly description: string | null
  readonly token_hash: string
  readonly password_hash: string | null
  readonly expires_at: Date | null
  readonly status: UploadRequestRecord["status"]
  readonly revoked_at: Date | null
  readonly row_version: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface SubmissionRow {
  readonly id: string
  readonly tenant_id: string
  readonly request_id: string
  readonly submitter_name: string | null
  readonly message: string | null
  readonly review: SubmissionReview
  readonly file_resource_ids: ReadonlyArray<string>
  readonly created_at: Date
  readonly reviewed_at: Date | null
}

const toRequest = (r: RequestRow): UploadRequestRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  title: r.title,
  description: r.description,
  tokenHash: r.token_hash,
  passwordHash: r.password_hash,
  expiresAt: r.expires_at,
  status: r.status,
  revokedAt: r.revoked_at,
  rowVersion: r.row_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const toSubmission = (s: SubmissionRow): UploadSubmissionRecord => ({
  id: s.id,
  tenantId: s.tenant_id,
  requestId: s.request_id,
  submitterName: s.submitter_name,
  message: s.message,
  review: s.review,
  fileResourceIds: s.file_resource_ids,
  createdAt: s.created_at,
  reviewedAt: s.reviewed_at
})

export const makeUploadRequests = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const oneRequest = (rows: ReadonlyArray<RequestRow>) => Option.map(Option.fromNullishOr(rows[0]), toRequest)
  const insertEvent = (e: SharingEventRecord) => insertSharingEvent(sql, e)
  return UploadRequests.of({
    insert: (r) =>
      orStorageError(
        sql`insert into upload_requests (id, tenant_id, title, description, token_hash, password_hash, expires_at,
              status, revoked_at, row_version, created_at, updated_at)
            values (${r.id}, ${r.tenantId}, ${r.title}, ${r.description}, ${r.tokenHash}, ${r.passwordHash},
              ${r.expiresAt}, ${r.status}, ${r.revokedAt}, ${r.rowVersion}, ${r.createdAt}, ${r.updatedAt})`.pipe(
          Effect.asVoid
        )
      ),
    list: (tenantId) =>
      orStorageError(
        sql<RequestRow>`select * from upload_requests where tenant_id = ${tenantId} order by id desc`.pipe(
          Effect.map((rows) => rows.map(toRequest))
        )
      ),
    get: (tenantId, id) =>
      isUuid(id)
        ? orStorageError(
            sql<RequestRow>`select * from upload_requests where id = ${id} and tenant_id = ${tenantId}`.pipe(
              Effect.map(oneRequest)
            )
          )
        : Effect.succeed(Option.none()),
    getByTokenHash: (tokenHash) =>
      orStorageError(
        sql<RequestRow>`select * from upload_requests where token_hash = ${tokenHash}`.pipe(
          Effect.map(oneRequest)
        )
      ),
    update: (tenantId, r) =>
      orStorageError(
        sql`update upload_requests set title = ${r.title}, description = ${r.description}, token_hash = ${r.tokenHash},
              password_hash = ${r.passwordHash}, expires_at = ${r.expiresAt}, status = ${r.status},
              revoked_at = ${r.revokedAt}, row_version = ${r.rowVersion}, updated_at = ${r.updatedAt}
            where id = ${r.id} and tenant_id = ${tenantId} and row_version = ${r.rowVersion - 1}
            returning id`.pipe(
          Effect.map((rows) => (rows.length > 0 ? ("updated" as const) : ("stale" as const)))
        )
      ),
    revoke: (tenantId, id, at) =>
      isUuid(id)
        ? orStorageError(
            sql<RequestRow>`update upload_requests set
                  revoked_at = coalesce(revoked_at, ${at}),
                  row_version = case when revoked_at is null then row_version + 1 else row_version end,
                  updated_at = case when revoked_at is null then ${at} else updated_at end
                where id = ${id} and tenant_id = ${tenantId}
                returning *`.pipe(Effect.map(oneRequest))
          )
        : Effect.succeed(Option.none()),
    insertSubmission: (s, event) =>
      orStorageError(
        sql
          .withTransaction(
            Effect.andThen(
              sql`insert into upload_submissions (id, tenant_id, request_id, submitter_name, message, review,
                  file_resource_ids, created_at, reviewed_at)
                values (${s.id}, ${s.tenantId}, ${s.requestId}, ${s.submitterName}, ${s.message}, ${s.review},
                  ${jsonParam(s.fileResourceIds)}::jsonb, ${s.createdAt}, ${s.reviewedAt})`,
              insertEvent(event)
            )
          )
          .pipe(Effect.asVoid)
      ),
    listSubmissions: (tenantId, requestId, page) =>
      orStorageError(
        Effect.gen(function* () {
          const rows = yield* sql<SubmissionRow>`
            select * from upload_submissions where tenant_id = ${tenantId} and request_id = ${requestId}
            order by id desc limit ${page.limit} offset ${page.offset}`
          const [count] = yield* sql<{ readonly total: number | string }>`
            select count(*) as total from upload_submissions where tenant_id = ${tenantId} and request_id = ${requestId}`
          return { items: rows.map(toSubmission), total: Number(count?.total ?? 0) }
        })
      ),
    getSubmission: (tenantId, requestId, id) =>
      isUuid(id)
        ? orStorageError(
            sql<SubmissionRow>`select * from upload_submissions
                               where id = ${id} and tenant_id = ${tenantId} and request_id = ${requestId}`.pipe(
              Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSubmission))
            )
          )
        : Effect.succeed(Option.none()),
    review: (tenantId, requestId, id, review, at, event) =>
      isUuid(id)
        ? orStorageError(
            sql.withTransaction(
              Effect.gen(function* () {
                const [before] = yield* sql<SubmissionRow>`
                  select * from upload_submissions
                  where id = ${id} and tenant_id = ${tenantId} and request_id = ${requestId} for update`
                if (before === undefined) return Option.none<UploadSubmissionRecord>()
                if (before.review === review) return Option.some(toSubmission(before))
                const [after] = yield* sql<SubmissionRow>`
                  update upload_submissions set review = ${review}, reviewed_at = ${at} where id = ${id} returning *`
                yield* insertEvent(event)
                return Option.map(Option.fromNullishOr(after), toSubmission)
              })
            )
          )
        : Effect.succeed(Option.none()),
    events: (tenantId) =>
      orStorageError(
        sql<{
          id: string
          tenant_id: string
          type: string
          payload: Record<string, unknown>
          created_at: Date
        }>`
          select * from sharing_events where tenant_id = ${tenantId} order by id`.pipe(
          Effect.map((rows) =>
            rows.map((e) => ({
              id: e.id,
              tenantId: e.tenant_id,
              type: e.type,
              payload: e.payload,
              createdAt: e.created_at
            }))
          )
        )
      )
  })
})
