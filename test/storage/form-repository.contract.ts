// Contract of FormRepository: tenant isolation, optimistic saves, atomic publication, unique slugs,
// paging and versions.
// Run by register-contracts.ts against every storage target.
import { FormRepository, type FormRecord, ResponseRepository } from "@folio/domain"
import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, form, next, publication, response, storedForms, uuid } from "./fixtures.js"

export const registerFormContracts = ({ target, run, attempt, newWorkspace }: StorageHarness) => {
  const { insertForm, publish } = storedForms(run)
  describe(`FormRepository [${target}]`, () => {
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
        (await run(FormRepository.pipe(Effect.flatMap((r) => r.listVersions(other.id, f.id, { limit: 10 })))))
          .items
      ).toEqual([])
    })
  })
}
