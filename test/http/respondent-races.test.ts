// Respondent writes under real concurrency, over real HTTP, on PGlite, PostgreSQL and memory: an
// autosave racing the submit button, parallel completes of one response, parallel completes past
// maxResponses, and parallel uploads past a block's upload cap. Each scenario runs several trials;
// the winners are printed so the numbers can be quoted.
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { MAX_REPLACEMENTS, ResponseRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAppOn, storageTargets } from "../support/storage.js"
import type { RunningApp } from "../support/app.js"
import { bearer } from "../support/keys.js"
import { blk } from "../support/builders.js"

const TRIALS = 5

const targets = storageTargets()

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    { id: blk(2), type: "number", label: "Seats", options: { min: 0, max: 1000 } },
    {
      id: blk(3),
      type: "file_upload",
      label: "Photo",
      options: { maxFiles: 1, acceptedMimeTypes: ["image/png"] }
    }
  ]
}
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
])

type Body = {
  data: Record<string, unknown>
  error: { code: string; details?: Record<string, unknown> }
}

for (const target of targets) {
  describe.skipIf(target.skip)(`respondent writes under concurrency [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let workspaceId: string
    let close: () => Promise<void> = async () => {}

    const request = async (method: string, path: string, body?: unknown, headers = {}) => {
      const response = await fetch(`${app.origin}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: (await response.json()) as Body }
    }
    const publish = async (settings?: unknown) => {
      const created = await request(
        "POST",
        "/forms/api/v1/forms",
        { title: "Race", definition, ...(settings === undefined ? {} : { settings }) },
        bearer(key)
      )
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      const published = await request(
        "POST",
        `/forms/api/v1/forms/${form.id}/publish`,
        { expectedDraftRevision: 1 },
        bearer(key)
      )
      expect(published.status).toBe(200)
      return form
    }
    const start = async (slug: string) => {
      const r = await request("POST", `/f/${slug}/responses`, {})
      expect(r.status).toBe(201)
      return r.body.data as { responseId: string; token: string }
    }
    const stored = async (formId: string, responseId: string) =>
      Option.getOrThrow(
        await app.run(Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, formId, responseId)))
      )

    beforeAll(async () => {
      const started = await startAppOn(target.name, { blobStore: "fs" })
      ;({ app, key, workspaceId } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("an autosave racing the submit never undoes the completion", async () => {
      const form = await publish()
      const final = { [blk(1)]: "Final", [blk(2)]: 42 }
      const tally = { savesBefore: 0, savesRefused: 0 }
      for (let trial = 0; trial < TRIALS; trial++) {
        const { responseId, token } = await start(form.slug)
        const path = `/f/${form.slug}/responses/${responseId}`
        // The submit goes out with autosaves on either side of it, as a browser's would.
        const save = (i: number) =>
          request("PATCH", path, { token, answers: { [blk(1)]: `Draft ${i}`, [blk(2)]: i } })
        const [s0, s1, done, s2, s3] = await Promise.all([
          save(0),
          save(1),
          request("POST", `${path}/complete`, { token, answers: final }),
          save(2),
          save(3)
        ])
        const saved = [s0, s1, s2, s3]
        expect(done?.status).toBe(200)
        expect(done?.body.data).toMatchObject({ status: "completed", answers: final })
        for (const s of saved) {
          // A save either landed before the completion (still partial) or was refused after it.
          if (s.status === 200) {
            expect(s.body.data.status).toBe("partial")
            tally.savesBefore++
          } else {
            expect(s.status).toBe(409)
            expect(s.body.error.code).toBe("conflict")
            tally.savesRefused++
          }
        }
        const row = await stored(form.id, responseId)
        expect(row.status).toBe("completed")
        expect(row.answers).toEqual(final)
        const late = await request("PATCH", path, { token, answers: { [blk(1)]: "Late" } })
        expect(late.status).toBe(409)
        expect((await stored(form.id, responseId)).answers).toEqual(final)
      }
      console.info(
        `[${target.name}] complete vs 4 saves x${TRIALS}: complete 200 in ${TRIALS}/${TRIALS}, saves before it ${tally.savesBefore}, refused after it ${tally.savesRefused}`
      )
    }, 120_000)

    const statsOf = (formId: string) =>
      app.run(
        Effect.flatMap(ResponseRepository, (r) =>
          r.answerStats(workspaceId, formId, { sampleBlockIds: [], samplesPerBlock: 0 })
        )
      )
    const tokenCounts = (stats: Awaited<ReturnType<typeof statsOf>>) =>
      new Map(stats.tokens.filter((t) => t.blockId === blk(1)).map((t) => [t.token, t.count]))
    const tally = (names: ReadonlyArray<string>) => {
      const m = new Map<string, number>()
      for (const n of names) m.set(n, (m.get(n) ?? 0) + 1)
      return m
    }
    const completeAll = (slug: string, responseId: string, token: string) =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request("POST", `/f/${slug}/responses/${responseId}/complete`, {
            token,
            answers: { [blk(1)]: `Writer ${i}`, [blk(2)]: i }
          })
        )
      )

    it("exactly one of ten parallel completes wins", async () => {
      const form = await publish()
      const winners: Array<number> = []
      for (let trial = 0; trial < TRIALS; trial++) {
        const { responseId, token } = await start(form.slug)
        const results = await completeAll(form.slug, responseId, token)
        const ok = results.flatMap((r, i) => (r.status === 200 ? [i] : []))
        expect(ok).toHaveLength(1)
        expect(results.filter((r) => r.status === 409 && r.body.error.code === "conflict")).toHaveLength(9)
        const winner = ok[0] ?? -1
        winners.push(winner)
        const row = await stored(form.id, responseId)
        expect(row.status).toBe("completed")
        expect(row.answers).toEqual({ [blk(1)]: `Writer ${winner}`, [blk(2)]: winner })
        expect(row.completedAt).not.toBeNull()
      }
      console.info(`[${target.name}] 10 parallel completes x${TRIALS}: winners ${winners.join(",")}`)
      // The kept aggregates count each completed response once, with the winner's answers.
      const stats = await statsOf(form.id)
      expect(stats.blocks.find((b) => b.blockId === blk(1))?.answered).toBe(TRIALS)
      expect(tokenCounts(stats)).toEqual(tally(winners.map((w) => `Writer ${w}`)))
    }, 120_000)

    it("with editing allowed, ten parallel completes complete once; later ones are edits or conflicts", async () => {
      const form = await publish({ submission: { allowResponseEditing: true } })
      const finals: Array<string> = []
      const oks: Array<number> = []
      for (let trial = 0; trial < TRIALS; trial++) {
        const { responseId, token } = await start(form.slug)
        const results = await completeAll(form.slug, responseId, token)
        const ok = results.filter((r) => r.status === 200)
        // Requests that read the partial response and lost are conflicts; those that read it
        // completed edit it under the same compare-and-set (200, or 409 when another edit won).
        expect(ok.length).toBeGreaterThanOrEqual(1)
        expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true)
        // One completion: every success carries the same completion time.
        expect(new Set(ok.map((r) => r.body.data.completedAt)).size).toBe(1)
        const row = await stored(form.id, responseId)
        expect(row.status).toBe("completed")
        expect(ok.map((r) => r.body.data.answers)).toContainEqual(row.answers)
        finals.push(String(row.answers[blk(1)]))
        oks.push(ok.length)
      }
      console.info(`[${target.name}] 10 parallel completes (editing) x${TRIALS}: 200s ${oks.join(",")}`)
      const stats = await statsOf(form.id)
      expect(stats.blocks.find((b) => b.blockId === blk(1))?.answered).toBe(TRIALS)
      expect(tokenCounts(stats)).toEqual(tally(finals))
    }, 120_000)

    it("holds maxResponses at completion: 20 parallel completes, 5 allowed", async () => {
      const counts: Array<number> = []
      for (let trial = 0; trial < TRIALS; trial++) {
        const form = await publish({ submission: { maxResponses: 5, closedMessage: "Full" } })
        const started = await Promise.all(Array.from({ length: 20 }, () => start(form.slug)))
        const results = await Promise.all(
          started.map((s, i) =>
            request("POST", `/f/${form.slug}/responses/${s.responseId}/complete`, {
              token: s.token,
              answers: { [blk(1)]: `R${i}` }
            })
          )
        )
        expect(results.filter((r) => r.status === 200)).toHaveLength(5)
        const refused = results.filter((r) => r.status !== 200)
        expect(refused).toHaveLength(15)
        for (const r of refused) {
          expect(r.status).toBe(410)
          expect(r.body.error).toMatchObject({ code: "closed", details: { reason: "max_responses" } })
        }
        const completed = await app.run(
          Effect.flatMap(ResponseRepository, (r) => r.count(workspaceId, form.id, "completed"))
        )
        counts.push(completed)
        expect(completed).toBe(5)
      }
      console.info(
        `[${target.name}] maxResponses 5, 20 parallel completes x${TRIALS}: completed ${counts.join(",")}`
      )
    }, 120_000)

    it("holds the upload cap of a block: 30 parallel uploads, maxFiles + replacements allowed", async () => {
      const form = await publish()
      const cap = 1 + MAX_REPLACEMENTS
      const stats: Array<string> = []
      for (let trial = 0; trial < TRIALS; trial++) {
        const { responseId, token } = await start(form.slug)
        const results = await Promise.all(
          Array.from({ length: 30 }, async () => {
            const r = await fetch(
              `${app.origin}/f/${form.slug}/responses/${responseId}/files?blockId=${blk(3)}&filename=p.png`,
              {
                method: "POST",
                headers: { "x-response-token": token, "content-type": "image/png" },
                body: PNG
              }
            )
            return { status: r.status, body: (await r.json()) as Body }
          })
        )
        const accepted = results.filter((r) => r.status === 201)
        expect(accepted).toHaveLength(cap)
        for (const r of results.filter((x) => x.status !== 201)) {
          expect(r.status).toBe(400)
          expect(r.body.error.details).toMatchObject({ issues: [{ path: ["blockId"], rule: "maxUploads" }] })
        }
        const rows = await app.run(
          Effect.flatMap(ResponseRepository, (r) => r.listFiles(workspaceId, form.id, [responseId]))
        )
        expect(rows).toHaveLength(cap)
        // No blob outlives a refused upload.
        const dir = join(
          app.config.dataDir,
          "blobs",
          "workspaces",
          workspaceId,
          "forms",
          form.id,
          "responses",
          responseId
        )
        const blobs = readdirSync(dir).filter((f) => !f.endsWith(".meta.json"))
        expect(blobs.sort()).toEqual(rows.map((f) => f.id).sort())
        stats.push(`${accepted.length}/${results.length}`)
      }
      console.info(
        `[${target.name}] 30 parallel uploads, cap ${cap}, x${TRIALS}: accepted ${stats.join(",")}`
      )
    }, 120_000)
  })
}
