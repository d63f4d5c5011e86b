// Contract of ResourceRepository (sharing resources and Markdown versions), run by register-contracts.ts
// against every storage target.
import {
  encodeCursor,
  MARKDOWN_VERSIONS_KEPT,
  type ResourceListQuery,
  type ResourceRecord,
  type ResourceRecordOf,
  ResourceRepository,
  type ResourceRepositoryService,
  type ResourceSort,
  type ResourceType,
  type TenantRecord
} from "@folio/domain"
import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { at, nextResource, RESOURCE_DATA, resource, uuid } from "./fixtures.js"

export interface ContractHarness {
  readonly target: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, ResourceRepository>) => Promise<A>
  readonly newWorkspace: () => Promise<TenantRecord>
}

export const registerResourceContracts = ({ target, run, newWorkspace }: ContractHarness) => {
  const repo = <A, E>(f: (r: ResourceRepositoryService) => Effect.Effect<A, E>) =>
    run(ResourceRepository.pipe(Effect.flatMap(f)))
  const attempt = <A, E>(f: (r: ResourceRepositoryService) => Effect.Effect<A, E>) =>
    run(Effect.result(ResourceRepository.pipe(Effect.flatMap(f))))
  const insert = async <R extends ResourceRecord>(r: R): Promise<R> => {
    await repo((x) => x.insert(r))
    return r
  }
  const read = async (tenantId: string, id: string) =>
    Option.getOrNull(await repo((r) => r.get(tenantId, id)))
  const markdown = (tenantId: string, overrides: Partial<Omit<ResourceRecordOf<"markdown">, "type">> = {}) =>
    resource(tenantId, "markdown", overrides)

  describe(`ResourceRepository [${target}]`, () => {
    it("stores every type with its data and reads it back only for its tenant, by id or slug", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const types: ReadonlyArray<ResourceType> = [
        "link",
        "markdown",
        "collection",
        "notion",
        "bio",
        "file",
        "image"
      ]
      for (const type of types) {
        const r = await insert(
          resource(ws.id, type, {
            description: "For the team",
            passwordHash: "scrypt$16384$8$1$c2FsdA$aGFzaA",
            startsAt: at("2026-04-01T00:00:00.000Z"),
            expiresAt: at("2026-05-01T00:00:00.000Z"),
            labels: ["launch", "q2_2026"],
            maxViews: 100,
            pinned: true
          })
        )
        expect(await read(ws.id, r.id)).toEqual(r)
        expect(Option.getOrNull(await repo((x) => x.getBySlug(ws.id, r.slug)))).toEqual(r)
        expect(Option.getOrNull(await repo((x) => x.getBySlugAnyTenant(r.slug)))).toEqual(r)
        expect(await repo((x) => x.existsAnyTenant(r.id))).toBe(true)
        // Another tenant sees nothing through its own reads.
        expect(await read(other.id, r.id)).toBeNull()
        expect(Option.isNone(await repo((x) => x.getBySlug(other.id, r.slug)))).toBe(true)
      }
      expect(Option.isNone(await repo((x) => x.getBySlugAnyTenant("no-such-slug")))).toBe(true)
    })

    it("tells whether a live resource has an id, whichever tenant holds it", async () => {
      const ws = await newWorkspace()
      const r = await insert(resource(ws.id, "link"))
      expect(await repo((x) => x.existsAnyTenant(r.id))).toBe(true)
      expect(await repo((x) => x.existsAnyTenant(uuid()))).toBe(false)
      expect(await repo((x) => x.existsAnyTenant("not-a-uuid"))).toBe(false)
      await repo((x) => x.softDelete(ws.id, r.id, at("2026-05-01T00:00:00.000Z")))
      expect(await repo((x) => x.existsAnyTenant(r.id))).toBe(false)
    })

    it("counts stored bytes per account: added on insert, moved by updates, given back on delete", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(0)
      const file = await insert(resource(ws.id, "file", { storedBytes: 1000 }))
      await insert(resource(other.id, "file", { storedBytes: 7 }))
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(1000)
      const grown = { ...file, storedBytes: 1500, rowVersion: 2 }
      expect(await repo((x) => x.update(ws.id, grown, { quotaBytes: 2000 }))).toBe("updated")
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(1500)
      // Past the quota: refused, nothing written (neither the row nor the count).
      const tooBig = { ...grown, storedBytes: 2500, title: "too big", rowVersion: 3 }
      const refused = await attempt((x) => x.update(ws.id, tooBig, { quotaBytes: 2000 }))
      expect(Result.isFailure(refused) && refused.failure._tag).toBe("StorageQuotaReached")
      expect((await read(ws.id, file.id))?.title).toBe(file.title)
      const second = await attempt((x) =>
        x.insert(resource(ws.id, "file", { storedBytes: 501 }), { quotaBytes: 2000 })
      )
      expect(Result.isFailure(second) && second.failure._tag).toBe("StorageQuotaReached")
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(1500)
      // Shrinking always passes, even over a quota since lowered.
      const shrunk = { ...grown, storedBytes: 200, rowVersion: 3 }
      expect(await repo((x) => x.update(ws.id, shrunk, { quotaBytes: 100 }))).toBe("updated")
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(200)
      expect(await repo((x) => x.softDelete(ws.id, file.id, at("2026-05-01T00:00:00.000Z")))).toBe(true)
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(0)
      expect(await repo((x) => x.storageUsed(other.id))).toBe(7)
    })

    it("lets concurrent inserts pass the quota together never", async () => {
      const ws = await newWorkspace()
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          attempt((x) => x.insert(resource(ws.id, "file", { storedBytes: 300 }), { quotaBytes: 1000 }))
        )
      )
      expect(results.filter(Result.isSuccess).length).toBe(3)
      expect(await repo((x) => x.storageUsed(ws.id))).toBe(900)
    })

    it("keeps slugs unique among live resources of every tenant, and frees a deleted one's", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const first = await insert(resource(ws.id))
      const clash = await attempt((x) => x.insert(resource(other.id, "markdown", { slug: first.slug })))
      expect(Result.isFailure(clash) && clash.failure).toMatchObject({
        _tag: "ResourceSlugTaken",
        slug: first.slug
      })

      // Renaming onto a taken slug fails and changes nothing.
      const second = await insert(resource(other.id))
      const renamed = await attempt((x) => x.update(other.id, nextResource(second, { slug: first.slug })))
      expect(Result.isFailure(renamed) && renamed.failure._tag).toBe("ResourceSlugTaken")
      expect(await read(other.id, second.id)).toEqual(second)

      expect(await repo((x) => x.softDelete(other.id, first.id, at("2026-04-02T00:00:00.000Z")))).toBe(false)
      expect(await repo((x) => x.softDelete(ws.id, first.id, at("2026-04-02T00:00:00.000Z")))).toBe(true)
      expect(await repo((x) => x.softDelete(ws.id, first.id, at("2026-04-02T00:00:00.000Z")))).toBe(false)
      expect(await read(ws.id, first.id)).toBeNull()
      expect(Option.isNone(await repo((x) => x.getBySlugAnyTenant(first.slug)))).toBe(true)
      const reused = await insert(resource(other.id, "markdown", { slug: first.slug }))
      expect(Option.getOrThrow(await repo((x) => x.getBySlugAnyTenant(first.slug))).id).toBe(reused.id)
    })

    it("lets exactly one of many concurrent inserts with one slug win", async () => {
      const tenants = await Promise.all(Array.from({ length: 3 }, () => newWorkspace()))
      const slug = `race-${uuid().slice(0, 8)}`
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          attempt((x) => x.insert(resource(tenants[i % 3]?.id ?? "", "link", { slug })))
        )
      )
      expect(results.filter(Result.isSuccess)).toHaveLength(1)
      expect(
        results.filter((r) => Result.isFailure(r) && r.failure._tag === "ResourceSlugTaken")
      ).toHaveLength(7)
    })

    it("updates only at the expected row version, of the same tenant and type, and never the counter or visibility", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const r = await insert(resource(ws.id, "link", { viewCount: 7 }))
      const changed = nextResource(r, {
        slug: `${r.slug}-new`,
        title: "Renamed",
        description: "Now described",
        labels: ["a", "b"],
        archived: true,
        data: { ...r.data, targetUrl: "https://example.com/moved", redirectRules: null },
        updatedAt: at("2026-04-03T00:00:00.000Z"),
        // Never written by an update:
        visibility: "private",
        viewCount: 0,
        storedBytes: 0,
        createdAt: at("2030-01-01T00:00:00.000Z")
      })
      expect(await repo((x) => x.update(other.id, changed))).toBe("stale")
      expect(await repo((x) => x.update(ws.id, { ...changed, type: "markdown", data: { body: "x" } }))).toBe(
        "stale"
      )
      expect(await repo((x) => x.update(ws.id, { ...changed, rowVersion: r.rowVersion + 2 }))).toBe("stale")
      expect(await read(ws.id, r.id)).toEqual(r)

      expect(await repo((x) => x.update(ws.id, changed))).toBe("updated")
      expect(await read(ws.id, r.id)).toEqual({
        ...changed,
        visibility: r.visibility,
        viewCount: 7,
        createdAt: r.createdAt
      })
      // The same write again is stale: its expected version is gone.
      expect(await repo((x) => x.update(ws.id, changed))).toBe("stale")
      await repo((x) => x.softDelete(ws.id, r.id, at("2026-04-04T00:00:00.000Z")))
      expect(await repo((x) => x.update(ws.id, nextResource(changed, { title: "After delete" })))).toBe(
        "stale"
      )
    })

    it("adds counted views by id without touching the row version, skipping deleted and unknown ids", async () => {
      const ws = await newWorkspace()
      const a = await insert(resource(ws.id, "link", { viewCount: 2 }))
      const b = await insert(markdown(ws.id))
      const gone = await insert(markdown(ws.id))
      await repo((x) => x.softDelete(ws.id, gone.id, at("2026-04-04T00:00:00.000Z")))
      await repo((x) =>
        x.addViews(
          new Map([
            [a.id, 3],
            [b.id, 1],
            [gone.id, 5],
            [uuid(), 4],
            ["not-a-uuid", 1]
          ])
        )
      )
      // Concurrent flushes (two instances) add up, and an empty batch is no statement.
      await Promise.all(
        Array.from({ length: 8 }, () =>
          repo((x) =>
            x.addViews(
              new Map([
                [a.id, 1],
                [b.id, 2]
              ])
            )
          )
        )
      )
      await repo((x) => x.addViews(new Map()))
      expect(await read(ws.id, a.id)).toEqual({ ...a, viewCount: 13 })
      expect(await read(ws.id, b.id)).toEqual({ ...b, viewCount: 17 })
      // The ETag's row version is the owner's: a view never makes it stale.
      expect(await repo((x) => x.update(ws.id, nextResource(a, { title: "After views" })))).toBe("updated")
    })

    it("lets exactly one of many concurrent updates at one row version win", async () => {
      const ws = await newWorkspace()
      const r = await insert(markdown(ws.id))
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          repo((x) =>
            x.update(ws.id, nextResource(r, { data: { body: `writer ${i}` } }), {
              saveVersion: { id: uuid(), body: r.data.body, createdAt: at("2026-04-02T00:00:00.000Z") }
            })
          )
        )
      )
      expect(results.filter((o) => o === "updated")).toHaveLength(1)
      expect(results.filter((o) => o === "stale")).toHaveLength(9)
      const winner = results.indexOf("updated")
      const stored = await read(ws.id, r.id)
      expect(stored?.type === "markdown" && stored.data.body).toBe(`writer ${winner}`)
      // Only the winner saved a version.
      const versions = await repo((x) => x.listMarkdownVersions(ws.id, r.id))
      expect(versions.map((v) => v.number)).toEqual([1])
    })

    it(`keeps the newest ${MARKDOWN_VERSIONS_KEPT} versions of a page, newest first, each readable in full`, async () => {
      const ws = await newWorkspace()
      let page = await insert(markdown(ws.id, { data: { body: "body 0" } }))
      const t0 = Date.parse("2026-04-01T10:00:00.000Z")
      const saved: Array<string> = []
      for (let i = 1; i <= MARKDOWN_VERSIONS_KEPT + 5; i++) {
        const id = uuid()
        saved.push(id)
        const next = nextResource(page, { data: { body: `body ${i} ✓` }, updatedAt: new Date(t0 + i * 1000) })
        const outcome = await repo((x) =>
          x.update(ws.id, next, {
            saveVersion: { id, body: page.data.body, createdAt: new Date(t0 + i * 1000) }
          })
        )
        expect(outcome).toBe("updated")
        page = next
      }
      const versions = await repo((x) => x.listMarkdownVersions(ws.id, page.id))
      expect(versions).toHaveLength(MARKDOWN_VERSIONS_KEPT)
      expect(versions.map((v) => v.number)).toEqual(Array.from({ length: 50 }, (_, i) => 55 - i))
      expect(versions[0]).toEqual({
        id: saved[54],
        resourceId: page.id,
        number: 55,
        // "body 54 ✓": the check mark is three bytes of UTF-8.
        size: 11,
        createdAt: new Date(t0 + 55 * 1000)
      })
      const newest = Option.getOrThrow(
        await repo((x) => x.getMarkdownVersion(ws.id, page.id, saved[54] ?? ""))
      )
      expect(newest).toEqual({ ...versions[0], body: "body 54 ✓" })
      // Trimmed versions are gone; another tenant reads none.
      expect(Option.isNone(await repo((x) => x.getMarkdownVersion(ws.id, page.id, saved[4] ?? "")))).toBe(
        true
      )
      expect(Option.isSome(await repo((x) => x.getMarkdownVersion(ws.id, page.id, saved[5] ?? "")))).toBe(
        true
      )
      const other = await newWorkspace()
      expect(await repo((x) => x.listMarkdownVersions(other.id, page.id))).toEqual([])
      expect(Option.isNone(await repo((x) => x.getMarkdownVersion(other.id, page.id, saved[54] ?? "")))).toBe(
        true
      )
    })

    it("restores a version as current, saving the replaced source, so a restore can be undone", async () => {
      const ws = await newWorkspace()
      const v1 = { id: uuid(), body: "first", createdAt: at("2026-04-02T00:00:00.000Z") }
      const page = await insert(markdown(ws.id, { data: { body: "first" } }))
      const second = nextResource(page, { data: { body: "second" }, updatedAt: v1.createdAt })
      await repo((x) => x.update(ws.id, second, { saveVersion: v1 }))

      const restoredAt = at("2026-04-03T00:00:00.000Z")
      const undoId = uuid()
      const restore = await repo((x) =>
        x.restoreMarkdownVersion(ws.id, page.id, v1.id, { id: undoId, createdAt: restoredAt })
      )
      if (restore._tag !== "Restored") throw new Error(`expected Restored, got ${restore._tag}`)
      expect(restore.resource).toEqual({
        ...second,
        data: { body: "first" },
        rowVersion: second.rowVersion + 1,
        updatedAt: restoredAt
      })
      expect(await read(ws.id, page.id)).toEqual(restore.resource)
      expect(restore.saved).toMatchObject({ id: undoId, number: 2, size: 6, createdAt: restoredAt })
      // Both the restored version and the replaced source are listed.
      const listed = await repo((x) => x.listMarkdownVersions(ws.id, page.id))
      expect(listed.map((v) => [v.id, v.number])).toEqual([
        [undoId, 2],
        [v1.id, 1]
      ])
      expect(Option.getOrThrow(await repo((x) => x.getMarkdownVersion(ws.id, page.id, undoId))).body).toBe(
        "second"
      )

      // Undo: restoring the saved version brings the replaced source back.
      const undo = await repo((x) =>
        x.restoreMarkdownVersion(ws.id, page.id, undoId, {
          id: uuid(),
          createdAt: at("2026-04-04T00:00:00.000Z"),
          expectedRowVersion: restore.resource.rowVersion
        })
      )
      expect(undo._tag === "Restored" && undo.resource.data.body).toBe("second")
      expect((await repo((x) => x.listMarkdownVersions(ws.id, page.id))).map((v) => v.number)).toEqual([
        3, 2, 1
      ])
    })

    it("refuses a restore of a stale, missing, foreign or non-Markdown page, writing nothing", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const v1 = { id: uuid(), body: "first", createdAt: at("2026-04-02T00:00:00.000Z") }
      const page = await insert(markdown(ws.id, { data: { body: "first" } }))
      const second = nextResource(page, { data: { body: "second" } })
      await repo((x) => x.update(ws.id, second, { saveVersion: v1 }))
      const saveAs = { id: uuid(), createdAt: at("2026-04-03T00:00:00.000Z") }
      const outcome = (
        tenantId: string,
        resourceId: string,
        versionId: string,
        expectedRowVersion?: number
      ) =>
        repo((x) =>
          x.restoreMarkdownVersion(tenantId, resourceId, versionId, { ...saveAs, expectedRowVersion })
        )

      expect((await outcome(ws.id, page.id, v1.id, page.rowVersion))._tag).toBe("Stale")
      expect((await outcome(ws.id, page.id, uuid()))._tag).toBe("VersionNotFound")
      expect((await outcome(other.id, page.id, v1.id))._tag).toBe("ResourceNotFound")
      const link = await insert(resource(ws.id))
      expect((await outcome(ws.id, link.id, v1.id))._tag).toBe("ResourceNotFound")
      // A version of another page is not this page's.
      const another = await insert(markdown(ws.id))
      expect((await outcome(ws.id, another.id, v1.id))._tag).toBe("VersionNotFound")
      expect(await read(ws.id, page.id)).toEqual(second)
      expect(await repo((x) => x.listMarkdownVersions(ws.id, page.id))).toHaveLength(1)
    })

    it("lets exactly one of two concurrent restores at one row version land", async () => {
      const ws = await newWorkspace()
      const v1 = { id: uuid(), body: "first", createdAt: at("2026-04-02T00:00:00.000Z") }
      const page = await insert(markdown(ws.id, { data: { body: "first" } }))
      const second = nextResource(page, { data: { body: "second" } })
      await repo((x) => x.update(ws.id, second, { saveVersion: v1 }))
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () =>
          repo((x) =>
            x.restoreMarkdownVersion(ws.id, page.id, v1.id, {
              id: uuid(),
              createdAt: at("2026-04-03T00:00:00.000Z"),
              expectedRowVersion: second.rowVersion
            })
          )
        )
      )
      expect(outcomes.map((o) => o._tag).sort()).toEqual(["Restored", "Stale", "Stale", "Stale"])
      expect((await repo((x) => x.listMarkdownVersions(ws.id, page.id))).map((v) => v.number)).toEqual([2, 1])
    })

    describe("lists", () => {
      const t = (minute: number) => new Date(Date.parse("2026-05-01T00:00:00.000Z") + minute * 60_000)
      const setUp = async () => {
        const ws = await newWorkspace()
        const other = await newWorkspace()
        const rows = [
          resource(ws.id, "link", { title: "Banana", labels: ["fruit"], createdAt: t(1), updatedAt: t(9) }),
          resource(ws.id, "markdown", {
            title: "apple pie",
            labels: ["fruit", "recipe"],
            createdAt: t(2),
            updatedAt: t(8)
          }),
          resource(ws.id, "link", {
            title: "Cherry",
            description: "50% off",
            pinned: true,
            createdAt: t(3),
            updatedAt: t(3)
          }),
          resource(ws.id, "collection", { title: null, archived: true, createdAt: t(4), updatedAt: t(4) }),
          resource(ws.id, "bio", { title: "Äpfel", labels: ["recipe"], createdAt: t(4), updatedAt: t(5) }),
          resource(ws.id, "notion", { title: "apple", createdAt: t(4), updatedAt: t(6) }),
          resource(ws.id, "link", {
            title: "Date",
            slug: `date_pick-${uuid().slice(0, 6)}`,
            createdAt: t(7),
            updatedAt: t(7)
          })
        ]
        for (const r of rows) await insert(r)
        await insert(resource(other.id, "link", { title: "Banana" }))
        const gone = await insert(resource(ws.id, "link", { title: "Deleted", createdAt: t(5) }))
        await repo((x) => x.softDelete(ws.id, gone.id, t(10)))
        return { ws, rows }
      }

      const walk = async (tenantId: string, query: Omit<ResourceListQuery, "cursor">) => {
        const seen: Array<string> = []
        let cursor: string | undefined
        for (let pages = 0; pages < 20; pages++) {
          const page = await repo((x) => x.list(tenantId, { ...query, cursor }))
          seen.push(...page.items.map((i) => i.id))
          if (page.nextCursor === null) return seen
          cursor = page.nextCursor
        }
        throw new Error("list did not end")
      }

      const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
      const expectedOrder = (rows: ReadonlyArray<ResourceRecord>, sort: ResourceSort) => {
        const key = (r: ResourceRecord): string =>
          sort.startsWith("created")
            ? r.createdAt.toISOString()
            : sort.startsWith("updated")
              ? r.updatedAt.toISOString()
              : (r.title ?? "").normalize("NFKC").toLowerCase()
        const asc = [...rows].sort((a, b) => byId(key(a), key(b)) || byId(a.id, b.id))
        return (sort.endsWith("desc") ? asc.reverse() : asc).map((r) => r.id)
      }

      it("walks every live resource of the tenant exactly once in each order, with cursors", async () => {
        const { ws, rows } = await setUp()
        const sorts: ReadonlyArray<ResourceSort> = [
          "created_desc",
          "created_asc",
          "updated_desc",
          "updated_asc",
          "title_asc",
          "title_desc"
        ]
        for (const sort of sorts) {
          expect(await walk(ws.id, { limit: 2, sort }), sort).toEqual(expectedOrder(rows, sort))
        }
        // Newest first by default; title order folds case ("apple" < "apple pie" < "Banana" < "Äpfel").
        expect(await walk(ws.id, { limit: 3 })).toEqual(expectedOrder(rows, "created_desc"))
        const titles = (await repo((x) => x.list(ws.id, { limit: 10, sort: "title_asc" }))).items.map(
          (i) => i.title
        )
        expect(titles).toEqual([null, "apple", "apple pie", "Banana", "Cherry", "Date", "Äpfel"])
      })

      it("pages by offset too, and leaves a Markdown page's body out", async () => {
        const { ws, rows } = await setUp()
        const all = expectedOrder(rows, "updated_desc")
        const page = await repo((x) => x.list(ws.id, { limit: 2, offset: 3, sort: "updated_desc" }))
        expect(page.items.map((i) => i.id)).toEqual(all.slice(3, 5))
        // The next cursor continues after the page, whatever the offset was.
        const rest = await walk(ws.id, { limit: 10, sort: "updated_desc" })
        expect(rest).toEqual(all)
        const cont = await repo((x) =>
          x.list(ws.id, { limit: 10, sort: "updated_desc", cursor: page.nextCursor ?? "" })
        )
        expect(cont.items.map((i) => i.id)).toEqual(all.slice(5))
        const md = (await repo((x) => x.list(ws.id, { limit: 10, type: "markdown" }))).items
        expect(md).toHaveLength(1)
        expect(md[0]?.data).toEqual({})
        const link = (await repo((x) => x.list(ws.id, { limit: 10, type: "link", sort: "created_asc" })))
          .items[0]
        expect(link?.data).toEqual(RESOURCE_DATA.link)
      })

      it("filters by type, label, archived, pinned and a literal search over title, slug and description", async () => {
        const { ws, rows } = await setUp()
        const ids = async (query: Omit<ResourceListQuery, "limit">) =>
          new Set((await repo((x) => x.list(ws.id, { limit: 50, ...query }))).items.map((i) => i.id))
        const pick = (...indexes: Array<number>) => new Set(indexes.map((i) => rows[i]?.id))
        expect(await ids({ type: "link" })).toEqual(pick(0, 2, 6))
        expect(await ids({ label: "fruit" })).toEqual(pick(0, 1))
        expect(await ids({ label: "recipe", type: "bio" })).toEqual(pick(4))
        expect(await ids({ label: "fru" })).toEqual(pick())
        expect(await ids({ archived: true })).toEqual(pick(3))
        expect(await ids({ archived: false, pinned: true })).toEqual(pick(2))
        expect(await ids({ pinned: false })).toEqual(pick(0, 1, 3, 4, 5, 6))
        expect(await ids({ q: "APPLE" })).toEqual(pick(1, 5))
        // Wildcards match literally: "%" only in the description "50% off", "e_p" only in the slug
        // "date_pick-..." (as a wildcard "_" would match "apple pie" too).
        expect(await ids({ q: "%" })).toEqual(pick(2))
        expect(await ids({ q: "0% o" })).toEqual(pick(2))
        expect(await ids({ q: "e_p" })).toEqual(pick(6))
        expect(await ids({ q: "" })).toEqual(pick(0, 1, 2, 3, 4, 5, 6))
      })

      it("refuses a cursor it did not hand out, or one of another order", async () => {
        const { ws } = await setUp()
        const page = await repo((x) => x.list(ws.id, { limit: 1, sort: "created_desc" }))
        const bad = [
          "not a cursor",
          encodeCursor(["created_desc", "2026-05-01T00:00:00.000Z"]),
          encodeCursor(["created_desc", "yesterday", uuid()]),
          encodeCursor(["created_desc", "2026-05-01T00:00:00.000Z", "not-a-uuid"]),
          encodeCursor([1, 2, 3])
        ]
        for (const cursor of bad) {
          const result = await attempt((x) => x.list(ws.id, { limit: 5, cursor }))
          expect(Result.isFailure(result) && result.failure._tag, cursor).toBe("InvalidCursor")
        }
        const other = await attempt((x) =>
          x.list(ws.id, { limit: 5, sort: "title_asc", cursor: page.nextCursor ?? "" })
        )
        expect(Result.isFailure(other) && other.failure._tag).toBe("InvalidCursor")
      })
    })
  })
}
