// NotionMirrors over SQL: a refresh's pages and assets replace the cached ones in one transaction
// that also sets the resource's stored bytes and moves the account's usage under its quota.
import {
  type NotionAssetRecord,
  type NotionBlock,
  NotionMirrors,
  type NotionMirrorState,
  type NotionPageRecord,
  isUuid
} from "@folio/domain"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"
import { storageUsage } from "./storage-usage.js"

interface PageRow {
  readonly resource_id: string
  readonly tenant_id: string
  readonly page_id: string
  readonly parent_page_id: string | null
  readonly position: number
  readonly depth: number
  readonly title: string
  readonly icon: string | null
  readonly blocks: ReadonlyArray<NotionBlock>
  readonly notion_edited_at: Date | null
  readonly refreshed_at: Date
}

interface AssetRow {
  readonly id: string
  readonly resource_id: string
  readonly tenant_id: string
  readonly page_id: string
  readonly block_id: string
  readonly blob_key: string
  readonly content_type: string
  readonly bytes: number | string
  readonly name: string | null
  readonly fingerprint: string
  readonly created_at: Date
}

const toPage = (r: PageRow): NotionPageRecord => ({
  resourceId: r.resource_id,
  tenantId: r.tenant_id,
  pageId: r.page_id,
  parentPageId: r.parent_page_id,
  position: r.position,
  depth: r.depth,
  title: r.title,
  icon: r.icon,
  blocks: r.blocks,
  notionEditedAt: r.notion_edited_at,
  refreshedAt: r.refreshed_at
})

const toAsset = (r: AssetRow): NotionAssetRecord => ({
  id: r.id,
  resourceId: r.resource_id,
  tenantId: r.tenant_id,
  pageId: r.page_id,
  blockId: r.block_id,
  blobKey: r.blob_key,
  contentType: r.content_type,
  bytes: Number(r.bytes),
  name: r.name,
  fingerprint: r.fingerprint,
  createdAt: r.created_at
})

