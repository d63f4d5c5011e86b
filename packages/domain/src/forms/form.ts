// The form aggregate as total pure functions over the stored record: create (always a draft),
// replace definition (CAS on draftRevision), replace settings (CAS on settingsSignature), set slug,
// publish / unpublish (CAS, immutable numbered versions), duplicate. Storage persists what these
// return; every returned record bumps rowVersion so the repository can detect a lost race.
import { Result } from "effect"
import type { FormKind, FormRecord, FormVersionRecord } from "./ports/forms.js"
import type { Capabilities } from "./capabilities.js"
import {
  decodeAuthoredFormDefinition,
  decodeFormDefinition,
  type FormDefinitionDecode,
  emptyFormDefinition,
  encodeFormDefinition,
  type FormDefinition,
  inputBlocks
} from "./definition/definition.js"
import {
  DraftRevisionConflict,
  type FeaturesDisabled,
  type FormKindDisabled,
  InvalidDefinition,
  InvalidSettings,
  InvalidSlug,
  NothingToPublish,
  type RenderModeDisabled,
  SettingsSignatureConflict,
  UnreadableSourceDraft
} from "./errors.js"
import { checkClassicDefinitionAllowed, checkKindAllowed, checkSettingsAllowed } from "./gates.js"
import { decodeInterviewDefinition } from "./interview/definition-checks.js"
import {
  emptyInterviewDefinition,
  encodeInterviewDefinition,
  type InterviewDefinition,
  interviewHasContent,
  readStoredInterviewDefinition
} from "./interview/definition.js"
import {
  decodeFormSettings,
  settingsIssues,
  encodeFormSettings,
  type FormSettings,
  settingsSignature
} from "./settings/settings.js"
import { notificationIssues } from "./notifications/rules.js"

export type AnyDefinition = FormDefinition | InterviewDefinition

/** Why a definition is refused: it does not decode, or the workspace has its kind or features off. */
export type DefinitionRefused = InvalidDefinition | FormKindDisabled | FeaturesDisabled
/** Why settings are refused: they do not decode, or their render mode is off for the workspace. */
export type SettingsRefused = InvalidSettings | RenderModeDisabled

/** Decodes a definition for `kind` and applies the workspace's gates. */
export const validateDefinition = (
  kind: FormKind,
  input: unknown,
  caps: Capabilities,
  decode: FormDefinitionDecode = decodeAuthoredFormDefinition
): Result.Result<{ readonly decoded: AnyDefinition; readonly encoded: unknown }, DefinitionRefused> =>
  Result.gen(function* () {
    yield* checkKindAllowed(kind, caps)
    if (kind === "classic") {
      const decoded = yield* decode(input)
      yield* checkClassicDefinitionAllowed(decoded, caps)
      return { decoded, encoded: encodeFormDefinition(decoded) }
    }
    const decoded = yield* decodeInterviewDefinition(input)
    return { decoded, encoded: encodeInterviewDefinition(decoded) }
  })

const validateSettings = (input: unknown, caps: Capabilities) =>
  Result.gen(function* () {
    const decoded = yield* decodeFormSettings(input)
    const issues = settingsIssues(decoded)
    if (issues.length > 0) return yield* Result.fail(new InvalidSettings({ issues }))
    yield* checkSettingsAllowed(decoded, caps)
    return { decoded, encoded: encodeFormSettings(decoded), signature: settingsSignature(decoded) }
  })

/** The blocks of a classic definition, none of an interview (a receipt can name no block there). */
const blocksOf = (definition: AnyDefinition | null) =>
  definition !== null && definition.schemaVersion === 1 ? definition : { blocks: [] }

/**
 * Settings against the definition they will serve: a receipt must name an email block of it. A
 * settings write is refused as invalid settings, a definition write (or a publish) as an invalid
 * definition, both at the same value-free path.
 */
const checkSettingsAgainst = (settings: FormSettings, definition: AnyDefinition | null) => {
  const issues = notificationIssues(settings, blocksOf(definition))
  return issues.length === 0 ? Result.void : Result.fail(new InvalidSettings({ issues }))
}

