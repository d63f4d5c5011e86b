// BioSubmissions over SQL: one row per submission, pages newest first by id (UUID v7) with a total.
import { type BioSubmissionRecord, BioSubmissions } from "@folio/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"

interface Row {
  readonly id: string
  readonly tenant_id: string
  readonly resource_id: string
  readonly block_id: string
  readonly form_title: string
  readonly values: Readonly<Record<string, string>>
  readonly created_at: Date
  readonly total?: number | string
}

const toRecord = (row: Row): BioSubmissionRecord => ({
  id: row.id,
  tenantId: row.tenant_id,
  resourceId: row.resource_id,
  blockId: row.block_id,
  formTitle: row.form_title,
  values: row.values,
  createdAt: row.created_at
})

export const makeBioSubmissions = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return BioSubmissions.of({
    insert: (s) =>
      orStorageError(
        sql`insert into bio_form_submissions (id, tenant_id, resource_id, block_id, form_title, "values", created_at)
            values (${s.id}, ${s.tenantId}, ${s.resourceId}, ${s.blockId}, ${s.formTitle},
                    ${jsonParam(s.values)}::jsonb, ${s.createdAt})`.pipe(Effect.asVoid)
      ),
    list: (tenantId, resourceId, page) =>
      orStorageError(
        Effect.gen(function* () {
          const rows = yield* sql<Row>`
            select id, tenant_id, resource_id, block_id, form_title, "values", created_at
            from bio_form_submissions where tenant_id = ${tenantId} and resource_id = ${resourceId}
            order by id desc limit ${page.limit} offset ${page.offset}`
          const [count] = yield* sql<{ readonly total: number | string }>`
            select count(*) as total from bio_form_submissions
            where tenant_id = ${tenantId} and resource_id = ${resourceId}`
          return { items: rows.map(toRecord), total: Number(count?.total ?? 0) }
        })
      ),
    delete: (tenantId, resourceId, id) =>
      orStorageError(
        sql`delete from bio_form_submissions
            where id = ${id} and tenant_id = ${tenantId} and resource_id = ${resourceId} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      )
  })
})
