// The five MCP tools of forms-api.md. Each is a strict input schema, an output schema and a run
// function over the same domain use cases the REST routes call; JSON Schemas for tools/list are
// generated from these Effect schemas. Tool inputs are flat objects with an `action` (MCP wants an
// object schema at the top), and each action's required fields are checked with value-free issues.
import {
  AnyDefinitionSchema,
  ClassicReport,
  ClassicResponse,
  ClassicResponseCompact,
  type FileUrl,
  Form,
  FormAuthoring,
  FormKind,
  FormResponses,
  FormStatus,
  FormSummary,
  FormVersion,
  FormVersionSummary,
  InterviewReport,
  InterviewResponse,
  InterviewResponseCompact,
  MAX_CURSOR_LENGTH,
  OPERATION_SCOPES,
  PAGE_SIZE,
  type FormsScope,
  StoredSettingsSchema,
  toFormSummaryView,
  StoredFormDocumentReader,
  toFormView,
  toVersionSummaryView,
  toVersionView,
  Uuid
} from "@folio/domain"
import { Effect, Schema } from "effect"
import { need } from "./actions.js"

const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: PAGE_SIZE.max }))
const Cursor = Schema.String.check(Schema.isMaxLength(MAX_CURSOR_LENGTH))
const FormId = Uuid.annotate({ description: "the form's id (uuid)" })

const Page = <S extends Schema.Top>(item: S) => Schema.Array(item)

export interface ToolContext {
  readonly fileUrl: FileUrl
}

/** A tool: its scopes (all needed), schemas, and what it does. */
export interface ToolSpec<I, IE, O, OE> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly scopes: ReadonlyArray<FormsScope>
  readonly input: Schema.Codec<I, IE>
  readonly output: Schema.Codec<O, OE>
  /** Extra scopes some inputs need (copying a form needs forms:read too). */
  readonly extraScopes?: (input: I) => ReadonlyArray<FormsScope>
  // biome-ignore lint/suspicious/noExplicitAny: each tool's requirements are the domain's ports
  readonly run: (input: I, context: ToolContext) => Effect.Effect<O, unknown, any>
}

const tool = <I, IE, O, OE>(spec: ToolSpec<I, IE, O, OE>) => spec

// forms_query ----------------------------------------------------------------------------------

const FormsQueryInput = Schema.Struct({
  action: Schema.Literals(["search", "get", "versions", "version"]).annotate({
    description:
      "search: list forms (search, kind, status, cursor, limit); get: one form with its draft and concurrency tokens (formId); versions: version history (formId, cursor, limit); version: one published snapshot (formId, versionId)"
  }),
  formId: Schema.optionalKey(FormId),
  versionId: Schema.optionalKey(Uuid),
  search: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  kind: Schema.optionalKey(FormKind),
  status: Schema.optionalKey(FormStatus),
  cursor: Schema.optionalKey(Cursor),
  limit: Schema.optionalKey(Limit)
})

const FormsQueryOutput = Schema.Struct({
  action: Schema.Literals(["search", "get", "versions", "version"]),
  forms: Schema.optionalKey(Page(FormSummary)),
  form: Schema.optionalKey(Form),
  versions: Schema.optionalKey(Page(FormVersionSummary)),
  version: Schema.optionalKey(FormVersion),
  nextCursor: Schema.optionalKey(Schema.NullOr(Schema.String))
})

const formsQuery = tool({
  name: "forms_query",
  title: "Read forms",
  description:
    "Read forms of this workspace. action=search lists forms (optional search text, kind, status; page with cursor/limit). action=get returns one form with its draft definition, settings and the two concurrency tokens you need to write: draftRevision (for forms_update definition and forms_publication) and settingsSignature (for forms_update settings). action=versions lists the immutable published versions, newest first. action=version returns one published snapshot. Read before you write, and read again after a conflict.",
  scopes: OPERATION_SCOPES.getForm,
  input: FormsQueryInput,
  output: FormsQueryOutput,
  run: (input) =>
    Effect.gen(function* () {
      const forms = yield* FormAuthoring
      const documents = yield* StoredFormDocumentReader
      switch (input.action) {
        case "search": {
          const page = yield* forms.list({
            limit: input.limit,
            cursor: input.cursor,
            search: input.search,
            kind: input.kind,
            status: input.status
          })
          return {
            action: input.action,
            forms: page.items.map(toFormSummaryView),
            nextCursor: page.nextCursor
          }
        }
        case "get": {
          yield* need(input, input.action, ["formId"])
          return { action: input.action, form: toFormView(yield* forms.get(input.formId ?? ""), documents) }
        }
        case "versions": {
          yield* need(input, input.action, ["formId"])
          const page = yield* forms.listVersions(input.formId ?? "", {
            limit: input.limit,
            cursor: input.cursor
          })
          return {
            action: input.action,
            versions: page.items.map(toVersionSummaryView),
            nextCursor: page.nextCursor
          }
        }
        case "version": {
          yield* need(input, input.action, ["formId", "versionId"])
          const version = yield* forms.getVersion(input.formId ?? "", input.versionId ?? "")
          return { action: input.action, version: toVersionView(version, documents) }
        }
      }
    })
})

