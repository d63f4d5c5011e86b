// In-memory adapters for every storage port: the same semantics as the SQL adapters (optimistic
// writes, unique slugs, keyset pages, fixed-window counters), for embedding and fast tests. One file
// per repository, as in sql/; they share one set of tables (store.ts).
import { Effect, Layer } from "effect"
import { type PeopleStoragePorts, StorageHealth, type StoragePorts } from "../health.js"
import { MemoryRateLimitStoreLive, MemoryUsageStoreLive } from "./identity/counters.js"
import { MemoryArtifactDeploymentsLive } from "./sharing/artifact-deployments.js"
import { MemoryUploadRequestsLive } from "./sharing/upload-requests.js"
import { MemoryJobQueueLive } from "./kernel/jobs.js"
import { MemoryNotionMirrorsLive } from "./sharing/notion-mirrors.js"
import { MemoryAnalyticsStoreLive } from "./sharing/analytics.js"
import { MemoryWebhookStoreLive } from "./sharing/webhooks.js"
import { MemoryBioSubmissionsLive } from "./sharing/bio-submissions.js"
import { MemoryFormRepositoryLive } from "./forms/forms.js"
import { MemoryIdempotencyStoreLive } from "./kernel/idempotency.js"
import { MemoryInvalidationBusLive } from "./kernel/invalidation-bus.js"
import { MemoryResourceRepositoryLive } from "./sharing/resources.js"
import { MemoryResponseRepositoryLive } from "./forms/responses.js"
import { MemoryStoreLive } from "./store.js"
import { MemoryApiKeyRepositoryLive } from "./identity/api-keys.js"
import { MemoryTenantRepositoryLive } from "./identity/tenants.js"
import { MemoryUserRepositoryLive } from "./identity/users.js"
import { MemoryMembershipRepositoryLive } from "./identity/memberships.js"
import { MemorySessionRepositoryLive } from "./identity/sessions.js"
import { MemoryPasskeyRepositoryLive } from "./identity/passkeys.js"
import { MemoryOneTimeTokenRepositoryLive } from "./identity/one-time-tokens.js"
import { MemoryAuditLogLive } from "./identity/audit-log.js"
import { MemoryOAuthStoreLive } from "./identity/oauth-store.js"
import { MemoryBlobReferencesLive } from "./kernel/blob-references.js"

/** Every storage port, in memory, fresh per layer build. */
export const MemoryStorageLive: Layer.Layer<StoragePorts | PeopleStoragePorts> = Layer.mergeAll(
  MemoryTenantRepositoryLive,
  MemoryApiKeyRepositoryLive,
  MemoryFormRepositoryLive,
  MemoryResponseRepositoryLive,
  MemoryRateLimitStoreLive,
  MemoryUsageStoreLive,
  MemoryResourceRepositoryLive,
  MemoryIdempotencyStoreLive,
  MemoryBioSubmissionsLive,
  MemoryArtifactDeploymentsLive,
  MemoryUploadRequestsLive,
  MemoryJobQueueLive,
  MemoryNotionMirrorsLive,
  MemoryAnalyticsStoreLive,
  MemoryWebhookStoreLive,
  MemoryInvalidationBusLive,
  MemoryUserRepositoryLive,
  MemoryMembershipRepositoryLive,
  MemorySessionRepositoryLive,
  MemoryPasskeyRepositoryLive,
  MemoryOneTimeTokenRepositoryLive,
  MemoryAuditLogLive,
  MemoryOAuthStoreLive,
  MemoryBlobReferencesLive,
  Layer.succeed(StorageHealth, { check: Effect.void, connections: Effect.succeed([]) })
).pipe(Layer.provide(MemoryStoreLive))
export { MemoryInvalidationBusLive } from "./kernel/invalidation-bus.js"