const checkDefinitionAgainst = (
  kind: FormKind,
  definition: AnyDefinition | null,
  storedSettings: unknown
) => {
  const settings = readStoredSettings(storedSettings)
  const issues = settings === null ? [] : notificationIssues(settings, blocksOf(definition), ["settings"])
  return issues.length === 0 ? Result.void : Result.fail(new InvalidDefinition({ kind, issues }))
}

/** Reads a stored draft or version definition; unreadable legacy data degrades to null. */
export const readStoredDefinition = (kind: FormKind, stored: unknown): AnyDefinition | null =>
  kind === "interview"
    ? readStoredInterviewDefinition(stored)
    : Result.getOrNull(decodeFormDefinition(stored))

/** Reads stored settings; unreadable legacy settings degrade to null. */
export const readStoredSettings = (stored: unknown): FormSettings | null =>
  Result.getOrNull(decodeFormSettings(stored))

/** The classic definition of a published version; unreadable data degrades to null. */
export const readVersionDefinition = (stored: unknown): FormDefinition | null =>
  Result.getOrNull(decodeFormDefinition(stored))

/** Public slugs: lowercase letters, digits and single hyphens, 3..64 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,63}$/

export const validateSlug = (slug: string): Result.Result<string, InvalidSlug> =>
  SLUG_PATTERN.test(slug) ? Result.succeed(slug) : Result.fail(new InvalidSlug())

export interface CreateFormCommand {
  readonly id: string
  readonly workspaceId: string
  readonly slug: string
  readonly kind: FormKind
  readonly title: string
  readonly definition?: unknown
  readonly settings?: unknown
}

export const createForm = (
  command: CreateFormCommand,
  caps: Capabilities,
  now: Date,
  decode: FormDefinitionDecode = decodeAuthoredFormDefinition
): Result.Result<FormRecord, DefinitionRefused | SettingsRefused> =>
  Result.gen(function* () {
    yield* checkKindAllowed(command.kind, caps)
    const validated =
      command.definition === undefined
        ? command.kind === "classic"
          ? { decoded: emptyFormDefinition(), encoded: encodeFormDefinition(emptyFormDefinition()) }
          : {
              decoded: emptyInterviewDefinition(),
              encoded: encodeInterviewDefinition(emptyInterviewDefinition())
            }
        : yield* validateDefinition(command.kind, command.definition, caps, decode)
    const definition = validated.encoded
    const settings = yield* validateSettings(command.settings ?? {}, caps)
    yield* checkSettingsAgainst(settings.decoded, validated.decoded)
    return {
      id: command.id,
      workspaceId: command.workspaceId,
      kind: command.kind,
      title: command.title,
      slug: command.slug,
      status: "draft",
      draftRevision: 1,
      draftDefinition: definition,
      settings: settings.encoded,
      settingsSignature: settings.signature,
      currentVersionId: null,
      versionCount: 0,
      rowVersion: 1,
      createdAt: now,
      updatedAt: now
    }
  })

const revisionConflict = (form: FormRecord) =>
  new DraftRevisionConflict({ draftRevision: form.draftRevision })

const touch = (form: FormRecord, now: Date, changes: Partial<FormRecord>): FormRecord => ({
  ...form,
  ...changes,
  rowVersion: form.rowVersion + 1,
  updatedAt: now
})

export const replaceDefinition = (
  form: FormRecord,
  command: {
    readonly definition: unknown
    readonly expectedDraftRevision: number
    readonly title?: string | undefined
  },
  caps: Capabilities,
  now: Date,
  decode: FormDefinitionDecode = decodeAuthoredFormDefinition
): Result.Result<FormRecord, DraftRevisionConflict | DefinitionRefused> =>
  Result.gen(function* () {
    if (command.expectedDraftRevision !== form.draftRevision)
      return yield* Result.fail(revisionConflict(form))
    const { decoded, encoded } = yield* validateDefinition(form.kind, command.definition, caps, decode)
    yield* checkDefinitionAgainst(form.kind, decoded, form.settings)
    return touch(form, now, {
      draftDefinition: encoded,
      draftRevision: form.draftRevision + 1,
      ...(command.title === undefined ? {} : { title: command.title })
    })
  })

export const replaceSettings = (
  form: FormRecord,
  command: { readonly settings: unknown; readonly expectedSettingsSignature: string },
  caps: Capabilities,
  now: Date
): Result.Result<FormRecord, SettingsSignatureConflict | SettingsRefused> =>
  Result.gen(function* () {
    // Unreadable stored settings have no signature; a full replacement is how they get repaired.
    if (form.settingsSignature !== null && command.expectedSettingsSignature !== form.settingsSignature) {
      return yield* Result.fail(new SettingsSignatureConflict({ settingsSignature: form.settingsSignature }))
    }
    const settings = yield* validateSettings(command.settings, caps)
    yield* checkSettingsAgainst(settings.decoded, readStoredDefinition(form.kind, form.draftDefinition))
    return touch(form, now, { settings: settings.encoded, settingsSignature: settings.signature })
  })

export const setSlug = (form: FormRecord, slug: string, now: Date): Result.Result<FormRecord, InvalidSlug> =>
  Result.map(validateSlug(slug), (valid) => (valid === form.slug ? form : touch(form, now, { slug: valid })))

/** Whether the draft can be published: classic needs an input block, interview a field or goal. */
export const hasContent = (form: FormRecord): boolean => {
  const definition = readStoredDefinition(form.kind, form.draftDefinition)
  if (definition === null) return false
  return definition.schemaVersion === 1 ? inputBlocks(definition).length > 0 : interviewHasContent(definition)
}

