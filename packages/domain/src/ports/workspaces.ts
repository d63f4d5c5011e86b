// Port: workspaces and their API keys. Keys are stored only as a SHA-256 hash and looked up by
// their public prefix; the plaintext is shown once at creation and never stored.
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../kernel/errors.js"

export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  /** Feature flags set for this workspace; unset flags take the capability defaults. */
  readonly features: Readonly<Record<string, boolean>>
  readonly createdAt: Date
}

export interface ApiKeyRecord {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  /** The public middle segment of the key; unique, used for lookup. */
  readonly prefix: string
  /** Lowercase hex SHA-256 of the whole plaintext key. */
  readonly hash: string
  readonly scopes: ReadonlyArray<string>
  readonly createdAt: Date
  readonly revokedAt: Date | null
  readonly lastUsedAt: Date | null
}

export interface WorkspaceRepositoryService {
  readonly create: (workspace: WorkspaceRecord) => Effect.Effect<void, StorageError>
  readonly get: (id: string) => Effect.Effect<Option.Option<WorkspaceRecord>, StorageError>
  readonly list: Effect.Effect<ReadonlyArray<WorkspaceRecord>, StorageError>
  readonly count: Effect.Effect<number, StorageError>
  readonly setFeatures: (
    id: string,
    features: Readonly<Record<string, boolean>>
  ) => Effect.Effect<boolean, StorageError>
}

export class WorkspaceRepository extends Context.Service<WorkspaceRepository, WorkspaceRepositoryService>()(
  "@folio/domain/WorkspaceRepository"
) {}

export interface ApiKeyRepositoryService {
  readonly create: (key: ApiKeyRecord) => Effect.Effect<void, StorageError>
  readonly findByPrefix: (prefix: string) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageError>
  /** Marks the key revoked; false when no such unrevoked key exists in the workspace. */
  readonly revoke: (workspaceId: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
}

export class ApiKeyRepository extends Context.Service<ApiKeyRepository, ApiKeyRepositoryService>()(
  "@folio/domain/ApiKeyRepository"
) {}
