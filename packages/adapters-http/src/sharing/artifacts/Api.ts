// The HTML artifact routes (sharing-api.md, HTML artifacts): create from a ZIP or separate files,
// deploy a new version (full, or a patch of the current one), list the current files, read one
// text file. Bodies are multipart, streamed to the blob store as they arrive.
import { ArtifactMetadata, ArtifactView, DeploymentMetadata } from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { WithResourceEtag } from "../etag-headers.js"
import { OptionalIdempotencyKey } from "../idempotent.js"

const Slug = { slug: Schema.String }

/** A site's file part: in the separate-files mode, named by its `metadata.files` entry. */
const FilePart = Schema.String.annotate({
  description: "One file of the site, in a part named by its metadata.files entry (the file name is ignored)",
  format: "binary"
})

/**
 * An artifact body as OpenAPI shows it (the handler reads the parts as a stream): the metadata JSON
 * as a text part, and either the `archive` part or one file part per `metadata.files` entry, under
 * the part name the client chose there.
 */
const siteBody = <M extends Schema.Top>(metadata: M) =>
  Schema.StructWithRest(
    Schema.Struct({
      metadata: Schema.fromJsonString(metadata).annotate({ description: "A JSON object, as a text part" }),
      archive: Schema.optionalKey(
        Schema.String.annotate({
          description: "A ZIP of the site (not with file parts)",
          format: "binary"
        })
      )
    }),
    [Schema.Record(Schema.String, FilePart)]
  ).pipe(HttpApiSchema.asMultipartStream())

export const ArtifactFileView = Schema.Struct({
  path: Schema.String,
  size: Schema.Int,
  sha256: Schema.String,
  /** Whether `GET .../artifact/source` reads it (text, at most 1 MiB). */
  editable: Schema.Boolean
}).annotate({ identifier: "ArtifactFile" })

export const ArtifactFileList = Schema.Struct({
  deployment_id: Schema.String,
  deployment_number: Schema.Int,
  entry_path: Schema.String,
  items: Schema.Array(ArtifactFileView)
}).annotate({ identifier: "ArtifactFileList" })

export const ArtifactSourceView = Schema.Struct({
  path: Schema.String,
  size: Schema.Int,
  source: Schema.String
}).annotate({ identifier: "ArtifactSource" })

const Errors = sharingErrorsOf(
  "insufficient_scope",
  "forbidden",
  "not_found",
  "service_unavailable",
  "artifacts_disabled"
)
const DeployErrors = sharingErrorsOf(
  "quota_exceeded",
  "artifact_archive_invalid",
  "artifact_path_invalid",
  "artifact_index_missing",
  "artifact_too_large",
  "artifact_too_many_files"
)

export class ArtifactsGroup extends HttpApiGroup.make("artifacts")
  .add(
    HttpApiEndpoint.post("create", "/artifacts", {
      headers: OptionalIdempotencyKey,
      payload: siteBody(ArtifactMetadata),
      success: WithResourceEtag(ArtifactView).pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...DeployErrors, ...sharingErrorsOf("slug_taken", "idempotency_conflict")]
    }).annotate(
      OpenApi.Summary,
      "Create a static site from a ZIP (part archive) or separate files (one part per metadata.files entry); the modes cannot be mixed; with Idempotency-Key, the same body again within 24 h answers the first result (scope write)"
    ),
    HttpApiEndpoint.post("deploy", "/resources/:slug/artifact/deployments", {
      params: Slug,
      payload: siteBody(DeploymentMetadata),
      success: WithResourceEtag(ArtifactView).pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...DeployErrors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(
      OpenApi.Summary,
      "A new version: full replacement, or mode patch with the current base_deployment_id, the changed files and delete_paths (412 when the base is not current) (scope write)"
    ),
    HttpApiEndpoint.get("files", "/resources/:slug/artifact/files", {
      params: Slug,
      success: ArtifactFileList,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "The current version's files, each with whether it is editable as text (scope read)"
    ),
    HttpApiEndpoint.get("source", "/resources/:slug/artifact/source", {
      params: Slug,
      query: { path: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024)) },
      success: ArtifactSourceView,
      error: Errors
    }).annotate(OpenApi.Summary, "One text file of the current version, up to 1 MiB (scope read)")
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "HTML artifacts: static sites, each version on its own origin") {}
