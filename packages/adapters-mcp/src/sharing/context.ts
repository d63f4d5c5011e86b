// The account context resource (svc://account/context), read before acting: the caller's scopes and
// the tools it can see, the server's features and creatable types, the limits a caller meets (request
// budget, link creations, body and upload sizes, what tools take inline) and the storage in use.
import {
  ArtifactsFeature,
  CREATABLE_TYPES,
  LinkCreationPolicy,
  MAX_REQUEST_BODY_BYTES,
  NotionSource,
  Principal,
  RateLimitPolicy,
  ResourceRepository,
  SHARING_FEATURES,
  UploadPolicy
} from "@folio/domain"
import { Effect } from "effect"

export const ACCOUNT_CONTEXT_URI = "svc://account/context"

/** The context of the calling principal, given the names of the tools it can see. */
export const accountContext = (tools: ReadonlyArray<string>, toolLimits: Readonly<Record<string, number>>) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const resources = yield* ResourceRepository
    const uploads = yield* UploadPolicy
    const artifacts = yield* ArtifactsFeature
    const notion = (yield* NotionSource).enabled
    const links = yield* LinkCreationPolicy
    const rates = yield* RateLimitPolicy
    return {
      account: { id: principal.tenant },
      scopes: [...principal.scopes],
      tools: [...tools],
      features: { ...SHARING_FEATURES, artifacts_enabled: artifacts.enabled, notion_enabled: notion },
      creatable_types: CREATABLE_TYPES.filter(
        (t) => (t !== "artifact" || artifacts.enabled) && (t !== "notion" || notion)
      ),
      limits: {
        requests_per_minute: rates.byService?.sharing?.perKeyPerMinute ?? rates.perKeyPerMinute,
        link_creations_per_hour: links.perKeyPerHour,
        request_body_bytes: MAX_REQUEST_BODY_BYTES,
        upload_max_bytes: uploads.maxBytes,
        ...toolLimits
      },
      storage: {
        used_bytes: yield* resources.storageUsed(principal.tenant),
        quota_bytes: uploads.quotaBytes
      },
      notes: [
        "Tool inputs and outputs use the REST API's snake_case wire shapes; errors carry its error codes.",
        "Writes to one resource are compare-and-set when you send expected_etag (from the etag a read or write returned); on etag_mismatch, read again and re-apply.",
        "Tools that need a scope you lack are not listed; calling one answers insufficient_scope."
      ]
    }
  })