export const makeNotionMirrors = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const { moveStoredBytes } = storageUsage(sql)

  const upsertPage = (p: NotionPageRecord) =>
    sql`insert into notion_pages (resource_id, page_id, tenant_id, parent_page_id, position, depth, title, icon,
                                  blocks, notion_edited_at, refreshed_at)
        values (${p.resourceId}, ${p.pageId}, ${p.tenantId}, ${p.parentPageId}, ${p.position}, ${p.depth},
                ${p.title}, ${p.icon}, ${jsonParam(p.blocks)}::jsonb, ${p.notionEditedAt}, ${p.refreshedAt})
        on conflict (resource_id, page_id) do update set
          parent_page_id = excluded.parent_page_id, position = excluded.position, depth = excluded.depth,
          title = excluded.title, icon = excluded.icon, blocks = excluded.blocks,
          notion_edited_at = excluded.notion_edited_at, refreshed_at = excluded.refreshed_at`

  const upsertAsset = (a: NotionAssetRecord) =>
    sql`insert into notion_assets (id, resource_id, tenant_id, page_id, block_id, blob_key, content_type, bytes,
                                   name, fingerprint, created_at)
        values (${a.id}, ${a.resourceId}, ${a.tenantId}, ${a.pageId}, ${a.blockId}, ${a.blobKey}, ${a.contentType},
                ${a.bytes}, ${a.name}, ${a.fingerprint}, ${a.createdAt})
        on conflict (resource_id, block_id) do update set
          id = excluded.id, page_id = excluded.page_id, blob_key = excluded.blob_key,
          content_type = excluded.content_type, bytes = excluded.bytes, name = excluded.name,
          fingerprint = excluded.fingerprint, created_at = excluded.created_at`

  return NotionMirrors.of({
    state: (tenantId, resourceId) =>
      orStorageError(
        sql<{
          readonly last_refreshed_at: Date | null
          readonly last_attempt_at: Date | null
        }>`select last_refreshed_at, last_attempt_at from notion_mirrors
           where resource_id = ${resourceId} and tenant_id = ${tenantId}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullishOr(rows[0]),
              (r): NotionMirrorState => ({
                resourceId,
                tenantId,
                lastRefreshedAt: r.last_refreshed_at,
                lastAttemptAt: r.last_attempt_at
              })
            )
          )
        )
      ),

    pages: (tenantId, resourceId) =>
      orStorageError(
        sql<PageRow>`select * from notion_pages where resource_id = ${resourceId} and tenant_id = ${tenantId}
                     order by position`.pipe(Effect.map((rows) => rows.map(toPage)))
      ),

    page: (tenantId, resourceId, pageId) =>
      orStorageError(
        sql<PageRow>`select * from notion_pages
                     where resource_id = ${resourceId} and tenant_id = ${tenantId} and page_id = ${pageId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toPage))
        )
      ),

    assets: (tenantId, resourceId) =>
      orStorageError(
        sql<AssetRow>`select * from notion_assets where resource_id = ${resourceId} and tenant_id = ${tenantId}
                      order by page_id, block_id`.pipe(Effect.map((rows) => rows.map(toAsset)))
      ),

    asset: (tenantId, resourceId, assetId) =>
      isUuid(assetId)
        ? orStorageError(
            sql<AssetRow>`select * from notion_assets
                          where id = ${assetId} and resource_id = ${resourceId} and tenant_id = ${tenantId}`.pipe(
              Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toAsset))
            )
          )
        : Effect.succeed(Option.none()),

    save: (tenantId, resourceId, snapshot, quotaBytes) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            // The resource row's lock first: a delete racing the refresh either ran before (gone)
            // or waits for this transaction.
            const [resource] = yield* sql<{ readonly stored_bytes: number | string }>`
              select stored_bytes from resources
              where id = ${resourceId} and tenant_id = ${tenantId} and deleted_at is null for update`
            if (resource === undefined) return "gone" as const
            const keptPages = snapshot.pages.map((p) => p.pageId)
            const keptBlocks = snapshot.assets.map((a) => a.blockId)
            const scopePage = snapshot.scope._tag === "page" ? snapshot.scope.pageId : null
            if (scopePage === null && keptPages.length > 0)
              yield* sql`delete from notion_pages where resource_id = ${resourceId}
                         and page_id not in ${sql.in(keptPages)}`
            else if (scopePage === null)
              yield* sql`delete from notion_pages where resource_id = ${resourceId}`
            // Assets of the refreshed scope that the snapshot no longer shows.
            const dropped = yield* sql<{ readonly blob_key: string }>`
              delete from notion_assets where resource_id = ${resourceId}
                ${scopePage === null ? sql`` : sql`and page_id = ${scopePage}`}
                ${keptBlocks.length === 0 ? sql`` : sql`and block_id not in ${sql.in(keptBlocks)}`}
              returning blob_key`
            const before = yield* sql<{ readonly blob_key: string }>`
              select blob_key from notion_assets where resource_id = ${resourceId}
                ${keptBlocks.length === 0 ? sql`and false` : sql`and block_id in ${sql.in(keptBlocks)}`}`
            for (const page of snapshot.pages) yield* upsertPage(page)
            for (const asset of snapshot.assets) yield* upsertAsset(asset)
            const [total] = yield* sql<{ readonly bytes: number | string }>`
              select coalesce(sum(bytes), 0) as bytes from notion_assets where resource_id = ${resourceId}`
            const storedBytes = Number(total?.bytes ?? 0)
            yield* moveStoredBytes(tenantId, storedBytes - Number(resource.stored_bytes), quotaBytes)
            yield* sql`update resources set stored_bytes = ${storedBytes} where id = ${resourceId}`
            yield* sql`insert into notion_mirrors (resource_id, tenant_id, last_refreshed_at, last_attempt_at)
                       values (${resourceId}, ${tenantId}, ${snapshot.at}, ${snapshot.at})
                       on conflict (resource_id) do update set
                         last_refreshed_at = excluded.last_refreshed_at, last_attempt_at = excluded.last_attempt_at`
            // Blobs replaced under a kept block (a changed file) are unused too.
            const used = new Set(snapshot.assets.map((a) => a.blobKey))
            return [...dropped, ...before].map((r) => r.blob_key).filter((key) => !used.has(key))
          })
        )
      ),

    markAttempt: (tenantId, resourceId, at) =>
      orStorageError(
        sql`insert into notion_mirrors (resource_id, tenant_id, last_refreshed_at, last_attempt_at)
            select id, tenant_id, null, ${at} from resources
            where id = ${resourceId} and tenant_id = ${tenantId} and deleted_at is null
            on conflict (resource_id) do update set last_attempt_at = excluded.last_attempt_at`.pipe(
          Effect.asVoid
        )
      ),

    dueForAutoRefresh: (at, limit, defaultIntervalSeconds) =>
      orStorageError(
        sql<{ readonly tenant_id: string; readonly id: string }>`
          select r.tenant_id, r.id from resources r
          left join notion_mirrors m on m.resource_id = r.id
          where r.type = 'notion' and r.deleted_at is null
            and coalesce((r.data ->> 'autoRefresh')::boolean, false)
            and coalesce(m.last_attempt_at, r.created_at)
                + make_interval(secs => coalesce((r.data ->> 'refreshIntervalSeconds')::int, ${defaultIntervalSeconds})) <= ${at}
            and not exists (select 1 from jobs j where j.tenant_id = r.tenant_id
                            and j.dedupe_key = 'notion_refresh:' || r.id::text and j.status in ('queued', 'running'))
          order by r.id limit ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => ({ tenantId: r.tenant_id, resourceId: r.id })))
        )
      )
  })
})
