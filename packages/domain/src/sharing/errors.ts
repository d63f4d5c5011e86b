// The sharing service's failures, named for what happened; the refused fields, by area, in errors/.
// The HTTP adapter's one table maps each to the spec's `error_code` and status; none lives here.
import { Data } from "effect"
import { NamedError } from "../kernel/errors.js"
import { ARTIFACT_PATH_PROBLEMS, type ArtifactPathProblem } from "./artifacts/paths.js"
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

/** What about an upload's content is refused, each with the text the client reads. */
export const UNSUPPORTED_MEDIA_PROBLEMS = {
  type_not_allowed: "this file type is not allowed",
  not_an_image: "the file is not an image",
  is_an_image: "the file is an image; upload it as an image",
  image_block_needs_image: "an image block takes an image",
  not_optimizable: "only a JPEG, HEIC or HEIF original can be optimized"
} as const

/** The uploaded content is of a type the service does not take, or not of the kind asked for. */
export class UnsupportedMedia extends Data.TaggedError("UnsupportedMedia")<{
  readonly field: string
  readonly problem: keyof typeof UNSUPPORTED_MEDIA_PROBLEMS
}> {
  override get message() {
    return UNSUPPORTED_MEDIA_PROBLEMS[this.problem]
  }
}

const ARCHIVE_PROBLEMS = {
  damaged: "the archive is damaged or not a ZIP file",
  encrypted: "the archive is encrypted",
  compression: "the archive uses a compression method other than deflate",
  expands_too_much: "the archive expands too much"
} as const

/** An artifact's ZIP archive is damaged, encrypted, or expands too much. */
export class ArtifactArchiveInvalid extends Data.TaggedError("ArtifactArchiveInvalid")<{
  readonly problem: keyof typeof ARCHIVE_PROBLEMS
}> {
  override get message() {
    return ARCHIVE_PROBLEMS[this.problem]
  }
}

const PATH_PROBLEMS = {
  ...ARTIFACT_PATH_PROBLEMS,
  archive_entry_escapes: "an archive entry has an absolute or escaping path, or a backslash",
  paths_clash: "two file paths are the same, or differ only by letter case"
} as const

/** An artifact file path is invalid, reserved, or clashes with another. */
export class ArtifactPathInvalid extends Data.TaggedError("ArtifactPathInvalid")<{
  readonly problem: ArtifactPathProblem | "archive_entry_escapes" | "paths_clash"
}> {
  override get message() {
    return PATH_PROBLEMS[this.problem]
  }
}

const INDEX_PROBLEMS = {
  no_html_page: "the site has no .html page",
  entry_page_empty: "the entry page is empty"
} as const

/** An artifact has no usable HTML entry page, or its root index.html is empty. */
export class ArtifactIndexMissing extends Data.TaggedError("ArtifactIndexMissing")<{
  readonly problem: keyof typeof INDEX_PROBLEMS
}> {
  override get message() {
    return INDEX_PROBLEMS[this.problem]
  }
}

/** An artifact's site, archive or one file is over its size limit (`maxBytes`). */
export class ArtifactTooLarge extends Data.TaggedError("ArtifactTooLarge")<{
  readonly over: "archive" | "file" | "site"
  readonly maxBytes: number
}> {
  override get message() {
    const what = { archive: "the archive", file: "a file", site: "the site" }[this.over]
    return `${what} is over ${this.maxBytes} bytes`
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
