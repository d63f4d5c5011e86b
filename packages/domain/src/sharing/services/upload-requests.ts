// SharingUploadRequests: the owner's upload request routes as one service over their ports.
import { Context, type Effect, Layer } from "effect"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { PasswordHasher } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import { UploadRequests } from "../ports/upload-requests.js"
import { openUploadRequest, submitToUploadRequest } from "../upload-requests/submit.js"
import * as useCases from "../upload-requests/use-cases.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { MediaTools } from "../ports/media.js"
import { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { SuspendedAccounts } from "../../identity/ports/suspended-accounts.js"

const uploadRequests = {
  create: useCases.createUploadRequest,
  list: () => useCases.listUploadRequests,
  get: useCases.getUploadRequest,
  patch: useCases.patchUploadRequest,
  setStatus: useCases.setUploadRequestStatus,
  rotateToken: useCases.rotateUploadRequestToken,
  revoke: useCases.revokeUploadRequest,
  listSubmissions: useCases.listUploadSubmissions,
  getSubmission: useCases.getUploadSubmission,
  review: useCases.reviewUploadSubmission,
  /** The public page's: the request a token opens, and a sender's submission. */
  open: openUploadRequest,
  submit: submitToUploadRequest
}

export const makeSharingUploadRequests = bindPortsFromContext(
  uploadRequests,
  UploadRequests,
  ResourceRepository,
  IdGen,
  PasswordHasher,
  BlobStore,
  MediaTools,
  RateLimitStore,
  SuspendedAccounts
)

export class SharingUploadRequests extends Context.Service<
  SharingUploadRequests,
  Effect.Success<typeof makeSharingUploadRequests>
>()("@folio/domain/SharingUploadRequests") {}

export const SharingUploadRequestsLive = Layer.effect(SharingUploadRequests, makeSharingUploadRequests)