// forms_create ---------------------------------------------------------------------------------

const FormsCreateInput = Schema.Struct({
  kind: Schema.optionalKey(FormKind).annotate({
    description: "classic (default) or interview; ignored when copying"
  }),
  title: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  definition: Schema.optionalKey(AnyDefinitionSchema),
  settings: Schema.optionalKey(StoredSettingsSchema),
  copyFromFormId: Schema.optionalKey(Uuid).annotate({
    description:
      "copy this readable form (its draft and settings) instead of creating a blank one; needs forms:read"
  })
})

const FormOutput = Schema.Struct({ form: Form })

const formsCreate = tool({
  name: "forms_create",
  title: "Create a form",
  description:
    "Create a draft form. Either a blank or pre-filled draft (title required; kind classic or interview; optional definition and settings, validated exactly as on publish-time rules), or a copy of a readable form of this workspace (copyFromFormId; needs forms:read as well). Read svc://workspace/context first to know which block types, render modes and features your workspace may use. Returns the new form with draftRevision 1.",
  scopes: OPERATION_SCOPES.createForm,
  extraScopes: (input) => (input.copyFromFormId === undefined ? [] : OPERATION_SCOPES.duplicateForm),
  input: FormsCreateInput,
  output: FormOutput,
  run: (input) =>
    Effect.gen(function* () {
      const forms = yield* FormAuthoring
      const documents = yield* StoredFormDocumentReader
      if (input.copyFromFormId !== undefined) {
        return { form: toFormView(yield* forms.duplicate(input.copyFromFormId), documents) }
      }
      yield* need(input, "create", ["title"])
      const created = yield* forms.createWithoutCustomScript({
        kind: input.kind ?? "classic",
        title: input.title ?? "",
        ...(input.definition === undefined ? {} : { definition: input.definition }),
        ...(input.settings === undefined ? {} : { settings: input.settings })
      })
      return { form: toFormView(created, documents) }
    })
})

// forms_update ---------------------------------------------------------------------------------

const FormsUpdateInput = Schema.Struct({
  formId: FormId,
  action: Schema.Literals(["definition", "settings", "slug"]).annotate({
    description:
      "definition: replace the whole draft definition (definition + expectedDraftRevision); settings: replace the settings (settings + expectedSettingsSignature); slug: set the public slug (slug)"
  }),
  definition: Schema.optionalKey(AnyDefinitionSchema),
  expectedDraftRevision: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  settings: Schema.optionalKey(StoredSettingsSchema),
  expectedSettingsSignature: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  slug: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64)))
})

const formsUpdate = tool({
  name: "forms_update",
  title: "Change a draft",
  description:
    "Change a form's draft with compare-and-set. action=definition replaces the entire definition and needs the draftRevision you last read as expectedDraftRevision; action=settings replaces the settings (without customScript: it cannot be set over MCP, and a stored one is kept) and needs settingsSignature as expectedSettingsSignature; action=slug sets the public slug. On error code conflict, someone changed the form since you read it: call forms_query action=get again, re-apply your change to the fresh draft, and retry with the new token. Returns the updated form with its new tokens.",
  scopes: OPERATION_SCOPES.updateDefinition,
  input: FormsUpdateInput,
  output: FormOutput,
  run: (input) =>
    Effect.gen(function* () {
      const forms = yield* FormAuthoring
      const documents = yield* StoredFormDocumentReader
      switch (input.action) {
        case "definition":
          yield* need(input, input.action, ["definition", "expectedDraftRevision"])
          return {
            form: toFormView(
              yield* forms.patchDefinition(input.formId, {
                definition: input.definition,
                expectedDraftRevision: input.expectedDraftRevision ?? 0
              }),
              documents
            )
          }
        case "settings":
          yield* need(input, input.action, ["settings", "expectedSettingsSignature"])
          return {
            form: toFormView(
              yield* forms.patchSettingsKeepingCustomScript(input.formId, {
                settings: input.settings,
                expectedSettingsSignature: input.expectedSettingsSignature ?? ""
              }),
              documents
            )
          }
        case "slug":
          yield* need(input, input.action, ["slug"])
          return { form: toFormView(yield* forms.setSlug(input.formId, input.slug ?? ""), documents) }
      }
    })
})

