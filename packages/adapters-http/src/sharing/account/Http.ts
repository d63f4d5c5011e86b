// Handlers of the account group.
import { CREATABLE_TYPES, Principal, SHARING_FEATURES, TenantNotFound, TenantRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { requireScopes } from "../../shared/index.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"

/** The storage quota of an account until files arrive with part 2 of the service. */
export const DEFAULT_QUOTA_BYTES = 1024 * 1024 * 1024

export const AccountLive = HttpApiBuilder.group(SharingApi, "account", (handlers) =>
  Effect.map(Effect.service(TenantRepository), (tenants) =>
    handlers.handle("me", () =>
      Effect.gen(function* () {
        yield* requireScopes("read")
        const principal = yield* Principal
        const tenant = yield* tenants.get(principal.tenant)
        if (Option.isNone(tenant)) return yield* new TenantNotFound()
        return {
          account: {
            id: tenant.value.id,
            name: tenant.value.name,
            created_at: tenant.value.createdAt.toISOString()
          },
          key: { id: principal.keyId, scopes: [...principal.scopes] },
          storage: { used_bytes: 0, quota_bytes: DEFAULT_QUOTA_BYTES },
          creatable_types: [...CREATABLE_TYPES],
          features: SHARING_FEATURES
        }
      }).pipe(Effect.catch(SharingErrors.fail))
    )
  )
)
