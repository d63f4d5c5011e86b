// OneTimeTokenRepository over SQL: single-use links and passkey challenges by the SHA-256 of their
// token. A use is one conditional update, so of two concurrent uses exactly one gets the row.
import { SqlClient } from "effect/sql"
import {
  type OneTimeTokenKind,
  type OneTimeTokenRecord,
  OneTimeTokenRepository,
  type Role
} from "@folio/domain"
import { Effect, Option } from "effect"
import { jsonParam } from "../json.js"
import { orStorageError } from "../errors.js"

interface TokenRow {
  readonly id: string
  readonly kind: OneTimeTokenKind
  readonly token_hash: string
  readonly workspace_id: string | null
  readonly email: string | null
  readonly role: Role | null
  readonly user_id: string | null
  readonly data: Readonly<Record<string, string>>
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

const toToken = (row: TokenRow): OneTimeTokenRecord => ({
  id: row.id,
  kind: row.kind,
  tokenHash: row.token_hash,
  tenantId: row.workspace_id,
  email: row.email,
  role: row.role,
  userId: row.user_id,
  data: row.data,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at
})

const one = (rows: ReadonlyArray<TokenRow>) => Option.map(Option.fromNullishOr(rows[0]), toToken)

export const makeOneTimeTokenRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return OneTimeTokenRepository.of({
    create: (t) =>
      orStorageError(
        sql`insert into one_time_tokens (id, kind, token_hash, workspace_id, email, role, user_id, data,
              created_at, expires_at, used_at)
            values (${t.id}, ${t.kind}, ${t.tokenHash}, ${t.tenantId}, ${t.email}, ${t.role}, ${t.userId},
              ${jsonParam(t.data)}::jsonb, ${t.createdAt}, ${t.expiresAt}, ${t.usedAt})`.pipe(Effect.asVoid)
      ),
    peek: (kind, tokenHash, now) =>
      orStorageError(
        sql<TokenRow>`select * from one_time_tokens
                      where kind = ${kind} and token_hash = ${tokenHash} and used_at is null and expires_at > ${now}`.pipe(
          Effect.map(one)
        )
      ),
    consume: (kind, tokenHash, now) =>
      orStorageError(
        sql<TokenRow>`update one_time_tokens set used_at = ${now}
                      where kind = ${kind} and token_hash = ${tokenHash} and used_at is null and expires_at > ${now}
                      returning *`.pipe(Effect.map(one))
      ),
    listInvitations: (tenantId, now) =>
      orStorageError(
        sql<TokenRow>`select * from one_time_tokens
                      where workspace_id = ${tenantId} and kind = 'invitation' and used_at is null and expires_at > ${now}
                      order by created_at desc, id desc`.pipe(Effect.map((rows) => rows.map(toToken)))
      ),
    revokeInvitation: (tenantId, id, at) =>
      orStorageError(
        sql`update one_time_tokens set used_at = ${at}
            where id = ${id} and workspace_id = ${tenantId} and kind = 'invitation' and used_at is null
            returning id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    revokeResets: (userId, at) =>
      orStorageError(
        sql`update one_time_tokens set used_at = ${at}
            where user_id = ${userId} and kind = 'password_reset' and used_at is null`.pipe(Effect.asVoid)
      ),
    deleteSpent: (before) =>
      orStorageError(
        sql`delete from one_time_tokens where expires_at < ${before} or used_at < ${before} returning id`.pipe(
          Effect.map((rows) => rows.length)
        )
      )
  })
})
