// The sharing service's one error table. Its codes: the spec's envelope `{ error, error_code, field }`
// as one HttpApi class per code (the class carries the status). Its rows: every error the sharing
// surfaces meet (the domain's, the keyed request's, the HTTP layer's own) -> a code. REST and OpenAPI
// are derived from both. `field` names the offending field on validation errors.
import type {
  AccountDisabled,
  InsufficientScope,
  RateLimited,
  SharingError,
  StorageError,
  TenantNotFound,
  Unauthorized
} from "@folio/domain"
import { Schema } from "effect"
import {
  type AnyApiError,
  errorClassesOf,
  errorSurface,
  type Failure,
  type RequestError
} from "../shared/index.js"

const envelope = <Code extends string>(code: Code) => ({
  error: Schema.String,
  error_code: Schema.Literal(code),
  field: Schema.optionalKey(Schema.String)
})

const code = <Code extends string>(name: string, value: Code, status: number) =>
  Schema.Class<{ readonly error: string; readonly error_code: Code; readonly field?: string }>(name)(
    envelope(value),
    { httpApiStatus: status }
  )

export class InvalidApiKeyError extends code("InvalidApiKeyError", "invalid_api_key", 401) {}
export class UserDisabledError extends code("UserDisabledError", "user_disabled", 403) {}
export class InsufficientScopeError extends code("InsufficientScopeError", "insufficient_scope", 403) {}
export class SharingForbiddenError extends code("SharingForbiddenError", "forbidden", 403) {}
export class SharingNotFoundError extends code("SharingNotFoundError", "not_found", 404) {}
export class SlugTakenError extends code("SlugTakenError", "slug_taken", 409) {}
export class IdempotencyConflictError extends code("IdempotencyConflictError", "idempotency_conflict", 409) {}
export class JobAlreadyActiveError extends code("JobAlreadyActiveError", "job_already_active", 409) {}
export class QuotaExceededError extends code("QuotaExceededError", "quota_exceeded", 409) {}
export class EtagMismatchError extends code("EtagMismatchError", "etag_mismatch", 412) {}
export class SharingPayloadTooLargeError extends code(
  "SharingPayloadTooLargeError",
  "payload_too_large",
  413
) {}
export class SharingRateLimitedError extends code("SharingRateLimitedError", "rate_limited", 429) {}
export class ValidationFailedError extends code("ValidationFailedError", "validation_failed", 400) {}
export class RequestBodyInvalidError extends code("RequestBodyInvalidError", "request_body_invalid", 400) {}
export class UnsupportedMediaError extends code("UnsupportedMediaError", "unsupported_media", 415) {}
export class FeatureDisabledError extends code("FeatureDisabledError", "feature_disabled", 403) {}
export class ServiceUnavailableError extends code("ServiceUnavailableError", "service_unavailable", 503) {}
export class ArtifactsDisabledError extends code("ArtifactsDisabledError", "artifacts_disabled", 503) {}
export class ArtifactArchiveInvalidError extends code(
  "ArtifactArchiveInvalidError",
  "artifact_archive_invalid",
  400
) {}
export class ArtifactPathInvalidError extends code(
  "ArtifactPathInvalidError",
  "artifact_path_invalid",
  400
) {}
export class ArtifactIndexMissingError extends code(
  "ArtifactIndexMissingError",
  "artifact_index_missing",
  400
) {}
export class ArtifactTooLargeError extends code("ArtifactTooLargeError", "artifact_too_large", 413) {}
export class ArtifactTooManyFilesError extends code(
  "ArtifactTooManyFilesError",
  "artifact_too_many_files",
  413
) {}
export class InternalErrorError extends code("SharingInternalError", "internal_error", 500) {}

