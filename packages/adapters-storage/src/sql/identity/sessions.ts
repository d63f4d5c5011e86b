// SessionRepository over SQL: console sessions by the SHA-256 of their cookie token; the idle clock
// only moves forward, so a slow request cannot roll back a newer touch.
import { SqlClient } from "effect/sql"
import { type SessionRecord, SessionRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "../errors.js"

interface SessionRow {
  readonly id: string
  readonly token_hash: string
  readonly user_id: string
  readonly csrf_token: string
  readonly workspace_id: string | null
  readonly created_at: Date
  readonly last_seen_at: Date
  readonly expires_at: Date
  readonly ip: string | null
  readonly user_agent: string | null
}

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  csrfToken: row.csrf_token,
  tenantId: row.workspace_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  ip: row.ip,
  userAgent: row.user_agent
})

export const makeSessionRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SessionRepository.of({
    create: (s) =>
      orStorageError(
        sql`insert into console_sessions (id, token_hash, user_id, csrf_token, workspace_id, created_at,
              last_seen_at, expires_at, ip, user_agent)
            values (${s.id}, ${s.tokenHash}, ${s.userId}, ${s.csrfToken}, ${s.tenantId}, ${s.createdAt},
              ${s.lastSeenAt}, ${s.expiresAt}, ${s.ip}, ${s.userAgent})`.pipe(Effect.asVoid)
      ),
    findByTokenHash: (tokenHash) =>
      orStorageError(
        sql<SessionRow>`select * from console_sessions where token_hash = ${tokenHash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSession))
        )
      ),
    touch: (id, at) =>
      orStorageError(
        sql`update console_sessions set last_seen_at = ${at}
            where id = ${id} and last_seen_at < ${at}`.pipe(Effect.asVoid)
      ),
    setTenant: (id, tenantId) =>
      orStorageError(
        sql`update console_sessions set workspace_id = ${tenantId} where id = ${id}`.pipe(Effect.asVoid)
      ),
    listByUser: (userId) =>
      orStorageError(
        sql<SessionRow>`select * from console_sessions where user_id = ${userId}
                        order by created_at desc, id desc`.pipe(Effect.map((rows) => rows.map(toSession)))
      ),
    delete: (userId, id) =>
      orStorageError(
        sql`delete from console_sessions where id = ${id} and user_id = ${userId} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    deleteAllOfUser: (userId, keepId) =>
      orStorageError(
        (keepId === null
          ? sql`delete from console_sessions where user_id = ${userId} returning id`
          : sql`delete from console_sessions where user_id = ${userId} and id <> ${keepId} returning id`
        ).pipe(Effect.map((rows) => rows.length))
      ),
    deleteExpired: (now, idleBefore) =>
      orStorageError(
        sql`delete from console_sessions where expires_at <= ${now} or last_seen_at < ${idleBefore}
            returning id`.pipe(Effect.map((rows) => rows.length))
      )
  })
})
