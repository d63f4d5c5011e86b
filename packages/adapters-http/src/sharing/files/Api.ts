// The file routes (sharing-api.md, Resources): `POST /uploads`, a multipart body streamed to the blob
// store as it arrives, and `GET /resources/{id}/preview`, a small WebP of any resource.
import { ResourceView, UploadFields } from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { WithResourceEtag } from "../etag-headers.js"
import { OptionalIdempotencyKey } from "../idempotent.js"

/** The upload form as OpenAPI shows it: the file part and the text fields (every value a string). */
export const UploadForm = Schema.Struct({
  file: Schema.String.annotate({
    description: "The file; its type is decided from its content, not from the part's Content-Type",
    format: "binary"
  }),
  ...Object.fromEntries(
    Object.keys(UploadFields.fields).map((name) => [name, Schema.optionalKey(Schema.String)])
  )
}).annotate({ identifier: "UploadForm" })

const Errors = sharingErrorsOf("insufficient_scope", "forbidden", "not_found", "service_unavailable")

export class FilesGroup extends HttpApiGroup.make("files")
  .add(
    HttpApiEndpoint.post("upload", "/uploads", {
      headers: OptionalIdempotencyKey,
      payload: UploadForm.pipe(HttpApiSchema.asMultipartStream()),
      success: WithResourceEtag(ResourceView).pipe(HttpApiSchema.status(201)),
      error: [
        ...Errors,
        ...sharingErrorsOf("slug_taken", "quota_exceeded", "unsupported_media", "idempotency_conflict")
      ]
    }).annotate(
      OpenApi.Summary,
      "Upload a file or image (multipart: part `file` plus the common fields except starts_at); the type comes from the content and must be on the allowed list; counts against the storage quota; with Idempotency-Key, the same form again within 24 h answers the first result (scope write)"
    ),
    HttpApiEndpoint.get("preview", "/resources/:id/preview", {
      params: { id: Schema.String },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/webp" })),
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "A small WebP preview: a thumbnail of an image, a card for other types; by id or slug; never a view (scope read)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Files and images: uploads and previews") {}
