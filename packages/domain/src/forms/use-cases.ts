// The forms use cases behind REST and MCP: each loads what it needs through the ports, applies the
// pure rules of form.ts, and persists with the storage's optimistic lock. A write that loses a race
// re-reads and re-applies the same command, so a client's token is judged against fresh state.
import { Clock, Effect, type Result, Option } from "effect"
import { TenantNotFound } from "../identity/errors.js"
import { Principal } from "../identity/principal.js"
import type { InvalidCursor, Page } from "../kernel/cursor.js"
import { retryOnStale } from "../kernel/retry.js"
import type { StorageError } from "../kernel/errors.js"
import { BlobStore } from "../kernel/ports/blob-store.js"
import {
  type FormKind,
  type FormListQuery,
  type FormRecord,
  FormRepository,
  type FormStatus,
  type FormVersionRecord,
  SlugTaken,
  StaleForm
} from "./ports/forms.js"
import { IdGen } from "../kernel/ports/id-gen.js"
import { Mailer } from "../kernel/ports/mailer.js"
import { notificationWarnings } from "./notifications/rules.js"
import { TenantRepository } from "../identity/ports/tenants.js"
import { type Capabilities, evaluateCapabilities } from "./capabilities.js"
import {
  assetKey,
  checkImageOwnership,
  definitionImageKeys,
  type ImageKeyRef,
  settingsImageKeys,
  sniffImage
} from "./assets.js"
import {
  CustomScriptNotOverMcp,
  FormChangedConcurrently,
  FormNotFound,
  ImageTooLarge,
  InvalidListCursor,
  type ImageKeysNotOwned,
  NotAnImage,
  SlugAllocationFailed,
  SlugInUse,
  VersionNotFound
} from "./errors.js"
import { FormDefinitionDecoder } from "./definition/definition.js"
import * as rules from "./form.js"
import { StoredFormDocumentReader } from "./ports/stored-documents.js"
import { MAX_ASSET_BYTES, PAGE_SIZE } from "./limits.js"

type Ports = FormRepository | TenantRepository | IdGen | Principal | BlobStore
/** What every write can end with besides its own rule's failure. */
type WriteError = FormNotFound | TenantNotFound | FormChangedConcurrently | SlugInUse | StorageError

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const currentCapabilities: Effect.Effect<
  Capabilities,
  StorageError | TenantNotFound,
  TenantRepository | Principal
> = Effect.gen(function* () {
  const principal = yield* Principal
  const workspace = yield* Effect.flatMap(Effect.service(TenantRepository), (r) => r.get(principal.tenant))
  if (Option.isNone(workspace)) return yield* new TenantNotFound()
  const mailer = yield* Mailer
  return evaluateCapabilities(workspace.value.features, principal.scopes, { email: mailer !== null })
})

/**
 * What a client should be told beside a successful write of `form`: a notification is on but this
 * server cannot send mail.
 */
export const writeWarnings = (form: FormRecord) =>
  Effect.gen(function* () {
    const documents = yield* StoredFormDocumentReader
    return notificationWarnings(documents.settings(form.settings), (yield* Mailer) !== null)
  })

/** A live form of the caller's workspace, or not_found (another workspace's id reads as absent). */
export const loadForm = (
  id: string
): Effect.Effect<FormRecord, FormNotFound | StorageError, FormRepository | Principal> =>
  // Every keyed read starts here, so it is written as plain combinators (no generator per call).
  Effect.flatMap(Effect.zip(Effect.service(Principal), FormRepository), ([principal, repo]) =>
    Effect.flatMap(repo.get(principal.tenant, id), (form) =>
      Option.isSome(form) ? Effect.succeed(form.value) : Effect.fail(new FormNotFound())
    )
  )

const randomSlug = Effect.map(
  Effect.flatMap(Effect.service(IdGen), (ids) => ids.randomBytes(8)),
  (bytes) => `f-${Array.from(bytes, (b) => (b % 36).toString(36)).join("")}`
)

/**
 * Applies `transition` to the current form and saves it; on a lost race (StaleForm) re-reads and
 * tries again, a few times, before giving up with FormChangedConcurrently.
 */
const writeForm = <E, R = IdGen>(
  id: string,
  transition: (
    form: FormRecord,
    caps: Capabilities,
    at: Date
  ) => Effect.Effect<{ readonly form: FormRecord; readonly version?: FormVersionRecord }, E, R>
): Effect.Effect<FormRecord, E | WriteError, Ports | R> =>
  Effect.gen(function* () {
    const repo = yield* FormRepository
    const caps = yield* currentCapabilities
    return yield* retryOnStale(
      WRITE_ATTEMPTS,
      () =>
        Effect.gen(function* () {
          const current = yield* loadForm(id)
          const { form, version } = yield* transition(current, caps, yield* now)
          if (form === current && version === undefined) return Option.some(current)
          return yield* repo.save(form, version).pipe(
            Effect.as(Option.some(form)),
            Effect.catchIf(
              (e): e is StaleForm => e instanceof StaleForm,
              () => Effect.succeed(Option.none())
            ),
            Effect.catchIf(
              (e): e is SlugTaken => e instanceof SlugTaken,
              (e) => Effect.fail(new SlugInUse({ slug: e.slug }))
            )
          )
        }),
      () => new FormChangedConcurrently()
    )
  })

