// Port: tenants. A forms workspace and a sharing account are one tenant: the owner of every key,
// form and resource, whose id every repository method of every service takes.
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { ServiceName } from "../service.js"

export interface TenantRecord {
  readonly id: string
  readonly name: string
  /** Feature flags set for this tenant; each service reads its own and defaults the unset ones. */
  readonly features: Readonly<Record<string, boolean>>
  readonly createdAt: Date
  /** Set while the account is disabled: its keys are refused. */
  readonly disabledAt: Date | null
  /**
   * The scopes members (not owners or admins) may give the keys they create, per service; a
   * service missing here uses DEFAULT_MEMBER_KEY_SCOPES.
   */
  readonly memberKeyScopes: Readonly<Partial<Record<ServiceName, ReadonlyArray<string>>>>
}

export interface TenantRepositoryService {
  readonly create: (tenant: TenantRecord) => Effect.Effect<void, StorageError>
  readonly get: (id: string) => Effect.Effect<Option.Option<TenantRecord>, StorageError>
  readonly list: Effect.Effect<ReadonlyArray<TenantRecord>, StorageError>
  readonly count: Effect.Effect<number, StorageError>
  /** The ids of the disabled tenants (few: what SuspendedAccounts holds in memory). */
  readonly listDisabled: Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Disables (a date) or enables (null) the tenant; false when there is no such tenant. */
  readonly setDisabled: (id: string, at: Date | null) => Effect.Effect<boolean, StorageError>
  /** false when there is no such tenant. */
  readonly rename: (id: string, name: string) => Effect.Effect<boolean, StorageError>
  /** Replaces the member key scopes of one service; false when there is no such tenant. */
  readonly setMemberKeyScopes: (
    id: string,
    service: ServiceName,
    scopes: ReadonlyArray<string>
  ) => Effect.Effect<boolean, StorageError>
  readonly setFeatures: (
    id: string,
    features: Readonly<Record<string, boolean>>
  ) => Effect.Effect<boolean, StorageError>
  /**
   * Sets the given flags and keeps the others, in one statement (two operators changing different
   * flags at once both land); the tenant's flags afterwards, or none when there is no such tenant.
   */
  readonly mergeFeatures: (
    id: string,
    changes: Readonly<Record<string, boolean>>
  ) => Effect.Effect<Option.Option<Readonly<Record<string, boolean>>>, StorageError>
}

export class TenantRepository extends Context.Service<TenantRepository, TenantRepositoryService>()(
  "@folio/domain/TenantRepository"
) {}
