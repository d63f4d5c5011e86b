// MembershipRepository over SQL. Role changes and removals lock the workspace's row first, so the
// "is this the last owner?" count and the write are one atomic step: two owners demoting each other
// at once serialise, and the second finds one owner left.
import { SqlClient, type SqlError } from "effect/sql"
import {
  type MembershipChange,
  type MembershipRecord,
  MembershipRepository,
  type MemberView,
  type Role,
  type StorageError,
  type WorkspaceMembershipView
} from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "../errors.js"

interface MembershipRow {
  readonly workspace_id: string
  readonly user_id: string
  readonly role: Role
  readonly created_at: Date
}

const toMembership = (row: MembershipRow): MembershipRecord => ({
  tenantId: row.workspace_id,
  userId: row.user_id,
  role: row.role,
  createdAt: row.created_at
})

export const makeMembershipRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /**
   * Runs `write` on the membership under a lock on its workspace, unless it would leave the workspace
   * without an owner (`losesOwner`: whether the write takes the owner role from a current owner).
   */
  const guarded = (
    tenantId: string,
    userId: string,
    losesOwner: (current: Role) => boolean,
    write: Effect.Effect<unknown, SqlError.SqlError>
  ): Effect.Effect<MembershipChange, StorageError> =>
    orStorageError(
      sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`select id from workspaces where id = ${tenantId} for update`
          const [current] = yield* sql<{ readonly role: Role }>`
            select role from memberships where workspace_id = ${tenantId} and user_id = ${userId}`
          if (current === undefined) return "not_found" as MembershipChange
          if (losesOwner(current.role)) {
            const [owners] = yield* sql<{ readonly n: number }>`
              select count(*)::int as n from memberships where workspace_id = ${tenantId} and role = 'owner'`
            if ((owners?.n ?? 0) <= 1) return "last_owner" as MembershipChange
          }
          yield* write
          return "changed" as MembershipChange
        })
      )
    )

  return MembershipRepository.of({
    add: (m) =>
      orStorageError(
        sql`insert into memberships (workspace_id, user_id, role, created_at)
            values (${m.tenantId}, ${m.userId}, ${m.role}, ${m.createdAt})
            on conflict (workspace_id, user_id) do nothing
            returning user_id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    addWithNewUser: (user, m) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const created = yield* sql`insert into users (id, email, display_name, password_hash, created_at)
              values (${user.id}, ${user.email}, ${user.displayName}, ${user.passwordHash}, ${user.createdAt})
              on conflict (email) do nothing returning id`
            if (created.length === 0) return false
            yield* sql`insert into memberships (workspace_id, user_id, role, created_at)
              values (${m.tenantId}, ${m.userId}, ${m.role}, ${m.createdAt})`
            return true
          })
        )
      ),
    get: (tenantId, userId) =>
      orStorageError(
        sql<MembershipRow>`select * from memberships where workspace_id = ${tenantId} and user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toMembership))
        )
      ),
    // Byte order (collate "C"), as the memory adapter compares strings.
    listByTenant: (tenantId) =>
      orStorageError(
        sql<MembershipRow & { readonly email: string; readonly display_name: string }>`
          select m.*, u.email, u.display_name
          from memberships m join users u on u.id = m.user_id
          where m.workspace_id = ${tenantId}
          order by (m.role = 'owner') desc, u.email collate "C", u.id`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row): MemberView => ({ ...toMembership(row), email: row.email, displayName: row.display_name })
            )
          )
        )
      ),
    listByUser: (userId) =>
      orStorageError(
        sql<MembershipRow & { readonly name: string; readonly disabled: boolean }>`
          select m.*, w.name, w.disabled_at is not null as disabled
          from memberships m join workspaces w on w.id = m.workspace_id
          where m.user_id = ${userId}
          order by w.name collate "C", w.id`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row): WorkspaceMembershipView => ({
                ...toMembership(row),
                tenantName: row.name,
                tenantDisabled: row.disabled
              })
            )
          )
        )
      ),
    setRole: (tenantId, userId, role) =>
      guarded(
        tenantId,
        userId,
        (current) => current === "owner" && role !== "owner",
        sql`update memberships set role = ${role} where workspace_id = ${tenantId} and user_id = ${userId}`
      ),
    remove: (tenantId, userId) =>
      guarded(
        tenantId,
        userId,
        (current) => current === "owner",
        sql`delete from memberships where workspace_id = ${tenantId} and user_id = ${userId}`
      )
  })
})
