// Storage readiness: the app's /readyz asks this whether the database answers.
import { Context, type Effect } from "effect"
import type { StorageError } from "@folio/domain"

export class StorageHealth extends Context.Tag("@folio/adapters-storage/StorageHealth")<
  StorageHealth,
  { readonly check: Effect.Effect<void, StorageError> }
>() {}
