// UserRepository over SQL: accounts in `users`, the e-mail (normalised by the domain) unique, so two
// sign-ups with one address at once leave one account.
import { SqlClient } from "effect/sql"
import { type UserRecord, UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "../errors.js"

interface UserRow {
  readonly id: string
  readonly email: string
  readonly display_name: string
  readonly password_hash: string | null
  readonly created_at: Date
}

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  passwordHash: row.password_hash,
  createdAt: row.created_at
})

export const makeUserRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const one = (rows: ReadonlyArray<UserRow>) => Option.map(Option.fromNullishOr(rows[0]), toUser)
  return UserRepository.of({
    // `on conflict do nothing` waits for a concurrent insert of the same e-mail and then skips.
    create: (user) =>
      orStorageError(
        sql`insert into users (id, email, display_name, password_hash, created_at)
            values (${user.id}, ${user.email}, ${user.displayName}, ${user.passwordHash}, ${user.createdAt})
            on conflict (email) do nothing
            returning id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    get: (id) => orStorageError(sql<UserRow>`select * from users where id = ${id}`.pipe(Effect.map(one))),
    findByEmail: (email) =>
      orStorageError(sql<UserRow>`select * from users where email = ${email}`.pipe(Effect.map(one))),
    setDisplayName: (id, displayName) =>
      orStorageError(
        sql`update users set display_name = ${displayName} where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    setPasswordHash: (id, hash) =>
      orStorageError(
        sql`update users set password_hash = ${hash} where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    removePasswordKeepingSignIn: (id) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const locked = yield* sql`select id from users where id = ${id} for update`
            if (locked.length === 0) return "not_found" as const
            const [keys] = yield* sql<{ readonly n: number }>`
              select count(*)::int as n from passkeys where user_id = ${id}`
            if ((keys?.n ?? 0) === 0) return "last_method" as const
            yield* sql`update users set password_hash = null where id = ${id}`
            return "changed" as const
          })
        )
      ),
    count: orStorageError(
      sql<{ readonly n: number }>`select count(*)::int as n from users`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    )
  })
})
