// FormRepository over SQL: drafts with an optimistic row lock, versions inserted in the same
// transaction as the form update that publishes them, keyset lists.
import { SqlClient, type SqlError } from "effect/sql"
import {
  FormRepository,
  type FormRecord,
  type FormVersionRecord,
  type FormVersionSummaryRecord,
  SlugTaken,
  StaleForm
} from "@folio/domain"
import { Effect, Option } from "effect"
import { isUniqueViolation, orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"
import { likeContains, numberCursor, timeIdCursor, toPage } from "../keyset.js"
import { ReadCache, SoleWriter } from "./read-cache.js"

interface FormRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: FormRecord["kind"]
  readonly title: string
  readonly slug: string
  readonly status: FormRecord["status"]
  readonly draft_revision: number
  readonly draft_definition: unknown
  readonly settings: unknown
  readonly settings_signature: string | null
  readonly current_version_id: string | null
  readonly version_count: number
  readonly row_version: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface VersionRow {
  readonly id: string
  readonly form_id: string
  readonly workspace_id: string
  readonly kind: FormRecord["kind"]
  readonly version: number
  readonly definition?: unknown
  readonly published_at: Date
}

interface SummaryRow {
  readonly id: string
  readonly title: string
  readonly slug: string
  readonly status: FormRecord["status"]
  readonly kind: FormRecord["kind"]
  readonly updated_at: Date
  readonly response_count: number
}

const toForm = (row: FormRow): FormRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  title: row.title,
  slug: row.slug,
  status: row.status,
  draftRevision: row.draft_revision,
  draftDefinition: row.draft_definition,
  settings: row.settings,
  settingsSignature: row.settings_signature,
  currentVersionId: row.current_version_id,
  versionCount: row.version_count,
  rowVersion: row.row_version,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const toVersionSummary = (row: VersionRow): FormVersionSummaryRecord => ({
  id: row.id,
  formId: row.form_id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  version: row.version,
  publishedAt: row.published_at
})

const toVersion = (row: VersionRow): FormVersionRecord => ({
  ...toVersionSummary(row),
  definition: row.definition
})

const FORM_COLUMNS = `id, workspace_id, kind, title, slug, status, draft_revision, draft_definition, settings,
  settings_signature, current_version_id, version_count, row_version, created_at, updated_at`

/** What the embedded database's form reads may keep: 16 MB of definitions and settings (as JSON). */
const CACHE_BUDGET_BYTES = 16 * 1024 * 1024

const sizeOfForm = (form: FormRecord) =>
  JSON.stringify(form.draftDefinition).length + JSON.stringify(form.settings).length + 512

export const makeFormRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(FORM_COLUMNS)
  // A read of a live form by id, kept when this process alone writes the database (read-cache.ts):
  // every write below drops its form (before it, and again once its transaction commits), and a
  // read inside a transaction neither uses nor fills the cache, since it may see its own writes.
  const cache = (yield* SoleWriter) ? new ReadCache<FormRecord>(CACHE_BUDGET_BYTES, sizeOfForm) : undefined
  const keyOf = (workspaceId: string, id: string) => `${workspaceId}/${id}`
  /**
   * A write of one form, its cached read dropped before it (so a read already under way is not
   * kept) and again once it is committed (at once outside a transaction, else when the outermost
   * one commits), so a read that was answered before the write cannot be kept past it.
   */
  const writing = <A, E, R>(workspaceId: string, id: string, write: Effect.Effect<A, E, R>) => {
    if (cache === undefined) return write
    const key = keyOf(workspaceId, id)
    const drop = Effect.sync(() => cache.drop(key))
    return drop.pipe(Effect.andThen(write), Effect.ensuring(sql.afterCommit(drop)))
  }
  const readForm = (workspaceId: string, id: string) =>
    orStorageError(
      sql<FormRow>`select ${columns} from forms
                   where id = ${id} and workspace_id = ${workspaceId} and deleted_at is null`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toForm))
      )
    )

  const slugTaken =
    (slug: string) =>
    (e: SqlError.SqlError): Effect.Effect<never, SlugTaken | SqlError.SqlError> =>
      isUniqueViolation(e, "forms_slug_live") ? Effect.fail(new SlugTaken(slug)) : Effect.fail(e)

  return FormRepository.of({
    insert: (f) =>
      orStorageError(
        writing(
          f.workspaceId,
          f.id,
          sql`insert into forms (${columns})
            values (${f.id}, ${f.workspaceId}, ${f.kind}, ${f.title}, ${f.slug}, ${f.status}, ${f.draftRevision},
                    ${jsonParam(f.draftDefinition)}::jsonb, ${jsonParam(f.settings)}::jsonb, ${f.settingsSignature},
                    ${f.currentVersionId}, ${f.versionCount}, ${f.rowVersion}, ${f.createdAt}, ${f.updatedAt})`.pipe(
            Effect.asVoid,
            Effect.catchTag("SqlError", slugTaken(f.slug))
          )
        )
      ),

    get: (workspaceId, id) =>
      cache === undefined
        ? readForm(workspaceId, id)
        : Effect.flatMap(Effect.serviceOption(sql.transactionService), (transaction) => {
            if (Option.isSome(transaction)) return readForm(workspaceId, id)
            const key = keyOf(workspaceId, id)
            const held = cache.get(key)
            if (held !== undefined) return Effect.succeed(Option.some(held))
            const generation = cache.generation
            return Effect.map(readForm(workspaceId, id), (form) => {
              if (Option.isSome(form)) cache.put(key, form.value, generation)
              return form
            })
          }),

    getBySlug: (slug) =>
      orStorageError(
        sql<FormRow>`select ${columns} from forms where slug = ${slug} and deleted_at is null`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toForm))
        )
      ),

    list: (workspaceId, query) =>
      orStorageError(
        Effect.gen(function* () {
          const after = yield* timeIdCursor.decode(query.cursor)
          const filters = [
            sql`f.workspace_id = ${workspaceId}`,
            sql`f.deleted_at is null`,
            ...(query.kind === undefined ? [] : [sql`f.kind = ${query.kind}`]),
            ...(query.status === undefined ? [] : [sql`f.status = ${query.status}`]),
            ...(query.search === undefined || query.search === ""
              ? []
              : [
                  sql`(f.title ilike ${likeContains(query.search)} escape '\\'
                       or f.slug ilike ${likeContains(query.search)} escape '\\')`
                ]),
            ...(after === undefined
              ? []
              : [sql`(f.updated_at, f.id) < (${after.at}::timestamptz, ${after.id}::uuid)`])
          ]
          const rows = yield* sql<SummaryRow>`
            select f.id, f.title, f.slug, f.status, f.kind, f.updated_at,
                   (select count(*)::int from responses r
                     where r.form_id = f.id and r.status = 'completed') as response_count
            from forms f
            where ${sql.and(filters)}
            order by f.updated_at desc, f.id desc
            limit ${query.limit + 1}`
          return toPage(
            rows,
            query.limit,
            (row) => ({
              id: row.id,
              title: row.title,
              slug: row.slug,
              status: row.status,
              kind: row.kind,
              updatedAt: row.updated_at,
              responseCount: row.response_count
            }),
            (row) => timeIdCursor.encode(row.updated_at, row.id)
          )
        })
      ),

    save: (f, publish) =>
      orStorageError(
        sql.withTransaction(
          writing(
            f.workspaceId,
            f.id,
            Effect.gen(function* () {
              if (publish !== undefined) {
                yield* sql`insert into form_versions (id, form_id, workspace_id, kind, version, definition, published_at)
                  values (${publish.id}, ${publish.formId}, ${publish.workspaceId}, ${publish.kind}, ${publish.version},
                          ${jsonParam(publish.definition)}::jsonb, ${publish.publishedAt})`.pipe(
                  // Another publish took this version number first: the caller's view is stale.
                  Effect.catchTag(
                    "SqlError",
                    (e): Effect.Effect<never, StaleForm | SqlError.SqlError> =>
                      isUniqueViolation(e, "form_versions_form_id_version_key")
                        ? Effect.fail(new StaleForm())
                        : Effect.fail(e)
                  )
                )
              }
              const updated = yield* sql`
                update forms set
                  kind = ${f.kind}, title = ${f.title}, slug = ${f.slug}, status = ${f.status},
                  draft_revision = ${f.draftRevision}, draft_definition = ${jsonParam(f.draftDefinition)}::jsonb,
                  settings = ${jsonParam(f.settings)}::jsonb, settings_signature = ${f.settingsSignature},
                  current_version_id = ${f.currentVersionId}, version_count = ${f.versionCount},
                  row_version = ${f.rowVersion}, updated_at = ${f.updatedAt}
                where id = ${f.id} and workspace_id = ${f.workspaceId} and deleted_at is null
                  and row_version = ${f.rowVersion - 1}
                returning id`.pipe(Effect.catchTag("SqlError", slugTaken(f.slug)))
              if (updated.length === 0) return yield* Effect.fail(new StaleForm())
            })
          )
        )
      ),

    softDelete: (workspaceId, id, at) =>
      orStorageError(
        writing(
          workspaceId,
          id,
          sql`update forms set deleted_at = ${at}, row_version = row_version + 1
              where id = ${id} and workspace_id = ${workspaceId} and deleted_at is null returning id`.pipe(
            Effect.map((rows) => rows.length > 0)
          )
        )
      ),

    getVersion: (workspaceId, formId, versionId) =>
      orStorageError(
        sql<VersionRow>`
          select v.* from form_versions v join forms f on f.id = v.form_id
          where v.id = ${versionId} and v.form_id = ${formId} and v.workspace_id = ${workspaceId}
            and f.deleted_at is null`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toVersion))
        )
      ),

    listVersions: (workspaceId, formId, query) =>
      orStorageError(
        Effect.gen(function* () {
          const after = yield* numberCursor.decode(query.cursor)
          const rows = yield* sql<VersionRow>`
            select v.id, v.form_id, v.workspace_id, v.kind, v.version, v.published_at
            from form_versions v join forms f on f.id = v.form_id
            where v.form_id = ${formId} and v.workspace_id = ${workspaceId} and f.deleted_at is null
              ${after === undefined ? sql`` : sql`and v.version < ${after}`}
            order by v.version desc
            limit ${query.limit + 1}`
          return toPage(rows, query.limit, toVersionSummary, (row) => numberCursor.encode(row.version))
        })
      ),

    withResearchCompliance: () =>
      orStorageError(
        sql<FormRow>`select ${columns} from forms
                     where deleted_at is null and jsonb_typeof(settings) = 'object'
                       and settings ? 'researchCompliance'
                     order by id`.pipe(Effect.map((rows) => rows.map(toForm)))
      )
  })
})