/** Tries of one write that keeps losing races (a changed row, a taken random slug). */
const WRITE_ATTEMPTS = 5

/**
 * Image ownership (forms-api.md, duplicate): every image key of the written part must name an
 * uploaded asset of the form's workspace. On a PATCH, keys the form already held were checked when
 * they were stored and skip the storage lookup (their shape is still checked).
 */
const checkImages = (
  keysOf: (form: FormRecord) => ReadonlyArray<ImageKeyRef>,
  next: FormRecord,
  previous?: FormRecord
) =>
  checkImageOwnership(
    next.workspaceId,
    keysOf(next),
    new Set(previous === undefined ? [] : keysOf(previous).map((r) => r.key))
  )
const definitionKeys = (form: FormRecord) => definitionImageKeys(form.draftDefinition)
const settingsKeys = (form: FormRecord) => settingsImageKeys(form.settings)
const allImageKeys = (form: FormRecord) => [...definitionKeys(form), ...settingsKeys(form)]

/** A page of the workspace's forms; `limit` defaults to the spec's page size. */
export const listForms = (query: Omit<FormListQuery, "limit"> & { readonly limit?: number | undefined }) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const page = { ...query, limit: query.limit ?? PAGE_SIZE.forms }
    return yield* Effect.flatMap(Effect.service(FormRepository), (r) => r.list(principal.tenant, page)).pipe(
      Effect.catchTag("InvalidCursor", () => Effect.fail(new InvalidListCursor()))
    )
  })

/**
 * Inserts a new form built for a random slug, drawing another slug when one is taken (a few times).
 * Its image keys are checked in full on the first try: only the slug changes between tries. For a
 * duplicate that re-applies the check, since the source may hold keys stored before it existed.
 */
const insertWithRandomSlug = <E>(
  build: (slug: string, at: Date) => Result.Result<FormRecord, E>
): Effect.Effect<FormRecord, E | ImageKeysNotOwned | SlugAllocationFailed | StorageError, Ports> =>
  Effect.flatMap(Effect.service(FormRepository), (repo) =>
    retryOnStale(
      WRITE_ATTEMPTS,
      (attempt) =>
        Effect.gen(function* () {
          const record = yield* Effect.fromResult(build(yield* randomSlug, yield* now))
          if (attempt === 0) yield* checkImages(allImageKeys, record)
          return yield* repo.insert(record).pipe(
            Effect.as(Option.some(record)),
            Effect.catchIf(
              (e): e is SlugTaken => e instanceof SlugTaken,
              () => Effect.succeed(Option.none())
            )
          )
        }),
      () => new SlugAllocationFailed()
    )
  )

export const createFormUseCase = (input: {
  readonly kind: FormKind
  readonly title: string
  readonly definition?: unknown
  readonly settings?: unknown
}) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const caps = yield* currentCapabilities
    const decode = yield* FormDefinitionDecoder
    const id = yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuidV7)
    return yield* insertWithRandomSlug((slug, at) =>
      rules.createForm(
        {
          id,
          workspaceId: principal.tenant,
          slug,
          kind: input.kind,
          title: input.title,
          ...(input.definition === undefined ? {} : { definition: input.definition }),
          ...(input.settings === undefined ? {} : { settings: input.settings })
        },
        caps,
        at,
        decode
      )
    )
  })

export const duplicateFormUseCase = (sourceId: string) =>
  Effect.gen(function* () {
    const source = yield* loadForm(sourceId)
    const caps = yield* currentCapabilities
    const id = yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuidV7)
    return yield* insertWithRandomSlug((slug, at) => rules.duplicateForm(source, { id, slug }, caps, at))
  })

export const patchDefinition = (
  id: string,
  input: { readonly definition: unknown; readonly expectedDraftRevision: number }
) =>
  Effect.flatMap(Effect.service(FormDefinitionDecoder), (decode) =>
    writeForm(id, (form, caps, at) =>
      Effect.flatMap(Effect.fromResult(rules.replaceDefinition(form, input, caps, at, decode)), (next) =>
        Effect.as(checkImages(definitionKeys, next, form), { form: next })
      )
    )
  )

export const patchSettings = (
  id: string,
  input: { readonly settings: unknown; readonly expectedSettingsSignature: string }
) =>
  writeForm(id, (form, caps, at) =>
    Effect.flatMap(Effect.fromResult(rules.replaceSettings(form, input, caps, at)), (next) =>
      Effect.as(checkImages(settingsKeys, next, form), { form: next })
    )
  )

