// Responses end to end over real HTTP on PGlite and PostgreSQL: a form using every input block type,
// logic, a scale and a quiz; valid and invalid submissions through the public routes (with a file
// upload); reads in every projection; summary, report and CSV numbers checked against values
// computed by hand here; version pinning; continuity and the repeat policy; interview responses.
import { ResponseRepository } from "@folio/domain"
import { parse } from "csv-parse/sync"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAppOn, storageTargets } from "../support/storage.js"
import type { RunningApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"

type Json = Record<string, unknown> & {
  data: Record<string, unknown> & { items: Array<Record<string, unknown>> }
  error: Record<string, unknown> & { details: Record<string, unknown> }
}

const targets = storageTargets(["pglite", "postgres"])

const choices = [
  { id: "a", label: "Alpha" },
  { id: "b", label: "Beta" },
  { id: "c", label: "Gamma" }
]
const consent = { items: ["Use"], purpose: "Research", retentionPeriod: "1y", refusalNotice: "No" }

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    { id: blk(2), type: "long_text", label: "Feedback" },
    { id: blk(3), type: "multiple_choice", label: "Plan", required: true, options: { choices } },
    { id: blk(4), type: "checkboxes", label: "Features", options: { choices } },
    { id: blk(5), type: "dropdown", label: "Size", options: { choices } },
    { id: blk(6), type: "ranking", label: "Priorities", options: { choices } },
    { id: blk(7), type: "rating", label: "Mood", options: { scale: 5 } },
    { id: blk(8), type: "date", label: "Start" },
    { id: blk(9), type: "datetime", label: "Meeting" },
    { id: blk(10), type: "time", label: "Time" },
    { id: blk(11), type: "date_range", label: "Trip" },
    { id: blk(12), type: "email", label: "Email", required: true },
    { id: blk(13), type: "number", label: "Seats", options: { min: 0, max: 100 } },
    {
      id: blk(14),
      type: "file_upload",
      label: "Attachment",
      options: { maxFiles: 2, maxSizeMb: 1, acceptedMimeTypes: ["application/pdf", "image/*"] }
    },
    { id: blk(15), type: "signature", label: "Sign" },
    { id: blk(16), type: "privacy_consent", label: "Consent", options: consent },
    { id: blk(17), type: "address", label: "Address" },
    { id: blk(18), type: "rating", label: "Energy", options: { scale: 5 } },
    { id: blk(19), type: "hidden_field", label: "Source", options: { param: "src", defaultValue: "direct" } },
    {
      id: blk(20),
      type: "calculated_field",
      label: "Total",
      options: { expression: `{${blk(7)}} + {${blk(18)}}` }
    },
    { id: blk(21), type: "statement", label: "Thanks" }
  ],
  logic: [
    {
      id: "lgc_noemail",
      from: blk(3),
      conditions: [{ blk: blk(3), op: "eq", value: "c" }],
      actions: [{ type: "hide", target: blk(12) }]
    }
  ],
  scales: [
    { id: "wellbeing", label: "Wellbeing", blocks: [blk(7), blk(18)], reverse: [blk(18)], aggregation: "sum" }
  ],
  quizzes: [{ id: "quiz", label: "Quiz", items: [{ blockId: blk(3), answer: "b", points: 2 }] }]
}

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])

const common = {
  [blk(8)]: "2026-03-01",
  [blk(9)]: "2026-03-01T10:00",
  [blk(10)]: "09:30",
  [blk(11)]: ["2026-03-01", "2026-03-05"],
  [blk(13)]: 10,
  [blk(15)]: "signature-data",
  [blk(16)]: "y",
  [blk(17)]: ["04524", "1 Main St", "Apt 2"]
}
// Three respondents; the hand-computed numbers below follow from these.
const answersOf = [
  {
    ...common,
    [blk(1)]: "Ann",
    [blk(2)]: "Write to ann@example.com about pricing",
    [blk(3)]: "a",
    [blk(4)]: ["a", "b"],
    [blk(5)]: "b",
    [blk(6)]: ["c", "a", "b"],
    [blk(7)]: 5,
    [blk(18)]: 1,
    [blk(12)]: "ann@example.com"
  },
  {
    ...common,
    [blk(1)]: "=SUM(A1)",
    [blk(2)]: "+pricing is high, mail ben@example.com",
    [blk(3)]: "b",
    [blk(4)]: ["b"],
    [blk(6)]: ["a", "b", "c"],
    [blk(7)]: 3,
    [blk(18)]: 3,
    [blk(12)]: "ben@example.com"
  },
  {
    ...common,
    [blk(1)]: "-neg",
    [blk(2)]: "@handle pricing",
    [blk(3)]: "c",
    [blk(6)]: ["a", "c", "b"],
    [blk(7)]: 1,
    [blk(18)]: 5
  }
]