// forms_publication ----------------------------------------------------------------------------

const FormsPublicationInput = Schema.Struct({
  formId: FormId,
  expectedDraftRevision: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  desiredState: FormStatus
})

const formsPublication = tool({
  name: "forms_publication",
  title: "Publish or unpublish",
  description:
    "Converge a form to desiredState published or draft, given the draftRevision you last read as expectedDraftRevision. published: when the form is already published and its current version already holds this draft, nothing changes; otherwise a new immutable version with the next number is created (a classic form needs at least one input block, an interview form needs content; otherwise error unprocessable). draft: takes the form offline; published versions stay. On conflict, re-read with forms_query action=get and retry with the fresh draftRevision.",
  scopes: OPERATION_SCOPES.publish,
  input: FormsPublicationInput,
  output: FormOutput,
  run: (input) =>
    Effect.zipWith(
      FormAuthoring.use((forms) =>
        forms.convergePublication(input.formId, {
          expectedDraftRevision: input.expectedDraftRevision,
          desiredState: input.desiredState
        })
      ),
      Effect.service(StoredFormDocumentReader),
      (form, documents) => ({ form: toFormView(form, documents) })
    )
})

// responses_query ------------------------------------------------------------------------------

const ResponsesQueryInput = Schema.Struct({
  formId: FormId,
  action: Schema.Literals(["list", "get", "report"]).annotate({
    description:
      "list: completed responses, compact (no answers, no transcripts; cursor, limit); get: one response (responseId; includeTranscript for interviews); report: the kind-aware aggregate report"
  }),
  responseId: Schema.optionalKey(Uuid),
  includeTranscript: Schema.optionalKey(Schema.Boolean).annotate({
    description: "interview detail only: include the transcript turns (default false)"
  }),
  cursor: Schema.optionalKey(Cursor),
  limit: Schema.optionalKey(Limit)
})

const ResponsesQueryOutput = Schema.Struct({
  action: Schema.Literals(["list", "get", "report"]),
  items: Schema.optionalKey(Schema.Array(Schema.Union([ClassicResponseCompact, InterviewResponseCompact]))),
  nextCursor: Schema.optionalKey(Schema.NullOr(Schema.String)),
  response: Schema.optionalKey(Schema.Union([ClassicResponse, InterviewResponse])),
  report: Schema.optionalKey(Schema.Union([ClassicReport, InterviewReport]))
})

const responsesQuery = tool({
  name: "responses_query",
  title: "Read responses",
  description:
    "Read a form's responses. action=list pages completed responses in the compact projection (never answer bodies or transcripts; cursor/limit, newest first). action=get returns one response: classic with answers, files (downloadUrl needs files:read) and presented order; interview with its analysis, and its transcript only when includeTranscript is true. action=report returns the aggregate report: per-question and score summaries with activity for classic forms; funnel, analysis coverage and qualitative-code counts for interview forms. Partial (in-progress) responses are not available over MCP: action=get answers not_found for one.",
  scopes: OPERATION_SCOPES.listResponses,
  input: ResponsesQueryInput,
  output: ResponsesQueryOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const responses = yield* FormResponses
      switch (input.action) {
        case "list": {
          const page = yield* responses.list(
            input.formId,
            { limit: input.limit, cursor: input.cursor, status: "completed" },
            { projection: "compact", fileUrl: context.fileUrl }
          )
          return {
            action: input.action,
            items: page.items as ReadonlyArray<
              typeof ClassicResponseCompact.Type | typeof InterviewResponseCompact.Type
            >,
            nextCursor: page.nextCursor
          }
        }
        case "get": {
          yield* need(input, input.action, ["responseId"])
          const response = yield* responses.get(input.formId, input.responseId ?? "", {
            fileUrl: context.fileUrl,
            includeTranscript: input.includeTranscript ?? false,
            // Partial responses are never exposed over MCP (forms-api.md); one reads as not found.
            partials: "hidden"
          })
          return { action: input.action, response }
        }
        case "report":
          return { action: input.action, report: yield* responses.report(input.formId, {}) }
      }
    })
})

export const TOOLS = [formsQuery, formsCreate, formsUpdate, formsPublication, responsesQuery] as const
