// Wire shapes of the forms service (Form, FormSummary, FormVersionSummary, FormVersion) and the
// request bodies the spec leaves to us, as schemas the HTTP and MCP adapters encode with.
import { Effect, Schema } from "effect"
import { Uuid } from "../kernel/ids.js"
import { STRICT_ALL } from "../kernel/issues.js"
import {
  type FormRecord,
  type FormSummaryRecord,
  type FormVersionRecord,
  type FormVersionSummaryRecord,
  FormKind as Kind,
  FormStatus as Status
} from "./ports/forms.js"
import { decodingStoredFormDocuments, type StoredFormDocuments } from "./ports/stored-documents.js"
import { FormDefinition } from "./definition/definition.js"
import { documentedAs } from "../kernel/json-schema.js"
import { exposedInterviewDefinition, InterviewDefinition } from "./interview/definition.js"
import type { AnyDefinition as DecodedDefinition } from "./form.js"
import { defaultFormSettings, encodeFormSettings, FormSettings } from "./settings/settings.js"

/**
 * Definitions and settings in responses are the stored JSON, already validated and default-filled
 * when they were written (and re-checked on read): the wire schema documents them in full but does
 * not re-encode them on every read, which would cost more than the rest of a GET.
 */
const AnyDefinition = documentedAs(Schema.Union([FormDefinition, InterviewDefinition]), "AnyDefinition")
const StoredSettings = documentedAs(FormSettings, "StoredFormSettings")
/** A classic or interview definition as JSON, documented by its full JSON Schema, checked by the domain. */
export const AnyDefinitionSchema = AnyDefinition
/** Form settings as JSON, documented by their full JSON Schema, checked by the domain. */
export const StoredSettingsSchema = StoredSettings

export const Form = Schema.Struct({
  id: Uuid,
  title: Schema.String,
  slug: Schema.String,
  status: Status,
  kind: Kind,
  draftRevision: Schema.Int,
  draftDefinition: Schema.NullOr(AnyDefinition),
  settings: StoredSettings,
  settingsSignature: Schema.NullOr(Schema.String),
  currentVersionId: Schema.NullOr(Uuid),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Form" })
export type Form = typeof Form.Type

export const FormSummary = Schema.Struct({
  id: Uuid,
  title: Schema.String,
  slug: Schema.String,
  status: Status,
  kind: Kind,
  updatedAt: Schema.Date,
  responseCount: Schema.Int
}).annotate({ identifier: "FormSummary" })

export const FormVersionSummary = Schema.Struct({
  id: Uuid,
  formId: Uuid,
  kind: Kind,
  version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  publishedAt: Schema.Date
}).annotate({ identifier: "FormVersionSummary" })

export const FormVersion = Schema.Struct({
  ...FormVersionSummary.fields,
  definition: Schema.NullOr(AnyDefinition)
}).annotate({ identifier: "FormVersion" })

/**
 * What a read (GET form, GET versions/{n}, MCP forms_query) answers for a stored definition: null
 * when unreadable, an interview definition always as v2 (legacy rows upgraded on read, the row
 * itself untouched), a classic one as stored.
 */
const exposedDefinition = (stored: unknown, decoded: DecodedDefinition | null): unknown =>
  decoded === null ? null : decoded.schemaVersion === 2 ? exposedInterviewDefinition(stored, decoded) : stored

/** `documents` is the StoredFormDocumentReader the caller runs with (decoding each time by default). */
export const toFormView = (
  record: FormRecord,
  documents: StoredFormDocuments = decodingStoredFormDocuments
): Form => {
  // A draft at one revision and settings with one signature never change: they are their identities.
  const settings = documents.settings(
    record.settings,
    record.settingsSignature === null ? undefined : `${record.id}:${record.settingsSignature}`
  )
  return {
    id: record.id,
    title: record.title,
    slug: record.slug,
    status: record.status,
    kind: record.kind,
    draftRevision: record.draftRevision,
    draftDefinition: exposedDefinition(
      record.draftDefinition,
      documents.definition(record.kind, record.draftDefinition, `${record.id}@${record.draftRevision}`)
    ),
    settings: settings === null ? encodeFormSettings(defaultFormSettings()) : record.settings,
    settingsSignature: settings === null ? null : record.settingsSignature,
    currentVersionId: record.currentVersionId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt
  }
}

export const toFormSummaryView = (r: FormSummaryRecord): typeof FormSummary.Type => ({ ...r })

export const toVersionSummaryView = (r: FormVersionSummaryRecord): typeof FormVersionSummary.Type => ({
  id: r.id,
  formId: r.formId,
  kind: r.kind,
  version: r.version,
  publishedAt: r.publishedAt
})

export const toVersionView = (
  r: FormVersionRecord,
  documents: StoredFormDocuments = decodingStoredFormDocuments
): typeof FormVersion.Type => ({
  ...toVersionSummaryView(r),
  definition: exposedDefinition(r.definition, documents.definition(r.kind, r.definition, `version:${r.id}`))
})

// Request bodies are strict wherever they are decoded (an unknown key is an issue, not dropped):
// the annotation travels with the schema into HttpApi's own decoding.
export const CreateFormInput = Schema.Struct({
  kind: Kind.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("classic" as const))),
  title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  definition: Schema.optionalKey(Schema.Unknown),
  settings: Schema.optionalKey(Schema.Unknown)
}).annotate({ identifier: "CreateFormInput", parseOptions: STRICT_ALL })

export const PatchDefinitionInput = Schema.Struct({
  definition: Schema.Unknown,
  expectedDraftRevision: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
}).annotate({ identifier: "PatchDefinitionInput", parseOptions: STRICT_ALL })

export const PatchSettingsInput = Schema.Struct({
  settings: Schema.Unknown,
  expectedSettingsSignature: Schema.String
}).annotate({ identifier: "PatchSettingsInput", parseOptions: STRICT_ALL })

export const SetSlugInput = Schema.Struct({ slug: Schema.String }).annotate({
  identifier: "SetSlugInput",
  parseOptions: STRICT_ALL
})

export const PublicationInput = Schema.Struct({
  expectedDraftRevision: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
}).annotate({ identifier: "PublicationInput", parseOptions: STRICT_ALL })
