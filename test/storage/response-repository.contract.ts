// Contract of ResponseRepository: storage and paging, conditional writes, answer statistics, files,
// resumable responses, respondent history and activity.
// Run by register-contracts.ts against every storage target.
import {
  FormRepository,
  JobQueue,
  notificationJob,
  type ResponseRecord,
  ResponseRepository
} from "@folio/domain"
import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, response, storedForms, uuid } from "./fixtures.js"

export const registerResponseContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const { insertForm, publish } = storedForms(run)
  describe(`ResponseRepository [${target}]`, () => {
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

  describe(`ResponseRepository conditional writes [${target}]`, () => {
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
      expect(await repo((r) => r.update({ ...saved, version: 3 }, { status: "completed", version: 2 }))).toBe(
        "stale"
      )
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
      const stats = await repo((r) => r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 0 }))
      expect(stats.tokens.filter((t) => t.blockId === "q").map((t) => [t.token, t.count])).toEqual([
        [`w${winner}`, 1]
      ])
    })

    it("queues every job given with a write in its transaction, and none with a write that lost", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const started = response(f, version.id, { status: "partial", completedAt: null, answers: {} })
      await repo((r) => r.insert(started))
      const done = completion(started, { q: "a" })
      const jobsOf = (slots: ReadonlyArray<string>) =>
        slots.map((slot) =>
          notificationJob(
            done,
            { kind: "response", slot, to: `${slot}@owners.test` },
            uuid(),
            at("2026-03-09T00:00:00.000Z")
          )
        )
      const lost = jobsOf(["r0", "r1"])
      // A stale write queues nothing.
      expect(await repo((r) => r.update(done, { status: "partial", version: 9 }, { enqueue: lost }))).toBe(
        "stale"
      )
      const queued = jobsOf(["r0", "r1", "r2"])
      expect(await repo((r) => r.update(done, { status: "partial", version: 1 }, { enqueue: queued }))).toBe(
        "updated"
      )
      const read = (id: string) => run(Effect.flatMap(JobQueue, (q) => q.get(ws.id, id)))
      for (const job of lost) expect(Option.isNone(await read(job.id))).toBe(true)
      for (const job of queued)
        expect(Option.getOrThrow(await read(job.id))).toMatchObject({
          type: "notification_email",
          status: "queued",
          resourceId: started.id,
          dedupeKey: job.dedupeKey
        })
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
      const stats = await repo((r) => r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 0 }))
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

  describe(`ResponseRepository.answerStats [${target}]`, () => {
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
            r.insert(response(f, version.id, { answers: { q: "zzz" }, status: "partial", completedAt: null }))
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

  describe(`ResponseRepository quality flags and cutoff labels [${target}]`, () => {
    const trapped = (missed: boolean, label: string) => ({
      quality: { trapsMissed: missed ? ["blk_trap0001"] : [] },
      scores: [{ kind: "scale", id: "s1", score: missed ? 1 : 5, answered: 1, label }]
    })

    it("lists only flagged (or only unflagged) responses, filtered before paging so cursors stay whole", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const made: Array<ResponseRecord> = []
      for (let i = 0; i < 7; i++) {
        const r = response(f, version.id, {
          // Flagged: 0, 3, 4, 6; an unflagged run (1, 2) and a response without a check (5) fall between.
          meta: i === 5 ? {} : trapped([0, 3, 4, 6].includes(i), "x"),
          createdAt: at(`2026-03-0${i + 1}T00:00:00.000Z`),
          completedAt: at(`2026-03-0${i + 1}T00:00:00.000Z`)
        })
        made.push(r)
        await run(ResponseRepository.pipe(Effect.flatMap((repo) => repo.insert(r))))
      }
      const walk = async (flagged: boolean) => {
        const seen: Array<Array<string>> = []
        let cursor: string | undefined
        do {
          const page = await run(
            ResponseRepository.pipe(Effect.flatMap((r) => r.list(ws.id, f.id, { limit: 2, cursor, flagged })))
          )
          seen.push(page.items.map((i) => i.id))
          cursor = page.nextCursor ?? undefined
        } while (cursor !== undefined)
        return seen
      }
      const id = (i: number) => made[i]?.id
      expect(await walk(true)).toEqual([
        [id(6), id(4)],
        [id(3), id(0)]
      ])
      expect(await walk(false)).toEqual([[id(5), id(2)], [id(1)]])
    })

    it("counts responses per stored cutoff label and quality outcome, through edits and a rebuild", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const rows = [trapped(true, "Low"), trapped(false, "High"), trapped(false, "High"), { scores: [] }]
      const made: Array<ResponseRecord> = []
      for (const [i, meta] of rows.entries()) {
        const r = response(f, version.id, {
          meta,
          createdAt: at(`2026-03-0${i + 1}T00:00:00.000Z`),
          completedAt: at(`2026-03-0${i + 1}T00:00:00.000Z`)
        })
        made.push(r)
        await run(ResponseRepository.pipe(Effect.flatMap((repo) => repo.insert(r))))
      }
      const stats = () =>
        run(
          ResponseRepository.pipe(
            Effect.flatMap((r) => r.answerStats(ws.id, f.id, { sampleBlockIds: [], samplesPerBlock: 1 }))
          )
        )
      const labels = (s: Awaited<ReturnType<typeof stats>>) =>
        Object.fromEntries(s.scoreLabels.map((l) => [`${l.id}:${l.label}`, l.count]))
      let s = await stats()
      expect(labels(s)).toEqual({ "s1:Low": 1, "s1:High": 2 })
      expect(s.quality).toEqual({ checked: 3, flagged: 1, traps: [{ blockId: "blk_trap0001", missed: 1 }] })
      // The score aggregate itself is untouched by the label and quality rows.
      expect(s.scores).toEqual([{ id: "s1", count: 3, average: 11 / 3, min: 1, max: 5 }])

      // An edit of a completed response swaps its old contribution for the new one.
      const edited = made[1]
      if (edited === undefined) throw new Error("fixture")
      expect(
        await run(
          ResponseRepository.pipe(
            Effect.flatMap((r) =>
              r.update(
                { ...edited, meta: trapped(true, "Low"), version: 2 },
                { status: "completed", version: 1 }
              )
            )
          )
        )
      ).toBe("updated")
      s = await stats()
      expect(labels(s)).toEqual({ "s1:Low": 2, "s1:High": 1 })
      expect(s.quality).toEqual({ checked: 3, flagged: 2, traps: [{ blockId: "blk_trap0001", missed: 2 }] })
      await run(ResponseRepository.pipe(Effect.flatMap((r) => r.rebuildAnswerStats(f.id))))
      const rebuilt = await stats()
      expect(labels(rebuilt)).toEqual(labels(s))
      expect(rebuilt.quality).toEqual(s.quality)
    })
  })

  describe(`ResponseRepository.answerStats under completion, edits and rebuilds [${target}]`, () => {
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
        ResponseRepository.pipe(Effect.flatMap((r) => r.update(edited, { status: "completed", version: 1 })))
      )
      const after = await stats()
      expect(after.blocks.find((x) => x.blockId === "n")).toEqual({
        blockId: "n",
        answered: 2,
        average: 2.5,
        min: 1,
        max: 4
      })
      expect(after.tokens.filter((t) => t.blockId === "q").map((t) => [t.token, t.count])).toEqual([["z", 1]])
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
        tokens: [...x.tokens].sort((p, q) => (`${p.blockId}${p.token}` < `${q.blockId}${q.token}` ? -1 : 1)),
        scores: x.scores
      })
      expect(sorted(rebuilt)).toEqual(sorted(after))
    })
  })

  describe(`ResponseRepository files, respondents and activity [${target}]`, () => {
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

    it("with includeCompleted, finds the browser's newest partial or completed response on the version", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const first = await publish(f)
      const second = await publish(first.published)
      const v1 = first.version.id
      const v2 = second.version.id
      const row = (status: "partial" | "completed", formVersionId: string, key: string, createdAt: string) =>
        response(f, formVersionId, {
          status,
          completedAt: status === "completed" ? at(createdAt) : null,
          createdAt: at(createdAt),
          answers: { q: createdAt },
          meta: { respondentKey: key, tokenHash: "old" }
        })
      const olderPartial = row("partial", v1, "k1", "2026-04-01T00:00:00.000Z")
      const completed = row("completed", v1, "k1", "2026-04-02T00:00:00.000Z")
      const rows = [
        olderPartial,
        row("completed", v1, "k1", "2026-03-31T00:00:00.000Z"),
        completed,
        // Newer, but on the other version or another browser's.
        row("completed", v2, "k1", "2026-04-03T00:00:00.000Z"),
        row("completed", v1, "k2", "2026-04-04T00:00:00.000Z")
      ]
      for (const r of rows) await repo((x) => x.insert(r))
      const find = (respondentKey: string, includeCompleted: boolean, formVersionId = v1) =>
        repo((r) => r.findResumable(ws.id, f.id, { formVersionId, respondentKey, includeCompleted }))
      expect(Option.getOrThrow(await find("k1", true))).toEqual(completed)
      expect(Option.getOrThrow(await find("k1", false))).toEqual(olderPartial)
      expect(Option.getOrThrow(await find("k2", true)).status).toBe("completed")
      expect(Option.isNone(await find("k2", false))).toBe(true)
      expect(Option.getOrThrow(await find("k1", true, v2)).createdAt).toEqual(at("2026-04-03T00:00:00.000Z"))
      // A newer partial one wins over the completed one.
      const newest = row("partial", v1, "k1", "2026-04-05T00:00:00.000Z")
      await repo((x) => x.insert(newest))
      expect(Option.getOrThrow(await find("k1", true))).toEqual(newest)
      // The token rotation of a completed response is a compare-and-set at its status and version.
      const rotated = { ...completed, meta: { ...completed.meta, tokenHash: "new" }, version: 2 }
      expect(await repo((r) => r.update(rotated, { status: "completed", version: 1 }))).toBe("updated")
      expect(await repo((r) => r.update(rotated, { status: "completed", version: 1 }))).toBe("stale")
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
        `[${target}] rotation vs completion x8: rotation won ${wins.rotation}, completion ${wins.completion}`
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
        await repo((r) => r.respondentHistory(ws.id, f.id, { respondentKey: "k1", clientHash: "c1", since }))
      ).toEqual({
        byKey: { total: 2, completed: 1 },
        byClient: { total: 2, completed: 1 }
      })
      expect(
        await repo((r) => r.respondentHistory(ws.id, f.id, { respondentKey: null, clientHash: "c2", since }))
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
        quality: { completionReason: null, exchangeCount: 4, followupCount: 0 },
        runtime: {
          emergent: [
            { id: "e1", captureType: "pain_point", summary: "x" },
            { id: "e2", captureType: "pain_point", summary: "y" },
            { id: "e3", captureType: "emotion", summary: "z" },
            "not an item",
            { id: "e4", captureType: 7 }
          ]
        }
      })
      await mk("2026-03-01T12:00:00.000Z", 120, {
        analysisStatus: "failed",
        insights: [{ codeId: "price" }],
        runtime: { emergent: [{ id: "e1", captureType: "pain_point", summary: "x" }] }
      })
      await mk("2026-03-02T10:00:00.000Z", null, {
        transcript: [{ role: "assistant", content: "q", blockId: "b", turnId: "t" }],
        runtime: { emergent: [{ id: "e1", captureType: "risk", summary: "partial: not counted" }] }
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
        averageExchangeCount: 4,
        emergent: [
          { captureType: "pain_point", responses: 2, mentions: 3 },
          { captureType: "emotion", responses: 1, mentions: 1 }
        ]
      })
    })
  })

  describe(`ResponseRepository.delete and retention reads [${target}]`, () => {
    const repo = <A, E>(f: (r: ResponseRepository["Service"]) => Effect.Effect<A, E>) =>
      run(ResponseRepository.pipe(Effect.flatMap(f)))
    const fileOf = (r: ResponseRecord, n: number) => {
      const id = uuid()
      return {
        id,
        workspaceId: r.workspaceId,
        formId: r.formId,
        responseId: r.id,
        blockId: "blk_files",
        key: `workspaces/${r.workspaceId}/forms/${r.formId}/responses/${r.id}/${id}`,
        filename: `f${n}.pdf`,
        contentType: "application/pdf",
        size: n,
        createdAt: at(`2026-03-0${n}T00:00:00.000Z`)
      }
    }
    const stats = (ws: string, formId: string) =>
      repo((r) => r.answerStats(ws, formId, { sampleBlockIds: [], samplesPerBlock: 0 }))

    it("deletes a response with its files, takes it out of counts and aggregates, and only in its form and workspace", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const a = response(f, version.id, {
        answers: { n: 9, q: "gone" },
        meta: { scores: [{ id: "s", score: 9 }] }
      })
      const b = response(f, version.id, {
        answers: { n: 1, q: "kept" },
        meta: { scores: [{ id: "s", score: 1 }] }
      })
      await repo((r) => r.insert(a))
      await repo((r) => r.insert(b))
      const files = [fileOf(a, 1), fileOf(a, 2)]
      const kept = fileOf(b, 3)
      for (const x of [...files, kept]) await repo((r) => r.insertFile(x))

      // Another workspace or another form cannot delete it.
      const other = await newWorkspace()
      expect(Option.isNone(await repo((r) => r.delete(other.id, f.id, a.id)))).toBe(true)
      expect(Option.isNone(await repo((r) => r.delete(ws.id, uuid(), a.id)))).toBe(true)

      expect(Option.getOrThrow(await repo((r) => r.delete(ws.id, f.id, a.id)))).toEqual(files)
      expect(Option.isNone(await repo((r) => r.get(ws.id, f.id, a.id)))).toBe(true)
      expect(await repo((r) => r.listFiles(ws.id, f.id, [a.id, b.id]))).toEqual([kept])
      expect(await repo((r) => r.count(ws.id, f.id, "completed"))).toBe(1)
      const after = await stats(ws.id, f.id)
      expect(after.blocks.find((x) => x.blockId === "n")).toEqual({
        blockId: "n",
        answered: 1,
        average: 1,
        min: 1,
        max: 1
      })
      expect(after.tokens.filter((t) => t.blockId === "q").map((t) => t.token)).toEqual(["kept"])
      expect(after.scores).toEqual([{ id: "s", count: 1, average: 1, min: 1, max: 1 }])
      // Gone is gone: a second delete finds nothing.
      expect(Option.isNone(await repo((r) => r.delete(ws.id, f.id, a.id)))).toBe(true)
      // The kept aggregates equal a rebuild from the rows.
      await repo((r) => r.rebuildAnswerStats(f.id))
      const rebuilt = await stats(ws.id, f.id)
      const byBlock = (xs: typeof after.blocks) => [...xs].sort((a, b) => (a.blockId < b.blockId ? -1 : 1))
      expect(byBlock(rebuilt.blocks)).toEqual(byBlock(after.blocks))
      expect(rebuilt.scores).toEqual(after.scores)
    })

    it("races a delete with a completion and with an edit: never a completed row without its aggregates or the reverse", async () => {
      for (let round = 0; round < 6; round++) {
        const ws = await newWorkspace()
        const f = await insertForm(ws.id)
        const { version } = await publish(f)
        const partial = response(f, version.id, { status: "partial", completedAt: null, answers: {} })
        const completed = response(f, version.id, { answers: { q: "before" } })
        await repo((r) => r.insert(partial))
        await repo((r) => r.insert(completed))
        await repo((r) => r.insertFile(fileOf(partial, 1)))
        const done: ResponseRecord = {
          ...partial,
          status: "completed",
          answers: { q: "racing" },
          completedAt: at("2026-03-09T00:00:00.000Z"),
          version: 2
        }
        const edited: ResponseRecord = { ...completed, answers: { q: "edited" }, version: 2 }
        const [deletedPartial, completion, deletedCompleted, edit] = await Promise.all([
          repo((r) => r.delete(ws.id, f.id, partial.id)),
          repo((r) => r.update(done, { status: "partial", version: 1 })),
          repo((r) => r.delete(ws.id, f.id, completed.id)),
          repo((r) => r.update(edited, { status: "completed", version: 1 }))
        ])
        // The deletes always win in the end (they wait for a write that locked first); a write that
        // came after finds the row gone.
        expect(Option.isSome(deletedPartial)).toBe(true)
        expect(Option.isSome(deletedCompleted)).toBe(true)
        expect(["updated", "stale"]).toContain(completion)
        expect(["updated", "stale"]).toContain(edit)
        expect(await repo((r) => r.count(ws.id, f.id))).toBe(0)
        expect(await repo((r) => r.listFiles(ws.id, f.id, [partial.id]))).toEqual([])
        const left = await stats(ws.id, f.id)
        expect(left.blocks.filter((b) => b.answered !== 0)).toEqual([])
        expect(left.tokens.filter((t) => t.count !== 0)).toEqual([])
      }
    })

    it("lists a form's responses started before a time, oldest first and bounded, and the forms under research compliance", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const made = [3, 1, 2, 5].map((d) =>
        response(f, version.id, { createdAt: at(`2026-03-0${d}T00:00:00.000Z`) })
      )
      for (const r of made) await repo((x) => x.insert(r))
      const before = at("2026-03-04T00:00:00.000Z")
      const byDay = (d: number) => made.find((r) => r.createdAt.getUTCDate() === d)?.id
      expect(await repo((r) => r.startedBefore(ws.id, f.id, before, 10))).toEqual([
        byDay(1),
        byDay(2),
        byDay(3)
      ])
      expect(await repo((r) => r.startedBefore(ws.id, f.id, before, 2))).toEqual([byDay(1), byDay(2)])
      const other = await newWorkspace()
      expect(await repo((r) => r.startedBefore(other.id, f.id, before, 10))).toEqual([])

      const compliance = {
        purpose: "p",
        contact: "c",
        consentItems: ["i"],
        retentionDays: 30,
        withdrawalEnabled: true
      }
      const studied = await insertForm(ws.id, { settings: { locale: "en", researchCompliance: compliance } })
      const deleted = await insertForm(ws.id, { settings: { researchCompliance: compliance } })
      await run(
        FormRepository.pipe(
          Effect.flatMap((r) => r.softDelete(ws.id, deleted.id, at("2026-03-01T00:00:00.000Z")))
        )
      )
      const listed = await run(FormRepository.pipe(Effect.flatMap((r) => r.withResearchCompliance())))
      const ids = listed.map((x) => x.id)
      expect(ids).toContain(studied.id)
      expect(ids).not.toContain(f.id)
      expect(ids).not.toContain(deleted.id)
      expect(listed.find((x) => x.id === studied.id)?.settings).toEqual({
        locale: "en",
        researchCompliance: compliance
      })
    })
  })
}
