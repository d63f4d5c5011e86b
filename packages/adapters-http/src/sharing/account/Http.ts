// Handlers of the account group.
import {
  ArtifactsFeature,
  CREATABLE_TYPES,
  NotionSource,
  Principal,
  ResourceRepository,
  SHARING_FEATURES,
  TenantNotFound,
  TenantRepository,
  UploadPolicy
} from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"

export const AccountLive = HttpApiBuilder.group(SharingApi, "account", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* TenantRepository
    const resources = yield* ResourceRepository
    const uploads = yield* UploadPolicy
    const artifacts = yield* ArtifactsFeature
    const notion = (yield* NotionSource).enabled
    const features = { ...SHARING_FEATURES, artifacts_enabled: artifacts.enabled, notion_enabled: notion }
    const creatable = CREATABLE_TYPES.filter(
      (t) => (t !== "artifact" || artifacts.enabled) && (t !== "notion" || notion)
    )
    return handlers.handle("me", () =>
      sharingRoute(
        "account.me",
        Effect.gen(function* () {
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
            storage: {
              used_bytes: yield* resources.storageUsed(principal.tenant),
              quota_bytes: uploads.quotaBytes
            },
            creatable_types: [...creatable],
            features
          }
        })
      )
    )
  })
)
