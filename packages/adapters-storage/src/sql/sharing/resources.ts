// ResourceRepository over SQL: live slugs unique across tenants (a partial unique index), updates
// guarded by the row version, Markdown versions saved and trimmed in the transaction of the write
// that replaces the source, and lists in six orders with keyset cursors or offsets.
import {
  MARKDOWN_VERSIONS_KEPT,
  type MarkdownVersionRecord,
  type MarkdownVersionSummary,
  type NewMarkdownVersion,
  type ResourceListItem,
  type ResourceRecord,
  isResourceOf,
  makeResourceRecord,
  ResourceRepository,
  ResourceSlugTaken,
  type ResourceTyped,
  type RestoreOutcome,
  titleSortKey,
  isUuid
} from "@folio/domain"
import { Effect, Option } from "effect"
import { type SqlError, SqlClient } from "effect/sql"
import { isUniqueViolation, orStorageError } from "../errors.js"
import { insertJob } from "../kernel/jobs.js"
import { storageUsage } from "./storage-usage.js"
import { insertSharingEvent, resourceEvent } from "./sharing-events.js"
import { jsonParam } from "../json.js"
import { likeContains, toPage } from "../keyset.js"
import { resourceCursor, SORTS, sortKeyOf } from "./resource-cursor.js"

/** The columns every row has; `type` and `data` come with them as a pair (ResourceRow). */
interface ResourceColumns {
  readonly id: string
  readonly tenant_id: string
  readonly slug: string
  readonly title: string | null
  readonly title_key: string
  readonly description: string | null
  readonly visibility: ResourceRecord["visibility"]
  readonly password_hash: string | null
  readonly starts_at: Date | null
  readonly expires_at: Date | null
  readonly labels: ReadonlyArray<string>
  readonly max_views: number | null
  readonly archived: boolean
  readonly pinned: boolean
  /** bigint: the driver may answer a string. */
  readonly view_count: number | string
  /** bigint: the driver may answer a string. */
  readonly stored_bytes: number | string
  readonly row_version: number
  readonly created_at: Date
  readonly updated_at: Date
}

// Rows are written only through this repository from typed records, so a row's data is its type's.
type ResourceRow = ResourceColumns & ResourceTyped

interface VersionRow {
  readonly id: string
  readonly resource_id: string
  readonly number: number
  readonly size: number
  readonly body?: string
  readonly created_at: Date
}

const toRecord = (row: ResourceRow): ResourceRecord =>
  makeResourceRecord(
    {
      id: row.id,
      tenantId: row.tenant_id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      visibility: row.visibility,
      passwordHash: row.password_hash,
      startsAt: row.starts_at,
      expiresAt: row.expires_at,
      labels: row.labels,
      maxViews: row.max_views,
      archived: row.archived,
      pinned: row.pinned,
      viewCount: Number(row.view_count),
      storedBytes: Number(row.stored_bytes),
      rowVersion: row.row_version,
      createdAt: row.created_at,
      updatedAt: row.updated_at
    },
    row
  )

const toVersionSummary = (row: VersionRow): MarkdownVersionSummary => ({
  id: row.id,
  resourceId: row.resource_id,
  number: row.number,
  size: row.size,
  createdAt: row.created_at
})

const COLUMNS = `id, tenant_id, type, slug, title, title_key, description, visibility, password_hash, starts_at,
  expires_at, labels, max_views, archived, pinned, view_count, stored_bytes, data, row_version, created_at,
  updated_at`

// Lists leave out a Markdown page's body.
const LIST_COLUMNS = COLUMNS.replace(
  "data,",
  "case when type = 'markdown' then data - 'body' else data end as data,"
)

