// The forms authoring endpoints of forms-api.md: list, create, read, replace definition, delete,
// versions, duplicate, publish, unpublish, slug, settings and image assets.
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AnyResponse,
  ClassicReport,
  Insights,
  InterviewAnalytics,
  InterviewReport,
  ResponseSummary,
  ClassicResponse,
  InterviewResponse,
  CreateFormInput,
  Form,
  FormKind,
  FormStatus,
  FormSummary,
  FormVersion,
  FormVersionSummary,
  MAX_ASSET_BYTES,
  PatchDefinitionInput,
  PAGE_SIZE,
  PatchSettingsInput,
  PublicationInput,
  ResponseStatus,
  SetSlugInput,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { Authentication } from "../auth.js"
import { Data } from "../envelope.js"
import { ConflictError, ForbiddenError, InternalError, NotFoundError, UnprocessableError } from "../errors.js"

const Limit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, PAGE_SIZE.max))

const Page = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({ items: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) })

const idParam = HttpApiSchema.param("id", Uuid)
const versionIdParam = HttpApiSchema.param("versionId", Uuid)
const responseIdParam = HttpApiSchema.param("responseId", Uuid)
const fileIdParam = HttpApiSchema.param("fileId", Uuid)
const BooleanParam = Schema.Literal("true", "false")

export const AssetUploaded = Schema.Struct({
  key: Schema.String,
  contentType: Schema.String,
  size: Schema.Int
}).annotations({
  identifier: "AssetUploaded"
})

