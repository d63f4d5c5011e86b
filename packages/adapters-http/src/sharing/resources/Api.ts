// The sharing resource routes (sharing-api.md, Resources and Markdown versions): create, list,
// read, patch, delete, the QR code, the Markdown versions and the two link simulations. Bodies are
// the domain's wire schemas (snake_case); reads and writes of one resource carry X-Resource-ETag.
import { OptionalIdempotencyKey, RequiredIdempotencyKey } from "../idempotent.js"
import {
  BulkCreateInput,
  CreateResourceInput,
  ImportOptions,
  ImportSource,
  LinkDestination,
  linkSimulationFields,
  PatchResourceInput,
  RESOURCE_LABEL_PATTERN,
  ResourceSort,
  ResourceType,
  ResourceView,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { ResourceIfMatch } from "../etag-headers.js"
import { QrQuery } from "../qr.js"
import { VisitDescription } from "../visit.js"

/** Page sizes of `GET /resources`. */
export const RESOURCE_PAGE_SIZE = { default: 20, max: 100 } as const

const Limit = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: RESOURCE_PAGE_SIZE.max })
)
const Offset = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 0, maximum: 100_000 })
)
const BooleanParam = Schema.Literals(["true", "false"])

/** Reads and writes of one resource answer its ETag in this header (and a collection its items' too). */
const WithEtag = <S extends Schema.Top>(body: S) =>
  HttpApiSchema.WithHeaders(body, {
    "x-resource-etag": Schema.String,
    "x-collection-etag": Schema.optional(Schema.String)
  })

const Slug = { slug: Schema.String }