/** The sharing codes, in the spec's order. */
const SHARING_CODES = {
  invalid_api_key: { error: InvalidApiKeyError, meaning: "key missing, malformed, unknown or revoked" },
  user_disabled: { error: UserDisabledError, meaning: "owning account disabled" },
  insufficient_scope: { error: InsufficientScopeError, meaning: "key lacks the route's scope" },
  forbidden: { error: SharingForbiddenError, meaning: "resource belongs to another account" },
  not_found: { error: SharingNotFoundError, meaning: "nothing with that slug or id, or deleted" },
  slug_taken: { error: SlugTakenError, meaning: "another resource uses the slug (create or PATCH)" },
  idempotency_conflict: {
    error: IdempotencyConflictError,
    meaning: "an `Idempotency-Key` reused with a different body"
  },
  job_already_active: {
    error: JobAlreadyActiveError,
    meaning: "same background job already queued or running"
  },
  quota_exceeded: { error: QuotaExceededError, meaning: "would exceed storage quota" },
  etag_mismatch: { error: EtagMismatchError, meaning: "resource changed since it was read" },
  payload_too_large: { error: SharingPayloadTooLargeError, meaning: "body or upload over the size limit" },
  rate_limited: { error: SharingRateLimitedError, meaning: "too many requests; wait `Retry-After` seconds" },
  validation_failed: { error: ValidationFailedError, meaning: "a field is invalid; see `field`" },
  request_body_invalid: { error: RequestBodyInvalidError, meaning: "body is not valid JSON or multipart" },
  unsupported_media: { error: UnsupportedMediaError, meaning: "uploaded file type not allowed" },
  feature_disabled: { error: FeatureDisabledError, meaning: "account not allowed to use the feature" },
  service_unavailable: { error: ServiceUnavailableError, meaning: "server busy or dependency down" },
  artifacts_disabled: { error: ArtifactsDisabledError, meaning: "artifacts turned off on this server" },
  artifact_archive_invalid: {
    error: ArtifactArchiveInvalidError,
    meaning: "ZIP damaged, encrypted or expands too much"
  },
  artifact_path_invalid: {
    error: ArtifactPathInvalidError,
    meaning: "invalid, reserved or clashing file path"
  },
  artifact_index_missing: {
    error: ArtifactIndexMissingError,
    meaning: "no usable HTML entry page, or root `index.html` empty"
  },
  artifact_too_large: { error: ArtifactTooLargeError, meaning: "site, ZIP or one file over a size limit" },
  artifact_too_many_files: { error: ArtifactTooManyFilesError, meaning: "more files than allowed" },
  internal_error: {
    error: InternalErrorError,
    meaning: "a server failure (not in the spec's table; details are logged, never sent)"
  }
} as const

/** Every error a sharing surface answers. */
export type SharingSurfaceError =
  | SharingError
  | AccountDisabled
  | TenantNotFound
  | Unauthorized
  | RateLimited
  | InsufficientScope
  | StorageError
  | RequestError

/** The first issue's path as the envelope's `field` (`redirect_rules.0.url`). */
const fieldOf = (failure: Failure): string | undefined => {
  const explicit = failure.details?.field
  if (typeof explicit === "string") return explicit
  const issues = failure.details?.issues
  if (!Array.isArray(issues) || issues.length === 0) return undefined
  const path = (issues[0] as { readonly path?: ReadonlyArray<unknown> }).path ?? []
  return path.length === 0 ? undefined : path.map(String).join(".")
}

/** The sharing envelope: `{ error, error_code, field? }`. */
const sharingEnvelope = (failure: Failure) => {
  const field = fieldOf(failure)
  return { error: failure.message, error_code: failure.code, ...(field === undefined ? {} : { field }) }
}

const issues = (e: { readonly issues?: ReadonlyArray<unknown> | undefined }) =>
  e.issues === undefined ? undefined : { issues: e.issues }

/** A refused field: `validation_failed`, pointing at the field its class (or its raise) names. */
const refused = {
  code: "validation_failed",
  details: (e: { readonly field: string }) => ({ field: e.field })
} as const

