// The upload request routes (sharing-api.md, Upload requests): create (the token shown once), list,
// read, patch, status, rotate the token, revoke, and the submissions (list, one, review).
import {
  CreateUploadRequestInput,
  PatchUploadRequestInput,
  SUBMISSIONS_PAGE,
  SubmissionReview,
  UploadRequestStatus,
  UploadRequestView,
  UploadRequestWithToken,
  UploadSubmissionDetail,
  UploadSubmissionList,
  UploadSubmissionView
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { OptionalIdempotencyKey } from "../idempotent.js"
import { offsetPageQuery } from "../offset-page.js"

const Id = { id: Schema.String.check(Schema.isMaxLength(64)) }

const Errors = sharingErrorsOf("insufficient_scope", "not_found", "service_unavailable")

export class UploadRequestsGroup extends HttpApiGroup.make("uploadRequests")
  .add(
    HttpApiEndpoint.get("list", "/upload-requests", {
      success: Schema.Struct({ items: Schema.Array(UploadRequestView) }),
      error: Errors
    }).annotate(OpenApi.Summary, "Every upload request of the account, newest first (scope read)"),
    HttpApiEndpoint.post("create", "/upload-requests", {
      headers: OptionalIdempotencyKey,
      payload: CreateUploadRequestInput,
      success: UploadRequestWithToken.pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...sharingErrorsOf("idempotency_conflict")]
    }).annotate(
      OpenApi.Summary,
      "Create an upload request; the only time its secret token is shown (a repeat with the same Idempotency-Key within 24 h shows it again) (scope write)"
    ),
    HttpApiEndpoint.get("get", "/upload-requests/:id", {
      params: Id,
      success: UploadRequestView,
      error: Errors
    }).annotate(OpenApi.Summary, "One upload request and its status (scope read)"),
    HttpApiEndpoint.patch("patch", "/upload-requests/:id", {
      params: Id,
      payload: PatchUploadRequestInput,
      success: UploadRequestView,
      error: [...Errors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(
      OpenApi.Summary,
      "Change the fields sent; an empty password or expires_at clears it (scope write)"
    ),
    HttpApiEndpoint.post("status", "/upload-requests/:id/status", {
      params: Id,
      payload: Schema.Struct({ status: UploadRequestStatus }),
      success: UploadRequestView,
      error: [...Errors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(OpenApi.Summary, "Set open, paused or completed (scope write)"),
    HttpApiEndpoint.post("rotateToken", "/upload-requests/:id/rotate-token", {
      params: Id,
      success: UploadRequestWithToken,
      error: [...Errors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(OpenApi.Summary, "Replace the token, shown once; the old link stops at once (scope write)"),
    HttpApiEndpoint.post("revoke", "/upload-requests/:id/revoke", {
      params: Id,
      success: UploadRequestView,
      error: [...Errors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(OpenApi.Summary, "Shut the request down for good (scope delete)"),
    HttpApiEndpoint.get("listSubmissions", "/upload-requests/:id/submissions", {
      params: Id,
      query: offsetPageQuery(SUBMISSIONS_PAGE.max),
      success: UploadSubmissionList,
      error: Errors
    }).annotate(OpenApi.Summary, "The submissions, newest first (scope read)"),
    HttpApiEndpoint.get("getSubmission", "/upload-requests/:id/submissions/:submissionId", {
      params: { ...Id, submissionId: Schema.String.check(Schema.isMaxLength(64)) },
      success: UploadSubmissionDetail,
      error: Errors
    }).annotate(OpenApi.Summary, "One submission and the files it created (scope read)"),
    HttpApiEndpoint.patch("review", "/upload-requests/:id/submissions/:submissionId", {
      params: { ...Id, submissionId: Schema.String.check(Schema.isMaxLength(64)) },
      payload: Schema.Struct({ review: SubmissionReview }),
      success: UploadSubmissionView,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Set the review: unreviewed, accepted, needs_changes or rejected; records upload_request.reviewed (scope write)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Upload requests: private links through which people send files") {}
