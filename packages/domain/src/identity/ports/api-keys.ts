// Port: API keys, each issued to one tenant for one service. Keys are stored only as a SHA-256 hash
// and looked up by their public prefix; the plaintext is shown once at creation and never stored.
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { ServiceName } from "../service.js"

export interface ApiKeyRecord {
  readonly id: string
  readonly tenantId: string
  /** The one service this key opens. */
  readonly service: ServiceName
  readonly name: string
  /** The public middle segment of the key; unique, used for lookup. */
  readonly prefix: string
  /** Lowercase hex SHA-256 of the whole plaintext key. */
  readonly hash: string
  /** Scopes of the key's service, as that service names them. */
  readonly scopes: ReadonlyArray<string>
  readonly createdAt: Date
  readonly revokedAt: Date | null
  readonly lastUsedAt: Date | null
  /** After this instant the key is refused as an unknown one; null = never expires. */
  readonly expiresAt: Date | null
  /** The person who created it in the console; null for the CLI and the first start. */
  readonly createdBy: string | null
  /** The owning tenant is disabled (read with the key, so authentication costs no extra lookup). */
  readonly tenantDisabled: boolean
}

export interface ApiKeyRepositoryService {
  readonly create: (key: ApiKeyRecord) => Effect.Effect<void, StorageError>
  readonly findByPrefix: (prefix: string) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
  /** Every key of the tenant, of every service. */
  readonly list: (tenantId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageError>
  /** Marks the key revoked; false when no such unrevoked key exists in the tenant. */
  readonly revoke: (tenantId: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
}

export class ApiKeyRepository extends Context.Service<ApiKeyRepository, ApiKeyRepositoryService>()(
  "@folio/domain/ApiKeyRepository"
) {}
