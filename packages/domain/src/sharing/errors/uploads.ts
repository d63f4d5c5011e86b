import type { ResourceType } from "../resources/resource.js"
import { RefusedAt, RefusedField, RefusedFieldWith } from "./fields.js"

/** An uploaded file with no bytes (`field` is the part it came in). */
export class UploadedFileEmpty extends RefusedAt("UploadedFileEmpty", "the file is empty") {}

/** A second file part, or a file part named other than `file`. */
export class FilePartNotSingle extends RefusedField(
  "FilePartNotSingle",
  "file",
  "send exactly one file part, named file"
) {}

/** An upload body with no file part. */
export class FilePartMissing extends RefusedField("FilePartMissing", "file", "required") {}

/** An upload body with more text fields than any form would send. */
export class UploadFieldsTooMany extends RefusedField("UploadFieldsTooMany", "body", "too many fields") {}

/** A starts_at sent with an upload that does not take one. */
export class UploadStartsAtRefused extends RefusedField(
  "UploadStartsAtRefused",
  "starts_at",
  "uploads do not take starts_at"
) {}

/** A text field the upload does not take (`field` is its name when it looks like one, else body). */
export class UploadFieldUnknown extends RefusedAt("UploadFieldUnknown", "not a field of this upload") {}

/** A view limit on an image: only files count views. */
export class ViewLimitOnImage extends RefusedField(
  "ViewLimitOnImage",
  "max_views",
  "view limits apply to files, not images"
) {}

/** Optimizing a resource of a type that keeps no original file. */
export class NoOriginalFile extends RefusedFieldWith(
  "NoOriginalFile",
  "slug",
  (e: { readonly resourceType: ResourceType }) => `a ${e.resourceType} resource has no original file`
) {}

/** A change to an upload request that was revoked: revoking is for good. */
export class UploadRequestRevoked extends RefusedField(
  "UploadRequestRevoked",
  "id",
  "the upload request was revoked for good"
) {}

/** A submission's text field that the upload request's form does not have. */
export class SubmissionFieldUnknown extends RefusedField(
  "SubmissionFieldUnknown",
  "body",
  "not a field of this form"
) {}

/** A submission's file part named other than `files`. */
export class SubmissionFilesMisnamed extends RefusedField(
  "SubmissionFilesMisnamed",
  "files",
  "send files in parts named files"
) {}

/** A submission of more files than one may carry. */
export class SubmissionTooManyFiles extends RefusedFieldWith(
  "SubmissionTooManyFiles",
  "files",
  (e: { readonly maxFiles: number }) => `at most ${e.maxFiles} files at once`
) {}

/** A submission with no file chosen. */
export class SubmissionWithoutFiles extends RefusedField(
  "SubmissionWithoutFiles",
  "files",
  "choose at least one file"
) {}

export const UPLOAD_REFUSALS = [
  UploadedFileEmpty,
  FilePartNotSingle,
  FilePartMissing,
  UploadFieldsTooMany,
  UploadStartsAtRefused,
  UploadFieldUnknown,
  ViewLimitOnImage,
  NoOriginalFile,
  UploadRequestRevoked,
  SubmissionFieldUnknown,
  SubmissionFilesMisnamed,
  SubmissionTooManyFiles,
  SubmissionWithoutFiles
] as const
