// Contract of NotionMirrors, run by register-contracts.ts against every storage target: a refresh
// replaces the cached pages and assets (the whole tree, or one page), sets the resource's stored
// bytes under the account's quota and answers the blob keys no asset uses any more; reads only for
// the tenant; a deleted resource is gone; failed attempts and auto-refresh due times.
import {
  type NotionAssetRecord,
  NotionMirrors,
  type NotionMirrorsService,
  type NotionPageRecord,
  type NotionSnapshot,
  ResourceRepository
} from "@folio/domain"
import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, RESOURCE_DATA, resource, uuid } from "./fixtures.js"

export const registerNotionMirrorContracts = ({ target, run, attempt, newWorkspace }: StorageHarness) => {
  const mirrors = <A, E>(f: (s: NotionMirrorsService) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(NotionMirrors, f))
  const refreshedAt = at("2026-06-01T12:00:00.000Z")
  const newMirror = async (tenantId: string) => {
    const r = resource(tenantId, "notion")
    await run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
    return r
  }
  const storedBytesOf = async (tenantId: string, id: string) =>
    Option.getOrThrow(await run(Effect.flatMap(ResourceRepository, (repo) => repo.get(tenantId, id))))
      .storedBytes
  const page = (
    tenantId: string,
    resourceId: string,
    pageId: string,
    position: number,
    title = `Page ${pageId}`
  ): NotionPageRecord => ({
    resourceId,
    tenantId,
    pageId,
    parentPageId: position === 0 ? null : "p0",
    position,
    depth: position === 0 ? 0 : 1,
    title,
    icon: position === 0 ? "📘" : null,
    blocks: [{ kind: "divider", id: `${pageId}-divider` }],
    notionEditedAt: at("2026-05-30T00:00:00.000Z"),
    refreshedAt
  })
  const asset = (
    tenantId: string,
    resourceId: string,
    pageId: string,
    blockId: string,
    bytes: number
  ): NotionAssetRecord => ({
    id: uuid(),
    resourceId,
    tenantId,
    pageId,
    blockId,
    blobKey: `sharing/${tenantId}/${resourceId}/${uuid()}`,
    contentType: "image/png",
    bytes,
    name: `${blockId}.png`,
    fingerprint: `https://files.example/${blockId}`,
    createdAt: refreshedAt
  })
  const whole = (
    pages: ReadonlyArray<NotionPageRecord>,
    assets: ReadonlyArray<NotionAssetRecord>,
    when = refreshedAt
  ): NotionSnapshot => ({ scope: { _tag: "whole" }, pages, assets, at: when })

  describe(`NotionMirrors [${target}]`, () => {
    it("stores a whole refresh: pages in tree order, assets, refresh times and the stored bytes", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const m = await newMirror(ws.id)
      expect(Option.isNone(await mirrors((s) => s.state(ws.id, m.id)))).toBe(true)
      expect(await mirrors((s) => s.pages(ws.id, m.id))).toEqual([])
      const pages = [page(ws.id, m.id, "p2", 2), page(ws.id, m.id, "p0", 0), page(ws.id, m.id, "p1", 1)]
      const assets = [asset(ws.id, m.id, "p1", "b1", 100), asset(ws.id, m.id, "p0", "b0", 20)]
      expect(await mirrors((s) => s.save(ws.id, m.id, whole(pages, assets), undefined))).toEqual([])

      expect((await mirrors((s) => s.pages(ws.id, m.id))).map((p) => p.pageId)).toEqual(["p0", "p1", "p2"])
      expect(Option.getOrThrow(await mirrors((s) => s.page(ws.id, m.id, "p0")))).toEqual(pages[1])
      expect(await mirrors((s) => s.assets(ws.id, m.id))).toEqual([assets[1], assets[0]])
      const one = assets[0]?.id ?? ""
      expect(Option.getOrThrow(await mirrors((s) => s.asset(ws.id, m.id, one)))).toEqual(assets[0])
      expect(Option.getOrThrow(await mirrors((s) => s.state(ws.id, m.id)))).toEqual({
        resourceId: m.id,
        tenantId: ws.id,
        lastRefreshedAt: refreshedAt,
        lastAttemptAt: refreshedAt
      })
      expect(await storedBytesOf(ws.id, m.id)).toBe(120)

      // Nothing of it for another tenant.
      expect(Option.isNone(await mirrors((s) => s.state(other.id, m.id)))).toBe(true)
      expect(await mirrors((s) => s.pages(other.id, m.id))).toEqual([])
      expect(Option.isNone(await mirrors((s) => s.page(other.id, m.id, "p0")))).toBe(true)
      expect(await mirrors((s) => s.assets(other.id, m.id))).toEqual([])
      expect(Option.isNone(await mirrors((s) => s.asset(other.id, m.id, one)))).toBe(true)
      expect(Option.isNone(await mirrors((s) => s.asset(ws.id, m.id, uuid())))).toBe(true)
    })

    it("drops what a later whole refresh no longer shows, answering the blob keys nothing uses", async () => {
      const ws = await newWorkspace()
      const m = await newMirror(ws.id)
      const kept = asset(ws.id, m.id, "p0", "b0", 10)
      const changed = asset(ws.id, m.id, "p0", "b1", 20)
      const removed = asset(ws.id, m.id, "p1", "b2", 30)
      await mirrors((s) =>
        s.save(
          ws.id,
          m.id,
          whole([page(ws.id, m.id, "p0", 0), page(ws.id, m.id, "p1", 1)], [kept, changed, removed]),
          undefined
        )
      )
      const later = at("2026-06-02T12:00:00.000Z")
      // b1's file changed (a new blob), p1 and its asset are gone, b0 is the same file.
      const replacement = { ...asset(ws.id, m.id, "p0", "b1", 25), createdAt: later }
      const unused = await mirrors((s) =>
        s.save(
          ws.id,
          m.id,
          whole([page(ws.id, m.id, "p0", 0, "Renamed")], [kept, replacement], later),
          undefined
        )
      )
      expect([...(unused as ReadonlyArray<string>)].sort()).toEqual([changed.blobKey, removed.blobKey].sort())
      expect((await mirrors((s) => s.pages(ws.id, m.id))).map((p) => [p.pageId, p.title])).toEqual([
        ["p0", "Renamed"]
      ])
      expect(await mirrors((s) => s.assets(ws.id, m.id))).toEqual([kept, replacement])
      expect(await storedBytesOf(ws.id, m.id)).toBe(35)
      expect(Option.getOrThrow(await mirrors((s) => s.state(ws.id, m.id))).lastRefreshedAt).toEqual(later)
    })

    it("refreshes one page alone, keeping the other pages and their assets", async () => {
      const ws = await newWorkspace()
      const m = await newMirror(ws.id)
      const a0 = asset(ws.id, m.id, "p0", "b0", 10)
      const a1 = asset(ws.id, m.id, "p1", "b1", 20)
      await mirrors((s) =>
        s.save(
          ws.id,
          m.id,
          whole([page(ws.id, m.id, "p0", 0), page(ws.id, m.id, "p1", 1)], [a0, a1]),
          undefined
        )
      )
      const later = at("2026-06-02T12:00:00.000Z")
      const snapshot: NotionSnapshot = {
        scope: { _tag: "page", pageId: "p1" },
        pages: [page(ws.id, m.id, "p1", 1, "Only this one")],
        assets: [],
        at: later
      }
      expect(await mirrors((s) => s.save(ws.id, m.id, snapshot, undefined))).toEqual([a1.blobKey])
      expect((await mirrors((s) => s.pages(ws.id, m.id))).map((p) => [p.pageId, p.title])).toEqual([
        ["p0", "Page p0"],
        ["p1", "Only this one"]
      ])
      expect(await mirrors((s) => s.assets(ws.id, m.id))).toEqual([a0])
      expect(await storedBytesOf(ws.id, m.id)).toBe(10)
    })

    it("refuses a refresh past the quota, writing nothing, and answers gone for a deleted resource", async () => {
      const ws = await newWorkspace()
      const m = await newMirror(ws.id)
      const first = [page(ws.id, m.id, "p0", 0)]
      await mirrors((s) => s.save(ws.id, m.id, whole(first, [asset(ws.id, m.id, "p0", "b0", 50)]), 100))
      const bigger = whole([page(ws.id, m.id, "p0", 0, "Bigger")], [asset(ws.id, m.id, "p0", "b0", 500)])
      const refused = await attempt(Effect.flatMap(NotionMirrors, (s) => s.save(ws.id, m.id, bigger, 100)))
      expect(Result.isFailure(refused) && refused.failure._tag).toBe("StorageQuotaReached")
      expect((await mirrors((s) => s.pages(ws.id, m.id))).map((p) => p.title)).toEqual(["Page p0"])
      expect(await storedBytesOf(ws.id, m.id)).toBe(50)

      const other = await newWorkspace()
      expect(await mirrors((s) => s.save(other.id, m.id, whole(first, []), undefined))).toBe("gone")
      await run(Effect.flatMap(ResourceRepository, (r) => r.softDelete(ws.id, m.id, refreshedAt)))
      expect(await mirrors((s) => s.save(ws.id, m.id, whole(first, []), undefined))).toBe("gone")
    })

    it("records failed attempts, and lists a mirror for auto-refresh once its interval passed since the last", async () => {
      const ws = await newWorkspace()
      const m = await newMirror(ws.id)
      const interval = (RESOURCE_DATA.notion.refreshIntervalSeconds ?? 0) * 1000
      const due = async (when: Date) =>
        (await mirrors((s) => s.dueForAutoRefresh(when, 100_000, 86_400))).filter((d) => d.tenantId === ws.id)
      // Never refreshed: due an interval after its creation.
      expect(await due(new Date(m.createdAt.getTime() + interval - 1000))).toEqual([])
      expect(await due(new Date(m.createdAt.getTime() + interval))).toEqual([
        { tenantId: ws.id, resourceId: m.id }
      ])

      const failedAt = at("2026-06-01T00:00:00.000Z")
      await mirrors((s) => s.markAttempt(ws.id, m.id, failedAt))
      expect(Option.getOrThrow(await mirrors((s) => s.state(ws.id, m.id)))).toEqual({
        resourceId: m.id,
        tenantId: ws.id,
        lastRefreshedAt: null,
        lastAttemptAt: failedAt
      })
      expect(await due(new Date(failedAt.getTime() + interval - 1000))).toEqual([])
      expect(await due(new Date(failedAt.getTime() + interval))).toEqual([
        { tenantId: ws.id, resourceId: m.id }
      ])

      // Another tenant's attempt on it changes nothing.
      const other = await newWorkspace()
      await mirrors((s) => s.markAttempt(other.id, m.id, at("2026-07-01T00:00:00.000Z")))
      expect(Option.getOrThrow(await mirrors((s) => s.state(ws.id, m.id))).lastAttemptAt).toEqual(failedAt)
    })
  })
}
