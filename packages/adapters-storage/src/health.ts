// Storage readiness: the app's /readyz asks these whether the database and the blob store answer.
import { Context, type Effect } from "effect"
import type {
  AnalyticsStore,
  ArtifactDeployments,
  BlobReferences,
  BioSubmissions,
  ApiKeyRepository,
  FormRepository,
  IdempotencyStore,
  InvalidationBus,
  RateLimitStore,
  ResourceRepository,
  ResponseRepository,
  StorageError,
  UsageStore,
  TenantRepository,
  UploadRequests,
  JobQueue,
  NotionMirrors,
  WebhookStore,
  AuditLog,
  MembershipRepository,
  OneTimeTokenRepository,
  PasskeyRepository,
  OAuthStore,
  SessionRepository,
  UserRepository
} from "@folio/domain"

/** One state's count of this instance's database connections (pg_stat_activity's `state`). */
export interface ConnectionCount {
  readonly state: string
  readonly count: number
}

export class StorageHealth extends Context.Service<
  StorageHealth,
  {
    readonly check: Effect.Effect<void, StorageError>
    /**
     * This instance's connections by state, as the server sees them (PostgreSQL: pg_stat_activity
     * rows under this process's application name); none where there is no pool (memory).
     */
    readonly connections: Effect.Effect<ReadonlyArray<ConnectionCount>, StorageError>
  }
>()("@folio/adapters-storage/StorageHealth") {}

/** Whether the blob store can serve (for S3: the bucket exists and the credentials reach it). */
export class BlobStoreHealth extends Context.Service<
  BlobStoreHealth,
  { readonly check: Effect.Effect<void, StorageError> }
>()("@folio/adapters-storage/BlobStoreHealth") {}

/**
 * People's ports: accounts, memberships, console sessions, passkeys, one-time links, audit log, and
 * the OAuth authorization server's records (since migration 0021). Every storage layer provides
 * them (memory, and SQL since migration 0020): part of StoragePorts.
 */
export type PeopleStoragePorts =
  | UserRepository
  | MembershipRepository
  | SessionRepository
  | PasskeyRepository
  | OneTimeTokenRepository
  | AuditLog
  | OAuthStore

/** Everything a storage layer provides. */
export type StoragePorts =
  | TenantRepository
  | ApiKeyRepository
  | FormRepository
  | ResponseRepository
  | RateLimitStore
  | UsageStore
  | ResourceRepository
  | IdempotencyStore
  | BioSubmissions
  | JobQueue
  | NotionMirrors
  | AnalyticsStore
  | WebhookStore
  | ArtifactDeployments
  | UploadRequests
  | InvalidationBus
  | StorageHealth
  | BlobReferences
  | PeopleStoragePorts
