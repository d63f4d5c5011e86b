// The refresh job of a Notion mirror (the page tree read through NotionSource, hosted files copied
// into the blob store, everything saved in one transaction) and the auto-refresh schedule.
import { Clock, Effect, Option } from "effect"
import { sha256Hex } from "../../kernel/digest.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { UploadPolicy } from "../files/upload.js"
import type { JobRecord } from "../../kernel/jobs/job.js"
import {
  JobFailed,
  type JobOutcome,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { enqueueDue } from "../jobs/use-cases.js"
import { MediaTools } from "../ports/media.js"
import {
  type NotionAssetRecord,
  NotionMirrors,
  type NotionPageRecord,
  type NotionSnapshot
} from "../ports/notion-mirrors.js"
import { NotionSource, type NotionSourceError } from "../ports/notion-source.js"
import { ResourceRepository } from "../ports/resources.js"
import { isResourceOf, type ResourceRecordOf, resourceBlobPrefix } from "../resources/resource.js"
import type { NotionBlock, NotionMediaBlock, NotionPage } from "./blocks.js"
import { DEFAULT_NOTION_REFRESH_SECONDS, mirrorRootPageId } from "./feature.js"

/** A mirror holds at most this many pages; deeper or further pages are left out (and counted). */
export const NOTION_MAX_PAGES = 200
export const NOTION_MAX_DEPTH = 10

const failedWith = (e: NotionSourceError): JobFailed => {
  switch (e.reason) {
    case "unauthorized":
      return new JobFailed({
        code: "notion_unauthorized",
        message: "Notion refused the server's token, or the page is not shared with its integration",
        retryable: false
      })
    case "not_found":
      return new JobFailed({
        code: "notion_page_not_found",
        message: "the Notion page was not found, or is not shared with the server's integration",
        retryable: false
      })
    case "rate_limited":
      return new JobFailed({
        code: "notion_rate_limited",
        message: "Notion asked to slow down; the refresh will be retried",
        retryable: true,
        retryAfterMs: (e.retryAfterSeconds ?? 0) * 1000
      })
    default:
      return new JobFailed({
        code: "notion_unavailable",
        message: "Notion could not be reached",
        retryable: true
      })
  }
}

/** Every child page a page's blocks link, in order (toggles and lists can hold them too). */
const childPagesOf = (blocks: ReadonlyArray<NotionBlock>): ReadonlyArray<string> =>
  blocks.flatMap((b) => (b.kind === "child_page" ? [b.id] : "children" in b ? childPagesOf(b.children) : []))

const mediaOf = (blocks: ReadonlyArray<NotionBlock>): ReadonlyArray<NotionMediaBlock> =>
  blocks.flatMap(
    (b): ReadonlyArray<NotionMediaBlock> =>
      b.kind === "image" || b.kind === "file" || b.kind === "pdf" || b.kind === "video" || b.kind === "audio"
        ? [b]
        : "children" in b
          ? mediaOf(b.children)
          : []
  )

/** A hosted file's identity: its URL without the signature that changes on every read. */
const fingerprintOf = (url: string) => sha256Hex(url.split(/[?#]/)[0] ?? url)

/** Reads the tree from `rootId` breadth first, up to the page and depth limits. */
const readTree = (rootId: string) =>
  Effect.gen(function* () {
    const source = yield* NotionSource
    const root = yield* source.page(rootId)
    const found: Array<{ page: NotionPage; parent: string | null; depth: number }> = [
      { page: root, parent: null, depth: 0 }
    ]
    const seen = new Set([root.id])
    let leftOut = 0
    for (let i = 0; i < found.length; i++) {
      const at = found[i]
      if (at === undefined) break
      for (const childId of childPagesOf(at.page.blocks)) {
        if (seen.has(childId)) continue
        seen.add(childId)
        if (found.length >= NOTION_MAX_PAGES || at.depth + 1 > NOTION_MAX_DEPTH) {
          leftOut++
          continue
        }
        // A child page not shared with the integration is left out, not a failed refresh.
        const child = yield* source.page(childId).pipe(
          Effect.map(Option.some),
          Effect.catchIf(
            (e) => e.reason === "not_found",
            () => Effect.succeed(Option.none<NotionPage>())
          )
        )
        if (Option.isNone(child)) {
          leftOut++
          continue
        }
        found.push({ page: child.value, parent: at.page.id, depth: at.depth + 1 })
      }
    }
    return { found, leftOut }
  })

/** Copies the hosted files of `pages` into the blob store, reusing unchanged ones already cached. */
const cacheAssets = (
  r: ResourceRecordOf<"notion">,
  pages: ReadonlyArray<NotionPageRecord>,
  cached: ReadonlyArray<NotionAssetRecord>,
  at: Date
) =>
  Effect.gen(function* () {
    const source = yield* NotionSource
    const blobs = yield* BlobStore
    const media = yield* MediaTools
    const ids = yield* IdGen
    const policy = yield* UploadPolicy
    const byBlock = new Map(cached.map((a) => [a.blockId, a]))
    const assets: Array<NotionAssetRecord> = []
    const written: Array<string> = []
    let skippedAssets = 0
    for (const page of pages) {
      for (const block of mediaOf(page.blocks)) {
        if (!block.source.hosted) continue
        const fingerprint = fingerprintOf(block.source.url)
        const previous = byBlock.get(block.id)
        if (previous !== undefined && previous.fingerprint === fingerprint) {
          assets.push({ ...previous, pageId: page.pageId, name: block.name })
          continue
        }
        const fetched = yield* source.asset(block.source.url, policy.maxBytes).pipe(
          Effect.map(Option.some),
          // A file too large or gone is left out of the mirror; the page still renders.
          Effect.catchIf(
            (e) => e.reason === "too_large" || e.reason === "not_found",
            () =>
              Effect.succeed(
                Option.none<{ readonly bytes: Uint8Array; readonly contentType: string | null }>()
              )
          )
        )
        if (Option.isNone(fetched)) {
          skippedAssets++
          continue
        }
        const id = yield* ids.uuidV7
        const blobKey = `${resourceBlobPrefix(r)}notion/${id}`
        // The type served is what the bytes are, never what the remote said.
        const contentType =
          (yield* media.sniff(fetched.value.bytes.subarray(0, 4100))) ?? "application/octet-stream"
        yield* blobs.put(blobKey, { bytes: fetched.value.bytes, contentType })
        written.push(blobKey)
        assets.push({
          id,
          resourceId: r.id,
          tenantId: r.tenantId,
          pageId: page.pageId,
          blockId: block.id,
          blobKey,
          contentType,
          bytes: fetched.value.bytes.byteLength,
          name: block.name,
          fingerprint,
          createdAt: at
        })
      }
    }
    return { assets, written, skippedAssets }
  })

const pageRecord = (
  r: ResourceRecordOf<"notion">,
  page: NotionPage,
  placement: { readonly parent: string | null; readonly depth: number; readonly position: number },
  at: Date
): NotionPageRecord => ({
  resourceId: r.id,
  tenantId: r.tenantId,
  pageId: page.id,
  parentPageId: placement.parent,
  position: placement.position,
  depth: placement.depth,
  title: page.title,
  icon: page.icon,
  blocks: page.blocks,
  notionEditedAt: Number.isNaN(Date.parse(page.lastEditedTime)) ? null : new Date(page.lastEditedTime),
  refreshedAt: at
})

/** The refresh job: the whole tree, or one page (payload `page_id`). */
export const runNotionRefresh = (job: JobRecord): Effect.Effect<JobOutcome, JobFailed, NotionJobPorts> =>
  Effect.gen(function* () {
    const repo = yield* ResourceRepository
    const mirrors = yield* NotionMirrors
    const blobs = yield* BlobStore
    const policy = yield* UploadPolicy
    const deleteBlobs = (keys: ReadonlyArray<string>) =>
      Effect.forEach(keys, (key) => blobs.delete(key).pipe(Effect.ignore), { discard: true })
    if (job.resourceId === null) return skipped({ reason: "resource_deleted" })
    const found = yield* repo.get(job.tenantId, job.resourceId)
    if (Option.isNone(found) || !isResourceOf(found.value, "notion"))
      return skipped({ reason: "resource_deleted" })
    const r = found.value
    const at = new Date(yield* Clock.currentTimeMillis)
    const pageId = typeof job.payload.page_id === "string" ? job.payload.page_id : null

    const run = Effect.gen(function* () {
      let pages: ReadonlyArray<NotionPageRecord>
      let leftOut = 0
      if (pageId === null) {
        const rootId = mirrorRootPageId(r.data)
        if (rootId === undefined)
          return yield* new JobFailed({
            code: "notion_source_invalid",
            message: "the mirror's source names no Notion page",
            retryable: false
          })
        const tree = yield* readTree(rootId)
        leftOut = tree.leftOut
        pages = tree.found.map((f, position) =>
          pageRecord(r, f.page, { parent: f.parent, depth: f.depth, position }, at)
        )
      } else {
        const current = yield* mirrors.page(r.tenantId, r.id, pageId)
        if (Option.isNone(current)) return skipped({ reason: "page_not_in_mirror", page_id: pageId })
        const page = yield* (yield* NotionSource).page(pageId)
        pages = [
          pageRecord(
            r,
            page,
            {
              parent: current.value.parentPageId,
              depth: current.value.depth,
              position: current.value.position
            },
            at
          )
        ]
      }
      const cached = yield* mirrors.assets(r.tenantId, r.id)
      const { assets, written, skippedAssets } = yield* cacheAssets(r, pages, cached, at)
      const snapshot: NotionSnapshot = {
        scope: pageId === null ? { _tag: "whole" } : { _tag: "page", pageId },
        pages,
        assets,
        at
      }
      const saved = yield* mirrors.save(r.tenantId, r.id, snapshot, policy.quotaBytes).pipe(
        Effect.catchTag("StorageQuotaReached", () =>
          Effect.andThen(
            deleteBlobs(written),
            Effect.fail(
              new JobFailed({
                code: "quota_exceeded",
                message: "the mirror's files would exceed the account's storage quota",
                retryable: false
              })
            )
          )
        )
      )
      if (saved === "gone") {
        yield* deleteBlobs(written)
        return skipped({ reason: "resource_deleted" })
      }
      yield* deleteBlobs(saved)
      return succeeded({
        pages: pages.length,
        assets: assets.length,
        asset_bytes: assets.reduce((n, a) => n + a.bytes, 0),
        pages_left_out: leftOut,
        assets_left_out: skippedAssets,
        ...(pageId === null ? {} : { page_id: pageId })
      })
    })

    return yield* run.pipe(
      Effect.catchTag("NotionSourceError", (e) => Effect.fail(failedWith(e))),
      // A refresh that ends without saving still counts for the auto-refresh interval.
      Effect.tapError(() => mirrors.markAttempt(r.tenantId, r.id, at).pipe(Effect.ignore))
    )
  }).pipe(Effect.catchTag("StorageError", storageUnavailable("notion refresh")))

type NotionJobPorts = ResourceRepository | NotionMirrors | NotionSource | BlobStore | MediaTools | IdGen

/**
 * Queues a refresh of every auto-refreshing mirror whose interval has passed (the queue's
 * de-duplication keeps it once when several instances do this at the same moment).
 */
export const scheduleNotionRefreshes = Effect.gen(function* () {
  const at = new Date(yield* Clock.currentTimeMillis)
  const due = yield* (yield* NotionMirrors).dueForAutoRefresh(at, 100, DEFAULT_NOTION_REFRESH_SECONDS)
  return yield* enqueueDue("notion_refresh", due, { page_id: null, reason: "auto_refresh" }, at)
})
