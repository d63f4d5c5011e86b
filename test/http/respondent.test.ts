// Public respondent routes over real HTTP: read the published form, start (pinned version, randomized
// presentation), save partial answers, complete with validation, scores and hidden fields; closed
// forms, tokens, immutability and version pinning.
import { FORMS_SCOPES, ResponseRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"
import { freshRateWindow } from "../support/rate-window.js"

type Json = Record<string, unknown> & {
  data: Record<string, unknown>
  error: Record<string, unknown> & { details: Record<string, unknown> }
}

let app: RunningApp
let key: { key: string; workspaceId: string }
const choices = [
  { id: "a", label: "A" },
  { id: "b", label: "B" },
  { id: "c", label: "C" }
]

const request = async (method: string, path: string, body?: unknown, auth?: string) => {
  const headers: Record<string, string> = { ...(auth === undefined ? {} : bearer(auth)) }
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${app.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json }
}
const api = (method: string, path: string, body?: unknown) =>
  request(method, `/forms/api/v1${path}`, body, key.key)

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    {
      id: blk(2),
      type: "multiple_choice",
      label: "Pick",
      required: true,
      options: { choices, randomize: { mode: "shuffle", pinLast: 1 } }
    },
    { id: blk(3), type: "rating", label: "Mood", options: { scale: 5 } },
    { id: blk(4), type: "rating", label: "Energy", options: { scale: 5 } },
    { id: blk(5), type: "email", label: "Email", required: true },
    { id: blk(6), type: "hidden_field", label: "Source", options: { param: "src", defaultValue: "direct" } },
    {
      id: blk(7),
      type: "calculated_field",
      label: "Total",
      options: { expression: `{${blk(3)}} + {${blk(4)}}` }
    }
  ],
  logic: [
    {
      id: "lgc_noemail",
      from: blk(2),
      conditions: [{ blk: blk(2), op: "eq", value: "c" }],
      actions: [{ type: "hide", target: blk(5) }]
    }
  ],
  scales: [
    { id: "wellbeing", label: "Wellbeing", blocks: [blk(3), blk(4)], reverse: [blk(4)], aggregation: "sum" }
  ],
  quizzes: [{ id: "quiz", label: "Quiz", items: [{ blockId: blk(2), answer: "b", points: 2 }] }]
}

const publishForm = async (def: unknown, settings?: unknown) => {
  const created = await api("POST", "/forms", {
    title: "Public survey",
    definition: def,
    ...(settings === undefined ? {} : { settings })
  })
  const form = created.body.data
  await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
  return form as { id: string; slug: string }
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  key = await newWorkspaceKey(app, [...FORMS_SCOPES])
})
afterAll(() => app.close())

