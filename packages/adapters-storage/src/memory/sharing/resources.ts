// In-memory ResourceRepository: the twin of sql/sharing/resources.ts (live slugs unique across tenants,
// updates guarded by the row version, versions saved and trimmed with the write, the same orders
// and cursors). Every method runs in one synchronous step, which is what a transaction is here.
import {
  compareCodePoints,
  MARKDOWN_VERSIONS_KEPT,
  type MarkdownVersionSummary,
  type NewMarkdownVersion,
  type ResourceListItem,
  type ResourceRecord,
  type ResourceRecordOf,
  makeResourceRecord,
  ResourceRepository,
  ResourceSlugTaken,
  type RestoreOutcome,
  StorageQuotaReached
} from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { resourceCursor, SORTS, sortKeyOf } from "../../sql/sharing/resource-cursor.js"
import { toPage } from "../../paging.js"
import { newJobRecord } from "../kernel/jobs.js"
import { recordSharingEvent, resourceEvent } from "./sharing-events.js"
import { MemoryStore, type StoredResource } from "../store.js"

const encoder = new TextEncoder()

const contains = (text: string | null, needle: string) => text?.toLowerCase().includes(needle) === true

/** A Markdown page's data without its body, as lists show it. */
const listed = (r: ResourceRecord): ResourceListItem => {
  if (r.type !== "markdown") return r
  const { body: _, ...data } = r.data
  return { ...r, data }
}

