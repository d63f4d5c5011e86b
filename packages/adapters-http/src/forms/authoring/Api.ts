// The forms authoring endpoints of forms-api.md: list, create, read, replace definition, delete,
// versions, duplicate, publish, unpublish, slug, settings and image assets.
import {
  AnyResponse,
  ClassicReport,
  ClassicResponse,
  CreateFormInput,
  Form,
  FormKind,
  FormStatus,
  FormSummary,
  FormVersion,
  FormVersionSummary,
  Insights,
  InterviewAnalytics,
  InterviewReport,
  InterviewResponse,
  MAX_ASSET_BYTES,
  PAGE_SIZE,
  PatchDefinitionInput,
  PatchSettingsInput,
  PublicationInput,
  ResponseStatus,
  ResponseSummary,
  SetSlugInput,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authentication } from "../auth.js"
import { Data, DataWithWarnings } from "../envelope.js"
import { errorsOf } from "../errors.js"

const Limit = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: PAGE_SIZE.max })
)

const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ items: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) })

const BooleanParam = Schema.Literals(["true", "false"])

/** What every authoring route can answer with, beside the API-wide errors. */
const FormsErrors = errorsOf("forbidden", "not_found", "conflict", "unprocessable", "internal")

const created = HttpApiSchema.status(201)

export const AssetUploaded = Schema.Struct({
  key: Schema.String,
  contentType: Schema.String,
  size: Schema.Int
}).annotate({ identifier: "AssetUploaded" })

