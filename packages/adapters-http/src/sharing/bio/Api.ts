// The bio page routes (sharing-api.md, Bio pages): replace the profile and pages, avatar and cover,
// file blocks and thumbnails (multipart uploads, streamed like `POST /uploads`), and the visitor
// form submissions (list, CSV export, delete).
import { BioBlockView, BioView, ReplaceBioInput, Uuid } from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { ResourceIfMatch, WithResourceEtag } from "../etag-headers.js"
import { offsetPageQuery } from "../offset-page.js"

const Slug = { slug: Schema.String }

/** An upload to a bio page: the file part, and for a new block its title or caption. */
const BioUpload = (fields: ReadonlyArray<string>) =>
  Schema.Struct({
    file: Schema.String.annotate({
      description: "The file; its type is decided from its content",
      format: "binary"
    }),
    ...Object.fromEntries(fields.map((name) => [name, Schema.optionalKey(Schema.String)]))
  }).pipe(HttpApiSchema.asMultipartStream())

export const BioBlockAdded = Schema.Struct({ block: BioBlockView, bio: BioView }).annotate({
  identifier: "BioBlockAdded"
})

export const BioSubmissionView = Schema.Struct({
  id: Schema.String,
  block_id: Schema.String,
  form_title: Schema.String,
  values: Schema.Record(Schema.String, Schema.String),
  created_at: Schema.String
}).annotate({ identifier: "BioFormSubmission" })

export const BioSubmissionList = Schema.Struct({
  items: Schema.Array(BioSubmissionView),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}).annotate({ identifier: "BioFormSubmissionList" })

export const SUBMISSION_PAGE = { default: 50, max: 200 } as const

const Errors = sharingErrorsOf("insufficient_scope", "forbidden", "not_found", "service_unavailable")
const UploadErrors = sharingErrorsOf("quota_exceeded", "unsupported_media", "etag_mismatch")

export class BioGroup extends HttpApiGroup.make("bio")
  .add(
    HttpApiEndpoint.patch("replace", "/resources/:slug/bio", {
      params: Slug,
      headers: ResourceIfMatch,
      payload: ReplaceBioInput,
      success: WithResourceEtag(BioView),
      error: [...Errors, ...sharingErrorsOf("etag_mismatch", "quota_exceeded", "unsupported_media")]
    }).annotate(
      OpenApi.Summary,
      "Replace the whole profile, pages and blocks (pages required; profile fields left out are cleared; image and file blocks are kept by naming their id) (scope write)"
    ),
    HttpApiEndpoint.post("setAvatar", "/resources/:slug/bio/avatar", {
      params: Slug,
      payload: BioUpload([]),
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(OpenApi.Summary, "Upload or replace the profile picture (an image) (scope write)"),
    HttpApiEndpoint.delete("removeAvatar", "/resources/:slug/bio/avatar", {
      params: Slug,
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(OpenApi.Summary, "Remove the profile picture (scope delete)"),
    HttpApiEndpoint.post("setCover", "/resources/:slug/bio/cover", {
      params: Slug,
      payload: BioUpload([]),
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(OpenApi.Summary, "Upload or replace the cover image (scope write)"),
    HttpApiEndpoint.delete("removeCover", "/resources/:slug/bio/cover", {
      params: Slug,
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(OpenApi.Summary, "Remove the cover image (scope delete)"),
    HttpApiEndpoint.post("addFileBlock", "/resources/:slug/bio/pages/:pageId/blocks/file", {
      params: { ...Slug, pageId: Schema.String },
      payload: BioUpload(["title", "caption"]),
      success: WithResourceEtag(BioBlockAdded).pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...UploadErrors]
    }).annotate(
      OpenApi.Summary,
      "Upload a file and add it at the end of a page: an image block for an image, else a file block (scope write)"
    ),
    HttpApiEndpoint.post("replaceBlockFile", "/resources/:slug/bio/blocks/:blockId/file", {
      params: { ...Slug, blockId: Schema.String },
      payload: BioUpload([]),
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(OpenApi.Summary, "Replace the file behind an image or file block (scope write)"),
    HttpApiEndpoint.post("setBlockThumbnail", "/resources/:slug/bio/blocks/:blockId/thumbnail", {
      params: { ...Slug, blockId: Schema.String },
      payload: BioUpload([]),
      success: WithResourceEtag(BioView),
      error: [...Errors, ...UploadErrors]
    }).annotate(
      OpenApi.Summary,
      "Upload or replace the thumbnail of a link, image or file block (scope write)"
    ),
    HttpApiEndpoint.get("listSubmissions", "/resources/:slug/bio/form-submissions", {
      params: Slug,
      query: offsetPageQuery(SUBMISSION_PAGE.max),
      success: BioSubmissionList,
      error: Errors
    }).annotate(OpenApi.Summary, "What visitors sent through the page's forms, newest first (scope read)"),
    HttpApiEndpoint.get("exportSubmissions", "/resources/:slug/bio/form-submissions/export", {
      params: Slug,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Every submission as CSV (cells escaped against spreadsheet formulas) (scope read)"
    ),
    HttpApiEndpoint.delete("deleteSubmission", "/resources/:slug/bio/form-submissions/:submissionId", {
      params: { ...Slug, submissionId: Uuid },
      success: HttpApiSchema.NoContent,
      error: Errors
    }).annotate(OpenApi.Summary, "Delete one submission for good (scope delete)")
  )
  .middleware(SharingAuthentication)
  .annotate(
    OpenApi.Description,
    "Bio pages: profile, pages and blocks, media, and visitor form submissions"
  ) {}