describe("respondent routes", () => {
  it("refuse a number off its step or with more decimals than its block allows, naming the rule", async () => {
    const form = await publishForm({
      schemaVersion: 1,
      blocks: [
        { id: blk(1), type: "number", label: "Weight", options: { min: 0.5, step: 0.25 } },
        { id: blk(2), type: "number", label: "Price", options: { decimals: 2 } }
      ]
    })
    const started = await request("POST", `/f/${form.slug}/responses`, {})
    const { responseId, token } = started.body.data as { responseId: string; token: string }
    const refused = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(1)]: 0.8, [blk(2)]: 19.999 }
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details.issues).toEqual(
      expect.arrayContaining([
        { path: ["answers", blk(1)], rule: "step" },
        { path: ["answers", blk(2)], rule: "decimals" }
      ])
    )
    const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(1)]: 1.25, [blk(2)]: 19.99 }
    })
    expect(done.status).toBe(200)
    expect(done.body.data.answers).toEqual({ [blk(1)]: 1.25, [blk(2)]: 19.99 })
  })

  it("take a response from start to completion with validation, scores and hidden fields", async () => {
    const form = await publishForm(definition)
    const page = await request("GET", `/f/${form.slug}/form`)
    expect(page.status).toBe(200)
    expect(page.body.data).toMatchObject({
      formId: form.id,
      version: 1,
      title: "Public survey",
      closed: null
    })
    expect(page.body.data.settings).not.toHaveProperty("customScript")

    const started = await request("POST", `/f/${form.slug}/responses`, { params: { src: "newsletter" } })
    expect(started.status).toBe(201)
    const { responseId, token, presentation } = started.body.data as {
      responseId: string
      token: string
      presentation: { choices: Record<string, Array<string>> }
    }
    expect([...(presentation.choices[blk(2)] ?? [])].sort()).toEqual(["a", "b", "c"])
    expect(presentation.choices[blk(2)]?.[2]).toBe("c")

    const partial = await request("PATCH", `/f/${form.slug}/responses/${responseId}`, {
      token,
      answers: { [blk(1)]: "Ada", [blk(3)]: 4 }
    })
    expect(partial.status).toBe(200)
    expect(partial.body.data.status).toBe("partial")

    const wrongToken = await request("PATCH", `/f/${form.slug}/responses/${responseId}`, {
      token: "nope",
      answers: {}
    })
    expect(wrongToken.status).toBe(403)

    const incomplete = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(2)]: "b", [blk(4)]: 9 }
    })
    expect(incomplete.status).toBe(400)
    const issues = (incomplete.body.error.details as { issues: Array<{ path: Array<string>; rule: string }> })
      .issues
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: ["answers", blk(4)], rule: "outOfRange" },
        { path: ["answers", blk(5)], rule: "required" }
      ])
    )
    expect(JSON.stringify(incomplete.body)).not.toContain("Ada")

    const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(2)]: "b", [blk(4)]: 2, [blk(5)]: "ada@example.com" }
    })
    expect(done.status).toBe(200)
    expect(done.body.data).toMatchObject({
      status: "completed",
      answers: { [blk(1)]: "Ada", [blk(6)]: "newsletter", [blk(7)]: 6 }
    })

    const stored = await app.run(
      Effect.flatMap(ResponseRepository, (r) => r.get(key.workspaceId, form.id, responseId))
    )
    const meta = Option.getOrThrow(stored).meta as { scores: Array<{ id: string; score: number | null }> }
    // Scale: 4 + (6 - 2) = 8 (Energy reversed); quiz: "b" is right, 2 points.
    expect(meta.scores.map((s) => [s.id, s.score])).toEqual([
      ["wellbeing", 8],
      ["quiz", 2]
    ])

    const again = await request("PATCH", `/f/${form.slug}/responses/${responseId}`, {
      token,
      answers: { [blk(1)]: "Eve" }
    })
    expect(again.status).toBe(409)
  })

  it("skip required blocks hidden by logic", async () => {
    const form = await publishForm(definition)
    const { responseId, token } = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
      responseId: string
      token: string
    }
    const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(1)]: "Bo", [blk(2)]: "c" }
    })
    expect(done.status).toBe(200)
    expect(done.body.data.answers).toMatchObject({ [blk(6)]: "direct" })
  })

  it("answer 404 for unknown or unpublished forms and 410 when closed", async () => {
    expect((await request("GET", "/f/no-such-form/form")).status).toBe(404)
    const created = (await api("POST", "/forms", { title: "Draft only", definition })).body.data as {
      slug: string
    }
    expect((await request("GET", `/f/${created.slug}/form`)).status).toBe(404)

    const closed = await publishForm(definition, {
      submission: { acceptingResponses: false, closedMessage: "See you next year" }
    })
    const page = await request("GET", `/f/${closed.slug}/form`)
    expect(page.body.data.closed).toEqual({ reason: "not_accepting", message: "See you next year" })
    const start = await request("POST", `/f/${closed.slug}/responses`, {})
    expect(start.status).toBe(410)
    expect(start.body.error).toMatchObject({
      code: "closed",
      message: "See you next year",
      details: { reason: "not_accepting" }
    })

    const capped = await publishForm(
      { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Q" }] },
      { submission: { maxResponses: 1 } }
    )
    const first = (await request("POST", `/f/${capped.slug}/responses`, {})).body.data as {
      responseId: string
      token: string
    }
    expect(
      (
        await request("POST", `/f/${capped.slug}/responses/${first.responseId}/complete`, {
          token: first.token,
          answers: {}
        })
      ).status
    ).toBe(200)
    expect((await request("POST", `/f/${capped.slug}/responses`, {})).status).toBe(410)
  })

  it("pin a response to the version it started under", async () => {
    const form = await publishForm({
      schemaVersion: 1,
      blocks: [{ id: blk(1), type: "short_text", label: "Old question" }]
    })
    const { responseId, token } = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
      responseId: string
      token: string
    }
    const v2 = {
      schemaVersion: 1,
      blocks: [{ id: blk(9), type: "number", label: "New question", required: true }]
    }
    await api("PATCH", `/forms/${form.id}`, { definition: v2, expectedDraftRevision: 1 })
    await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 2 })
    const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
      token,
      answers: { [blk(1)]: "still v1" }
    })
    expect(done.status).toBe(200)
    expect(done.body.data.answers).toEqual({ [blk(1)]: "still v1" })
  })
})

