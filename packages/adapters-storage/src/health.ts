// Storage readiness: the app's /readyz asks this whether the database answers.
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

/** Everything a storage layer provides. */
export type StoragePorts =
  | WorkspaceRepository
  | ApiKeyRepository
  | FormRepository
  | ResponseRepository
  | RateLimitStore
  | UsageStore
  | StorageHealth