for (const target of targets) {
  describe.skipIf(target.skip)(`responses end to end [${target.name}]`, () => {
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
      const init: RequestInit = {
        method,
        redirect: "manual",
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) }
      }
      if (body !== undefined) init.body = JSON.stringify(body)
      const response = await fetch(`${app.origin}${path}`, init)
      const text = await response.text()
      const json = response.headers.get("content-type")?.includes("json") === true && text !== ""
      return {
        status: response.status,
        headers: response.headers,
        text,
        body: (json ? JSON.parse(text) : {}) as Json
      }
    }
    const api = (method: string, path: string, body?: unknown, auth = key) =>
      request(method, `/forms/api/v1${path}`, body, bearer(auth))

    const publish = async (def: unknown, settings?: unknown, kind?: string) => {
      const created = await api("POST", "/forms", {
        title: "Survey, 2026",
        definition: def,
        ...(kind === undefined ? {} : { kind }),
        ...(settings === undefined ? {} : { settings })
      })
      expect(created.status).toBe(201)
      const form = created.body.data as unknown as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    const start = async (slug: string, body: unknown = {}, cookie?: string) => {
      const r = await request("POST", `/f/${slug}/responses`, body, cookie === undefined ? {} : { cookie })
      return {
        ...r,
        started: r.body.data as unknown as { responseId: string; token: string } & Record<string, unknown>
      }
    }
    const upload = (
      slug: string,
      responseId: string,
      token: string,
      blockId: string,
      bytes: Uint8Array,
      type: string
    ) =>
      fetch(
        `${app.origin}/f/${slug}/responses/${responseId}/files?blockId=${blockId}&filename=cv%20final.pdf`,
        {
          method: "POST",
          headers: { "x-response-token": token, "content-type": type },
          body: bytes
        }
      )

    beforeAll(async () => {
      const started = await startAppOn(target.name, { blobStore: "fs" })
      ;({ app, key, workspaceId } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("collects valid responses, rejects invalid ones, and reads, summarises and exports them exactly", async () => {
      const form = await publish(definition)
      const ids: Array<string> = []
      let fileKey = ""
      for (const [i, answers] of answersOf.entries()) {
        const { started, headers } = await start(form.slug, { params: i === 0 ? { src: "mail" } : {} })
        expect(headers.get("set-cookie")).toMatch(
          /^folio_rt=[A-Za-z0-9_-]{32}; Path=\/f\/;.*HttpOnly; SameSite=Lax/
        )
        let submitted: Record<string, unknown> = answers
        if (i === 0) {
          const r = await upload(
            form.slug,
            started.responseId,
            started.token,
            blk(14),
            PDF,
            "application/pdf"
          )
          expect(r.status).toBe(201)
          const file = ((await r.json()) as { data: { key: string; contentType: string; filename: string } })
            .data
          expect(file).toMatchObject({ contentType: "application/pdf", filename: "cv final.pdf" })
          fileKey = file.key
          submitted = { ...answers, [blk(14)]: [file.key] }
        }
        const done = await request("POST", `/f/${form.slug}/responses/${started.responseId}/complete`, {
          token: started.token,
          answers: submitted
        })
        expect(done.status).toBe(200)
        ids.push(started.responseId)
      }

      // Invalid answers: the envelope, value-free issues naming the block, and nothing stored.
      const bad = await start(form.slug)
      const rejected = await request("POST", `/f/${form.slug}/responses/${bad.started.responseId}/complete`, {
        token: bad.started.token,
        answers: {
          ...answersOf[0],
          [blk(7)]: 9,
          [blk(12)]: undefined,
          [blk(14)]: ["workspaces/x/forms/y/other"]
        }
      })
      expect(rejected.status).toBe(400)
      expect(rejected.body.error.code).toBe("invalid")
      const issues = rejected.body.error.details.issues as Array<{ path: Array<string>; rule: string }>
      expect(issues).toEqual(
        expect.arrayContaining([
          { path: ["answers", blk(7)], rule: "outOfRange" },
          { path: ["answers", blk(12)], rule: "required" },
          { path: ["answers", blk(14)], rule: "unknownFile" }
        ])
      )
      expect(rejected.text).not.toContain("ann@example.com")
      const stored = await app.run(
        Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, form.id, bad.started.responseId))
      )
      // The response exists and still holds no answers.
      expect(Option.isSome(stored) ? Object.keys(stored.value.answers) : "missing").toEqual([])

      // Upload rules: type from content, accepted types, size.
      const text = new TextEncoder().encode("plain text, not a PDF")
      const wrongType = await upload(
        form.slug,
        bad.started.responseId,
        bad.started.token,
        blk(14),
        text,
        "application/pdf"
      )
      expect(wrongType.status).toBe(400)
      expect(
        (await upload(form.slug, bad.started.responseId, bad.started.token, blk(14), PNG, "application/pdf"))
          .status
      ).toBe(201)
      const big = new Uint8Array(1024 * 1024 + 1).fill(0x25)
      expect(
        (await upload(form.slug, bad.started.responseId, bad.started.token, blk(14), big, "application/pdf"))
          .status
      ).toBe(413)
      expect(
        (await upload(form.slug, bad.started.responseId, "wrong-token", blk(14), PDF, "application/pdf"))
          .status
      ).toBe(403)
      expect(
        (await upload(form.slug, bad.started.responseId, bad.started.token, blk(1), PDF, "application/pdf"))
          .status
      ).toBe(400)

      // Compact, full and detail projections.
      const compact = await api("GET", `/forms/${form.id}/responses`)
      expect(compact.body.data.items.map((r) => r.id)).toEqual([...ids].reverse())
      expect(compact.body.data.items[2]).toMatchObject({ answerCount: 20, status: "completed" })
      expect(compact.body.data.items[0]).not.toHaveProperty("answers")
      expect(compact.body.data.items[0]?.respondent).toMatchObject({ confidence: expect.any(String) })
      const full = await api("GET", `/forms/${form.id}/responses?projection=full`)
      const first = full.body.data.items[2] as { answers: Record<string, unknown>; files: Array<unknown> }
      expect(first.answers).toMatchObject({ ...answersOf[0], [blk(19)]: "mail", [blk(20)]: 6 })
      expect((full.body.data.items[0] as { answers: Record<string, unknown> }).answers[blk(19)]).toBe(
        "direct"
      )
      expect((full.body.data.items[0] as { answers: Record<string, unknown> }).answers).not.toHaveProperty(
        blk(12)
      )
      const detail = await api("GET", `/forms/${form.id}/responses/${ids[0]}`)
      const files = detail.body.data.files as Array<{
        key: string
        id: string
        filename: string
        downloadUrl: string
      }>
      expect(files).toEqual([
        {
          key: fileKey,
          id: expect.any(String),
          filename: "cv final.pdf",
          downloadUrl: `${app.origin}/forms/api/v1/forms/${form.id}/files/${files[0]?.id}`
        }
      ])
      expect(detail.body.data.presentation).toBeNull()

      // The file: 302 to a signed URL that serves the bytes; files:read is required.
      const redirect = await fetch(files[0]?.downloadUrl ?? "", { headers: bearer(key), redirect: "manual" })
      expect(redirect.status).toBe(302)
      const served = await fetch(redirect.headers.get("location") ?? "")
      expect(served.status).toBe(200)
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)
      expect(served.headers.get("content-type")).toBe("application/pdf")
      const noFiles = await newWorkspaceKey(app, ["responses:read"])
      expect(
        (await fetch(files[0]?.downloadUrl ?? "", { headers: bearer(noFiles.key), redirect: "manual" }))
          .status
      ).toBe(403)

      // Summary, by hand: mood 5,3,1; ranking positions; wellbeing = mood + (6 - energy); quiz 2 for "b".
      const summary = await api("GET", `/forms/${form.id}/responses/summary`)
      const questions = summary.body.data.questions as Array<Record<string, unknown>>
      const q = (id: string) => questions.find((x) => x.blockId === id)
      expect(q(blk(7))).toMatchObject({ kind: "numeric", answered: 3, average: 3, min: 1, max: 5 })
      expect(q(blk(3))).toMatchObject({
        kind: "choice",
        answered: 3,
        choices: [
          { id: "a", count: 1, percent: 33.33 },
          { id: "b", count: 1, percent: 33.33 },
          { id: "c", count: 1, percent: 33.33 }
        ]
      })
      expect(q(blk(4))).toMatchObject({
        answered: 2,
        choices: [
          { id: "a", count: 1, percent: 50 },
          { id: "b", count: 2, percent: 100 },
          { id: "c", count: 0, percent: 0 }
        ]
      })
      const ranking = q(blk(6)) as { items: Array<{ id: string; avgRank: number }> }
      expect(ranking.items.map((x) => [x.id, Number(x.avgRank.toFixed(4))])).toEqual([
        ["a", Number((4 / 3).toFixed(4))],
        ["b", Number((8 / 3).toFixed(4))],
        ["c", 2]
      ])
      expect(q(blk(20))).toMatchObject({ average: 6, min: 6, max: 6 })
      const scores = summary.body.data.scores as Array<Record<string, unknown>>
      expect(scores.find((s) => s.id === "wellbeing")).toMatchObject({
        count: 3,
        average: 6,
        min: 2,
        max: 10
      })
      const quiz = scores.find((s) => s.id === "quiz")
      expect(quiz).toMatchObject({ count: 3, min: 0, max: 2 })
      expect(quiz?.average).toBeCloseTo(2 / 3, 10)

      // The report: `q` filters question summaries; analytics count the cohort.
      const report = await api("GET", `/forms/${form.id}/reports?q=mood`)
      expect(report.status).toBe(200)
      expect((report.body.data.questions as Array<{ blockId: string }>).map((x) => x.blockId)).toEqual([
        blk(7)
      ])
      expect(report.body.data.analytics).toMatchObject({ started: 4, completed: 3, completionRate: 0.75 })
      const past = await api(
        "GET",
        `/forms/${form.id}/reports?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`
      )
      expect(past.body.data.analytics).toMatchObject({ started: 0, completed: 0, completionRate: null })
      expect(
        (await api("GET", `/forms/${form.id}/reports?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`))
          .status
      ).toBe(400)

      // CSV, wide with labels: parsed by a real CSV parser.
      const csv = await api("GET", `/forms/${form.id}/responses.csv`)
      expect(csv.status).toBe(200)
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
      expect(csv.headers.get("content-disposition")).toBe('attachment; filename="Survey-2026-responses.csv"')
      const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>
      expect(Object.keys(rows[0] ?? {})).toEqual([
        "response_id",
        "form_version_id",
        "completed_at",
        ...definition.blocks.filter((b) => b.type !== "statement").map((b) => b.id),
        "score_wellbeing",
        "score_quiz",
        "cutoff_wellbeing",
        "cutoff_quiz"
      ])
      expect(rows.map((r) => r.response_id)).toEqual([...ids].reverse())
      const ann = rows[2] as Record<string, string>
      expect(ann[blk(3)]).toBe("Alpha")
      expect(ann[blk(4)]).toBe("Alpha; Beta")
      expect(ann[blk(6)]).toBe("Gamma; Alpha; Beta")
      expect(ann[blk(16)]).toBe("agreed")
      expect(ann[blk(14)]).toBe(files[0]?.downloadUrl)
      expect(ann.score_wellbeing).toBe("10")
      expect(ann.score_quiz).toBe("0")
      // Formula injection: = + - @ come out with a leading apostrophe.
      expect(rows[1]?.[blk(1)]).toBe("'=SUM(A1)")
      expect(rows[1]?.[blk(2)]).toBe("'+pricing is high, mail ben@example.com")
      expect(rows[0]?.[blk(1)]).toBe("'-neg")
      expect(rows[0]?.[blk(2)]).toBe("'@handle pricing")

      const codes = parse((await api("GET", `/forms/${form.id}/responses.csv?values=code`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(codes[2]?.[blk(4)]).toBe("a;b")
      const long = parse((await api("GET", `/forms/${form.id}/responses.csv?layout=long`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(Object.keys(long[0] ?? {})).toEqual(["response_id", "completed_at", "block_id", "value"])
      expect(long.find((r) => r.response_id === ids[0] && r.block_id === "score_wellbeing")?.value).toBe("10")
      expect(long.filter((r) => r.response_id === ids[2]).length).toBe(16 + 2)
      const deid = parse((await api("GET", `/forms/${form.id}/responses.csv?deidentified=true`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(Object.keys(deid[0] ?? {})).not.toContain(blk(12))
      expect(Object.keys(deid[0] ?? {})).not.toContain(blk(1))
      expect(Object.keys(deid[0] ?? {})).not.toContain("response_id")
      expect(deid.map((r) => r.row)).toEqual(["1", "2", "3"])
      expect(deid[0]?.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}$/)

      // Insights from the long-text answers: "pricing" in all three, an email in two.
      const insights = await api("GET", `/forms/${form.id}/insights`)
      const candidates = insights.body.data.candidates as Array<Record<string, unknown>>
      expect(insights.body.data.scannedResponses).toBe(3)
      expect(candidates.find((c) => c.field === "topic:pricing")).toMatchObject({
        blockId: blk(2),
        frequency: 3,
        share: 1,
        auto: false
      })
      expect(candidates.find((c) => c.field === "email")).toMatchObject({
        frequency: 2,
        suggestedType: "email"
      })
      expect(candidates[0]?.field).toBe("email")
    }, 120_000)

    it("keeps reading a response with the version it was collected under after v2 is published", async () => {
      const form = await publish(definition)
      const { started } = await start(form.slug)
      await request("POST", `/f/${form.slug}/responses/${started.responseId}/complete`, {
        token: started.token,
        answers: answersOf[0]
      })
      const v1 = (await api("GET", `/forms/${form.id}`)).body.data as unknown as {
        currentVersionId: string
        draftRevision: number
      }
      const v2def = {
        ...definition,
        blocks: [...definition.blocks, { id: blk(30), type: "short_text", label: "New in v2" }]
      }
      expect(
        (
          await api("PATCH", `/forms/${form.id}`, {
            definition: v2def,
            expectedDraftRevision: v1.draftRevision
          })
        ).status
      ).toBe(200)
      expect(
        (await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: v1.draftRevision + 1 }))
          .status
      ).toBe(200)
      const detail = await api("GET", `/forms/${form.id}/responses/${started.responseId}`)
      expect(detail.body.data.formVersionId).toBe(v1.currentVersionId)
      // A response started under v1 still completes against v1: v2's block is unknown to it.
      const late = await start(form.slug)
      expect(late.started.formVersionId).not.toBe(v1.currentVersionId)
      const rows = parse((await api("GET", `/forms/${form.id}/responses.csv`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(Object.keys(rows[0] ?? {})).toContain(blk(30))
      expect(rows[0]?.form_version_id).toBe(v1.currentVersionId)
    }, 60_000)

    it("estimates the respondent from the continuity cookie and applies the repeat policy", async () => {
      const form = await publish(definition, { submission: { repeatResponsePolicy: "soft_block" } })
      const first = await start(form.slug)
      expect(first.started.respondent).toMatchObject({ confidence: "weak", responseCount: 1, repeatCount: 0 })
      const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      await request("POST", `/f/${form.slug}/responses/${first.started.responseId}/complete`, {
        token: first.started.token,
        answers: answersOf[0]
      })
      const again = await start(form.slug, {}, cookie)
      expect(again.status).toBe(409)
      expect(again.body.error.details).toMatchObject({
        reason: "repeat_response",
        respondent: { confidence: "deterministic", responseCount: 2, repeatCount: 1 }
      })
      const confirmed = await start(form.slug, { confirmRepeat: true }, cookie)
      expect(confirmed.status).toBe(201)
      expect(confirmed.started.respondent).toMatchObject({ confidence: "deterministic", repeatCount: 1 })
      expect(confirmed.headers.get("set-cookie")?.split(";")[0]).toBe(cookie)
      // Without the cookie, the same IP and user agent make it "probable".
      const probable = await start(form.slug, { confirmRepeat: true })
      expect(probable.started.respondent).toMatchObject({ confidence: "probable" })

      const warned = await publish(definition, { submission: { repeatResponsePolicy: "warn" } })
      const w1 = await start(warned.slug)
      const wCookie = (w1.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      await request("POST", `/f/${warned.slug}/responses/${w1.started.responseId}/complete`, {
        token: w1.started.token,
        answers: answersOf[1]
      })
      const w2 = await start(warned.slug, {}, wCookie)
      expect(w2.status).toBe(201)
      expect(w2.started.repeatWarning).toBe(true)
      expect(w1.started.repeatWarning).toBe(false)
    }, 60_000)

    it("keeps an anonymous form's responses unlinkable, and refuses a repeat policy it could not apply", async () => {
      const refused = await api("POST", "/forms", {
        title: "Anonymous",
        definition,
        settings: { submission: { respondentTracking: "anonymous", repeatResponsePolicy: "warn" } }
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error.details).toMatchObject({
        issues: [{ path: ["submission", "repeatResponsePolicy"], rule: "anonymousRepeatPolicy" }]
      })
      const form = await publish(definition, { submission: { respondentTracking: "anonymous" } })
      const first = await start(form.slug)
      const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      // A reload still resumes the unfinished response (the browser key lives until completion).
      const resumed = await request("POST", `/f/${form.slug}/responses/resume`, {}, { cookie })
      expect(resumed.status).toBe(200)
      const token = String(resumed.body.data.token)
      await request("POST", `/f/${form.slug}/responses/${first.started.responseId}/complete`, {
        token,
        answers: answersOf[0]
      })
      // The same browser again is not recognised: a first, weak respondent, never a repeat.
      const again = await start(form.slug, {}, cookie)
      expect(again.status).toBe(201)
      expect(again.started.respondent).toMatchObject({ confidence: "weak", responseCount: 1, repeatCount: 0 })
      const stored = await app.run(
        Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, form.id, first.started.responseId))
      )
      const meta = Option.getOrThrow(stored).meta
      expect(Object.keys(meta)).not.toContain("respondentKey")
      expect(Object.keys(meta)).not.toContain("clientHash")
      expect(Object.keys(meta)).not.toContain("respondent")
      const read = await api("GET", `/forms/${form.id}/responses/${first.started.responseId}`)
      expect(read.body.data).not.toHaveProperty("respondent")
    }, 60_000)

    it("stores and reads interview responses in the spec's shapes, never leaking transcripts into aggregates", async () => {
      const interview = {
        schemaVersion: 2,
        fields: [{ id: "role", labelByLocale: { en: "Role" }, valueType: "short_text" }],
        codebook: {
          version: "1",
          codes: [{ id: "pricing", labelByLocale: { en: "Pricing" }, codeType: "pain_point" }]
        }
      }
      const form = await publish(interview, undefined, "interview")
      const full = (await api("GET", `/forms/${form.id}`)).body.data as unknown as {
        currentVersionId: string
      }
      const secret = "my salary is 123456"
      const ws = workspaceId
      const at = new Date()
      const rows = [
        { status: "completed", analysisStatus: "completed", codes: ["pricing", "onboarding"], user: true },
        { status: "completed", analysisStatus: "pending", codes: ["pricing"], user: true },
        { status: "partial", analysisStatus: "pending", codes: [], user: false }
      ] as const
      const ids: Array<string> = []
      for (const [i, r] of rows.entries()) {
        const id = crypto.randomUUID()
        ids.push(id)
        await app.run(
          Effect.flatMap(ResponseRepository, (repo) =>
            repo.insert({
              id,
              workspaceId: ws,
              formId: form.id,
              formVersionId: full.currentVersionId,
              status: r.status,
              answers: {},
              meta: {
                interview: {
                  summary: `Summary ${i}`,
                  sentiment: "neutral",
                  keyInfo: [],
                  insights: r.codes.map((code) => ({ code, note: "n" })),
                  transcript: [
                    { role: "assistant", content: "What do you do?", blockId: "role", turnId: "t1" },
                    ...(r.user ? [{ role: "user", content: secret, blockId: "role", turnId: "t2" }] : [])
                  ],
                  extractedFields: { role: "engineer" },
                  analysisStatus: r.analysisStatus,
                  quality: {
                    completionReason: r.status === "completed" ? "done" : null,
                    exchangeCount: 2,
                    followupCount: 1
                  }
                }
              },
              createdAt: new Date(at.getTime() + i),
              updatedAt: new Date(at.getTime() + i),
              completedAt: r.status === "completed" ? new Date(at.getTime() + i) : null
            })
          )
        )
      }
      const compact = await api("GET", `/forms/${form.id}/responses`)
      expect(compact.status).toBe(200)
      expect(compact.text).not.toContain(secret)
      expect(compact.body.data.items[0]).toMatchObject({
        id: ids[1],
        interview: {
          summary: "Summary 1",
          sentiment: "neutral",
          transcriptCount: 2,
          extractedFieldCount: 1,
          analysisStatus: "pending",
          quality: { completionReason: "done", exchangeCount: 2, followupCount: 1 }
        }
      })
      const fullPage = await api("GET", `/forms/${form.id}/responses?projection=full`)
      expect(fullPage.text).toContain(secret)
      const detail = await api("GET", `/forms/${form.id}/responses/${ids[0]}`)
      expect((detail.body.data.interview as { transcript: Array<unknown> }).transcript).toHaveLength(2)

      const analytics = await api("GET", `/forms/${form.id}/interview-analytics`)
      expect(analytics.status).toBe(200)
      expect(analytics.text).not.toContain(secret)
      expect(analytics.body.data).toMatchObject({
        funnel: { started: 3, engaged: 2, completed: 2 },
        coverage: { completed: 2, analyzed: 1, pending: 1, analyzedShare: 0.5 },
        codes: [
          {
            code: "pricing",
            label: "Pricing",
            codeType: "pain_point",
            emergent: false,
            responses: 2,
            share: 1
          },
          { code: "onboarding", label: null, emergent: true, responses: 1, share: 0.5 }
        ]
      })
      const report = await api("GET", `/forms/${form.id}/reports`)
      expect(report.body.data).toMatchObject({ kind: "interview", funnel: { started: 3 } })
      expect(report.text).not.toContain(secret)

      for (const path of ["responses/summary", "insights"]) {
        const r = await api("GET", `/forms/${form.id}/${path}`)
        expect([r.status, r.body.error.code]).toEqual([409, "unsupported_kind"])
      }
      const classic = await publish(definition)
      const wrong = await api("GET", `/forms/${classic.id}/interview-analytics`)
      expect([wrong.status, wrong.body.error.code]).toEqual([409, "unsupported_kind"])

      const csv = parse((await api("GET", `/forms/${form.id}/responses.csv`)).text, {
        columns: true
      }) as Array<Record<string, string>>
      expect(csv.map((r) => r.response_id)).toEqual([ids[1], ids[0]])
      expect(csv[0]).toMatchObject({ analysis_status: "pending", field_role: "engineer", themes: "pricing" })
      expect(csv[1]?.transcript).toContain(`user: ${secret}`)
      const deid = await api("GET", `/forms/${form.id}/responses.csv?deidentified=true`)
      expect(deid.text).not.toContain(secret)
      expect(deid.text).not.toContain("engineer")
    }, 60_000)
  })
}
