// Use cases for tenants and API keys: used by the CLI and the first-start bootstrap. A key's
// plaintext exists only in the result of `issueApiKey`; storage keeps its hash. Messages still say
// "workspace", the only tenant the CLI offers until the sharing service names its accounts.
import { Clock, Effect, Option } from "effect"
import type { StorageError } from "../kernel/errors.js"
import { IdGen } from "../kernel/ports/id-gen.js"
import { InvalidationBus } from "../kernel/ports/invalidation-bus.js"
import { API_KEY_RANDOM_BYTES, formatApiKey, hashApiKey } from "./api-key.js"
import { ApiKeyNotFound, InvalidTenantName, TenantNotFound } from "./errors.js"
import { InvalidExpiry } from "./people/errors.js"
import { type ApiKeyRecord, ApiKeyRepository } from "./ports/api-keys.js"
import { ACCOUNTS_TOPIC } from "./ports/suspended-accounts.js"
import { type TenantRecord, TenantRepository } from "./ports/tenants.js"
import type { ScopeSet } from "./scopes.js"
import type { ServiceName } from "./service.js"

export interface IssuedApiKey {
  readonly record: ApiKeyRecord
  /** Shown once; never stored. */
  readonly plaintext: string
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** How far ahead a key's expiry may lie: a key meant to outlive ten years should simply not expire. */
export const MAX_KEY_LIFETIME_MS = 10 * 366 * 86_400_000

export const createTenant = (
  name: string
): Effect.Effect<TenantRecord, InvalidTenantName | StorageError, TenantRepository | IdGen> =>
  Effect.gen(function* () {
    const trimmed = name.trim()
    if (trimmed.length === 0 || trimmed.length > 200) {
      return yield* new InvalidTenantName()
    }
    const tenant: TenantRecord = {
      id: yield* IdGen.pipe(Effect.flatMap((ids) => ids.uuidV7)),
      name: trimmed,
      features: {},
      createdAt: yield* now,
      disabledAt: null,
      memberKeyScopes: {}
    }
    yield* TenantRepository.pipe(Effect.flatMap((repo) => repo.create(tenant)))
    return tenant
  })

/**
 * Issues a key of the tenant for one service, with scopes of that service (already checked). The
 * CLI and the console's createKey both end here, so an expiry is checked here for both: in the
 * future and at most ten years ahead (InvalidExpiry).
 */
export const issueApiKey = (input: {
  readonly tenantId: string
  readonly service: ServiceName
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  /** Refused after this instant; none = never. */
  readonly expiresAt?: Date | null
  /** The console user who created it; none for the CLI and the first start. */
  readonly createdBy?: string | null
}): Effect.Effect<
  IssuedApiKey,
  TenantNotFound | InvalidExpiry | StorageError,
  TenantRepository | ApiKeyRepository | IdGen
> =>
  Effect.gen(function* () {
    const createdAt = yield* now
    const expiresAt = input.expiresAt ?? null
    if (
      expiresAt !== null &&
      !(expiresAt > createdAt && expiresAt.getTime() <= createdAt.getTime() + MAX_KEY_LIFETIME_MS)
    )
      return yield* new InvalidExpiry()
    const tenants = yield* TenantRepository
    const keys = yield* ApiKeyRepository
    const ids = yield* IdGen
    if (Option.isNone(yield* tenants.get(input.tenantId))) {
      return yield* new TenantNotFound()
    }
    const { plaintext, prefix } = formatApiKey(yield* ids.randomBytes(API_KEY_RANDOM_BYTES))
    const record: ApiKeyRecord = {
      id: yield* ids.uuidV7,
      tenantId: input.tenantId,
      service: input.service,
      name: input.name,
      prefix,
      hash: hashApiKey(plaintext),
      scopes: input.scopes,
      createdAt,
      revokedAt: null,
      lastUsedAt: null,
      expiresAt,
      createdBy: input.createdBy ?? null,
      tenantDisabled: false
    }
    yield* keys.create(record)
    return { record, plaintext }
  })

export const revokeApiKey = (
  tenantId: string,
  keyId: string
): Effect.Effect<void, ApiKeyNotFound | StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const revoked = yield* keys.revoke(tenantId, keyId, yield* now)
    if (!revoked) return yield* new ApiKeyNotFound()
  })

/**
 * On the first start of an empty database: one tenant and one key holding every scope of the
 * given service. Returns both when it bootstrapped, nothing when tenants already exist.
 */
export const bootstrapIfEmpty = (options: {
  /** The tenant's name, in the words of the service (a forms "workspace"). */
  readonly tenantName: string
  /** One full-scope key is issued per set, in this order. */
  readonly scopeSets: ReadonlyArray<ScopeSet>
}): Effect.Effect<
  Option.Option<{ readonly tenant: TenantRecord; readonly keys: ReadonlyArray<IssuedApiKey> }>,
  InvalidTenantName | TenantNotFound | InvalidExpiry | StorageError,
  TenantRepository | ApiKeyRepository | IdGen
> =>
  Effect.gen(function* () {
    const tenants = yield* TenantRepository
    if ((yield* tenants.count) > 0) return Option.none()
    const tenant = yield* createTenant(options.tenantName)
    const keys: Array<IssuedApiKey> = []
    for (const set of options.scopeSets) {
      keys.push(
        yield* issueApiKey({
          tenantId: tenant.id,
          service: set.service,
          name: "bootstrap",
          scopes: [...set.scopes]
        })
      )
    }
    return Option.some({ tenant, keys })
  })

/**
 * Disables or enables a tenant: while disabled every key of it is refused (AccountDisabled), within
 * the key cache's few seconds on a running server, and its public side is answered as absent. The
 * change is announced on ACCOUNTS_TOPIC after it is written, so every instance's SuspendedAccounts
 * learns it at once (a lost announcement is caught by their periodic re-read).
 */
export const setTenantDisabled = (
  tenantId: string,
  disabled: boolean
): Effect.Effect<void, TenantNotFound | StorageError, TenantRepository | InvalidationBus> =>
  Effect.gen(function* () {
    const at = disabled ? yield* now : null
    const found = yield* TenantRepository.pipe(Effect.flatMap((repo) => repo.setDisabled(tenantId, at)))
    if (!found) return yield* new TenantNotFound()
    const bus = yield* InvalidationBus
    yield* Effect.catch(bus.publish(ACCOUNTS_TOPIC, tenantId), (e) =>
      Effect.logWarning("account change not announced; instances learn it at their next re-read", e)
    )
  })
