// One contract suite per storage port. `registerStorageContracts` runs them all against a target,
// sharing one opened adapter per target (PGlite takes seconds to start).
import {
  type ApiKeyRecord,
  ApiKeyRepository,
  FormRepository,
  type FormRecord,
  type ResponseRecord,
  RateLimitStore,
  ResponseRepository,
  UsageStore,
  TenantRepository
} from "@folio/domain"
import type { StoragePorts } from "@folio/adapters-storage"
import { Effect, Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { at, form, next, publication, response, uuid, workspace } from "./fixtures.js"
import { registerArtifactDeploymentContracts } from "./artifact-deployments.contract.js"
import { registerIdempotencyContracts } from "./idempotency.contract.js"
import { registerResourceContracts } from "./sharing-resources.contract.js"
import type { StorageTarget } from "./targets.js"

type Opened = Awaited<ReturnType<StorageTarget["open"]>>
type Ports = StoragePorts

export const registerStorageContracts = (target: StorageTarget) => {
  let opened: Opened | undefined
  const run = <A, E>(effect: Effect.Effect<A, E, Ports>): Promise<A> => {
    if (opened === undefined) throw new Error("storage not opened")
    return opened.runtime.runPromise(effect as Effect.Effect<A, E, never>)
  }
  const attempt = <A, E>(effect: Effect.Effect<A, E, Ports>) => run(Effect.result(effect))

  describe.skipIf(target.skip)(`storage contracts [${target.name}]`, () => {
    beforeAll(async () => {
      opened = await target.open()
    }, 120_000)
    afterAll(async () => {
      await opened?.close()
    })

    const newWorkspace = async () => {
      const ws = workspace()
      await run(TenantRepository.pipe(Effect.flatMap((r) => r.create(ws))))
      return ws
    }
    const insertForm = async (workspaceId: string, overrides = {}) => {
      const f = form(workspaceId, overrides)
      await run(FormRepository.pipe(Effect.flatMap((r) => r.insert(f))))
      return f
    }
    const publish = async (f: ReturnType<typeof form>, publishedAt?: Date) => {
      const { version, published } = publication(f, publishedAt)
      await run(FormRepository.pipe(Effect.flatMap((r) => r.save(published, version))))
      return { version, published }
    }

    describe(`TenantRepository [${target.name}]`, () => {
      it("creates, reads, counts and sets features", async () => {
        const before = await run(TenantRepository.pipe(Effect.flatMap((r) => r.count)))
        const ws = await newWorkspace()
        const read = await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))
        expect(Option.getOrThrow(read)).toEqual(ws)
        expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.count)))).toBe(before + 1)
        expect(
          await run(TenantRepository.pipe(Effect.flatMap((r) => r.setFeatures(ws.id, { ranking: false }))))
        ).toBe(true)
        const updated = await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))
        expect(Option.getOrThrow(updated).features).toEqual({ ranking: false })
        expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setFeatures(uuid(), {}))))).toBe(false)
        expect(Option.isNone(await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(uuid())))))).toBe(
          true
        )
        const all = await run(TenantRepository.pipe(Effect.flatMap((r) => r.list)))
        expect(all.map((w) => w.id)).toContain(ws.id)
      })

      it("disables and enables a tenant, and its keys say so when looked up", async () => {
        const ws = await newWorkspace()
        const prefix = Math.random().toString(36).slice(2, 8).padEnd(12, "d")
        const key: ApiKeyRecord = {
          id: uuid(),
          tenantId: ws.id,
          service: "sharing",
          name: "d",
          prefix,
          hash: "d".repeat(64),
          scopes: ["read"],
          createdAt: at("2026-01-02T00:00:00.000Z"),
          revokedAt: null,
          lastUsedAt: null,
          tenantDisabled: false
        }
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
        const when = at("2026-03-01T00:00:00.000Z")
        expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(ws.id, when))))).toBe(true)
        expect(
          Option.getOrThrow(await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))).disabledAt
        ).toEqual(when)
        const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
        expect(Option.getOrThrow(found).tenantDisabled).toBe(true)
        const disabled = () => run(TenantRepository.pipe(Effect.flatMap((r) => r.listDisabled)))
        expect(await disabled()).toContain(ws.id)
        expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(ws.id, null))))).toBe(true)
        expect(await disabled()).not.toContain(ws.id)
        const again = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
        expect(Option.getOrThrow(again).tenantDisabled).toBe(false)
        expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(uuid(), null))))).toBe(
          false
        )
      })
    })

    describe(`ApiKeyRepository [${target.name}]`, () => {
      it("finds a key by prefix, lists per tenant and revokes once", async () => {
        const ws = await newWorkspace()
        const other = await newWorkspace()
        const prefix = Math.random().toString(36).slice(2, 8).padEnd(12, "x")
        const key: ApiKeyRecord = {
          id: uuid(),
          tenantId: ws.id,
          service: "forms",
          name: "ci",
          prefix,
          hash: "b".repeat(64),
          scopes: ["forms:read", "files:read"],
          createdAt: at("2026-01-02T00:00:00.000Z"),
          revokedAt: null,
          lastUsedAt: null,
          tenantDisabled: false
        }
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
        expect(
          Option.getOrThrow(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix)))))
        ).toEqual(key)
        expect(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(ws.id))))).toEqual([key])
        expect(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(other.id))))).toEqual([])
        // Another tenant cannot revoke it.
        const revokedAt = at("2026-01-03T00:00:00.000Z")
        expect(
          await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(other.id, key.id, revokedAt))))
        ).toBe(false)
        expect(
          await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(ws.id, key.id, revokedAt))))
        ).toBe(true)
        expect(
          await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(ws.id, key.id, revokedAt))))
        ).toBe(false)
        const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
        expect(Option.getOrThrow(found).revokedAt).toEqual(revokedAt)
      })

      it("keeps each key's service; a tenant holds keys of both services", async () => {
        const ws = await newWorkspace()
        const base = {
          tenantId: ws.id,
          name: "ci",
          hash: "c".repeat(64),
          createdAt: at("2026-01-02T00:00:00.000Z"),
          revokedAt: null,
          lastUsedAt: null,
          tenantDisabled: false
        }
        const prefixOf = () => Math.random().toString(36).slice(2, 8).padEnd(12, "y")
        const forms: ApiKeyRecord = {
          ...base,
          id: uuid(),
          service: "forms",
          prefix: prefixOf(),
          scopes: ["forms:read"]
        }
        const sharing: ApiKeyRecord = {
          ...base,
          id: uuid(),
          service: "sharing",
          prefix: prefixOf(),
          scopes: ["read"]
        }
        for (const key of [forms, sharing])
          await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
        for (const key of [forms, sharing]) {
          const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(key.prefix))))
          expect(Option.getOrThrow(found)).toEqual(key)
        }
        const listed = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(ws.id))))
        expect(listed).toEqual([forms, sharing].sort((a, b) => (a.id < b.id ? -1 : 1)))
      })
    })

    describe(`FormRepository [${target.name}]`, () => {
      it("reads a form back only in its own workspace", async () => {
        const ws = await newWorkspace()
        const other = await newWorkspace()
        const f = await insertForm(ws.id)
        expect(
          Option.getOrThrow(await run(FormRepository.pipe(Effect.flatMap((r) => r.get(ws.id, f.id)))))
        ).toEqual(f)
        expect(
          Option.isNone(await run(FormRepository.pipe(Effect.flatMap((r) => r.get(other.id, f.id)))))
        ).toBe(true)
        expect(
          Option.getOrThrow(await run(FormRepository.pipe(Effect.flatMap((r) => r.getBySlug(f.slug))))).id
        ).toBe(f.id)
      })

      it("saves optimistically: a stale row version fails with StaleForm and changes nothing", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const first = next(f, {
          title: "Renamed",
          draftRevision: 2,
          updatedAt: at("2026-02-01T11:00:00.000Z")
        })
        await run(FormRepository.pipe(Effect.flatMap((r) => r.save(first))))
        const stale = next(f, { title: "Lost update" })
        const result = await attempt(FormRepository.pipe(Effect.flatMap((r) => r.save(stale))))
        expect(Result.isFailure(result) && result.failure._tag).toBe("StaleForm")
        const read = Option.getOrThrow(
          await run(FormRepository.pipe(Effect.flatMap((r) => r.get(ws.id, f.id))))
        )
        expect(read).toEqual(first)
      })

      it("lets exactly one of many concurrent saves with the same expected row version win", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const attempts = Array.from({ length: 10 }, (_, i) => next(f, { title: `Writer ${i}` }))
        const results = await Promise.all(
          attempts.map((a) => attempt(FormRepository.pipe(Effect.flatMap((r) => r.save(a)))))
        )
        expect(results.filter(Result.isSuccess)).toHaveLength(1)
        expect(results.filter((r) => Result.isFailure(r) && r.failure._tag === "StaleForm")).toHaveLength(9)
      })

      it("publishes atomically: the version row and the form update land together or not at all", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version, published } = await publish(f)
        const read = Option.getOrThrow(
          await run(FormRepository.pipe(Effect.flatMap((r) => r.get(ws.id, f.id))))
        )
        expect(read.currentVersionId).toBe(version.id)
        expect(
          Option.getOrThrow(
            await run(FormRepository.pipe(Effect.flatMap((r) => r.getVersion(ws.id, f.id, version.id))))
          )
        ).toEqual(version)

        // A stale publish must not leave its version row behind.
        const stale = publication(f)
        const result = await attempt(
          FormRepository.pipe(Effect.flatMap((r) => r.save(stale.published, stale.version)))
        )
        expect(Result.isFailure(result)).toBe(true)
        const orphan = await run(
          FormRepository.pipe(Effect.flatMap((r) => r.getVersion(ws.id, f.id, stale.version.id)))
        )
        expect(Option.isNone(orphan)).toBe(true)

        // The same version number twice is impossible, even with a fresh row version.
        const dup = publication({ ...published, versionCount: 0 })
        const dupResult = await attempt(
          FormRepository.pipe(Effect.flatMap((r) => r.save(dup.published, dup.version)))
        )
        expect(Result.isFailure(dupResult) && dupResult.failure._tag).toBe("StaleForm")
      })

      it("isolates concurrent transactions: one rolling back never takes another's writes with it", async () => {
        const ws = await newWorkspace()
        const pairs = await Promise.all(Array.from({ length: 6 }, () => insertForm(ws.id)))
        // Even forms publish validly; odd ones publish from a stale read, so their transaction inserts a
        // version row and then rolls back when the form update finds nothing to update.
        const attempts = pairs.map((f, i) => {
          const p = publication(i % 2 === 0 ? f : { ...f, rowVersion: f.rowVersion + 5 })
          return { f, p, ok: i % 2 === 0 }
        })
        const results = await Promise.all(
          attempts.map(({ p }) =>
            attempt(FormRepository.pipe(Effect.flatMap((r) => r.save(p.published, p.version))))
          )
        )
        expect(results.map(Result.isSuccess)).toEqual(attempts.map((a) => a.ok))
        for (const { f, p, ok } of attempts) {
          const version = await run(
            FormRepository.pipe(Effect.flatMap((r) => r.getVersion(ws.id, f.id, p.version.id)))
          )
          expect(Option.isSome(version)).toBe(ok)
        }
      })

      it("keeps slugs unique among live forms and frees them on soft delete", async () => {
        const ws = await newWorkspace()
        const a = await insertForm(ws.id)
        const clash = await attempt(
          FormRepository.pipe(Effect.flatMap((r) => r.insert(form(ws.id, { slug: a.slug }))))
        )
        expect(Result.isFailure(clash) && clash.failure._tag).toBe("SlugTaken")
        const b = await insertForm(ws.id)
        const rename = await attempt(
          FormRepository.pipe(Effect.flatMap((r) => r.save(next(b, { slug: a.slug }))))
        )
        expect(Result.isFailure(rename) && rename.failure._tag).toBe("SlugTaken")

        expect(
          await run(
            FormRepository.pipe(
              Effect.flatMap((r) => r.softDelete(ws.id, a.id, at("2026-04-01T00:00:00.000Z")))
            )
          )
        ).toBe(true)
        expect(
          await run(
            FormRepository.pipe(
              Effect.flatMap((r) => r.softDelete(ws.id, a.id, at("2026-04-01T00:00:00.000Z")))
            )
          )
        ).toBe(false)
        expect(Option.isNone(await run(FormRepository.pipe(Effect.flatMap((r) => r.get(ws.id, a.id)))))).toBe(
          true
        )
        await run(FormRepository.pipe(Effect.flatMap((r) => r.insert(form(ws.id, { slug: a.slug })))))
      })

      it("walks every form exactly once, newest first, with filters, search and cursors", async () => {
        const ws = await newWorkspace()
        const made: Array<FormRecord> = []
        for (let i = 0; i < 13; i++) {
          const stamp = at(`2026-05-01T00:00:${String(i % 7).padStart(2, "0")}.000Z`) // ties on updatedAt
          made.push(
            await insertForm(ws.id, {
              title: i % 3 === 0 ? `Feedback ${i}` : `Survey ${i}`,
              kind: i % 2 === 0 ? "classic" : "interview",
              updatedAt: stamp
            })
          )
        }
        const expected = [...made]
          .sort((x, y) => y.updatedAt.getTime() - x.updatedAt.getTime() || (y.id < x.id ? -1 : 1))
          .map((f) => f.id)
        const seen: Array<string> = []
        let cursor: string | undefined
        do {
          const page = await run(
            FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 4, cursor })))
          )
          seen.push(...page.items.map((i) => i.id))
          cursor = page.nextCursor ?? undefined
        } while (cursor !== undefined)
        expect(seen).toEqual(expected)

        const interviews = await run(
          FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 100, kind: "interview" })))
        )
        expect(interviews.items).toHaveLength(6)
        const search = await run(
          FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 100, search: "FEEDBACK" })))
        )
        expect(search.items.map((i) => i.title).sort()).toEqual([
          "Feedback 0",
          "Feedback 12",
          "Feedback 3",
          "Feedback 6",
          "Feedback 9"
        ])
        const literal = await run(
          FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 100, search: "%" })))
        )
        expect(literal.items).toHaveLength(0)
        const bySlug = await run(
          FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 100, search: made[1]?.slug })))
        )
        expect(bySlug.items.map((i) => i.id)).toEqual([made[1]?.id])
        expect(
          (await run(FormRepository.pipe(Effect.flatMap((r) => r.list(uuid(), { limit: 100 }))))).items
        ).toEqual([])

        for (const bad of ["nope", "WzFd", Buffer.from('["x",1]').toString("base64url")]) {
          const result = await attempt(
            FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 5, cursor: bad })))
          )
          expect(Result.isFailure(result) && result.failure._tag).toBe("InvalidCursor")
        }
      })

      it("counts completed responses per form in the list", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        await run(ResponseRepository.pipe(Effect.flatMap((r) => r.insert(response(f, version.id)))))
        await run(ResponseRepository.pipe(Effect.flatMap((r) => r.insert(response(f, version.id)))))
        await run(
          ResponseRepository.pipe(
            Effect.flatMap((r) => r.insert(response(f, version.id, { status: "partial", completedAt: null })))
          )
        )
        const page = await run(FormRepository.pipe(Effect.flatMap((r) => r.list(ws.id, { limit: 10 }))))
        expect(page.items[0]?.responseCount).toBe(2)
      })

      it("pages versions newest first and hides another workspace's", async () => {
        const ws = await newWorkspace()
        let f = await insertForm(ws.id)
        for (let i = 0; i < 5; i++) f = (await publish(f, at(`2026-06-0${i + 1}T00:00:00.000Z`))).published
        const versions: Array<number> = []
        let cursor: string | undefined
        do {
          const page = await run(
            FormRepository.pipe(Effect.flatMap((r) => r.listVersions(ws.id, f.id, { limit: 2, cursor })))
          )
          versions.push(...page.items.map((v) => v.version))
          expect(page.items.every((v) => !("definition" in v))).toBe(true)
          cursor = page.nextCursor ?? undefined
        } while (cursor !== undefined)
        expect(versions).toEqual([5, 4, 3, 2, 1])
        const other = await newWorkspace()
        expect(
          (
            await run(
              FormRepository.pipe(Effect.flatMap((r) => r.listVersions(other.id, f.id, { limit: 10 })))
            )
          ).items
        ).toEqual([])
      })
    })

    describe(`ResponseRepository [${target.name}]`, () => {
      it("stores, updates, lists by status with cursors and counts", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const made: Array<ResponseRecord> = []
        for (let i = 0; i < 7; i++) {
          const r = response(f, version.id, {
            createdAt: at(`2026-03-0${i + 1}T00:00:00.000Z`),
            ...(i % 2 === 1 ? { status: "partial" as const, completedAt: null } : {})
          })
          made.push(r)
          await run(ResponseRepository.pipe(Effect.flatMap((repo) => repo.insert(r))))
        }
        expect(await run(ResponseRepository.pipe(Effect.flatMap((r) => r.count(ws.id, f.id))))).toBe(7)
        expect(
          await run(ResponseRepository.pipe(Effect.flatMap((r) => r.count(ws.id, f.id, "completed"))))
        ).toBe(4)
        const seen: Array<string> = []
        let cursor: string | undefined
        do {
          const page = await run(
            ResponseRepository.pipe(
              Effect.flatMap((r) => r.list(ws.id, f.id, { limit: 3, cursor, status: "completed" }))
            )
          )
          seen.push(...page.items.map((i) => i.id))
          cursor = page.nextCursor ?? undefined
        } while (cursor !== undefined)
        expect(seen).toEqual(
          made
            .filter((r) => r.status === "completed")
            .reverse()
            .map((r) => r.id)
        )

        const first = made[1]
        if (first === undefined) throw new Error("fixture")
        const done = {
          ...first,
          status: "completed" as const,
          completedAt: at("2026-03-09T00:00:00.000Z"),
          answers: { x: [1, 2] },
          version: 2
        }
        expect(
          await run(
            ResponseRepository.pipe(Effect.flatMap((r) => r.update(done, { status: "partial", version: 1 })))
          )
        ).toBe("updated")
        expect(
          Option.getOrThrow(
            await run(ResponseRepository.pipe(Effect.flatMap((r) => r.get(ws.id, f.id, first.id))))
          )
        ).toEqual(done)
        const other = await newWorkspace()
        expect(
          Option.isNone(
            await run(ResponseRepository.pipe(Effect.flatMap((r) => r.get(other.id, f.id, first.id))))
          )
        ).toBe(true)
      })
    })

    describe(`ResponseRepository conditional writes [${target.name}]`, () => {
      const repo = <A, E>(f: (r: ResponseRepository["Service"]) => Effect.Effect<A, E>) =>
        run(ResponseRepository.pipe(Effect.flatMap(f)))
      const completion = (r: ResponseRecord, answers: Record<string, unknown>): ResponseRecord => ({
        ...r,
        status: "completed",
        answers,
        completedAt: at("2026-03-09T00:00:00.000Z"),
        updatedAt: at("2026-03-09T00:00:00.000Z"),
        version: r.version + 1
      })

      it("updates only the row at the expected status and version, and exactly one of many racing", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const started = response(f, version.id, { status: "partial", completedAt: null, answers: {} })
        await repo((r) => r.insert(started))
        const saved = { ...started, answers: { q: "draft" }, version: 2 }
        expect(await repo((r) => r.update(saved, { status: "partial", version: 1 }))).toBe("updated")
        // A writer that read version 1 lost: nothing it sends is stored.
        expect(
          await repo((r) => r.update(completion(started, { q: "stale" }), { status: "partial", version: 1 }))
        ).toBe("stale")
        // The right version but the wrong status is stale as well.
        expect(
          await repo((r) => r.update({ ...saved, version: 3 }, { status: "completed", version: 2 }))
        ).toBe("stale")
        expect(Option.getOrThrow(await repo((r) => r.get(ws.id, f.id, started.id)))).toEqual(saved)
        // Another workspace's or an unknown row is never written.
        expect(
          await repo((r) =>
            r.update({ ...saved, workspaceId: uuid(), version: 3 }, { status: "partial", version: 2 })
          )
        ).toBe("stale")
        expect(
          await repo((r) => r.update({ ...saved, id: uuid(), version: 3 }, { status: "partial", version: 2 }))
        ).toBe("stale")

        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            repo((r) => r.update(completion(saved, { q: `w${i}` }), { status: "partial", version: 2 }))
          )
        )
        expect(results.filter((x) => x === "updated")).toHaveLength(1)
        expect(results.filter((x) => x === "stale")).toHaveLength(9)
        const winner = results.indexOf("updated")
        const stored = Option.getOrThrow(await repo((r) => r.get(ws.id, f.id, started.id)))
        expect(stored).toMatchObject({ status: "completed", answers: { q: `w${winner}` }, version: 3 })
        // The aggregates hold the winner alone.
        const stats = await repo((r) =>
          r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 0 })
        )
        expect(stats.tokens.filter((t) => t.blockId === "q").map((t) => [t.token, t.count])).toEqual([
          [`w${winner}`, 1]
        ])
      })

      it("completes at most maxCompleted responses of a form, even all at once", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const done = response(f, version.id, { answers: { q: "early" } })
        await repo((r) => r.insert(done))
        const partials = Array.from({ length: 8 }, () =>
          response(f, version.id, { status: "partial", completedAt: null, answers: {} })
        )
        for (const p of partials) await repo((r) => r.insert(p))
        const results = await Promise.all(
          partials.map((p, i) =>
            repo((r) =>
              r.update(completion(p, { q: `c${i}` }), { status: "partial", version: 1, maxCompleted: 4 })
            )
          )
        )
        expect(results.filter((x) => x === "updated")).toHaveLength(3)
        expect(results.filter((x) => x === "full")).toHaveLength(5)
        expect(await repo((r) => r.count(ws.id, f.id, "completed"))).toBe(4)
        // A refused completion left its row and the aggregates untouched.
        const refused = partials[results.indexOf("full")]
        if (refused === undefined) throw new Error("fixture")
        expect(Option.getOrThrow(await repo((r) => r.get(ws.id, f.id, refused.id)))).toEqual(refused)
        const stats = await repo((r) =>
          r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 0 })
        )
        expect(stats.blocks.find((b) => b.blockId === "q")?.answered).toBe(4)
        // Saves and edits are not completions: the cap does not apply to them.
        const kept = partials[results.indexOf("updated")]
        if (kept === undefined) throw new Error("fixture")
        const edit = { ...completion(kept, { q: "edited" }), version: 3 }
        expect(await repo((r) => r.update(edit, { status: "completed", version: 2, maxCompleted: 4 }))).toBe(
          "updated"
        )
      })

      it("stores at most maxPerBlock files per response and block, even all at once", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const a = response(f, version.id, { status: "partial", completedAt: null })
        await repo((r) => r.insert(a))
        const file = (blockId: string) => {
          const id = uuid()
          return {
            id,
            workspaceId: ws.id,
            formId: f.id,
            responseId: a.id,
            blockId,
            key: `workspaces/${ws.id}/forms/${f.id}/responses/${a.id}/${id}`,
            filename: "f.pdf",
            contentType: "application/pdf",
            size: 1,
            createdAt: at("2026-03-01T00:00:00.000Z")
          }
        }
        const results = await Promise.all(
          Array.from({ length: 12 }, () => repo((r) => r.insertFile(file("blk_one"), 4)))
        )
        expect(results.filter((x) => x)).toHaveLength(4)
        // The cap is per block; without a cap nothing is counted.
        expect(await repo((r) => r.insertFile(file("blk_two"), 4))).toBe(true)
        expect(await repo((r) => r.insertFile(file("blk_one")))).toBe(true)
        const files = await repo((r) => r.listFiles(ws.id, f.id, [a.id]))
        expect(files.filter((x) => x.blockId === "blk_one")).toHaveLength(5)
        expect(files.filter((x) => x.blockId === "blk_two")).toHaveLength(1)
      })
    })

    describe(`ResponseRepository.answerStats [${target.name}]`, () => {
      it("aggregates completed responses: answered, numbers, choice tokens, positions, samples, scores", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const rows = [
          {
            answers: { q: "a", n: 2, c: ["x", "y"], t: "first" },
            scores: [{ id: "s1", score: 3 }],
            at: "2026-03-01T00:00:00.000Z"
          },
          {
            answers: { q: "b", n: 4, c: ["y"], t: "second" },
            scores: [{ id: "s1", score: 5 }],
            at: "2026-03-02T00:00:00.000Z"
          },
          {
            answers: { q: "a", c: ["y", "x"] },
            scores: [{ id: "s1", score: null }],
            at: "2026-03-03T00:00:00.000Z"
          }
        ]
        for (const row of rows) {
          await run(
            ResponseRepository.pipe(
              Effect.flatMap((r) =>
                r.insert(
                  response(f, version.id, {
                    answers: row.answers,
                    meta: { scores: row.scores },
                    createdAt: at(row.at),
                    completedAt: at(row.at)
                  })
                )
              )
            )
          )
        }
        // A partial response never counts.
        await run(
          ResponseRepository.pipe(
            Effect.flatMap((r) =>
              r.insert(
                response(f, version.id, { answers: { q: "zzz" }, status: "partial", completedAt: null })
              )
            )
          )
        )
        const stats = await run(
          ResponseRepository.pipe(
            Effect.flatMap((r) => r.answerStats(ws.id, f.id, { sampleBlockIds: ["t"], samplesPerBlock: 1 }))
          )
        )
        const block = (id: string) => stats.blocks.find((b) => b.blockId === id)
        expect(block("q")).toMatchObject({ answered: 3, average: null })
        expect(block("n")).toEqual({ blockId: "n", answered: 2, average: 3, min: 2, max: 4 })
        const token = (id: string, t: string) => stats.tokens.find((x) => x.blockId === id && x.token === t)
        expect(token("q", "a")).toMatchObject({ count: 2, avgPosition: null })
        expect(token("q", "zzz")).toBeUndefined()
        expect(token("c", "y")).toMatchObject({ count: 3 })
        expect(token("c", "y")?.avgPosition).toBeCloseTo(4 / 3, 10) // positions 2, 1, 1
        expect(token("c", "x")?.avgPosition).toBeCloseTo(1.5, 10)
        expect(stats.samples).toEqual([{ blockId: "t", text: "second" }])
        expect(stats.scores).toEqual([{ id: "s1", count: 2, average: 4, min: 3, max: 5 }])
      })
    })

    describe(`ResponseRepository.answerStats under completion, edits and rebuilds [${target.name}]`, () => {
      it("keeps the aggregates exact when a completed response is edited and after a rebuild", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const stats = () =>
          run(
            ResponseRepository.pipe(
              Effect.flatMap((r) => r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 0 }))
            )
          )
        const a = response(f, version.id, {
          status: "partial",
          completedAt: null,
          answers: { n: 1, c: ["x"] }
        })
        const b = response(f, version.id, {
          answers: { n: 9, q: "k" },
          meta: { scores: [{ id: "s", score: 9 }] }
        })
        await run(ResponseRepository.pipe(Effect.flatMap((r) => r.insert(a))))
        await run(ResponseRepository.pipe(Effect.flatMap((r) => r.insert(b))))
        // A partial response does not count; its completion does.
        expect((await stats()).blocks.find((x) => x.blockId === "n")).toMatchObject({
          answered: 1,
          min: 9,
          max: 9
        })
        const done = {
          ...a,
          status: "completed" as const,
          completedAt: at("2026-03-05T00:00:00.000Z"),
          meta: { scores: [{ id: "s", score: 1 }] },
          version: 2
        }
        await run(
          ResponseRepository.pipe(Effect.flatMap((r) => r.update(done, { status: "partial", version: 1 })))
        )
        expect((await stats()).blocks.find((x) => x.blockId === "n")).toEqual({
          blockId: "n",
          answered: 2,
          average: 5,
          min: 1,
          max: 9
        })
        // Editing the response that held the maximum: the extreme is recomputed, not left stale.
        const edited = {
          ...b,
          answers: { n: 4, q: "z" },
          meta: { scores: [{ id: "s", score: 4 }] },
          version: 2
        }
        await run(
          ResponseRepository.pipe(
            Effect.flatMap((r) => r.update(edited, { status: "completed", version: 1 }))
          )
        )
        const after = await stats()
        expect(after.blocks.find((x) => x.blockId === "n")).toEqual({
          blockId: "n",
          answered: 2,
          average: 2.5,
          min: 1,
          max: 4
        })
        expect(after.tokens.filter((t) => t.blockId === "q").map((t) => [t.token, t.count])).toEqual([
          ["z", 1]
        ])
        expect(after.tokens.find((t) => t.blockId === "c")).toMatchObject({
          token: "x",
          count: 1,
          avgPosition: 1
        })
        expect(after.scores).toEqual([{ id: "s", count: 2, average: 2.5, min: 1, max: 4 }])
        await run(ResponseRepository.pipe(Effect.flatMap((r) => r.rebuildAnswerStats(f.id))))
        const rebuilt = await stats()
        const sorted = (x: typeof rebuilt) => ({
          blocks: [...x.blocks].sort((p, q) => (p.blockId < q.blockId ? -1 : 1)),
          tokens: [...x.tokens].sort((p, q) =>
            `${p.blockId}${p.token}` < `${q.blockId}${q.token}` ? -1 : 1
          ),
          scores: x.scores
        })
        expect(sorted(rebuilt)).toEqual(sorted(after))
      })
    })

    describe(`ResponseRepository files, respondents and activity [${target.name}]`, () => {
      const repo = <A, E>(f: (r: ResponseRepository["Service"]) => Effect.Effect<A, E>) =>
        run(ResponseRepository.pipe(Effect.flatMap(f)))

      it("stores response files per response, finds one by id only in its form and workspace", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const a = response(f, version.id)
        const b = response(f, version.id)
        await repo((r) => r.insert(a))
        await repo((r) => r.insert(b))
        const file = (responseId: string, n: number) => ({
          id: crypto.randomUUID(),
          workspaceId: ws.id,
          formId: f.id,
          responseId,
          blockId: "blk_files",
          key: `workspaces/${ws.id}/forms/${f.id}/responses/${responseId}/${n}`,
          filename: `f${n}.pdf`,
          contentType: "application/pdf",
          size: n,
          createdAt: at(`2026-03-0${n}T00:00:00.000Z`)
        })
        const files = [file(a.id, 1), file(a.id, 2), file(b.id, 3)]
        for (const x of files) await repo((r) => r.insertFile(x))
        // The key is unique: a second row for the same object is refused.
        const dup = await run(
          Effect.result(
            ResponseRepository.pipe(
              Effect.flatMap((r) => r.insertFile({ ...file(a.id, 1), id: crypto.randomUUID() }))
            )
          )
        )
        expect(Result.isFailure(dup)).toBe(true)
        expect((await repo((r) => r.listFiles(ws.id, f.id, [a.id]))).map((x) => x.size)).toEqual([1, 2])
        expect(await repo((r) => r.listFiles(ws.id, f.id, [a.id, b.id]))).toEqual(files)
        expect(await repo((r) => r.listFiles(ws.id, f.id, []))).toEqual([])
        expect(Option.getOrThrow(await repo((r) => r.getFile(ws.id, f.id, files[2]?.id ?? "")))).toEqual(
          files[2]
        )
        const other = await newWorkspace()
        expect(Option.isNone(await repo((r) => r.getFile(other.id, f.id, files[2]?.id ?? "")))).toBe(true)
      })

      it("finds a browser's newest partial response on one version: never a completed one, another version's or another browser's", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const first = await publish(f)
        const second = await publish(first.published)
        const v1 = first.version.id
        const v2 = second.version.id
        const partial = (formVersionId: string, key: string, createdAt: string) =>
          response(f, formVersionId, {
            status: "partial",
            completedAt: null,
            createdAt: at(createdAt),
            answers: { q: createdAt },
            meta: { respondentKey: key, tokenHash: "old" }
          })
        const older = partial(v1, "k1", "2026-03-01T00:00:00.000Z")
        const newest = partial(v1, "k1", "2026-03-02T00:00:00.000Z")
        const rows = [
          older,
          newest,
          // Newer, but completed, on the other version, or another browser's.
          response(f, v1, { createdAt: at("2026-03-03T00:00:00.000Z"), meta: { respondentKey: "k1" } }),
          partial(v2, "k1", "2026-03-04T00:00:00.000Z"),
          partial(v1, "k2", "2026-03-05T00:00:00.000Z"),
          // Started in the same instant: the larger id is the newer.
          partial(v1, "k3", "2026-03-06T00:00:00.000Z"),
          partial(v1, "k3", "2026-03-06T00:00:00.000Z")
        ]
        for (const row of rows) await repo((r) => r.insert(row))
        const find = (formVersionId: string, respondentKey: string, workspaceId = ws.id) =>
          repo((r) => r.findResumable(workspaceId, f.id, { formVersionId, respondentKey }))
        expect(Option.getOrThrow(await find(v1, "k1"))).toEqual(newest)
        expect(Option.getOrThrow(await find(v2, "k1")).createdAt).toEqual(at("2026-03-04T00:00:00.000Z"))
        const ties = rows.slice(5).map((x) => x.id)
        expect(Option.getOrThrow(await find(v1, "k3")).id).toBe([...ties].sort().at(-1))
        expect(Option.isNone(await find(v1, "k4"))).toBe(true)
        expect(Option.isNone(await find(v1, "k1", (await newWorkspace()).id))).toBe(true)

        // The token rotation is the compare-and-set update: once, at the version read, while partial.
        const rotated = { ...newest, meta: { ...newest.meta, tokenHash: "new" }, version: 2 }
        expect(await repo((r) => r.update(rotated, { status: "partial", version: 1 }))).toBe("updated")
        expect(
          await repo((r) =>
            r.update({ ...rotated, meta: { tokenHash: "lost" } }, { status: "partial", version: 1 })
          )
        ).toBe("stale")
        expect(Option.getOrThrow(await find(v1, "k1"))).toEqual(rotated)
        // Once completed it is not resumable: the next newest partial is.
        const done = {
          ...rotated,
          status: "completed" as const,
          completedAt: at("2026-03-09T00:00:00.000Z"),
          version: 3
        }
        expect(await repo((r) => r.update(done, { status: "partial", version: 2 }))).toBe("updated")
        expect(Option.getOrThrow(await find(v1, "k1"))).toEqual(older)
      })

      it("lets a token rotation and a completion of the same partial response never both land", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const wins = { rotation: 0, completion: 0 }
        for (let trial = 0; trial < 8; trial++) {
          const started = response(f, version.id, {
            status: "partial",
            completedAt: null,
            answers: {},
            meta: { respondentKey: "k", tokenHash: "old" }
          })
          await repo((r) => r.insert(started))
          const rotation = { ...started, meta: { ...started.meta, tokenHash: "new" }, version: 2 }
          const completion = {
            ...started,
            status: "completed" as const,
            answers: { q: "done" },
            completedAt: at("2026-03-09T00:00:00.000Z"),
            version: 2
          }
          const [rotated, completed] = await Promise.all([
            repo((r) => r.update(rotation, { status: "partial", version: 1 })),
            repo((r) => r.update(completion, { status: "partial", version: 1 }))
          ])
          expect([rotated, completed].sort()).toEqual(["stale", "updated"])
          const stored = Option.getOrThrow(await repo((r) => r.get(ws.id, f.id, started.id)))
          expect(stored).toEqual(rotated === "updated" ? rotation : completion)
          wins[rotated === "updated" ? "rotation" : "completion"]++
        }
        console.info(
          `[${target.name}] rotation vs completion x8: rotation won ${wins.rotation}, completion ${wins.completion}`
        )
      })

      it("counts earlier responses by respondent key and by client hash within the window", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const rows = [
          { key: "k1", client: "c1", status: "completed" as const, at: "2026-03-01T00:00:00.000Z" },
          { key: "k1", client: "c1", status: "partial" as const, at: "2026-03-02T00:00:00.000Z" },
          { key: "k2", client: "c1", status: "completed" as const, at: "2026-01-01T00:00:00.000Z" },
          { key: "k3", client: "c2", status: "completed" as const, at: "2026-03-03T00:00:00.000Z" }
        ]
        for (const x of rows) {
          await repo((r) =>
            r.insert(
              response(f, version.id, {
                status: x.status,
                completedAt: x.status === "completed" ? at(x.at) : null,
                createdAt: at(x.at),
                meta: { respondentKey: x.key, clientHash: x.client }
              })
            )
          )
        }
        const since = at("2026-02-01T00:00:00.000Z")
        expect(
          await repo((r) =>
            r.respondentHistory(ws.id, f.id, { respondentKey: "k1", clientHash: "c1", since })
          )
        ).toEqual({
          byKey: { total: 2, completed: 1 },
          byClient: { total: 2, completed: 1 }
        })
        expect(
          await repo((r) =>
            r.respondentHistory(ws.id, f.id, { respondentKey: null, clientHash: "c2", since })
          )
        ).toEqual({
          byKey: { total: 0, completed: 0 },
          byClient: { total: 1, completed: 1 }
        })
      })

      it("aggregates activity of a date cohort and interview stats without reading transcripts", async () => {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const mk = (createdAt: string, completedAfterSeconds: number | null, interview?: unknown) =>
          repo((r) =>
            r.insert(
              response(f, version.id, {
                createdAt: at(createdAt),
                status: completedAfterSeconds === null ? ("partial" as const) : ("completed" as const),
                completedAt:
                  completedAfterSeconds === null
                    ? null
                    : new Date(at(createdAt).getTime() + completedAfterSeconds * 1000),
                meta: interview === undefined ? {} : { interview }
              })
            )
          )
        await mk("2026-03-01T10:00:00.000Z", 60, {
          transcript: [{ role: "user", content: "x", blockId: "b", turnId: "t" }],
          analysisStatus: "completed",
          insights: [{ code: "price" }, { code: "price" }, { code: "speed" }],
          quality: { completionReason: null, exchangeCount: 4, followupCount: 0 }
        })
        await mk("2026-03-01T12:00:00.000Z", 120, {
          analysisStatus: "failed",
          insights: [{ codeId: "price" }]
        })
        await mk("2026-03-02T10:00:00.000Z", null, {
          transcript: [{ role: "assistant", content: "q", blockId: "b", turnId: "t" }]
        })
        await mk("2026-04-01T10:00:00.000Z", 30)
        const activity = await repo((r) =>
          r.activity(ws.id, f.id, {
            from: at("2026-03-01T00:00:00.000Z"),
            to: at("2026-03-31T00:00:00.000Z")
          })
        )
        expect(activity).toEqual({
          started: 3,
          completed: 2,
          averageCompletionSeconds: 90,
          medianCompletionSeconds: 90,
          daily: [
            { day: "2026-03-01", started: 2, completed: 2 },
            { day: "2026-03-02", started: 1, completed: 0 }
          ]
        })
        const stats = await repo((r) => r.interviewStats(ws.id, f.id))
        expect(stats).toEqual({
          started: 4,
          engaged: 1,
          completed: 3,
          analysis: { completed: 1, failed: 1, pending: 1 },
          codes: [
            { code: "price", responses: 2, mentions: 3 },
            { code: "speed", responses: 1, mentions: 1 }
          ],
          averageExchangeCount: 4
        })
      })
    })

    describe(`RateLimitStore [${target.name}]`, () => {
      it("counts hits per bucket in fixed windows", async () => {
        const bucket = `key:${uuid()}`
        const t0 = Date.parse("2026-07-01T00:00:10.000Z")
        const hits = []
        for (let i = 0; i < 5; i++)
          hits.push(await run(RateLimitStore.pipe(Effect.flatMap((r) => r.hit(bucket, 60_000, t0 + i)))))
        expect(hits.map((h) => h.count)).toEqual([1, 2, 3, 4, 5])
        expect(hits[0]?.resetAt).toBe(Date.parse("2026-07-01T00:01:00.000Z"))
        expect(
          (await run(RateLimitStore.pipe(Effect.flatMap((r) => r.peek(bucket, 60_000, t0))))).count
        ).toBe(5)
        const nextWindow = await run(
          RateLimitStore.pipe(Effect.flatMap((r) => r.hit(bucket, 60_000, t0 + 60_000)))
        )
        expect(nextWindow.count).toBe(1)
        expect(
          (await run(RateLimitStore.pipe(Effect.flatMap((r) => r.peek(`other:${uuid()}`, 60_000, t0))))).count
        ).toBe(0)
        const concurrent = await Promise.all(
          Array.from({ length: 20 }, () =>
            run(RateLimitStore.pipe(Effect.flatMap((r) => r.hit(`${bucket}:c`, 60_000, t0))))
          )
        )
        expect(concurrent.map((h) => h.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1)
        )
      })

      it("adds batches, and a zero add reads a total back (the buffered store's refresh)", async () => {
        const bucket = `key:${uuid()}`
        const t0 = Date.parse("2026-07-01T00:00:10.000Z")
        const add = (entries: ReadonlyArray<{ bucket: string; hits: number }>) =>
          run(RateLimitStore.pipe(Effect.flatMap((r) => r.addMany(entries, 60_000, t0))))
        expect((await add([{ bucket, hits: 3 }])).map((h) => h.count)).toEqual([3])
        expect(
          (
            await add([
              { bucket, hits: 0 },
              { bucket: `${bucket}:new`, hits: 0 }
            ])
          ).map((h) => h.count)
        ).toEqual([3, 0])
        expect(
          (
            await add([
              { bucket, hits: 2 },
              { bucket: `${bucket}:b`, hits: 0 }
            ])
          ).map((h) => h.count)
        ).toEqual([5, 0])
      })
    })

    registerResourceContracts({ target: target.name, run, newWorkspace })
    registerIdempotencyContracts({ target: target.name, run, newWorkspace })
    registerArtifactDeploymentContracts({ target: target.name, run, newWorkspace })

    describe(`UsageStore [${target.name}]`, () => {
      it("counts a workspace's requests over 24 h and 7 d by status class", async () => {
        const ws = await newWorkspace()
        const now = at("2026-08-10T12:00:00.000Z")
        const ago = (ms: number) => new Date(now.getTime() - ms)
        const H = 3_600_000
        const records = [
          { status: 200, at: ago(1 * H) },
          { status: 201, at: ago(2 * H) },
          { status: 404, at: ago(3 * H) },
          { status: 500, at: ago(4 * H) },
          { status: 200, at: ago(48 * H) },
          { status: 429, at: ago(72 * H) },
          { status: 200, at: ago(8 * 24 * H) }
        ]
        for (const r of records) {
          await run(
            UsageStore.pipe(
              Effect.flatMap((u) => u.record({ tenantId: ws.id, service: "forms", keyId: uuid(), ...r }))
            )
          )
        }
        const counts = await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "forms", now))))
        expect(counts).toEqual({
          last24h: 4,
          last7d: 6,
          byStatusLast24h: { ok: 2, clientError: 1, serverError: 1 }
        })
        const other = await newWorkspace()
        expect(
          (await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(other.id, "forms", now))))).last7d
        ).toBe(0)

        // Batched tallies add up with what is already there, in the same minute buckets.
        await run(
          UsageStore.pipe(
            Effect.flatMap((u) =>
              u.recordMany([
                { tenantId: ws.id, service: "forms", keyId: uuid(), status: 200, at: ago(1 * H), count: 5 },
                { tenantId: ws.id, service: "forms", keyId: uuid(), status: 200, at: ago(1 * H), count: 2 },
                { tenantId: ws.id, service: "forms", keyId: uuid(), status: 503, at: ago(30 * H), count: 3 },
                // The same tenant's sharing requests, in the same minutes, are the sharing API's.
                { tenantId: ws.id, service: "sharing", keyId: uuid(), status: 200, at: ago(1 * H), count: 4 }
              ])
            )
          )
        )
        expect(await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "forms", now))))).toEqual({
          last24h: 11,
          last7d: 16,
          byStatusLast24h: { ok: 9, clientError: 1, serverError: 1 }
        })
        expect(await run(UsageStore.pipe(Effect.flatMap((u) => u.counts(ws.id, "sharing", now))))).toEqual({
          last24h: 4,
          last7d: 4,
          byStatusLast24h: { ok: 4, clientError: 0, serverError: 0 }
        })
      })
    })
  })
}