export const makeResourceRepository = Effect.map(Effect.service(MemoryStore), (tables) => {
  const { resources, markdownVersions, uploadSubmissions, jobs } = tables
  const strip = (stored: StoredResource): ResourceRecord => {
    const { deletedAt: _, ...common } = stored
    return makeResourceRecord(common, stored)
  }
  const live = (tenantId: string, id: string) => {
    const r = resources.get(id)
    return r !== undefined && r.tenantId === tenantId && r.deletedAt === null ? r : undefined
  }
  const liveBySlug = (slug: string) =>
    [...resources.values()].find((r) => r.slug === slug && r.deletedAt === null)
  const slugTakenBy = (slug: string, exceptId: string) => {
    const holder = liveBySlug(slug)
    return holder !== undefined && holder.id !== exceptId
  }
  /** The account's stored bytes: the sum over its live resources (exact, as every step is synchronous). */
  const usedBy = (tenantId: string) => {
    let used = 0
    for (const r of resources.values())
      if (r.tenantId === tenantId && r.deletedAt === null) used += r.storedBytes
    return used
  }
  /** Refused when adding `delta` bytes would pass the quota (freeing bytes always passes). */
  const overQuota = (tenantId: string, delta: number, quotaBytes: number | undefined) => {
    if (delta <= 0 || quotaBytes === undefined) return undefined
    const used = usedBy(tenantId)
    return used + delta > quotaBytes ? new StorageQuotaReached(used, quotaBytes) : undefined
  }
  const versionsOf = (resourceId: string) =>
    [...markdownVersions.values()]
      .filter((v) => v.resourceId === resourceId)
      .sort((a, b) => b.number - a.number)

  const saveVersion = (
    tenantId: string,
    resourceId: string,
    version: NewMarkdownVersion
  ): MarkdownVersionSummary => {
    const number = (versionsOf(resourceId)[0]?.number ?? 0) + 1
    const size = encoder.encode(version.body).length
    const saved = { id: version.id, resourceId, number, size, createdAt: version.createdAt }
    markdownVersions.set(version.id, { ...saved, body: version.body, tenantId })
    for (const old of versionsOf(resourceId)) {
      if (old.number <= number - MARKDOWN_VERSIONS_KEPT) markdownVersions.delete(old.id)
    }
    return saved
  }

  return ResourceRepository.of({
    insert: (r, options) =>
      Effect.suspend((): Effect.Effect<void, ResourceSlugTaken | StorageQuotaReached> => {
        if (liveBySlug(r.slug) !== undefined) return Effect.fail(new ResourceSlugTaken(r.slug))
        const over = overQuota(r.tenantId, r.storedBytes, options?.quotaBytes)
        if (over !== undefined) return Effect.fail(over)
        resources.set(r.id, { ...r, deletedAt: null })
        if (options?.enqueue !== undefined) jobs.set(options.enqueue.id, newJobRecord(options.enqueue))
        recordSharingEvent(tables, resourceEvent("resource.created", r, r.createdAt))
        return Effect.void
      }),

    get: (tenantId, id) => Effect.sync(() => Option.map(Option.fromNullishOr(live(tenantId, id)), strip)),

    getBySlug: (tenantId, slug) =>
      Effect.sync(() => {
        const r = liveBySlug(slug)
        return Option.map(Option.fromNullishOr(r?.tenantId === tenantId ? r : undefined), strip)
      }),

    getBySlugAnyTenant: (slug) =>
      Effect.sync(() => Option.map(Option.fromNullishOr(liveBySlug(slug)), strip)),

    existsAnyTenant: (id) =>
      Effect.sync(() => {
        const r = resources.get(id)
        return r !== undefined && r.deletedAt === null
      }),

    update: (tenantId, next, options) =>
      Effect.suspend((): Effect.Effect<"updated" | "stale", ResourceSlugTaken | StorageQuotaReached> => {
        const current = live(tenantId, next.id)
        if (
          current === undefined ||
          current.type !== next.type ||
          current.rowVersion !== next.rowVersion - 1
        ) {
          return Effect.succeed("stale")
        }
        if (slugTakenBy(next.slug, next.id)) return Effect.fail(new ResourceSlugTaken(next.slug))
        const over = overQuota(tenantId, next.storedBytes - current.storedBytes, options?.quotaBytes)
        if (over !== undefined) return Effect.fail(over)
        // What an update never writes stays as stored.
        resources.set(next.id, {
          ...next,
          tenantId: current.tenantId,
          visibility: current.visibility,
          createdAt: current.createdAt,
          viewCount: current.viewCount,
          deletedAt: null
        } as StoredResource)
        if (options?.saveVersion !== undefined && next.type === "markdown") {
          saveVersion(tenantId, next.id, options.saveVersion)
        }
        if (current.expiresAt?.getTime() !== next.expiresAt?.getTime())
          tables.webhooks.expiryAnnounced.delete(next.id)
        recordSharingEvent(tables, resourceEvent("resource.updated", next, next.updatedAt))
        return Effect.succeed("updated")
      }),

    addViews: (counts, clicks = []) =>
      Effect.sync(() => {
        for (const click of clicks) recordSharingEvent(tables, click)
        for (const [id, n] of counts) {
          const current = resources.get(id)
          if (current !== undefined && current.deletedAt === null && n > 0)
            resources.set(id, { ...current, viewCount: current.viewCount + n })
        }
      }),

    softDelete: (tenantId, id, at) =>
      Effect.sync(() => {
        const r = live(tenantId, id)
        if (r === undefined) return false
        resources.set(id, { ...r, deletedAt: at, rowVersion: r.rowVersion + 1 })
        recordSharingEvent(tables, resourceEvent("resource.deleted", r, at))
        return true
      }),

    storageUsed: (tenantId) => Effect.sync(() => usedBy(tenantId)),

    list: (tenantId, query) =>
      Effect.gen(function* () {
        const sort = query.sort ?? "created_desc"
        const spec = SORTS[sort]
        const after = yield* resourceCursor.decode(sort, query.cursor)
        const needle = query.q === undefined || query.q === "" ? undefined : query.q.toLowerCase()
        const label = query.label
        const compare = (a: ResourceRecord, b: ResourceRecord) => {
          const byKey =
            spec.key === "title_key"
              ? compareCodePoints(sortKeyOf(sort, a), sortKeyOf(sort, b))
              : a[spec.key === "created_at" ? "createdAt" : "updatedAt"].getTime() -
                b[spec.key === "created_at" ? "createdAt" : "updatedAt"].getTime()
          const ordered = byKey !== 0 ? byKey : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
          return spec.descending ? -ordered : ordered
        }
        const afterCursor = (r: ResourceRecord) => {
          if (after === undefined) return true
          const key = sortKeyOf(sort, r)
          const byKey =
            spec.key === "title_key"
              ? compareCodePoints(key, after.key)
              : new Date(key).getTime() - new Date(after.key).getTime()
          const ordered = byKey !== 0 ? byKey : r.id < after.id ? -1 : r.id > after.id ? 1 : 0
          return spec.descending ? ordered < 0 : ordered > 0
        }
        const rows = [...resources.values()]
          .filter(
            (r) =>
              r.tenantId === tenantId &&
              r.deletedAt === null &&
              (query.type === undefined || r.type === query.type) &&
              (query.archived === undefined || r.archived === query.archived) &&
              (query.pinned === undefined || r.pinned === query.pinned) &&
              (label === undefined || r.labels.includes(label)) &&
              (query.uploadRequest === undefined ||
                [...uploadSubmissions.values()].some(
                  (s) =>
                    s.requestId === query.uploadRequest &&
                    s.tenantId === tenantId &&
                    s.fileResourceIds.includes(r.id)
                )) &&
              (needle === undefined ||
                contains(r.title, needle) ||
                contains(r.slug, needle) ||
                contains(r.description, needle))
          )
          .map(strip)
          .filter(afterCursor)
          .sort(compare)
          .slice(query.offset ?? 0)
        return toPage(rows, query.limit, listed, (last) =>
          resourceCursor.encode(sort, sortKeyOf(sort, listed(last)), last.id)
        )
      }),

    listMarkdownVersions: (tenantId, resourceId) =>
      Effect.sync(() =>
        live(tenantId, resourceId) === undefined
          ? []
          : versionsOf(resourceId).map(({ body: _, tenantId: __, ...summary }) => summary)
      ),

    getMarkdownVersion: (tenantId, resourceId, versionId) =>
      Effect.sync(() => {
        const v = markdownVersions.get(versionId)
        if (v === undefined || v.resourceId !== resourceId || live(tenantId, resourceId) === undefined) {
          return Option.none()
        }
        const { tenantId: _, ...version } = v
        return Option.some(version)
      }),

    restoreMarkdownVersion: (tenantId, resourceId, versionId, saveAs) =>
      Effect.sync((): RestoreOutcome => {
        const page = live(tenantId, resourceId)
        if (page === undefined || page.type !== "markdown") return { _tag: "ResourceNotFound" }
        if (saveAs.expectedRowVersion !== undefined && page.rowVersion !== saveAs.expectedRowVersion) {
          return { _tag: "Stale" }
        }
        const chosen = markdownVersions.get(versionId)
        if (chosen === undefined || chosen.resourceId !== resourceId) return { _tag: "VersionNotFound" }
        const saved = saveVersion(tenantId, resourceId, {
          id: saveAs.id,
          body: page.data.body,
          createdAt: saveAs.createdAt
        })
        const restored: ResourceRecordOf<"markdown"> = {
          ...strip(page),
          type: "markdown",
          data: { ...page.data, body: chosen.body },
          rowVersion: page.rowVersion + 1,
          updatedAt: saveAs.createdAt
        }
        resources.set(resourceId, { ...restored, deletedAt: null })
        return { _tag: "Restored", resource: restored, saved }
      })
  })
})

export const MemoryResourceRepositoryLive = Layer.effect(ResourceRepository, makeResourceRepository)