export const makeResourceRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(COLUMNS)
  const listColumns = sql.literal(LIST_COLUMNS)

  const slugTaken =
    (slug: string) =>
    (e: SqlError.SqlError): Effect.Effect<never, ResourceSlugTaken | SqlError.SqlError> =>
      isUniqueViolation(e, "resources_slug_live") ? Effect.fail(new ResourceSlugTaken(slug)) : Effect.fail(e)

  const outcome = (o: RestoreOutcome): RestoreOutcome => o

  const one = (rows: ReadonlyArray<ResourceRow>) => Option.map(Option.fromNullishOr(rows[0]), toRecord)

  /** Saves `version` as the page's next numbered version and trims to the newest kept. */
  const saveVersion = (tenantId: string, resourceId: string, version: NewMarkdownVersion) =>
    Effect.gen(function* () {
      const [saved] = yield* sql<VersionRow>`
        insert into markdown_versions (id, resource_id, tenant_id, number, body, created_at)
        select ${version.id}, ${resourceId}, ${tenantId}, coalesce(max(number), 0) + 1, ${version.body},
               ${version.createdAt}
        from markdown_versions where resource_id = ${resourceId}
        returning id, resource_id, number, octet_length(body) as size, created_at`
      if (saved === undefined) return yield* Effect.die(new Error("markdown version insert returned no row"))
      yield* sql`delete from markdown_versions
                 where resource_id = ${resourceId} and number <= ${saved.number - MARKDOWN_VERSIONS_KEPT}`
      return toVersionSummary(saved)
    })

  const { moveStoredBytes, releaseStoredBytes } = storageUsage(sql)

  return ResourceRepository.of({
    insert: (r, options) =>
      orStorageError(
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`insert into resources (${columns})
                values (${r.id}, ${r.tenantId}, ${r.type}, ${r.slug}, ${r.title}, ${titleSortKey(r.title)},
                        ${r.description}, ${r.visibility}, ${r.passwordHash}, ${r.startsAt}, ${r.expiresAt},
                        ${jsonParam(r.labels)}::jsonb, ${r.maxViews}, ${r.archived}, ${r.pinned}, ${r.viewCount},
                        ${r.storedBytes}, ${jsonParam(r.data)}::jsonb, ${r.rowVersion}, ${r.createdAt},
                        ${r.updatedAt})`.pipe(Effect.catchTag("SqlError", slugTaken(r.slug)))
              yield* moveStoredBytes(r.tenantId, r.storedBytes, options?.quotaBytes)
              yield* insertSharingEvent(sql, resourceEvent("resource.created", r, r.createdAt))
              // A new resource's job cannot meet an active one: its key names the new id.
              if (options?.enqueue !== undefined)
                yield* insertJob(sql, options.enqueue).pipe(Effect.catchTag("JobAlreadyActive", Effect.die))
            })
          )
          .pipe(Effect.asVoid)
      ),

    get: (tenantId, id) =>
      orStorageError(
        sql<ResourceRow>`select ${columns} from resources
                         where id = ${id} and tenant_id = ${tenantId} and deleted_at is null`.pipe(
          Effect.map(one)
        )
      ),

    getBySlug: (tenantId, slug) =>
      orStorageError(
        sql<ResourceRow>`select ${columns} from resources
                         where slug = ${slug} and tenant_id = ${tenantId} and deleted_at is null`.pipe(
          Effect.map(one)
        )
      ),

    getBySlugAnyTenant: (slug) =>
      orStorageError(
        sql<ResourceRow>`select ${columns} from resources where slug = ${slug} and deleted_at is null`.pipe(
          Effect.map(one)
        )
      ),

    existsAnyTenant: (id) =>
      isUuid(id)
        ? orStorageError(
            sql`select 1 from resources where id = ${id} and deleted_at is null`.pipe(
              Effect.map((rows) => rows.length > 0)
            )
          )
        : Effect.succeed(false),

    update: (tenantId, r, options) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            // The update takes the row lock first: a racing write waits here, then finds the row
            // version moved and writes nothing (nor any version).
            // `old` reads the row as it was before this statement, so the difference in stored bytes
            // is the one this update makes.
            const updated = yield* sql<{ readonly old_stored_bytes: number | string }>`
              with old as (
                select id, stored_bytes from resources
                where id = ${r.id} and tenant_id = ${tenantId} and type = ${r.type} and deleted_at is null
                  and row_version = ${r.rowVersion - 1}
                for update
              )
              update resources set
                slug = ${r.slug}, title = ${r.title}, title_key = ${titleSortKey(r.title)},
                description = ${r.description}, password_hash = ${r.passwordHash}, starts_at = ${r.startsAt},
                expires_at = ${r.expiresAt}, labels = ${jsonParam(r.labels)}::jsonb, max_views = ${r.maxViews},
                archived = ${r.archived}, pinned = ${r.pinned}, data = ${jsonParam(r.data)}::jsonb,
                stored_bytes = ${r.storedBytes}, row_version = ${r.rowVersion}, updated_at = ${r.updatedAt},
                expiry_announced_at = case when resources.expires_at is distinct from ${r.expiresAt}::timestamptz
                                           then null else resources.expiry_announced_at end
              from old where resources.id = old.id
              returning old.stored_bytes as old_stored_bytes`.pipe(
              Effect.catchTag("SqlError", slugTaken(r.slug))
            )
            const [before] = updated
            if (before === undefined) return "stale" as const
            yield* moveStoredBytes(
              tenantId,
              r.storedBytes - Number(before.old_stored_bytes),
              options?.quotaBytes
            )
            if (options?.saveVersion !== undefined && r.type === "markdown") {
              yield* saveVersion(tenantId, r.id, options.saveVersion)
            }
            yield* insertSharingEvent(sql, resourceEvent("resource.updated", r, r.updatedAt))
            return "updated" as const
          })
        )
      ),

    addViews: (counts, clicks = []) => {
      const rows = [...counts]
        .filter(([id, n]) => n > 0 && isUuid(id))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([id, n]) => ({ id, n }))
      if (rows.length === 0 && clicks.length === 0) return Effect.void
      // Rows are locked in id order first, so two instances flushing at once cannot deadlock.
      const views =
        rows.length === 0
          ? Effect.void
          : sql`with x as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid, n bigint)),
                     locked as (select r.id from resources r join x on x.id = r.id
                                where r.deleted_at is null order by r.id for update of r)
                update resources r set view_count = r.view_count + x.n
                from x join locked on locked.id = x.id where r.id = x.id`.pipe(Effect.asVoid)
      // The clicks' events go with the counts they belong to: both land, or neither.
      return orStorageError(
        clicks.length === 0
          ? views
          : sql.withTransaction(
              Effect.andThen(
                views,
                Effect.forEach(clicks, (e) => insertSharingEvent(sql, e), { discard: true })
              )
            )
      )
    },

    softDelete: (tenantId, id, at) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const [deleted] = yield* sql<{
              readonly stored_bytes: number | string
              readonly slug: string
              readonly type: string
              readonly title: string | null
            }>`
              update resources set deleted_at = ${at}, row_version = row_version + 1
              where id = ${id} and tenant_id = ${tenantId} and deleted_at is null
              returning stored_bytes, slug, type, title`
            if (deleted === undefined) return false
            yield* releaseStoredBytes(tenantId, Number(deleted.stored_bytes))
            yield* insertSharingEvent(
              sql,
              resourceEvent("resource.deleted", { id, tenantId, ...deleted }, at)
            )
            return true
          })
        )
      ),

    storageUsed: (tenantId) =>
      orStorageError(
        sql<{ readonly used_bytes: number | string }>`
          select used_bytes from storage_usage where tenant_id = ${tenantId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.used_bytes ?? 0))
        )
      ),

    list: (tenantId, query) =>
      orStorageError(
        Effect.gen(function* () {
          const sort = query.sort ?? "created_desc"
          const spec = SORTS[sort]
          const after = yield* resourceCursor.decode(sort, query.cursor)
          const key = sql.literal(spec.key)
          const direction = sql.literal(spec.descending ? "desc" : "asc")
          const position =
            after === undefined
              ? []
              : spec.key === "title_key"
                ? [
                    spec.descending
                      ? sql`(title_key, id) < (${after.key}, ${after.id}::uuid)`
                      : sql`(title_key, id) > (${after.key}, ${after.id}::uuid)`
                  ]
                : [
                    spec.descending
                      ? sql`(${key}, id) < (${after.key}::timestamptz, ${after.id}::uuid)`
                      : sql`(${key}, id) > (${after.key}::timestamptz, ${after.id}::uuid)`
                  ]
          const q = query.q === undefined || query.q === "" ? undefined : likeContains(query.q)
          const filters = [
            sql`tenant_id = ${tenantId}`,
            sql`deleted_at is null`,
            ...(query.type === undefined ? [] : [sql`type = ${query.type}`]),
            ...(query.archived === undefined ? [] : [sql`archived = ${query.archived}`]),
            ...(query.pinned === undefined ? [] : [sql`pinned = ${query.pinned}`]),
            ...(query.label === undefined ? [] : [sql`labels @> ${jsonParam([query.label])}::jsonb`]),
            ...(query.uploadRequest === undefined
              ? []
              : isUuid(query.uploadRequest)
                ? [
                    sql`id in (select (jsonb_array_elements_text(file_resource_ids))::uuid from upload_submissions
                               where request_id = ${query.uploadRequest} and tenant_id = ${tenantId})`
                  ]
                : [sql`false`]),
            ...(q === undefined
              ? []
              : [
                  sql`(title ilike ${q} escape '\\' or slug ilike ${q} escape '\\'
                       or description ilike ${q} escape '\\')`
                ]),
            ...position
          ]
          const rows = yield* sql<ResourceRow>`
            select ${listColumns} from resources
            where ${sql.and(filters)}
            order by ${key} ${direction}, id ${direction}
            limit ${query.limit + 1} offset ${query.offset ?? 0}`
          return toPage(
            rows.map((row) => toRecord(row) as ResourceListItem),
            query.limit,
            (item) => item,
            (last) => resourceCursor.encode(sort, sortKeyOf(sort, last), last.id)
          )
        })
      ),

    listMarkdownVersions: (tenantId, resourceId) =>
      orStorageError(
        sql<VersionRow>`
          select v.id, v.resource_id, v.number, octet_length(v.body) as size, v.created_at
          from markdown_versions v join resources r on r.id = v.resource_id
          where v.resource_id = ${resourceId} and r.tenant_id = ${tenantId} and r.deleted_at is null
          order by v.number desc`.pipe(Effect.map((rows) => rows.map(toVersionSummary)))
      ),

    getMarkdownVersion: (tenantId, resourceId, versionId) =>
      orStorageError(
        sql<VersionRow>`
          select v.id, v.resource_id, v.number, octet_length(v.body) as size, v.body, v.created_at
          from markdown_versions v join resources r on r.id = v.resource_id
          where v.id = ${versionId} and v.resource_id = ${resourceId} and r.tenant_id = ${tenantId}
            and r.deleted_at is null`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullishOr(rows[0]),
              (row): MarkdownVersionRecord => ({ ...toVersionSummary(row), body: row.body ?? "" })
            )
          )
        )
      ),

    restoreMarkdownVersion: (tenantId, resourceId, versionId, saveAs) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const [page] = yield* sql<{ readonly body: string; readonly row_version: number }>`
              select data ->> 'body' as body, row_version from resources
              where id = ${resourceId} and tenant_id = ${tenantId} and type = 'markdown' and deleted_at is null
              for update`
            if (page === undefined) return outcome({ _tag: "ResourceNotFound" })
            if (saveAs.expectedRowVersion !== undefined && page.row_version !== saveAs.expectedRowVersion) {
              return outcome({ _tag: "Stale" })
            }
            const [chosen] = yield* sql<{ readonly body: string }>`
              select body from markdown_versions where id = ${versionId} and resource_id = ${resourceId}`
            if (chosen === undefined) return outcome({ _tag: "VersionNotFound" })
            const saved = yield* saveVersion(tenantId, resourceId, {
              id: saveAs.id,
              body: page.body,
              createdAt: saveAs.createdAt
            })
            const [row] = yield* sql<ResourceRow>`
              update resources set data = jsonb_set(data, '{body}', to_jsonb(${chosen.body}::text)),
                row_version = row_version + 1, updated_at = ${saveAs.createdAt}
              where id = ${resourceId}
              returning ${columns}`
            if (row === undefined) return yield* Effect.die(new Error("locked resource vanished"))
            const resource = toRecord(row)
            if (!isResourceOf(resource, "markdown"))
              return yield* Effect.die(new Error("locked resource is not a Markdown page"))
            return outcome({
              _tag: "Restored",
              resource,
              saved
            })
          })
        )
      )
  })
})