export class FormsGroup extends HttpApiGroup.make("forms")
  .add(
    HttpApiEndpoint.get("list", "/forms")
      .setUrlParams(
        Schema.Struct({
          cursor: Schema.optional(Schema.String),
          limit: Schema.optional(Limit),
          search: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
          kind: Schema.optional(FormKind),
          status: Schema.optional(FormStatus)
        })
      )
      .addSuccess(Data(Page(FormSummary)))
      .annotate(OpenApi.Summary, "List forms, newest change first (scope forms:read)")
  )
  .add(
    HttpApiEndpoint.post("create", "/forms")
      .setPayload(CreateFormInput)
      .addSuccess(Data(Form), { status: 201 })
      .annotate(OpenApi.Summary, "Create a draft form (scope forms:write)")
  )
  .add(
    HttpApiEndpoint.get("get")`/forms/${idParam}`
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Read a form's draft, settings and concurrency tokens (scope forms:read)")
  )
  .add(
    HttpApiEndpoint.patch("patchDefinition")`/forms/${idParam}`
      .setPayload(PatchDefinitionInput)
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Replace the draft definition (scope forms:write)")
      .annotate(
        OpenApi.Description,
        "Replace the draft definition. `expectedDraftRevision` must equal the current draftRevision; otherwise 409 conflict with the current token in error.details.draftRevision (re-read, re-apply)."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/forms/${idParam}`
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Soft-delete a form (scope forms:write)")
  )
  .add(
    HttpApiEndpoint.get("listVersions")`/forms/${idParam}/versions`
      .setUrlParams(Schema.Struct({ cursor: Schema.optional(Schema.String), limit: Schema.optional(Limit) }))
      .addSuccess(Data(Page(FormVersionSummary)))
      .annotate(OpenApi.Summary, "Published versions, newest first, definitions omitted (scope forms:read)")
  )
  .add(
    HttpApiEndpoint.get("getVersion")`/forms/${idParam}/versions/${versionIdParam}`
      .addSuccess(Data(FormVersion))
      .annotate(OpenApi.Summary, "One immutable version with its definition (scope forms:read)")
  )
  .add(
    HttpApiEndpoint.post("duplicate")`/forms/${idParam}/duplicate`
      .addSuccess(Data(Form), { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Copy a form into a new draft through the creation gates (scopes forms:write and forms:read)"
      )
      .annotate(
        OpenApi.Description,
        "Copy a form into a new draft (scopes forms:write and forms:read), re-applying the canonical schema, the workspace's capability gates, settings validation and image ownership. The body is optional: none, or an empty object."
      )
  )
  .add(
    HttpApiEndpoint.post("publish")`/forms/${idParam}/publish`
      .setPayload(PublicationInput)
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Publish the draft as a new version (scope forms:publish)")
      .annotate(
        OpenApi.Description,
        "Publish the draft as the next immutable version (scope forms:publish). 409 on a stale expectedDraftRevision, 422 for an empty form."
      )
  )
  .add(
    HttpApiEndpoint.post("unpublish")`/forms/${idParam}/unpublish`
      .setPayload(PublicationInput)
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Return a published form to draft (scope forms:publish)")
  )
  .add(
    HttpApiEndpoint.patch("setSlug")`/forms/${idParam}/slug`
      .setPayload(SetSlugInput)
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Change the public slug (scope forms:write)")
  )
  .add(
    HttpApiEndpoint.patch("patchSettings")`/forms/${idParam}/settings`
      .setPayload(PatchSettingsInput)
      .addSuccess(Data(Form))
      .annotate(OpenApi.Summary, "Replace the settings (scope forms:write)")
      .annotate(
        OpenApi.Description,
        "Replace the settings. `expectedSettingsSignature` must equal the current settingsSignature; otherwise 409 conflict with error.details.settingsSignature."
      )
  )
  .add(
    HttpApiEndpoint.post("uploadAsset")`/forms/${idParam}/assets`
      .addSuccess(Data(AssetUploaded), { status: 201 })
      .annotate(OpenApi.Summary, "Upload an authoring image (scope assets:write)")
      .annotate(
        OpenApi.Description,
        `Upload one image (PNG, JPEG, GIF or WebP, detected from its leading bytes; at most ${MAX_ASSET_BYTES / (1024 * 1024)} MiB) as the raw request body. Returns the object key for image blocks, choice images, logos and covers (scope assets:write). Only keys returned here, for any form of the same workspace, are accepted in imageKey, theme.logoKey and theme.coverKey (otherwise 400 invalid, rule assetOwnership).`
      )
  )
  .add(
    HttpApiEndpoint.get("listResponses")`/forms/${idParam}/responses`
      .setUrlParams(
        Schema.Struct({
          cursor: Schema.optional(Schema.String),
          limit: Schema.optional(Limit),
          status: Schema.optional(ResponseStatus),
          projection: Schema.optional(Schema.Literal("compact", "full"))
        })
      )
      .addSuccess(Data(Page(AnyResponse)))
      .annotate(
        OpenApi.Summary,
        "Responses, newest first: compact by default, `projection=full` for answers; `status=partial` needs responses:partial:read (scope responses:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("responseSummary")`/forms/${idParam}/responses/summary`
      .addSuccess(Data(ResponseSummary))
      .annotate(
        OpenApi.Summary,
        "Per-question and score summaries of completed responses; classic forms only (scope responses:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("getResponse")`/forms/${idParam}/responses/${responseIdParam}`
      .addSuccess(Data(Schema.Union(ClassicResponse, InterviewResponse)))
      .annotate(
        OpenApi.Summary,
        "One response: classic with answers, files and presented order; interview with its transcript (scope responses:read; a partial response also needs responses:partial:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("exportCsv")`/forms/${idParam}/responses.csv`
      .setUrlParams(
        Schema.Struct({
          values: Schema.optional(Schema.Literal("label", "code")),
          layout: Schema.optional(Schema.Literal("wide", "long")),
          deidentified: Schema.optional(BooleanParam)
        })
      )
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .annotate(OpenApi.Summary, "CSV export of completed responses, streamed (scope responses:read)")
      .annotate(
        OpenApi.Description,
        "Classic: one column per input block id (every published version), `score_<id>` per scale and quiz, file columns holding download-route links (following them needs files:read). `values=label|code` (default label), `layout=wide|long` (default wide: one row per response; long: one row per answer), `deidentified=true` drops free-text, contact, date and file columns, replaces response ids by row numbers and dates the completion by day. Interview: summary, sentiment, extracted fields, themes and transcript (the deidentified projection keeps status, sentiment and themes). Cells that a spreadsheet would run as a formula are prefixed with an apostrophe."
      )
  )
  .add(
    HttpApiEndpoint.get("reports")`/forms/${idParam}/reports`
      .setUrlParams(
        Schema.Struct({
          q: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
          from: Schema.optional(Schema.Date),
          to: Schema.optional(Schema.Date)
        })
      )
      .addSuccess(Data(Schema.Union(ClassicReport, InterviewReport)))
      .annotate(
        OpenApi.Summary,
        "Classic: question and score summaries (filter `q` on labels) plus activity of the date cohort `from`..`to` (default the last 30 days); interview: funnel, analysis coverage and code aggregates (scope responses:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("insights")`/forms/${idParam}/insights`
      .addSuccess(Data(Insights))
      .annotate(
        OpenApi.Summary,
        "Field-promotion candidates extracted from completed free-text answers, ranked by frequency x confidence; classic forms only (scope responses:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("interviewAnalytics")`/forms/${idParam}/interview-analytics`
      .addSuccess(Data(InterviewAnalytics))
      .annotate(
        OpenApi.Summary,
        "Funnel, analysis coverage and qualitative-code aggregates; never transcripts; interview forms only (scope responses:read)"
      )
  )
  .add(
    HttpApiEndpoint.get("downloadFile")`/forms/${idParam}/files/${fileIdParam}`
      .addSuccess(HttpApiSchema.Empty(302))
      .annotate(
        OpenApi.Summary,
        "Redirects (302) to a short-lived signed URL that serves a respondent's uploaded file (scope files:read)"
      )
  )
  .addError(ForbiddenError)
  .addError(NotFoundError)
  .addError(ConflictError)
  .addError(UnprocessableError)
  .addError(InternalError)
  .annotate(OpenApi.Description, "Authoring: drafts, concurrency tokens, publication and versions")
  .middleware(Authentication) {}
