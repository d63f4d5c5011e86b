// PasskeyRepository over SQL: a person's WebAuthn credentials, the credential id unique across
// accounts (an authenticator's credential signs in to one account only).
import { SqlClient } from "effect/sql"
import { type PasskeyRecord, PasskeyRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { jsonParam } from "../json.js"
import { orStorageError } from "../errors.js"

interface PasskeyRow {
  readonly id: string
  readonly user_id: string
  readonly credential_id: string
  readonly public_key: string
  /** bigint: the driver answers a string. */
  readonly counter: string | number
  readonly transports: ReadonlyArray<string>
  readonly name: string
  readonly created_at: Date
  readonly last_used_at: Date | null
}

const toPasskey = (row: PasskeyRow): PasskeyRecord => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at
})

export const makePasskeyRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return PasskeyRepository.of({
    create: (p) =>
      orStorageError(
        sql`insert into passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at)
            values (${p.id}, ${p.userId}, ${p.credentialId}, ${p.publicKey}, ${p.counter},
              ${jsonParam(p.transports)}::jsonb, ${p.name}, ${p.createdAt}, ${p.lastUsedAt})
            on conflict (credential_id) do nothing
            returning id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    listByUser: (userId) =>
      orStorageError(
        sql<PasskeyRow>`select * from passkeys where user_id = ${userId} order by created_at, id`.pipe(
          Effect.map((rows) => rows.map(toPasskey))
        )
      ),
    findByCredentialId: (credentialId) =>
      orStorageError(
        sql<PasskeyRow>`select * from passkeys where credential_id = ${credentialId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toPasskey))
        )
      ),
    recordUse: (id, counter, at) =>
      orStorageError(
        sql`update passkeys set counter = ${counter}, last_used_at = ${at} where id = ${id}`.pipe(
          Effect.asVoid
        )
      ),
    // Locks the account first, as removePasswordKeepingSignIn does: the two cannot interleave.
    deleteKeepingSignIn: (userId, id) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const [account] = yield* sql<{ readonly has_password: boolean }>`
              select password_hash is not null as has_password from users where id = ${userId} for update`
            if (account === undefined) return "not_found" as const
            const own = yield* sql<{ readonly id: string }>`select id from passkeys where user_id = ${userId}`
            if (!own.some((row) => row.id === id)) return "not_found" as const
            if (own.length === 1 && !account.has_password) return "last_method" as const
            yield* sql`delete from passkeys where id = ${id} and user_id = ${userId}`
            return "changed" as const
          })
        )
      ),
    delete: (userId, id) =>
      orStorageError(
        sql`delete from passkeys where id = ${id} and user_id = ${userId} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      )
  })
})