describe("reading responses back (REST, responses:read)", () => {
  it("lists compact and full projections, reads one with its presentation, and gates partial responses", async () => {
    const form = await publishForm(definition)
    const ids: Array<string> = []
    for (const name of ["Ann", "Ben"]) {
      const { responseId, token } = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
        responseId: string
        token: string
      }
      await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
        token,
        answers: { [blk(1)]: name, [blk(2)]: "c" }
      })
      ids.push(responseId)
    }
    const partial = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
      responseId: string
    }

    const compact = await api("GET", `/forms/${form.id}/responses?limit=1`)
    expect(compact.status).toBe(200)
    const page = compact.body.data as { items: Array<Record<string, unknown>>; nextCursor: string }
    expect(page.items).toHaveLength(1)
    expect(page.items[0]).toMatchObject({
      id: ids[1],
      status: "completed",
      answerCount: 3,
      translationSetId: null,
      responseLocale: null
    })
    expect(page.items[0]).not.toHaveProperty("answers")
    const next = await api(
      "GET",
      `/forms/${form.id}/responses?limit=1&cursor=${encodeURIComponent(page.nextCursor)}`
    )
    expect((next.body.data as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual([ids[0]])

    const full = await api("GET", `/forms/${form.id}/responses?projection=full`)
    expect(
      (full.body.data as { items: Array<{ answers: Record<string, unknown> }> }).items.map(
        (i) => i.answers[blk(1)]
      )
    ).toEqual(["Ben", "Ann"])

    const detail = await api("GET", `/forms/${form.id}/responses/${ids[0]}`)
    expect(detail.body.data).toMatchObject({ id: ids[0], answers: { [blk(1)]: "Ann" }, files: [] })
    expect(
      (detail.body.data.presentation as { order: { choices: Record<string, unknown> } }).order.choices
    ).toHaveProperty(blk(2))

    const partials = await api("GET", `/forms/${form.id}/responses?status=partial`)
    expect((partials.body.data as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual([
      partial.responseId
    ])
    const reader = await newWorkspaceKey(app, ["responses:read"])
    const denied = await request(
      "GET",
      `/forms/api/v1/forms/${form.id}/responses?status=partial`,
      undefined,
      reader.key
    )
    expect(denied.status).toBe(403)
    expect((await api("GET", `/forms/${form.id}/responses?limit=101`)).status).toBe(400)
    // The reader's own workspace does not have this form.
    expect(
      (await request("GET", `/forms/api/v1/forms/${form.id}/responses`, undefined, reader.key)).status
    ).toBe(404)
  })
})

describe("the responses summary", () => {
  it("computes per-question and score summaries that match a hand count", async () => {
    const form = await publishForm(definition)
    const submissions = [
      { [blk(1)]: "Ann", [blk(2)]: "a", [blk(3)]: 5, [blk(4)]: 1, [blk(5)]: "ann@example.com" },
      { [blk(1)]: "Ben", [blk(2)]: "b", [blk(3)]: 3, [blk(4)]: 3, [blk(5)]: "ben@example.com" },
      { [blk(1)]: "Cy", [blk(2)]: "c", [blk(3)]: 1 }
    ]
    for (const answers of submissions) {
      const { responseId, token } = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
        responseId: string
        token: string
      }
      expect(
        (await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, { token, answers })).status
      ).toBe(200)
    }
    const summary = await api("GET", `/forms/${form.id}/responses/summary`)
    expect(summary.status).toBe(200)
    const { questions, scores } = summary.body.data as {
      questions: Array<Record<string, unknown>>
      scores: Array<Record<string, unknown>>
    }
    const q = (id: string) => questions.find((x) => x.blockId === id)
    expect(q(blk(2))).toEqual({
      kind: "choice",
      blockId: blk(2),
      label: "Pick",
      answered: 3,
      choices: [
        { id: "a", label: "A", count: 1, percent: 33.33 },
        { id: "b", label: "B", count: 1, percent: 33.33 },
        { id: "c", label: "C", count: 1, percent: 33.33 }
      ]
    })
    expect(q(blk(3))).toMatchObject({ kind: "numeric", answered: 3, average: 3, min: 1, max: 5 })
    expect(q(blk(1))).toMatchObject({ kind: "text", answered: 3 })
    expect([...((q(blk(1))?.samples ?? []) as Array<string>)].sort()).toEqual(["Ann", "Ben", "Cy"])
    // Total = Mood + Energy; the third respondent skipped Energy, so no total.
    expect(q(blk(7))).toMatchObject({ kind: "numeric", answered: 2, average: 6, min: 6, max: 6 })
    // Wellbeing = Mood + (6 - Energy): 5 + 5 = 10, 3 + 3 = 6; the third has no Energy (exclude) = 1.
    expect(scores.find((s) => s.id === "wellbeing")).toMatchObject({
      kind: "scale",
      count: 3,
      average: 17 / 3,
      min: 1,
      max: 10
    })
    expect(scores.find((s) => s.id === "quiz")).toMatchObject({
      kind: "quiz",
      count: 3,
      average: 2 / 3,
      min: 0,
      max: 2
    })
  })
})

describe("the respondent routes' budget per client address", () => {
  it("answers 429 with Retry-After once an address exceeds its requests per minute", async () => {
    const limited = await startApp({ config: { respondentRequestsPerIp: 3 } })
    try {
      await freshRateWindow()
      const statuses: Array<number> = []
      const responses: Array<Response> = []
      for (let i = 0; i < 5; i++) responses.push(await fetch(`${limited.origin}/f/no-such-form/form`))
      for (const r of responses) statuses.push(r.status)
      expect(statuses).toEqual([404, 404, 404, 429, 429])
      const last = responses[4] as Response
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(((await last.json()) as { error: { code: string } }).error.code).toBe("rate_limited")
    } finally {
      await limited.close()
    }
  })
})
