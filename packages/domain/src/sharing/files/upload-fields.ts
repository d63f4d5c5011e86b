// The text fields of `POST /uploads` (multipart form fields, so every value arrives as a string):
// the common creation fields but `starts_at`, the kind asked for, and `max_views` (files only).
import { Schema } from "effect"
import { Rfc3339 } from "../links/rules.js"
import { Visibility } from "../resources/resource.js"
import { ResourceDescription, ResourceLabels, ResourceSlug, ResourceTitle } from "../resources/rules.js"
import { MaxViews, ResourcePassword } from "../resources/wire.js"

const Flag = Schema.Literals(["true", "false"])

export const UploadFields = Schema.Struct({
  /** `image` or `file`: the upload is refused when its content is the other kind. */
  type: Schema.optionalKey(Schema.Literals(["image", "file"])),
  slug: Schema.optionalKey(ResourceSlug),
  title: Schema.optionalKey(ResourceTitle),
  description: Schema.optionalKey(ResourceDescription),
  visibility: Schema.optionalKey(Visibility),
  password: Schema.optionalKey(ResourcePassword),
  expires_at: Schema.optionalKey(Rfc3339),
  /** Repeat the field, or separate labels with commas. */
  labels: Schema.optionalKey(ResourceLabels),
  /** Files only. */
  max_views: Schema.optionalKey(Schema.NumberFromString.pipe(Schema.decodeTo(MaxViews))),
  archived: Schema.optionalKey(Flag),
  pinned: Schema.optionalKey(Flag)
}).annotate({ identifier: "UploadFields" })
export type UploadFields = typeof UploadFields.Type

/** Field names an upload takes besides the file (a repeated one is a list only for `labels`). */
export const UPLOAD_FIELD_NAMES: ReadonlyArray<string> = Object.keys(UploadFields.fields)
