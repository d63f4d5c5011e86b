// Port: forms (mutable drafts) and their immutable published versions. Every method takes the
// workspace id, so a read or write across tenants is impossible by construction.
import { type Effect, Context, type Option, Schema } from "effect"
import type { InvalidCursor, Page } from "../../kernel/cursor.js"
import type { StorageError } from "../../kernel/errors.js"

/** A form's kind and publication status, written once: wire schemas and adapters reuse these. */
export const FormKind = Schema.Literals(["classic", "interview"])
export type FormKind = typeof FormKind.Type
export const FormStatus = Schema.Literals(["draft", "published"])
export type FormStatus = typeof FormStatus.Type

/** A form as stored. Definitions and settings are JSON values; the forms domain decodes them. */
export interface FormRecord {
  readonly id: string
  readonly workspaceId: string
  readonly kind: FormKind
  readonly title: string
  readonly slug: string
  readonly status: FormStatus
  readonly draftRevision: number
  readonly draftDefinition: unknown
  readonly settings: unknown
  readonly settingsSignature: string | null
  readonly currentVersionId: string | null
  /** Number of versions published so far; the next one is numbered versionCount + 1. */
  readonly versionCount: number
  /** Storage-level optimistic lock, bumped by every write; distinct from the spec's tokens. */
  readonly rowVersion: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface FormVersionRecord {
  readonly id: string
  readonly formId: string
  readonly workspaceId: string
  readonly kind: FormKind
  readonly version: number
  readonly definition: unknown
  readonly publishedAt: Date
}

export type FormVersionSummaryRecord = Omit<FormVersionRecord, "definition">

export interface FormSummaryRecord {
  readonly id: string
  readonly title: string
  readonly slug: string
  readonly status: FormStatus
  readonly kind: FormKind
  readonly updatedAt: Date
  readonly responseCount: number
}

export interface FormListQuery {
  readonly limit: number
  /** Opaque cursor from a previous page, already validated by the caller as a string. */
  readonly cursor?: string | undefined
  /** Case-insensitive substring match on title or slug. */
  readonly search?: string | undefined
  readonly kind?: FormKind | undefined
  readonly status?: FormStatus | undefined
}

/** A write lost a race: the row changed (or vanished) since it was read. */
export class StaleForm {
  readonly _tag = "StaleForm"
}

/** The slug is already used by another live form. */
export class SlugTaken {
  readonly _tag = "SlugTaken"
  constructor(readonly slug: string) {}
}

export interface FormRepositoryService {
  readonly insert: (form: FormRecord) => Effect.Effect<void, SlugTaken | StorageError>
  /** A live (not deleted) form of the workspace. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<Option.Option<FormRecord>, StorageError>
  /** A live form by its public slug, in any workspace (public respondent routes). */
  readonly getBySlug: (slug: string) => Effect.Effect<Option.Option<FormRecord>, StorageError>
  /** Keyset page ordered by updatedAt desc, id desc. An undecodable cursor is a failure of the caller. */
  readonly list: (
    workspaceId: string,
    query: FormListQuery
  ) => Effect.Effect<Page<FormSummaryRecord>, StorageError | InvalidCursor>
  /**
   * Replaces the stored form with `next` if its rowVersion still equals `next.rowVersion - 1`.
   * With `publish`, the version row is inserted in the same transaction.
   */
  readonly save: (
    next: FormRecord,
    publish?: FormVersionRecord
  ) => Effect.Effect<void, StaleForm | SlugTaken | StorageError>
  /** Soft delete; false when no live form matched. */
  readonly softDelete: (workspaceId: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
  readonly getVersion: (
    workspaceId: string,
    formId: string,
    versionId: string
  ) => Effect.Effect<Option.Option<FormVersionRecord>, StorageError>
  /** Keyset page ordered by version desc. */
  readonly listVersions: (
    workspaceId: string,
    formId: string,
    query: { readonly limit: number; readonly cursor?: string | undefined }
  ) => Effect.Effect<Page<FormVersionSummaryRecord>, StorageError | InvalidCursor>
  /**
   * Live forms of every workspace whose stored settings hold `researchCompliance`: what the response
   * retention sweep visits (a system job, so not scoped to one tenant).
   */
  readonly withResearchCompliance: () => Effect.Effect<ReadonlyArray<FormRecord>, StorageError>
}

export class FormRepository extends Context.Service<FormRepository, FormRepositoryService>()(
  "@folio/domain/FormRepository"
) {}
