// Notion mirrors on the wire: the cached page tree with the refresh state, one page with its HTML,
// and the cached files with their public URLs.
import { Schema } from "effect"
import type { JobRecord } from "../../kernel/jobs/job.js"
import { JobErrorView } from "../jobs/wire.js"
import type { NotionAssetRecord, NotionPageRecord } from "../ports/notion-mirrors.js"

export const NotionPageSummaryView = Schema.Struct({
  page_id: Schema.String,
  parent_page_id: Schema.NullOr(Schema.String),
  title: Schema.String,
  icon: Schema.NullOr(Schema.String),
  depth: Schema.Int,
  /** The page on the mirror's public URL. */
  url: Schema.String,
  notion_edited_at: Schema.NullOr(Schema.String),
  refreshed_at: Schema.String
}).annotate({ identifier: "NotionPageSummary" })

export const NotionRefreshView = Schema.Struct({
  /** `never` before the first refresh job ran, else its latest job's status. */
  status: Schema.Literals(["never", "queued", "running", "succeeded", "failed", "skipped"]),
  job_id: Schema.NullOr(Schema.String),
  last_refreshed_at: Schema.NullOr(Schema.String),
  error: Schema.NullOr(JobErrorView)
}).annotate({ identifier: "NotionRefresh" })

export const NotionPagesView = Schema.Struct({
  pages: Schema.Array(NotionPageSummaryView),
  refresh: NotionRefreshView
}).annotate({ identifier: "NotionPages" })

export const NotionPageView = Schema.Struct({
  ...NotionPageSummaryView.fields,
  /** The page's blocks as sanitized HTML (links to the mirror's pages and cached files). */
  html: Schema.String
}).annotate({ identifier: "NotionPage" })

export const NotionAssetView = Schema.Struct({
  asset_id: Schema.String,
  page_id: Schema.String,
  block_id: Schema.String,
  name: Schema.NullOr(Schema.String),
  content_type: Schema.String,
  size: Schema.Int,
  /** Our cached copy, public under the mirror's URL (its password and window apply). */
  url: Schema.String,
  cached_at: Schema.String
}).annotate({ identifier: "NotionAsset" })

export const NotionAssetsView = Schema.Struct({ items: Schema.Array(NotionAssetView) }).annotate({
  identifier: "NotionAssets"
})

/** Where a mirror serves its pages and files: under its public path. */
export const notionPagePath = (publicPath: string, rootPageId: string | null, pageId: string) =>
  pageId === rootPageId ? publicPath : `${publicPath}?page=${encodeURIComponent(pageId)}`
export const notionAssetPath = (publicPath: string, assetId: string) => `${publicPath}/media/${assetId}`

export const notionPageSummaryView = (p: NotionPageRecord, url: string) => ({
  page_id: p.pageId,
  parent_page_id: p.parentPageId,
  title: p.title,
  icon: p.icon,
  depth: p.depth,
  url,
  notion_edited_at: p.notionEditedAt === null ? null : p.notionEditedAt.toISOString(),
  refreshed_at: p.refreshedAt.toISOString()
})

export const notionRefreshView = (latest: JobRecord | null, lastRefreshedAt: Date | null) => ({
  status: latest === null ? ("never" as const) : latest.status,
  job_id: latest?.id ?? null,
  last_refreshed_at: lastRefreshedAt === null ? null : lastRefreshedAt.toISOString(),
  error: latest?.status === "succeeded" ? null : (latest?.error ?? null)
})

export const notionAssetView = (a: NotionAssetRecord, url: string) => ({
  asset_id: a.id,
  page_id: a.pageId,
  block_id: a.blockId,
  name: a.name,
  content_type: a.contentType,
  size: a.bytes,
  url,
  cached_at: a.createdAt.toISOString()
})