export const publish = (
  form: FormRecord,
  command: { readonly expectedDraftRevision: number },
  context: { readonly now: Date; readonly versionId: string }
): Result.Result<
  { readonly form: FormRecord; readonly version: FormVersionRecord },
  DraftRevisionConflict | NothingToPublish | InvalidDefinition
> =>
  Result.gen(function* () {
    if (command.expectedDraftRevision !== form.draftRevision)
      return yield* Result.fail(revisionConflict(form))
    if (!hasContent(form)) return yield* Result.fail(new NothingToPublish({ kind: form.kind }))
    // Writes keep draft and settings in agreement; a form stored before that rule may not be.
    yield* checkDefinitionAgainst(
      form.kind,
      readStoredDefinition(form.kind, form.draftDefinition),
      form.settings
    )
    const version: FormVersionRecord = {
      id: context.versionId,
      formId: form.id,
      workspaceId: form.workspaceId,
      kind: form.kind,
      version: form.versionCount + 1,
      definition: form.draftDefinition,
      publishedAt: context.now
    }
    return {
      version,
      form: touch(form, context.now, {
        status: "published",
        currentVersionId: version.id,
        versionCount: version.version
      })
    }
  })

/** Published -> draft. Already a draft: nothing changes (the same record comes back). */
export const unpublish = (
  form: FormRecord,
  command: { readonly expectedDraftRevision: number },
  now: Date
): Result.Result<FormRecord, DraftRevisionConflict> => {
  if (command.expectedDraftRevision !== form.draftRevision) return Result.fail(revisionConflict(form))
  return Result.succeed(form.status === "draft" ? form : touch(form, now, { status: "draft" }))
}

/** A new draft from an existing form, re-validated through the same creation gates. */
export const duplicateForm = (
  source: FormRecord,
  target: { readonly id: string; readonly slug: string },
  caps: Capabilities,
  now: Date
): Result.Result<FormRecord, UnreadableSourceDraft | DefinitionRefused | SettingsRefused> => {
  const definition = readStoredDefinition(source.kind, source.draftDefinition)
  if (definition === null) return Result.fail(new UnreadableSourceDraft())
  const encoded =
    definition.schemaVersion === 1 ? encodeFormDefinition(definition) : encodeInterviewDefinition(definition)
  return createForm(
    {
      id: target.id,
      workspaceId: source.workspaceId,
      slug: target.slug,
      kind: source.kind,
      title: `${source.title} (copy)`.slice(0, 200),
      definition: encoded,
      settings: readStoredSettings(source.settings) === null ? {} : source.settings
    },
    caps,
    now
  )
}
