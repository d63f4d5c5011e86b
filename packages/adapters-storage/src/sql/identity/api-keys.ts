// ApiKeyRepository over SQL: a key's tenant is its `workspace_id`, its service the `service` column
// (0005_api_key_services).
import { SqlClient } from "effect/sql"
import { type ApiKeyRecord, ApiKeyRepository, type ServiceName } from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "../errors.js"

interface ApiKeyRow {
  readonly id: string
  readonly workspace_id: string
  readonly service: ServiceName
  readonly name: string
  readonly prefix: string
  readonly hash: string
  readonly scopes: ReadonlyArray<string>
  readonly created_at: Date
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
  readonly expires_at: Date | null
  readonly created_by: string | null
  /** Joined from the tenant's row on lookups by prefix. */
  readonly tenant_disabled?: boolean
}

const toKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  tenantId: row.workspace_id,
  service: row.service,
  name: row.name,
  prefix: row.prefix,
  hash: row.hash,
  scopes: row.scopes,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
  createdBy: row.created_by,
  tenantDisabled: row.tenant_disabled === true
})

export const makeApiKeyRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return ApiKeyRepository.of({
    create: (key) =>
      orStorageError(
        sql`insert into api_keys (id, workspace_id, service, name, prefix, hash, scopes, created_at, revoked_at, last_used_at, expires_at, created_by)
            values (${key.id}, ${key.tenantId}, ${key.service}, ${key.name}, ${key.prefix}, ${key.hash},
                    ${JSON.stringify(key.scopes)}::jsonb, ${key.createdAt}, ${key.revokedAt}, ${key.lastUsedAt},
                    ${key.expiresAt}, ${key.createdBy})`.pipe(Effect.asVoid)
      ),
    findByPrefix: (prefix) =>
      orStorageError(
        sql<ApiKeyRow>`select k.*, w.disabled_at is not null as tenant_disabled
                       from api_keys k join workspaces w on w.id = k.workspace_id
                       where k.prefix = ${prefix}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toKey))
        )
      ),
    list: (tenantId) =>
      orStorageError(
        sql<ApiKeyRow>`select * from api_keys where workspace_id = ${tenantId} order by id`.pipe(
          Effect.map((rows) => rows.map(toKey))
        )
      ),
    revoke: (tenantId, id, at) =>
      orStorageError(
        sql`update api_keys set revoked_at = ${at}
            where id = ${id} and workspace_id = ${tenantId} and revoked_at is null returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      )
  })
})
