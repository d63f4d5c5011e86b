// Issue 30 §3 over real HTTP on memory, PGlite and PostgreSQL: author patterns refused at write time
// and enforced on answers; quality traps flagged on the response (reads, list filter, CSV, summary)
// and never told to the respondent; quiz feedback in the completion answer; cutoff labels in reads,
// CSV and summary counts (also after the kept aggregates are rebuilt from the responses).
import { ResponseRepository } from "@folio/domain"
import { parse } from "csv-parse/sync"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { blk } from "../support/builders.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

type Json = Record<string, unknown> & {
  data: Record<string, unknown> & { items: Array<Record<string, unknown>>; nextCursor: string | null }
  error: Record<string, unknown> & { details: { issues: Array<{ path: Array<unknown>; rule: string }> } }
}

const colours = [
  { id: "red", label: "Red" },
  { id: "blue", label: "Blue" },
  { id: "green", label: "Green" }
]
const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Code", required: true, options: { pattern: "[A-Z]{2}\\d{3}" } },
    {
      id: blk(2),
      type: "multiple_choice",
      label: "To show you are reading, pick Blue",
      options: { choices: colours, qualityTrap: { expectedChoiceId: "blue" } }
    },
    {
      id: blk(3),
      type: "multiple_choice",
      label: "Which letter is second?",
      options: {
        choices: [
          { id: "a", label: "A" },
          { id: "b", label: "B" }
        ]
      }
    },
    { id: blk(4), type: "rating", label: "Mood", options: { scale: 5 } }
  ],
  scales: [
    {
      id: "mood",
      label: "Mood",
      blocks: [blk(4)],
      cutoffs: [
        { min: 1, label: "Low" },
        { min: 4, label: "High" }
      ]
    }
  ],
  quizzes: [
    {
      id: "letters",
      label: "Letters",
      items: [
        {
          blockId: blk(3),
          answer: "b",
          points: 2,
          feedbackCorrect: "Right: B comes second.",
          feedbackIncorrect: "B comes second."
        }
      ],
      cutoffs: [
        { min: 0, label: "Try again" },
        { min: 2, label: "Pass" }
      ]
    }
  ]
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`answer checks, traps, feedback and cutoff labels [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let workspaceId: string
    let close: () => Promise<void> = async () => {}

    const request = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {}
    ) => {
      const response = await fetch(`${app.origin}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      const json = response.headers.get("content-type")?.includes("json") === true && text !== ""
      return { status: response.status, text, body: (json ? JSON.parse(text) : {}) as Json }
    }
    const api = (method: string, path: string, body?: unknown) =>
      request(method, `/forms/api/v1${path}`, body, bearer(key))

    /** Starts and completes one response; answers the completion. */
    const respond = async (slug: string, answers: Record<string, unknown>) => {
      const started = await request("POST", `/f/${slug}/responses`, {})
      const { responseId, token } = started.body.data as unknown as { responseId: string; token: string }
      const done = await request("POST", `/f/${slug}/responses/${responseId}/complete`, { token, answers })
      return { responseId, done }
    }

    beforeAll(async () => {
      const started = await startAppOn(target.name)
      ;({ app, key, workspaceId } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    let form: { id: string; slug: string }
    const ids: Record<"kept" | "missed" | "missedToo", string> = { kept: "", missed: "", missedToo: "" }

    it("refuses, at write time, a pattern that could backtrack catastrophically or does not parse", async () => {
      const withPattern = (pattern: string) => ({
        ...definition,
        blocks: [{ ...definition.blocks[0], options: { pattern } }, ...definition.blocks.slice(1)]
      })
      const unsafe = await api("POST", "/forms", { title: "Codes", definition: withPattern("([A-Z]+)+\\d") })
      expect(unsafe.status).toBe(400)
      expect(unsafe.body.error.code).toBe("invalid")
      expect(unsafe.body.error.details.issues).toContainEqual(
        expect.objectContaining({
          path: expect.arrayContaining(["blocks", 0, "options", "pattern"]),
          rule: "unsafePattern"
        })
      )
      // The issue is value-free: the pattern itself is not echoed.
      expect(JSON.stringify(unsafe.body)).not.toContain("([A-Z]+)+")

      const created = await api("POST", "/forms", { title: "Codes", definition })
      expect(created.status).toBe(201)
      form = created.body.data as unknown as { id: string; slug: string }
      const broken = await api("PATCH", `/forms/${form.id}`, {
        definition: withPattern("[A-Z"),
        expectedDraftRevision: 1
      })
      expect(broken.status).toBe(400)
      expect(broken.body.error.details.issues).toContainEqual(
        expect.objectContaining({
          path: expect.arrayContaining(["blocks", 0, "options", "pattern"]),
          rule: "patternSyntax"
        })
      )
      // Nothing was written: the draft is still at revision 1 and publishes as created.
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
    })

    it("refuses an answer that does not match the pattern as a whole, naming the rule", async () => {
      for (const code of ["ab123", "AB1234", "xAB123"]) {
        const { done } = await respond(form.slug, { [blk(1)]: code })
        expect(done.status).toBe(400)
        expect(done.body.error.details.issues).toEqual([{ path: ["answers", blk(1)], rule: "pattern" }])
      }
    })

    it("answers the completion with quiz results and feedback, never the trap or the scales", async () => {
      const kept = await respond(form.slug, {
        [blk(1)]: "AB123",
        [blk(2)]: "blue",
        [blk(3)]: "b",
        [blk(4)]: 5
      })
      expect(kept.done.status).toBe(200)
      expect(kept.done.body.data.quizzes).toEqual([
        {
          id: "letters",
          score: 2,
          maxScore: 2,
          cutoffLabel: "Pass",
          feedback: [{ blockId: blk(3), correct: true, text: "Right: B comes second." }]
        }
      ])
      const missed = await respond(form.slug, {
        [blk(1)]: "CD456",
        [blk(2)]: "red",
        [blk(3)]: "a",
        [blk(4)]: 2
      })
      expect(missed.done.status).toBe(200)
      expect(missed.done.body.data.quizzes).toEqual([
        {
          id: "letters",
          score: 0,
          maxScore: 2,
          cutoffLabel: "Try again",
          feedback: [{ blockId: blk(3), correct: false, text: "B comes second." }]
        }
      ])
      const told = JSON.stringify(missed.done.body)
      for (const secret of ["quality", "trapsMissed", "mood", "Low"]) expect(told).not.toContain(secret)
      // A trap left unanswered is missed too.
      const missedToo = await respond(form.slug, { [blk(1)]: "EF789", [blk(3)]: "b", [blk(4)]: 4 })
      expect(missedToo.done.status).toBe(200)
      ids.kept = kept.responseId
      ids.missed = missed.responseId
      ids.missedToo = missedToo.responseId
    })

    it("flags the responses that missed the trap in reads, with every score and its cutoff label", async () => {
      const detail = await api("GET", `/forms/${form.id}/responses/${ids.missed}`)
      expect(detail.status).toBe(200)
      expect(detail.body.data.quality).toEqual({ trapsMissed: [blk(2)] })
      expect(detail.body.data.scores).toEqual([
        { id: "mood", kind: "scale", score: 2, cutoffLabel: "Low" },
        { id: "letters", kind: "quiz", score: 0, maxScore: 2, cutoffLabel: "Try again" }
      ])
      const kept = await api("GET", `/forms/${form.id}/responses/${ids.kept}`)
      expect(kept.body.data.quality).toEqual({ trapsMissed: [] })
      const list = await api("GET", `/forms/${form.id}/responses`)
      const compact = list.body.data.items.find((i) => i.id === ids.missedToo)
      expect(compact).toMatchObject({
        quality: { trapsMissed: [blk(2)] },
        scores: [
          { id: "mood", kind: "scale", score: 4, cutoffLabel: "High" },
          { id: "letters", kind: "quiz", score: 2, maxScore: 2, cutoffLabel: "Pass" }
        ]
      })
    })

    it("filters the list by flag in the store, page by page", async () => {
      const pages: Array<string> = []
      let cursor: string | null = null
      let calls = 0
      do {
        const query: string = `?flagged=true&limit=1${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
        const page = await api("GET", `/forms/${form.id}/responses${query}`)
        expect(page.status).toBe(200)
        expect(page.body.data.items).toHaveLength(1)
        pages.push(String(page.body.data.items[0]?.id))
        cursor = page.body.data.nextCursor
        calls++
      } while (cursor !== null && calls < 5)
      // Newest first; a page is never short or empty because unflagged rows fall between.
      expect(pages).toEqual([ids.missedToo, ids.missed])
      const clean = await api("GET", `/forms/${form.id}/responses?flagged=false&projection=full`)
      expect(clean.body.data.items.map((i) => i.id)).toEqual([ids.kept])
      expect((await api("GET", `/forms/${form.id}/responses?flagged=maybe`)).status).toBe(400)
    })

    it("writes the cutoff labels and the missed traps as CSV columns", async () => {
      const csv = await api("GET", `/forms/${form.id}/responses.csv?values=code`)
      expect(csv.status).toBe(200)
      const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>
      const byId = new Map(rows.map((r) => [r.response_id, r]))
      expect(Object.keys(rows[0] ?? {}).slice(-5)).toEqual([
        "score_mood",
        "score_letters",
        "cutoff_mood",
        "cutoff_letters",
        "quality_traps_missed"
      ])
      expect(byId.get(ids.kept)).toMatchObject({
        cutoff_mood: "High",
        cutoff_letters: "Pass",
        quality_traps_missed: ""
      })
      expect(byId.get(ids.missed)).toMatchObject({
        score_mood: "2",
        cutoff_mood: "Low",
        cutoff_letters: "Try again",
        quality_traps_missed: blk(2)
      })
      const long = parse((await api("GET", `/forms/${form.id}/responses.csv?layout=long`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(long.filter((r) => r.response_id === ids.missed && !r.block_id?.startsWith("blk_"))).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ block_id: "cutoff_mood", value: "Low" }),
          expect.objectContaining({ block_id: "quality_traps_missed", value: blk(2) })
        ])
      )
    })

    it("counts responses per cutoff label and flagged responses in the summary, also after a rebuild", async () => {
      const expected = {
        quality: {
          checked: 3,
          flagged: 2,
          traps: [{ blockId: blk(2), label: "To show you are reading, pick Blue", missed: 2 }]
        },
        cutoffs: {
          mood: [
            { min: 1, label: "Low", count: 1 },
            { min: 4, label: "High", count: 2 }
          ],
          letters: [
            { min: 0, label: "Try again", count: 1 },
            { min: 2, label: "Pass", count: 2 }
          ]
        }
      }
      const check = async () => {
        const summary = await api("GET", `/forms/${form.id}/responses/summary`)
        expect(summary.status).toBe(200)
        expect(summary.body.data.quality).toEqual(expected.quality)
        const scores = summary.body.data.scores as Array<{ id: string; cutoffs: unknown }>
        expect(Object.fromEntries(scores.map((s) => [s.id, s.cutoffs]))).toEqual(expected.cutoffs)
        const report = await api("GET", `/forms/${form.id}/reports`)
        const reported = (report.body.data.scores as Array<{ id: string; cutoffs: unknown }>).find(
          (s) => s.id === "mood"
        )
        expect(reported?.cutoffs).toEqual(expected.cutoffs.mood)
      }
      await check()
      // The SQL stores keep these counts incrementally; recomputing them from the rows agrees.
      await app.run(Effect.flatMap(ResponseRepository, (r) => r.rebuildAnswerStats(form.id)))
      await check()
      expect(workspaceId).not.toBe("")
    })

    it("holds a post without JavaScript to the pattern, and its completion page shows the quiz feedback", async () => {
      const post = (fields: Record<string, string>) =>
        fetch(`${app.origin}/f/${form.slug}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
          body: new URLSearchParams(fields).toString()
        })
      const refused = await post({ [blk(1)]: "bad", [blk(2)]: "blue", [blk(3)]: "a" })
      expect(refused.status).toBe(422)
      expect(await refused.text()).toContain("Enter the answer in the format this question asks for.")
      const done = await post({ [blk(1)]: "GH321", [blk(2)]: "blue", [blk(3)]: "a" })
      expect(done.status).toBe(200)
      const page = await done.text()
      expect(page).toContain('class="quiz-results"')
      expect(page).toContain("Letters: 0 of 2 points")
      expect(page).toContain("Try again")
      expect(page).toContain("B comes second.")
      expect(page).not.toContain("trapsMissed")
    })
  })
}