export const ResourceList = Schema.Struct({
  items: Schema.Array(ResourceView),
  /** The cursor of the next page; null on the last page. */
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ResourceList" })

export const MarkdownVersionSummaryView = Schema.Struct({
  id: Schema.String,
  /** 1, 2, 3, ... per page, in the order saved. */
  number: Schema.Int,
  /** Bytes of UTF-8. */
  size: Schema.Int,
  created_at: Schema.String
}).annotate({ identifier: "MarkdownVersionSummary" })

export const MarkdownVersionView = Schema.Struct({
  ...MarkdownVersionSummaryView.fields,
  body_markdown: Schema.String
}).annotate({ identifier: "MarkdownVersion" })

export const MarkdownVersionList = Schema.Struct({
  items: Schema.Array(MarkdownVersionSummaryView)
}).annotate({
  identifier: "MarkdownVersionList"
})

export const MarkdownRestored = Schema.Struct({
  resource: ResourceView,
  /** The version now holding the source the restore replaced: restoring it undoes the restore. */
  saved_version: MarkdownVersionSummaryView
}).annotate({ identifier: "MarkdownRestored" })

/** `POST /links/simulate`: an unsaved link's routing fields and the request to dry-run. */
export const SimulateLinkInput = Schema.Struct({
  ...linkSimulationFields,
  visit: Schema.optionalKey(VisitDescription)
}).annotate({ identifier: "SimulateLink" })

/** What became of one item: the created resource, or the error envelope that item alone failed with. */
const itemOutcomeFields = {
  status: Schema.Literals(["created", "failed"]),
  resource: Schema.optionalKey(ResourceView),
  error: Schema.optionalKey(Schema.String),
  error_code: Schema.optionalKey(Schema.String),
  field: Schema.optionalKey(Schema.String)
}

export const BulkCreateResult = Schema.Struct({
  /** One outcome per item, in the order sent; `index` counts from 0. */
  items: Schema.Array(Schema.Struct({ index: Schema.Int, ...itemOutcomeFields })),
  created: Schema.Int,
  failed: Schema.Int
}).annotate({ identifier: "BulkCreateResult" })

/** `POST /resources/import` as JSON: the export's text and what to apply to every imported link. */
export const ImportLinksInput = Schema.Struct({
  /** Which service the export is from; detected from its columns when omitted. */
  source: Schema.optionalKey(ImportSource),
  /** The CSV file's text (a header row, then one link per row). */
  csv: Schema.String.check(Schema.isMinLength(1)),
  ...ImportOptions
}).annotate({ identifier: "ImportLinks" })

export const ImportResult = Schema.Struct({
  source: ImportSource,
  /** One outcome per data row; `row` is the record's number in the file, the header being 1. */
  items: Schema.Array(Schema.Struct({ row: Schema.Int, ...itemOutcomeFields })),
  created: Schema.Int,
  failed: Schema.Int
}).annotate({ identifier: "ImportResult" })

const Errors = sharingErrorsOf("insufficient_scope", "forbidden", "not_found", "service_unavailable")

export class ResourcesGroup extends HttpApiGroup.make("resources")
  .add(
    HttpApiEndpoint.post("create", "/resources", {
      headers: OptionalIdempotencyKey,
      payload: CreateResourceInput,
      success: WithEtag(ResourceView).pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...sharingErrorsOf("slug_taken", "feature_disabled", "idempotency_conflict")]
    }).annotate(
      OpenApi.Summary,
      "Create a link, Markdown page, collection, Notion mirror or bio page (scope write; at most 60 links an hour per key); with Idempotency-Key, a repeat within 24 h answers the first result"
    ),
    HttpApiEndpoint.post("bulkCreate", "/resources/bulk-create", {
      headers: RequiredIdempotencyKey,
      payload: BulkCreateInput,
      success: BulkCreateResult,
      error: [...Errors, ...sharingErrorsOf("idempotency_conflict", "feature_disabled")]
    }).annotate(
      OpenApi.Summary,
      "Create up to 200 links; each item succeeds or fails on its own; requires Idempotency-Key (a repeat within 24 h answers the first result) (scope write)"
    ),
    HttpApiEndpoint.post("importLinks", "/resources/import", {
      headers: RequiredIdempotencyKey,
      query: { source: Schema.optional(ImportSource) },
      payload: [ImportLinksInput, Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" }))],
      success: ImportResult,
      error: [...Errors, ...sharingErrorsOf("idempotency_conflict", "feature_disabled")]
    }).annotate(
      OpenApi.Summary,
      "Import links from a Bitly or Linktree CSV export (JSON with `csv`, or the file as text/csv), up to 1000 rows, each row on its own; requires Idempotency-Key (scope write)"
    ),
    HttpApiEndpoint.get("list", "/resources", {
      query: {
        type: Schema.optional(ResourceType),
        q: Schema.optional(Schema.String.check(Schema.isMaxLength(200))),
        label: Schema.optional(Schema.String.check(Schema.isPattern(RESOURCE_LABEL_PATTERN))),
        archived: Schema.optional(BooleanParam),
        pinned: Schema.optional(BooleanParam),
        sort: Schema.optional(ResourceSort),
        upload_request: Schema.optional(Schema.String.check(Schema.isMaxLength(64))),
        limit: Schema.optional(Limit),
        offset: Schema.optional(Offset),
        cursor: Schema.optional(Schema.String.check(Schema.isMaxLength(512)))
      },
      success: ResourceList,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "List the account's resources (scope read); Markdown bodies are left out; page with limit and offset or cursor"
    ),
    HttpApiEndpoint.get("get", "/resources/:slug", {
      params: Slug,
      success: WithEtag(ResourceView),
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Everything editable on a resource, its public url and its ETag (scope read)"
    ),
    HttpApiEndpoint.patch("update", "/resources/:slug", {
      params: Slug,
      headers: ResourceIfMatch,
      payload: PatchResourceInput,
      success: WithEtag(ResourceView),
      error: [...Errors, ...sharingErrorsOf("slug_taken", "etag_mismatch")]
    }).annotate(
      OpenApi.Summary,
      "Change only the fields sent (scope write); send X-Resource-If-Match; visibility cannot change"
    ),
    HttpApiEndpoint.delete("delete", "/resources/:slug", {
      params: Slug,
      success: HttpApiSchema.NoContent,
      error: Errors
    }).annotate(OpenApi.Summary, "Delete a resource; its public URL stops at once (scope delete)"),
    HttpApiEndpoint.get("qr", "/resources/:slug/qr", {
      params: Slug,
      query: QrQuery,
      success: [
        Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/png" })),
        Schema.String.pipe(HttpApiSchema.asText({ contentType: "image/svg+xml" }))
      ],
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "QR code of the public URL: PNG (default) or SVG (format=svg), size 128..2048 (scope read)"
    ),
    HttpApiEndpoint.get("listMarkdownVersions", "/resources/:slug/markdown/versions", {
      params: Slug,
      success: MarkdownVersionList,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Earlier sources of a Markdown page, newest first, the last 50 (scope read)"
    ),
    HttpApiEndpoint.get("getMarkdownVersion", "/resources/:slug/markdown/versions/:versionId", {
      params: { ...Slug, versionId: Uuid },
      success: MarkdownVersionView,
      error: Errors
    }).annotate(OpenApi.Summary, "The full source of one version (scope read)"),
    HttpApiEndpoint.post("restoreMarkdownVersion", "/resources/:slug/markdown/versions/:versionId/restore", {
      params: { ...Slug, versionId: Uuid },
      headers: ResourceIfMatch,
      success: WithEtag(MarkdownRestored),
      error: [...Errors, ...sharingErrorsOf("etag_mismatch")]
    }).annotate(
      OpenApi.Summary,
      "Make a version current; the replaced source is saved as a version, so a restore can be undone (scope write)"
    ),
    HttpApiEndpoint.post("simulateLink", "/links/simulate", {
      payload: SimulateLinkInput,
      success: LinkDestination,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Dry run of an unsaved link's rules and variants for a described request; nothing recorded (scope read)"
    ),
    HttpApiEndpoint.post("simulateSavedLink", "/resources/:slug/link/simulate", {
      params: Slug,
      payload: SimulateLinkInput,
      success: LinkDestination,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Dry run of a saved link; fields sent replace the saved ones for this run only (scope read)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(
    OpenApi.Description,
    "Resources: links, Markdown pages, collections, Notion mirrors and bio pages; their versions, QR codes and link dry runs"
  ) {}