/** Over MCP a custom script is never edited: one in the input is refused (value-free issue). */
const customScriptRefused = (settings: unknown) =>
  typeof settings === "object" && settings !== null && "customScript" in settings
    ? Effect.fail(new CustomScriptNotOverMcp())
    : Effect.void

/**
 * Settings replacement for MCP: the input may not carry `customScript`, and the stored one (if any)
 * is kept, so an agent can neither read-modify-write it nor erase it by omission.
 */
export const patchSettingsKeepingCustomScript = (
  id: string,
  input: { readonly settings: unknown; readonly expectedSettingsSignature: string }
) =>
  Effect.gen(function* () {
    yield* customScriptRefused(input.settings)
    const form = yield* loadForm(id)
    const stored = (yield* StoredFormDocumentReader).settings(form.settings)?.customScript
    const settings =
      stored === undefined || typeof input.settings !== "object" || input.settings === null
        ? input.settings
        : { ...input.settings, customScript: stored }
    return yield* patchSettings(id, { settings, expectedSettingsSignature: input.expectedSettingsSignature })
  })

/** Form creation for MCP: the same gates as REST, without a custom script. */
export const createFormWithoutCustomScript = (input: Parameters<typeof createFormUseCase>[0]) =>
  Effect.andThen(customScriptRefused(input.settings), createFormUseCase(input))

export const setFormSlug = (id: string, slug: string) =>
  writeForm(id, (form, _caps, at) =>
    Effect.map(Effect.fromResult(rules.setSlug(form, slug, at)), (next) => ({ form: next }))
  )

export const publishForm = (id: string, input: { readonly expectedDraftRevision: number }) =>
  writeForm(id, (form, _caps, at) =>
    Effect.gen(function* () {
      const versionId = yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuidV7)
      return yield* Effect.fromResult(rules.publish(form, input, { now: at, versionId }))
    })
  )

export const unpublishForm = (id: string, input: { readonly expectedDraftRevision: number }) =>
  writeForm(id, (form, _caps, at) =>
    Effect.map(Effect.fromResult(rules.unpublish(form, input, at)), (next) => ({ form: next }))
  )

/** Converges publication state (MCP forms_publication): no new version when already there. */
export const convergePublication = (
  id: string,
  input: { readonly expectedDraftRevision: number; readonly desiredState: FormStatus }
) =>
  Effect.gen(function* () {
    const form = yield* loadForm(id)
    if (input.desiredState === "draft") return yield* unpublishForm(id, input)
    if (
      form.status === "published" &&
      form.draftRevision === input.expectedDraftRevision &&
      form.currentVersionId !== null
    ) {
      const repo = yield* FormRepository
      const current = yield* repo.getVersion(form.workspaceId, form.id, form.currentVersionId)
      if (
        Option.isSome(current) &&
        JSON.stringify(current.value.definition) === JSON.stringify(form.draftDefinition)
      ) {
        return form
      }
    }
    return yield* publishForm(id, input)
  })

export const deleteForm = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const at = yield* now
    const deleted = yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.softDelete(principal.tenant, id, at)
    )
    if (!deleted) return yield* new FormNotFound()
  })

export const listVersions = (
  id: string,
  query: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
): Effect.Effect<
  Page<Omit<FormVersionRecord, "definition">>,
  FormNotFound | InvalidListCursor | StorageError,
  FormRepository | Principal
> =>
  Effect.gen(function* () {
    const form = yield* loadForm(id)
    return yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.listVersions(form.workspaceId, form.id, { ...query, limit: query.limit ?? PAGE_SIZE.versions })
    ).pipe(
      Effect.catchIf(
        (e): e is InvalidCursor =>
          typeof e === "object" && e !== null && "_tag" in e && e._tag === "InvalidCursor",
        () => Effect.fail(new InvalidListCursor())
      )
    )
  })

export const getVersion = (id: string, versionId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(id)
    const version = yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.getVersion(form.workspaceId, form.id, versionId)
    )
    return yield* Option.match(version, {
      onNone: () => Effect.fail(new VersionNotFound()),
      onSome: Effect.succeed
    })
  })

/** Stores one authoring image and returns its object key. */
export const uploadAsset = (id: string, bytes: Uint8Array) =>
  Effect.gen(function* () {
    const form = yield* loadForm(id)
    if (bytes.byteLength > MAX_ASSET_BYTES) {
      return yield* new ImageTooLarge({ maxBytes: MAX_ASSET_BYTES })
    }
    const image = sniffImage(bytes)
    if (image === undefined) {
      return yield* new NotAnImage()
    }
    const assetId = yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuid)
    const key = assetKey(form.workspaceId, form.id, assetId, image.ext)
    yield* Effect.flatMap(Effect.service(BlobStore), (blobs) =>
      blobs.put(key, { bytes, contentType: image.mime })
    )
    return { key, contentType: image.mime, size: bytes.byteLength }
  })