export class FormsGroup extends HttpApiGroup.make("forms")
  .add(
    HttpApiEndpoint.get("list", "/forms", {
      query: {
        cursor: Schema.optional(Schema.String),
        limit: Schema.optional(Limit),
        search: Schema.optional(Schema.String.check(Schema.isMaxLength(200))),
        kind: Schema.optional(FormKind),
        status: Schema.optional(FormStatus)
      },
      success: Data(Page(FormSummary)),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "List forms, newest change first (scope forms:read)"),
    HttpApiEndpoint.post("create", "/forms", {
      payload: CreateFormInput,
      success: Data(Form).pipe(created),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Create a draft form (scope forms:write)"),
    HttpApiEndpoint.get("get", "/forms/:id", {
      params: { id: Uuid },
      success: Data(Form),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Read a form's draft, settings and concurrency tokens (scope forms:read)"),
    HttpApiEndpoint.patch("patchDefinition", "/forms/:id", {
      params: { id: Uuid },
      payload: PatchDefinitionInput,
      success: DataWithWarnings(Form),
      error: FormsErrors
    })
      .annotate(OpenApi.Summary, "Replace the draft definition (scope forms:write)")
      .annotate(
        OpenApi.Description,
        "Replace the draft definition. `expectedDraftRevision` must equal the current draftRevision; otherwise 409 conflict with the current token in error.details.draftRevision (re-read, re-apply). A definition without the email block the settings' `respondentReceipt.emailBlockId` names is 422 invalid. `warnings` lists what the client should show, e.g. `email_not_configured` when a notification is enabled but this server cannot send e-mail."
      ),
    HttpApiEndpoint.delete("delete", "/forms/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Soft-delete a form (scope forms:write)"),
    HttpApiEndpoint.get("listVersions", "/forms/:id/versions", {
      params: { id: Uuid },
      query: { cursor: Schema.optional(Schema.String), limit: Schema.optional(Limit) },
      success: Data(Page(FormVersionSummary)),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Published versions, newest first, definitions omitted (scope forms:read)"),
    HttpApiEndpoint.get("getVersion", "/forms/:id/versions/:versionId", {
      params: { id: Uuid, versionId: Uuid },
      success: Data(FormVersion),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "One immutable version with its definition (scope forms:read)"),
    HttpApiEndpoint.post("duplicate", "/forms/:id/duplicate", {
      params: { id: Uuid },
      success: Data(Form).pipe(created),
      error: FormsErrors
    })
      .annotate(
        OpenApi.Summary,
        "Copy a form into a new draft through the creation gates (scopes forms:write and forms:read)"
      )
      .annotate(
        OpenApi.Description,
        "Copy a form into a new draft (scopes forms:write and forms:read), re-applying the canonical schema, the workspace's capability gates, settings validation and image ownership. The body is optional: none, or an empty object."
      ),
    HttpApiEndpoint.post("publish", "/forms/:id/publish", {
      params: { id: Uuid },
      payload: PublicationInput,
      success: Data(Form),
      error: FormsErrors
    })
      .annotate(OpenApi.Summary, "Publish the draft as a new version (scope forms:publish)")
      .annotate(
        OpenApi.Description,
        "Publish the draft as the next immutable version (scope forms:publish). 409 on a stale expectedDraftRevision, 422 for an empty form."
      ),
    HttpApiEndpoint.post("unpublish", "/forms/:id/unpublish", {
      params: { id: Uuid },
      payload: PublicationInput,
      success: Data(Form),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Return a published form to draft (scope forms:publish)"),
    HttpApiEndpoint.patch("setSlug", "/forms/:id/slug", {
      params: { id: Uuid },
      payload: SetSlugInput,
      success: Data(Form),
      error: FormsErrors
    }).annotate(OpenApi.Summary, "Change the public slug (scope forms:write)"),
    HttpApiEndpoint.patch("patchSettings", "/forms/:id/settings", {
      params: { id: Uuid },
      payload: PatchSettingsInput,
      success: DataWithWarnings(Form),
      error: FormsErrors
    })
      .annotate(OpenApi.Summary, "Replace the settings (scope forms:write)")
      .annotate(
        OpenApi.Description,
        'Replace the settings. `expectedSettingsSignature` must equal the current settingsSignature; otherwise 409 conflict with error.details.settingsSignature. `notifications.respondentReceipt.emailBlockId` must name an `email` block of the draft (422 invalid otherwise, and when an enabled receipt names none). Notifications on a server without a mail transport are stored, and the answer carries `warnings: [{ code: "email_not_configured", message }]`.'
      ),
    HttpApiEndpoint.post("uploadAsset", "/forms/:id/assets", {
      params: { id: Uuid },
      success: Data(AssetUploaded).pipe(created),
      error: FormsErrors
    })
      .annotate(OpenApi.Summary, "Upload an authoring image (scope assets:write)")
      .annotate(
        OpenApi.Description,
        `Upload one image (PNG, JPEG, GIF or WebP, detected from its leading bytes; at most ${MAX_ASSET_BYTES / (1024 * 1024)} MiB) as the raw request body. Returns the object key for image blocks, choice images, logos and covers (scope assets:write). Only keys returned here, for any form of the same workspace, are accepted in imageKey, theme.logoKey and theme.coverKey (otherwise 400 invalid, rule assetOwnership).`
      ),
    HttpApiEndpoint.get("listResponses", "/forms/:id/responses", {
      params: { id: Uuid },
      query: {
        cursor: Schema.optional(Schema.String),
        limit: Schema.optional(Limit),
        status: Schema.optional(ResponseStatus),
        projection: Schema.optional(Schema.Literals(["compact", "full"])),
        flagged: Schema.optional(BooleanParam)
      },
      success: Data(Page(AnyResponse)),
      error: FormsErrors
    })
      .annotate(
        OpenApi.Summary,
        "Responses, newest first: compact by default, `projection=full` for answers; `status=partial` needs responses:partial:read (scope responses:read)"
      )
      .annotate(
        OpenApi.Description,
        "`flagged=true` keeps only responses that missed a quality trap (`quality.trapsMissed` not empty), `flagged=false` only the others; the filter is applied before paging, so cursors page through the filtered list. Classic items carry `scores` (each scale and quiz score with its `cutoffLabel`) and `quality` once completed."
      ),
    HttpApiEndpoint.get("responseSummary", "/forms/:id/responses/summary", {
      params: { id: Uuid },
      success: Data(ResponseSummary),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "Per-question and score summaries of completed responses; classic forms only (scope responses:read)"
    ),
    HttpApiEndpoint.get("getResponse", "/forms/:id/responses/:responseId", {
      params: { id: Uuid, responseId: Uuid },
      success: Data(Schema.Union([ClassicResponse, InterviewResponse])),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "One response: classic with answers, files and presented order; interview with its transcript (scope responses:read; a partial response also needs responses:partial:read)"
    ),
    HttpApiEndpoint.get("exportCsv", "/forms/:id/responses.csv", {
      params: { id: Uuid },
      query: {
        values: Schema.optional(Schema.Literals(["label", "code"])),
        layout: Schema.optional(Schema.Literals(["wide", "long"])),
        deidentified: Schema.optional(BooleanParam)
      },
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
      error: FormsErrors
    })
      .annotate(OpenApi.Summary, "CSV export of completed responses, streamed (scope responses:read)")
      .annotate(
        OpenApi.Description,
        "Classic: one column per input block id (every published version), `score_<id>` per scale and quiz, then `cutoff_<id>` per scale and quiz (the cutoff label its score reached, empty when none), then `quality_traps_missed` (the quality-trap block ids the response missed, `;`-joined) when any version has a trap, file columns holding download-route links (following them needs files:read). `values=label|code` (default label), `layout=wide|long` (default wide: one row per response; long: one row per answer), `deidentified=true` drops free-text, contact, date and file columns, replaces response ids by row numbers and dates the completion by day. Interview: summary, sentiment, extracted fields, themes and transcript (the deidentified projection keeps status, sentiment and themes). Cells that a spreadsheet would run as a formula are prefixed with an apostrophe."
      ),
    HttpApiEndpoint.get("reports", "/forms/:id/reports", {
      params: { id: Uuid },
      query: {
        q: Schema.optional(Schema.String.check(Schema.isMaxLength(200))),
        from: Schema.optional(Schema.Date),
        to: Schema.optional(Schema.Date)
      },
      success: Data(Schema.Union([ClassicReport, InterviewReport])),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "Classic: question and score summaries (filter `q` on labels) plus activity of the date cohort `from`..`to` (default the last 30 days); interview: funnel, analysis coverage and code aggregates (scope responses:read)"
    ),
    HttpApiEndpoint.get("insights", "/forms/:id/insights", {
      params: { id: Uuid },
      success: Data(Insights),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "Field-promotion candidates extracted from completed free-text answers, ranked by frequency x confidence; classic forms only (scope responses:read)"
    ),
    HttpApiEndpoint.get("interviewAnalytics", "/forms/:id/interview-analytics", {
      params: { id: Uuid },
      success: Data(InterviewAnalytics),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "Funnel, analysis coverage and qualitative-code aggregates; never transcripts; interview forms only (scope responses:read)"
    ),
    HttpApiEndpoint.get("downloadFile", "/forms/:id/files/:fileId", {
      params: { id: Uuid, fileId: Uuid },
      success: HttpApiSchema.Empty(302),
      error: FormsErrors
    }).annotate(
      OpenApi.Summary,
      "Redirects (302) to a short-lived signed URL that serves a respondent's uploaded file (scope files:read)"
    )
  )
  .annotate(OpenApi.Description, "Authoring: drafts, concurrency tokens, publication and versions")
  .middleware(Authentication) {}
