// Storage readiness: the app's /readyz asks these whether the database and the blob store answer.
import { Context, type Effect } from "effect"
import type {
  ApiKeyRepository,
  FormRepository,
  RateLimitStore,
  ResponseRepository,
  StorageError,
  UsageStore,
  WorkspaceRepository
} from "@folio/domain"

export class StorageHealth extends Context.Tag("@folio/adapters-storage/StorageHealth")<
  StorageHealth,
  { readonly check: Effect.Effect<void, StorageError> }
>() {}

/** Whether the blob store can serve (for S3: the bucket exists and the credentials reach it). */
export class BlobStoreHealth extends Context.Tag("@folio/adapters-storage/BlobStoreHealth")<
  BlobStoreHealth,
  { readonly check: Effect.Effect<void, StorageError> }
>() {}

/** Everything a storage layer provides. */
export type StoragePorts =
  | WorkspaceRepository
  | ApiKeyRepository
  | FormRepository
  | ResponseRepository
  | RateLimitStore
  | UsageStore
  | StorageHealth
