// In-memory NotionMirrors: the twin of sql/sharing/notion-mirrors.ts (usage is the sum over live resources,
// so setting the resource's stored bytes is the whole quota move).
import {
  ACTIVE_JOB_STATUSES,
  jobDedupeKey,
  NotionMirrors,
  type NotionData,
  StorageQuotaReached
} from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const MemoryNotionMirrorsLive = Layer.effect(
  NotionMirrors,
  Effect.map(Effect.service(MemoryStore), ({ notion, resources, jobs }) => {
    const pageKey = (resourceId: string, pageId: string) => `${resourceId}/${pageId}`
    const pagesOf = (tenantId: string, resourceId: string) =>
      [...notion.pages.values()]
        .filter((p) => p.resourceId === resourceId && p.tenantId === tenantId)
        .sort((a, b) => a.position - b.position)
    const assetsOf = (resourceId: string) =>
      [...notion.assets.values()].filter((a) => a.resourceId === resourceId)
    const usedBy = (tenantId: string) => {
      let used = 0
      for (const r of resources.values())
        if (r.tenantId === tenantId && r.deletedAt === null) used += r.storedBytes
      return used
    }
    return NotionMirrors.of({
      state: (tenantId, resourceId) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(notion.mirrors.get(resourceId)), (m) => m.tenantId === tenantId)
        ),
      pages: (tenantId, resourceId) => Effect.sync(() => pagesOf(tenantId, resourceId)),
      page: (tenantId, resourceId, pageId) =>
        Effect.sync(() =>
          Option.filter(
            Option.fromNullishOr(notion.pages.get(pageKey(resourceId, pageId))),
            (p) => p.tenantId === tenantId
          )
        ),
      assets: (tenantId, resourceId) =>
        Effect.sync(() =>
          assetsOf(resourceId)
            .filter((a) => a.tenantId === tenantId)
            .sort((a, b) => (a.pageId + a.blockId < b.pageId + b.blockId ? -1 : 1))
        ),
      asset: (tenantId, resourceId, assetId) =>
        Effect.sync(() =>
          Option.filter(
            Option.fromNullishOr(notion.assets.get(assetId)),
            (a) => a.tenantId === tenantId && a.resourceId === resourceId
          )
        ),
      save: (tenantId, resourceId, snapshot, quotaBytes) =>
        Effect.suspend((): Effect.Effect<ReadonlyArray<string> | "gone", StorageQuotaReached> => {
          const resource = resources.get(resourceId)
          if (resource === undefined || resource.tenantId !== tenantId || resource.deletedAt !== null)
            return Effect.succeed("gone" as const)
          const scopePage = snapshot.scope._tag === "page" ? snapshot.scope.pageId : null
          const keptBlocks = new Set(snapshot.assets.map((a) => a.blockId))
          const replaced = assetsOf(resourceId).filter(
            (a) => scopePage === null || a.pageId === scopePage || keptBlocks.has(a.blockId)
          )
          const remaining = assetsOf(resourceId).filter((a) => !replaced.includes(a))
          const storedBytes = [...remaining, ...snapshot.assets].reduce((n, a) => n + a.bytes, 0)
          const delta = storedBytes - resource.storedBytes
          if (quotaBytes !== undefined && delta > 0 && usedBy(tenantId) + delta > quotaBytes)
            return Effect.fail(new StorageQuotaReached(usedBy(tenantId), quotaBytes))
          if (scopePage === null)
            for (const p of pagesOf(tenantId, resourceId)) notion.pages.delete(pageKey(resourceId, p.pageId))
          for (const a of replaced) notion.assets.delete(a.id)
          for (const p of snapshot.pages) notion.pages.set(pageKey(resourceId, p.pageId), p)
          for (const a of snapshot.assets) notion.assets.set(a.id, a)
          resources.set(resourceId, { ...resource, storedBytes })
          notion.mirrors.set(resourceId, {
            resourceId,
            tenantId,
            lastRefreshedAt: snapshot.at,
            lastAttemptAt: snapshot.at
          })
          const used = new Set(snapshot.assets.map((a) => a.blobKey))
          return Effect.succeed(replaced.map((a) => a.blobKey).filter((key) => !used.has(key)))
        }),
      markAttempt: (tenantId, resourceId, at) =>
        Effect.sync(() => {
          const resource = resources.get(resourceId)
          if (resource === undefined || resource.tenantId !== tenantId || resource.deletedAt !== null) return
          const current = notion.mirrors.get(resourceId)
          notion.mirrors.set(resourceId, {
            resourceId,
            tenantId,
            lastRefreshedAt: current?.lastRefreshedAt ?? null,
            lastAttemptAt: at
          })
        }),
      dueForAutoRefresh: (at, limit, defaultIntervalSeconds) =>
        Effect.sync(() =>
          [...resources.values()]
            .filter((r) => {
              if (r.type !== "notion" || r.deletedAt !== null) return false
              const data = r.data as NotionData
              if (!data.autoRefresh) return false
              const from = notion.mirrors.get(r.id)?.lastAttemptAt ?? r.createdAt
              if (
                from.getTime() + (data.refreshIntervalSeconds ?? defaultIntervalSeconds) * 1000 >
                at.getTime()
              )
                return false
              const key = jobDedupeKey("notion_refresh", r.id)
              return ![...jobs.values()].some(
                (j) =>
                  j.tenantId === r.tenantId && j.dedupeKey === key && ACTIVE_JOB_STATUSES.includes(j.status)
              )
            })
            .slice(0, limit)
            .map((r) => ({ tenantId: r.tenantId, resourceId: r.id }))
        )
    })
  })
)
