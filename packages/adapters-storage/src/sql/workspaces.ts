// WorkspaceRepository and ApiKeyRepository over SQL.
import { SqlClient } from "effect/sql"
import { type ApiKeyRecord, ApiKeyRepository, type WorkspaceRecord, WorkspaceRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { orStorageError } from "./errors.js"

interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly features: Record<string, boolean>
  readonly created_at: Date
}

interface ApiKeyRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly prefix: string
  readonly hash: string
  readonly scopes: ReadonlyArray<string>
  readonly created_at: Date
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
}

const toWorkspace = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  features: row.features,
  createdAt: row.created_at
})

const toKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  prefix: row.prefix,
  hash: row.hash,
  scopes: row.scopes,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at
})

export const makeWorkspaceRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return WorkspaceRepository.of({
    create: (ws) =>
      orStorageError(
        sql`insert into workspaces (id, name, features, created_at)
            values (${ws.id}, ${ws.name}, ${JSON.stringify(ws.features)}::jsonb, ${ws.createdAt})`.pipe(
          Effect.asVoid
        )
      ),
    get: (id) =>
      orStorageError(
        sql<WorkspaceRow>`select * from workspaces where id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toWorkspace))
        )
      ),
    list: orStorageError(
      sql<WorkspaceRow>`select * from workspaces order by created_at, id`.pipe(
        Effect.map((rows) => rows.map(toWorkspace))
      )
    ),
    count: orStorageError(
      sql<{ readonly n: number }>`select count(*)::int as n from workspaces`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    ),
    setFeatures: (id, features) =>
      orStorageError(
        sql`update workspaces set features = ${JSON.stringify(features)}::jsonb where id = ${id} returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      )
  })
})

export const makeApiKeyRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return ApiKeyRepository.of({
    create: (key) =>
      orStorageError(
        sql`insert into api_keys (id, workspace_id, name, prefix, hash, scopes, created_at, revoked_at, last_used_at)
            values (${key.id}, ${key.workspaceId}, ${key.name}, ${key.prefix}, ${key.hash},
                    ${JSON.stringify(key.scopes)}::jsonb, ${key.createdAt}, ${key.revokedAt}, ${key.lastUsedAt})`.pipe(
          Effect.asVoid
        )
      ),
    findByPrefix: (prefix) =>
      orStorageError(
        sql<ApiKeyRow>`select * from api_keys where prefix = ${prefix}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toKey))
        )
      ),
    list: (workspaceId) =>
      orStorageError(
        sql<ApiKeyRow>`select * from api_keys where workspace_id = ${workspaceId} order by id`.pipe(
          Effect.map((rows) => rows.map(toKey))
        )
      ),
    revoke: (workspaceId, id, at) =>
      orStorageError(
        sql`update api_keys set revoked_at = ${at}
            where id = ${id} and workspace_id = ${workspaceId} and revoked_at is null returning id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
      )
  })
})