export const SharingErrors = errorSurface<SharingSurfaceError>()({
  codes: SHARING_CODES,
  envelope: sharingEnvelope,
  rows: {
    Unauthorized: { code: "invalid_api_key" },
    RateLimited: {
      code: "rate_limited",
      headers: (e) => ({ "retry-after": String(e.retryAfterSeconds) })
    },
    InsufficientScope: { code: "insufficient_scope" },
    StorageError: { code: "service_unavailable", message: "a dependency is unavailable; try again" },
    RequestInvalid: {
      code: "validation_failed",
      details: issues
    },
    BodyUnreadable: { code: "request_body_invalid" },
    RequestTooLarge: { code: "payload_too_large" },
    NothingHere: { code: "not_found" },
    RequestRefused: { code: "forbidden" },
    ServerFault: { code: "internal_error" },
    TenantNotFound: { code: "not_found" },
    ResourceNotFound: { code: "not_found" },
    ResourceOfAnotherAccount: { code: "forbidden" },
    ResourceSlugInUse: { code: "slug_taken", details: () => ({ field: "slug" }) },
    ResourceChanged: { code: "etag_mismatch" },
    IdempotencyKeyReused: { code: "idempotency_conflict" },
    IdempotentRequestRunning: { code: "idempotency_conflict", headers: () => ({ "retry-after": "1" }) },
    AccountDisabled: { code: "user_disabled" },
    StorageQuotaExceeded: { code: "quota_exceeded" },
    UploadBodyUnreadable: { code: "request_body_invalid" },
    ArtifactArchiveInvalid: { code: "artifact_archive_invalid" },
    ArtifactPathInvalid: { code: "artifact_path_invalid" },
    ArtifactIndexMissing: { code: "artifact_index_missing" },
    ArtifactTooLarge: { code: "artifact_too_large" },
    ArtifactTooManyFiles: { code: "artifact_too_many_files" },
    ArtifactsDisabled: { code: "artifacts_disabled" },
    UploadTooLarge: { code: "payload_too_large", details: () => ({ field: "file" }) },
    UnsupportedMedia: { code: "unsupported_media", details: (e) => ({ field: e.field }) },
    JobActive: { code: "job_already_active" },
    FeatureDisabled: { code: "feature_disabled" },
    // Refused fields, each named for the rule it broke: `validation_failed` at its `field`.
    // (shared)
    InvalidField: refused,
    FieldTooLong: refused,
    FieldSentTwice: refused,
    // (resources, Notion mirrors, link simulation, CSV import)
    ResourceOfOtherType: refused,
    TypeImmutable: refused,
    VisibilityImmutable: refused,
    FieldOfOtherType: refused,
    WindowInverted: refused,
    MarkdownSourceAmbiguous: refused,
    MarkdownBodyMissing: refused,
    NotionSourceAmbiguous: refused,
    NotionSourceMissing: refused,
    NotionRootPageInvalid: refused,
    NotionSourceNamesNoPage: refused,
    NotionPageNotMirrored: refused,
    ResourceCursorUnknown: refused,
    LinkTargetMissing: refused,
    CsvEmpty: refused,
    CsvUrlColumnMissing: refused,
    CsvTooManyRows: refused,
    CsvUnreadable: refused,
    // (collections)
    CollectionSourceNotFound: refused,
    CollectionSourceNotMedia: refused,
    CollectionSourceBytesGone: refused,
    CollectionFull: refused,
    CollectionItemRepeated: refused,
    CollectionOrderIncomplete: refused,
    // (bio pages)
    BioPageUnknown: refused,
    BioPageIdRepeated: refused,
    BioPageSlugRepeated: refused,
    BioBlockIdRepeated: refused,
    BioBlockTypeImmutable: refused,
    BioMediaBlockNotUploaded: refused,
    BioFormFieldNameRepeated: refused,
    BioPageFull: refused,
    BioBlockTakesNoFile: refused,
    BioBlockTakesNoThumbnail: refused,
    BioFormFieldMissing: refused,
    BioFormFieldNotEmail: refused,
    // (uploads and upload requests)
    UploadedFileEmpty: refused,
    FilePartNotSingle: refused,
    FilePartMissing: refused,
    UploadFieldsTooMany: refused,
    UploadStartsAtRefused: refused,
    UploadFieldUnknown: refused,
    ViewLimitOnImage: refused,
    NoOriginalFile: refused,
    UploadRequestRevoked: refused,
    SubmissionFieldUnknown: refused,
    SubmissionFilesMisnamed: refused,
    SubmissionTooManyFiles: refused,
    SubmissionWithoutFiles: refused,
    // (artifact deploys and reads)
    DeployMetadataMissing: refused,
    DeployMetadataNotJson: refused,
    DeployMetadataRepeated: refused,
    DeployMetadataTooLong: refused,
    DeployPartUnknown: refused,
    DeployPartRepeated: refused,
    DeployArchiveAndFiles: refused,
    DeployContentMissing: refused,
    DeployArchivePathsListed: refused,
    DeployFilePartMissing: refused,
    DeployPartUnplaced: refused,
    DeletePathsWithoutPatch: refused,
    PatchBaseMissing: refused,
    DeletePathUnknown: refused,
    ArtifactFileNotEditable: refused,
    ArtifactFileNotUtf8: refused,
    // (jobs)
    JobCursorUnknown: refused,
    JobNotFailed: refused,
    JobNotRetryable: refused,
    // (analytics ranges)
    RangeHalfGiven: refused,
    RangeDateMalformed: refused,
    RangeInverted: refused,
    RangeTooLong: refused,
    RangeDaysWithDates: refused,
    RangeDaysOutOfBounds: refused,
    // (webhooks)
    WebhookUrlRefused: refused,
    WebhookEndpointLimitReached: refused
  }
})

export type SharingCode = keyof typeof SHARING_CODES
export type SharingApiError = AnyApiError<typeof SHARING_CODES>

/** The HttpApi classes of `codes`, for a route's or group's `error` list. */
export const sharingErrorsOf = errorClassesOf(SHARING_CODES)
