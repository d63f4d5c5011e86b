// TenantRepository over SQL. Tenants live in the `workspaces` table, the forms service's name for
// them since the first migration.
import { SqlClient } from "effect/sql"
import { type TenantRecord, TenantRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "../errors.js"

interface TenantRow {
  readonly id: string
  readonly name: string
  readonly features: Record<string, boolean>
  readonly created_at: Date
  readonly disabled_at: Date | null
  readonly member_key_scopes: Record<string, ReadonlyArray<string>>
}

const toTenant = (row: TenantRow): TenantRecord => ({
  id: row.id,
  name: row.name,
  features: row.features,
  createdAt: row.created_at,
  disabledAt: row.disabled_at,
  memberKeyScopes: row.member_key_scopes
})

export const makeTenantRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return TenantRepository.of({
    create: (tenant) =>
      orStorageError(
        sql`insert into workspaces (id, name, features, created_at)
            values (${tenant.id}, ${tenant.name}, ${JSON.stringify(tenant.features)}::jsonb, ${tenant.createdAt})`.pipe(
          Effect.asVoid
        )
      ),
    get: (id) =>
      orStorageError(
        sql<TenantRow>`select * from workspaces where id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toTenant))
        )
      ),
    list: orStorageError(
      sql<TenantRow>`select * from workspaces order by created_at, id`.pipe(
        Effect.map((rows) => rows.map(toTenant))
      )
    ),
    count: orStorageError(
      sql<{ readonly n: number }>`select count(*)::int as n from workspaces`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    ),
    listDisabled: orStorageError(
      sql<{ readonly id: string }>`select id from workspaces where disabled_at is not null`.pipe(
        Effect.map((rows) => rows.map((row) => row.id))
      )
    ),
    setDisabled: (id, at) =>
      orStorageError(
        sql`update workspaces set disabled_at = ${at} where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    rename: (id, name) =>
      orStorageError(
        sql`update workspaces set name = ${name} where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    // One service's list replaced in one statement: two admins changing different services both land.
    setMemberKeyScopes: (id, service, scopes) =>
      orStorageError(
        sql`update workspaces
            set member_key_scopes = member_key_scopes || jsonb_build_object(${service}::text, ${JSON.stringify(scopes)}::jsonb)
            where id = ${id} returning id`.pipe(Effect.map((rows) => rows.length > 0))
      ),
    setFeatures: (id, features) =>
      orStorageError(
        sql`update workspaces set features = ${JSON.stringify(features)}::jsonb where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      ),
    mergeFeatures: (id, changes) =>
      orStorageError(
        sql<{ readonly features: Record<string, boolean> }>`update workspaces
            set features = features || ${JSON.stringify(changes)}::jsonb where id = ${id} returning features`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => row.features))
        )
      )
  })
})
