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

export class StorageHealth extends Context.Service<
  StorageHealth,
  { readonly check: Effect.Effect<void, StorageError> }
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
