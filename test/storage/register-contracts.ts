// Every storage port's contract suite against one target, on one opened adapter (PGlite takes seconds
// to start) but for a suite that counts across tenants. Called once by each storage-<target> runner.
import { describe } from "vitest"
import { withStorage } from "../support/with-storage.js"
import { registerAnalyticsContracts } from "./analytics.contract.js"
import { registerApiKeyContracts } from "./api-key-repository.contract.js"
import { registerArtifactDeploymentContracts } from "./artifact-deployments.contract.js"
import { registerBioSubmissionContracts } from "./bio-submissions.contract.js"
import { registerBlobReferenceContracts } from "./blob-references.contract.js"
import { registerFormContracts } from "./form-repository.contract.js"
import { registerIdempotencyContracts } from "./idempotency.contract.js"
import { registerJobQueueContracts } from "./job-queue.contract.js"
import { registerNotionMirrorContracts } from "./notion-mirrors.contract.js"
import { registerOAuthStoreContracts } from "./oauth-store.contract.js"
import { registerAuditLogContracts } from "./people-audit-log.contract.js"
import { registerMembershipContracts } from "./people-memberships.contract.js"
import { registerOneTimeTokenContracts } from "./people-one-time-tokens.contract.js"
import { registerPasskeyContracts } from "./people-passkeys.contract.js"
import { registerSessionContracts } from "./people-sessions.contract.js"
import { registerUserContracts } from "./people-users.contract.js"
import { registerRateLimitContracts } from "./rate-limit-store.contract.js"
import { registerResponseContracts } from "./response-repository.contract.js"
import { registerResourceContracts } from "./sharing-resources.contract.js"
import type { StorageTarget } from "./targets.js"
import { registerTenantContracts } from "./tenant-repository.contract.js"
import { registerUploadRequestContracts } from "./upload-requests.contract.js"
import { registerUsageContracts } from "./usage-store.contract.js"
import { registerValidationStatsContracts } from "./interview-validation-stats.contract.js"
import { registerWebhookStoreContracts } from "./webhook-store.contract.js"

export const registerStorageContracts = (target: StorageTarget) => {
  describe.skipIf(target.skip)(`storage contracts [${target.name}]`, () => {
    const storage = withStorage(target)
    registerTenantContracts(storage)
    registerApiKeyContracts(storage)
    registerFormContracts(storage)
    registerResponseContracts(storage)
    registerValidationStatsContracts(storage)
    registerRateLimitContracts(storage)
    registerResourceContracts(storage)
    registerIdempotencyContracts(storage)
    registerArtifactDeploymentContracts(storage)
    registerBioSubmissionContracts(storage)
    registerUploadRequestContracts(storage)
    registerNotionMirrorContracts(storage)
    registerUsageContracts(storage)
    registerUserContracts(storage)
    registerMembershipContracts(storage)
    registerSessionContracts(storage)
    registerPasskeyContracts(storage)
    registerOneTimeTokenContracts(storage)
    registerAuditLogContracts(storage)
    registerOAuthStoreContracts(storage)
    registerBlobReferenceContracts(storage)
    describe(`AnalyticsStore [${target.name}]`, () => registerAnalyticsContracts(storage))
    // Claims are not per tenant: the queue's suite drains what earlier suites left due.
    registerJobQueueContracts(storage)
  })
  // Expiry sweeps cover every tenant: the webhook store's suite counts them on a store of its own.
  describe.skipIf(target.skip)(`storage contracts on a store of their own [${target.name}]`, () => {
    registerWebhookStoreContracts(withStorage(target))
  })
}
