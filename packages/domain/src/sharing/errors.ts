// The sharing service's failures, named for what happened; the refused fields, by area, in errors/.
// The HTTP adapter's one table maps each to the spec's `error_code` and status; none lives here.
import { Data } from "effect"
import { NamedError } from "../kernel/errors.js"
import { ANALYTICS_REFUSALS } from "./errors/analytics.js"
import { ARTIFACT_REFUSALS } from "./errors/artifacts.js"
import { BIO_REFUSALS } from "./errors/bio.js"
import { COLLECTION_REFUSALS } from "./errors/collections.js"
import { FIELD_REFUSALS } from "./errors/fields.js"
import { JOB_REFUSALS } from "./errors/jobs.js"
import { RESOURCE_REFUSALS } from "./errors/resources.js"
import { UPLOAD_REFUSALS } from "./errors/uploads.js"
import { WEBHOOK_REFUSALS } from "./errors/webhooks.js"

export * from "./errors/analytics.js"
export * from "./errors/artifacts.js"
export * from "./errors/bio.js"
export * from "./errors/collections.js"
export * from "./errors/fields.js"
export * from "./errors/jobs.js"
export * from "./errors/resources.js"
export * from "./errors/uploads.js"
export * from "./errors/webhooks.js"

/** No live resource with that slug (never existed, or deleted). */
export class ResourceNotFound extends NamedError("ResourceNotFound", "resource not found") {}

/** The slug names a resource of another account (403 on resource routes, 404 elsewhere). */
export class ResourceOfAnotherAccount extends NamedError(
  "ResourceOfAnotherAccount",
  "resource belongs to another account"
) {}

/** Another live resource already uses the slug. */
export class ResourceSlugInUse extends NamedError("ResourceSlugInUse", "slug is already taken") {}

/** The resource changed since the caller read it (its ETag no longer matches). */
export class ResourceChanged extends NamedError("ResourceChanged", "resource changed since it was read") {}

/** An Idempotency-Key reused with a different body. */
export class IdempotencyKeyReused extends NamedError(
  "IdempotencyKeyReused",
  "Idempotency-Key was already used with a different request body"
) {}

/** Another request with the same Idempotency-Key and body is running now; its answer is not stored yet. */
export class IdempotentRequestRunning extends NamedError(
  "IdempotentRequestRunning",
  "a request with this Idempotency-Key is still running; retry in a moment"
) {}

/** The write would take the account's stored bytes past its storage quota. */
export class StorageQuotaExceeded extends NamedError(
  "StorageQuotaExceeded",
  "the upload would exceed the account's storage quota"
) {}

/** An upload went past the size limit (the file, or the whole request). */
export class UploadTooLarge extends Data.TaggedError("UploadTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `the upload exceeds ${this.maxBytes} bytes`
  }
}

/** An upload body that is not readable multipart (cut short, no boundary, a malformed part). */
export class UploadBodyUnreadable extends NamedError(
  "UploadBodyUnreadable",
  "request body is not valid multipart/form-data"
) {}

/** The uploaded content is of a type the service does not take, or not of the kind asked for. */
export class UnsupportedMedia extends Data.TaggedError("UnsupportedMedia")<{
  readonly field: string
  readonly reason: string
}> {
  override get message() {
    return this.reason
  }
}

/** An artifact's ZIP archive is damaged, encrypted, or expands too much. */
export class ArtifactArchiveInvalid extends Data.TaggedError("ArtifactArchiveInvalid")<{
  readonly reason: string
}> {
  override get message() {
    return this.reason
  }
}

/** An artifact file path is invalid, reserved, or clashes with another. */
export class ArtifactPathInvalid extends Data.TaggedError("ArtifactPathInvalid")<{
  readonly reason: string
}> {
  override get message() {
    return this.reason
  }
}

/** An artifact has no usable HTML entry page, or its root index.html is empty. */
export class ArtifactIndexMissing extends Data.TaggedError("ArtifactIndexMissing")<{
  readonly reason: string
}> {
  override get message() {
    return this.reason
  }
}

/** An artifact's site, archive or one file is over its size limit. */
export class ArtifactTooLarge extends Data.TaggedError("ArtifactTooLarge")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** An artifact has more files than allowed. */
export class ArtifactTooManyFiles extends Data.TaggedError("ArtifactTooManyFiles")<{
  readonly maxFiles: number
}> {
  override get message() {
    return `an artifact holds at most ${this.maxFiles} files`
  }
}

/** HTML artifacts are turned off on this server. */
export class ArtifactsDisabled extends NamedError(
  "ArtifactsDisabled",
  "HTML artifacts are turned off on this server"
) {}

/** An upload request that takes no files now: paused, completed, revoked or past its expiry. */
export class UploadRequestClosed extends Data.TaggedError("UploadRequestClosed")<{
  readonly reason: "paused" | "completed" | "revoked" | "expired"
}> {
  override get message() {
    return `this upload request is ${this.reason}`
  }
}

/** The password an upload request asks for was not given, or not right. */
export class UploadRequestLocked extends NamedError("UploadRequestLocked", "the password is not right") {}

/** The same background work is already queued or running (its job id, for the client to poll). */
export class JobActive extends Data.TaggedError("JobActive")<{ readonly activeJobId: string | null }> {
  override get message() {
    return "the same job is already queued or running"
  }
}

/** A feature this server is not set up for (Notion mirrors without a Notion token). */
export class FeatureDisabled extends Data.TaggedError("FeatureDisabled")<{ readonly feature: string }> {
  override get message() {
    return `${this.feature} are not available on this server`
  }
}

/** Every refused field, each class named for the rule it broke; answered `validation_failed`. */
export const SHARING_FIELD_REFUSALS = [
  ...FIELD_REFUSALS,
  ...RESOURCE_REFUSALS,
  ...COLLECTION_REFUSALS,
  ...BIO_REFUSALS,
  ...UPLOAD_REFUSALS,
  ...ARTIFACT_REFUSALS,
  ...JOB_REFUSALS,
  ...ANALYTICS_REFUSALS,
  ...WEBHOOK_REFUSALS
] as const

/** A refused field: where (`field`) and why (`reason`); its message is `field: reason`. */
export type SharingFieldRefusal = InstanceType<(typeof SHARING_FIELD_REFUSALS)[number]>

/** Whether `e` is a refused field, for a caller that answers every one alike (a form page, a bulk item). */
export const isFieldRefusal = <E>(e: E): e is Extract<E, SharingFieldRefusal> =>
  SHARING_FIELD_REFUSALS.some((refusal) => e instanceof refusal)

/** Every failure a sharing use case can end in (beside the kernel's keyed-request failures). */
export type SharingError =
  | ResourceNotFound
  | ResourceOfAnotherAccount
  | ResourceSlugInUse
  | ResourceChanged
  | IdempotencyKeyReused
  | IdempotentRequestRunning
  | SharingFieldRefusal
  | StorageQuotaExceeded
  | UploadTooLarge
  | UnsupportedMedia
  | UploadBodyUnreadable
  | ArtifactArchiveInvalid
  | ArtifactPathInvalid
  | ArtifactIndexMissing
  | ArtifactTooLarge
  | ArtifactTooManyFiles
  | JobActive
  | FeatureDisabled
  | ArtifactsDisabled
