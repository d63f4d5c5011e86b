// In-memory adapters for every storage port: the same semantics as the SQL adapters (optimistic
// writes, unique slugs, keyset pages, fixed-window counters), for embedding and fast tests. One file
// per repository, as in sql/; they share one set of tables (store.ts).
import { Effect, Layer } from "effect"
import { StorageHealth, type StoragePorts } from "../health.js"
import { MemoryRateLimitStoreLive, MemoryUsageStoreLive } from "./counters.js"
import { MemoryArtifactDeploymentsLive } from "./artifact-deployments.js"
import { MemoryUploadRequestsLive } from "./upload-requests.js"
import { MemoryJobQueueLive } from "./jobs.js"
import { MemoryNotionMirrorsLive } from "./notion-mirrors.js"
import { MemoryAnalyticsStoreLive } from "./analytics.js"
import { MemoryWebhookStoreLive } from "./webhooks.js"
import { MemoryBioSubmissionsLive } from "./bio-submissions.js"
import { MemoryFormRepositoryLive } from "./forms.js"
import { MemoryIdempotencyStoreLive } from "./idempotency.js"
import { MemoryInvalidationBusLive } from "./invalidation-bus.js"
import { MemoryResourceRepositoryLive } from "./resources.js"
import { MemoryResponseRepositoryLive } from "./responses.js"
import { MemoryStoreLive } from "./store.js"
import { MemoryApiKeyRepositoryLive } from "./api-keys.js"
import { MemoryTenantRepositoryLive } from "./tenants.js"

/** Every storage port, in memory, fresh per layer build. */
export const MemoryStorageLive: Layer.Layer<StoragePorts> = Layer.mergeAll(
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
  Layer.succeed(StorageHealth, { check: Effect.void })
).pipe(Layer.provide(MemoryStoreLive))
export { MemoryInvalidationBusLive } from "./invalidation-bus.js"
