// OAuthStore over SQL: the authorization server's records in oauth_records. A consume is one
// conditional update, so of two racing uses of one refresh token exactly one gets it; revoking a
// workspace's grant checks the workspace and deletes the grant's records in one transaction.
import { SqlClient } from "effect/sql"
import { type OAuthGrantSummary, type OAuthRecord, OAuthStore } from "@folio/domain"
import { Effect, Option } from "effect"
import { jsonParam } from "../json.js"
import { orStorageError } from "../errors.js"

interface RecordRow {
  readonly model: string
  readonly id: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly grant_id: string | null
  readonly uid: string | null
  readonly user_code: string | null
  readonly tenant_id: string | null
  readonly expires_at: Date | null
  readonly consumed_at: Date | null
  readonly created_at: Date
  readonly last_used_at: Date | null
}

const toRecord = (row: RecordRow): OAuthRecord => ({
  model: row.model,
  id: row.id,
  payload: row.payload,
  grantId: row.grant_id,
  uid: row.uid,
  userCode: row.user_code,
  tenantId: row.tenant_id,
  expiresAt: row.expires_at,
  consumedAt: row.consumed_at
})

const toGrant = (row: RecordRow): OAuthGrantSummary => ({
  grantId: row.id,
  tenantId: row.tenant_id ?? "",
  payload: row.payload,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at
})

const one = (rows: ReadonlyArray<RecordRow>) => Option.map(Option.fromNullishOr(rows[0]), toRecord)

export const makeOAuthStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const live = (now: Date) => sql`(expires_at is null or expires_at > ${now})`
  const revokeGrant = (grantId: string) =>
    sql`delete from oauth_records where grant_id = ${grantId} or (model = 'Grant' and id = ${grantId})`
  return OAuthStore.of({
    upsert: (r, now) =>
      orStorageError(
        sql`insert into oauth_records (model, id, payload, grant_id, uid, user_code, tenant_id, expires_at,
              consumed_at, created_at)
            values (${r.model}, ${r.id}, ${jsonParam(r.payload)}::jsonb, ${r.grantId}, ${r.uid}, ${r.userCode},
              ${r.tenantId}, ${r.expiresAt}, ${r.consumedAt}, ${now})
            on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
              uid = excluded.uid, user_code = excluded.user_code, tenant_id = excluded.tenant_id,
              expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`.pipe(Effect.asVoid)
      ),
    find: (model, id, now) =>
      orStorageError(
        sql<RecordRow>`select * from oauth_records where model = ${model} and id = ${id} and ${live(now)}`.pipe(
          Effect.map(one)
        )
      ),
    findByUid: (model, uid, now) =>
      orStorageError(
        sql<RecordRow>`select * from oauth_records where model = ${model} and uid = ${uid} and ${live(now)}
                       limit 1`.pipe(Effect.map(one))
      ),
    findByUserCode: (model, userCode, now) =>
      orStorageError(
        sql<RecordRow>`select * from oauth_records where model = ${model} and user_code = ${userCode}
                       and ${live(now)} limit 1`.pipe(Effect.map(one))
      ),
    consume: (model, id, at) =>
      orStorageError(
        sql`update oauth_records set consumed_at = ${at}
            where model = ${model} and id = ${id} and consumed_at is null and ${live(at)}
            returning id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    destroy: (model, id) =>
      orStorageError(
        sql`delete from oauth_records where model = ${model} and id = ${id}`.pipe(Effect.asVoid)
      ),
    revokeByGrantId: (grantId) => orStorageError(revokeGrant(grantId).pipe(Effect.asVoid)),
    grantsOfTenant: (tenantId, now) =>
      orStorageError(
        sql<RecordRow>`select * from oauth_records
                       where model = 'Grant' and tenant_id = ${tenantId} and ${live(now)}
                       order by created_at desc, id desc`.pipe(Effect.map((rows) => rows.map(toGrant)))
      ),
    revokeGrantOfTenant: (tenantId, grantId) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            // Locks the grant: a concurrent revoke waits, then finds it gone.
            const found = yield* sql`select id from oauth_records
                                     where model = 'Grant' and id = ${grantId} and tenant_id = ${tenantId}
                                     for update`
            if (found.length === 0) return false
            yield* revokeGrant(grantId)
            return true
          })
        )
      ),
    touchGrant: (grantId, at, minIntervalMs) =>
      orStorageError(
        sql`update oauth_records set last_used_at = ${at}
            where model = 'Grant' and id = ${grantId}
              and (last_used_at is null or last_used_at <= ${new Date(at.getTime() - minIntervalMs)})`.pipe(
          Effect.asVoid
        )
      ),
    deleteExpired: (now) =>
      orStorageError(
        sql`delete from oauth_records where expires_at < ${now} returning id`.pipe(
          Effect.map((rows) => rows.length)
        )
      )
  })
})
