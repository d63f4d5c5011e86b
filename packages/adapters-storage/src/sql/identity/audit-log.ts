// AuditLog over SQL: a workspace's events, listed newest first by their uuid v7 ids in pages (the
// index (workspace_id, id desc) serves each page), deleted past the retention by the hourly sweep.
import { SqlClient } from "effect/sql"
import { type AuditAction, type AuditEventRecord, AuditLog } from "@folio/domain"
import { Array as Arr, Effect } from "effect"
import { orStorageError } from "../errors.js"

interface AuditRow {
  readonly id: string
  readonly workspace_id: string
  readonly action: AuditAction
  readonly actor_user_id: string | null
  readonly actor_email: string | null
  readonly target: string | null
  readonly ip: string | null
  readonly details: AuditEventRecord["details"]
  readonly at: Date
}

const toEvent = (row: AuditRow): AuditEventRecord => ({
  id: row.id,
  tenantId: row.workspace_id,
  action: row.action,
  actorUserId: row.actor_user_id,
  actorEmail: row.actor_email,
  target: row.target,
  ip: row.ip,
  details: row.details,
  at: row.at
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const toRow = (e: AuditEventRecord) => ({
  id: e.id,
  workspace_id: e.tenantId,
  action: e.action,
  actor_user_id: e.actorUserId,
  actor_email: e.actorEmail,
  target: e.target,
  ip: e.ip,
  details: JSON.stringify(e.details),
  at: e.at
})

export const makeAuditLog = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const insertMany = (events: ReadonlyArray<AuditEventRecord>) => {
    const rows = events.map(toRow)
    if (!Arr.isArrayNonEmpty(rows)) return Effect.void
    return orStorageError(sql`insert into audit_events ${sql.insert(rows)}`.pipe(Effect.asVoid))
  }
  return AuditLog.of({
    record: (event) => insertMany([event]),
    recordMany: insertMany,
    list: (tenantId, { before, limit }) =>
      orStorageError(
        Effect.gen(function* () {
          // A cursor that is no event id (a hand-edited URL) has no older events.
          if (before !== null && !UUID.test(before)) return { events: [], nextBefore: null }
          // One row past the page says whether an older page exists.
          const rows = yield* before === null
            ? sql<AuditRow>`select * from audit_events where workspace_id = ${tenantId}
                            order by id desc limit ${limit + 1}`
            : sql<AuditRow>`select * from audit_events where workspace_id = ${tenantId} and id < ${before}
                            order by id desc limit ${limit + 1}`
          const page = rows.slice(0, limit).map(toEvent)
          return {
            events: page,
            nextBefore: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null
          }
        })
      ),
    deleteOlderThan: (before) =>
      orStorageError(
        sql`delete from audit_events where at < ${before} returning id`.pipe(
          Effect.map((rows) => rows.length)
        )
      )
  })
})
