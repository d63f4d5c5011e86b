// Emergent extraction end to end over real HTTP on memory, PGlite and PostgreSQL: the built-in
// interviewer (the model failing, so the built-in one answers each turn) and a model (the fake
// chat-completions server) that proposes emergent items and follow-ups every turn. Follow-ups stay
// within maxEmergentFollowupsPerSession; the kept items show in the detail read (never in the
// compact list), in the CSV (summaries, or capture types only when deidentified) and in the
// interview analytics per capture type.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Option } from "effect"
import { type FakeChatCompletions, startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })

const definition = {
  title: "Reporting interview",
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "plan",
      priority: 90,
      labelByLocale: label("your plan"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: label("Free") },
        { id: "pro", labelByLocale: label("Pro") }
      ]
    }
  ],
  goals: [
    {
      id: "pain",
      priority: 60,
      labelByLocale: label("Pain"),
      publicPromptHintByLocale: label("What is hardest about reporting?"),
      allowedProbeKinds: ["why"],
      maxProbes: 1,
      requiredCoverage: 1
    }
  ],
  emergentExtraction: {
    captureTypes: ["pain_point", "emotion", "barrier"],
    followupPolicy: { allowEmergentFollowup: true, maxEmergentFollowupsPerSession: 1 }
  },
  policy: { maxExchanges: 6, maxFollowups: 3 }
}

const PAIN = "Exporting the monthly numbers is frustrating because it takes a full day."

/** What the respondent says to a question (by its text). */
const answerTo = (question: string): string => {
  const q = question.toLowerCase()
  if (q.includes("confirm")) return "yes"
  if (q.includes("plan")) return "Pro"
  if (q.includes("you mentioned")) return "It makes me feel stressed at the end of every month."
  if (q.includes("why")) return "Because the export tool is slow and it is frustrating to wait."
  return PAIN
}

interface Message {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}
interface Turn {
  readonly responseId: string
  readonly messages: ReadonlyArray<Message>
  readonly done: boolean
  readonly completionReason: string | null
  readonly token: string
}
interface EmergentView {
  readonly id: string
  readonly captureType: string
  readonly summary: string
  readonly relatedTo?: { type: string; id: string }
  readonly evidenceMessageIds: ReadonlyArray<string>
  readonly followedUp: boolean
}
interface Detail {
  readonly interview: {
    readonly emergent?: ReadonlyArray<EmergentView>
    readonly quality: { followupCount: number; emergentFollowupCount?: number; completionReason: string }
  }
}

const schemaName = (body: unknown) =>
  (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name
const messagesOf = (body: unknown) =>
  (body as { messages: Array<{ role: string; content: string }> }).messages

const analysis = {
  content: { summary: "About reporting.", sentiment: "negative", keyInfo: [], insights: [] }
}

/**
 * A model that proposes, every turn: the goal's anchor question first, then a pain point and a
 * `quote` (not captured) from each message with a follow-up on the pain point, named by the id the
 * prompt announces; it never extracts anything, so the budget closes the interview.
 */
const eagerModel = (body: unknown) => {
  if (schemaName(body) !== "interviewer_output") return analysis
  const messages = messagesOf(body)
  const last = messages.at(-1)
  const base = { extractions: [], goalCoverage: [], completion: { done: false } }
  if (last?.role !== "user")
    return {
      content: {
        ...base,
        turn: {
          kind: "question",
          text: "What is hardest about reporting?",
          target: { type: "goal", id: "pain" }
        }
      }
    }
  const next = /get the ids e(\d+)/u.exec(messages[0]?.content ?? "")?.[1] ?? "1"
  const evidence = { start: 0, end: last.content.length }
  return {
    content: {
      ...base,
      turn: {
        kind: "probe",
        text: "You said something interesting there. Could you tell me more?",
        target: { type: "emergent", id: `e${next}` },
        probeKind: "clarify"
      },
      emergent: [
        {
          captureType: "pain_point",
          // Numbered per message: the same words twice would be a repeat, which the rules drop.
          summary: `Pain ${messages.filter((m) => m.role === "user").length}: ${last.content.slice(0, 30)}`,
          evidence,
          relatedTo: { type: "goal", id: "pain" },
          novel: null
        },
        { captureType: "quote", summary: "A quotable line", evidence, relatedTo: null, novel: null }
      ]
    }
  }
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`emergent extraction over the public routes [${target.name}]`, () => {
    let fake: FakeChatCompletions
    let started: Awaited<ReturnType<typeof startAppOn>>

    beforeAll(async () => {
      fake = await startFakeChatCompletions()
      started = await startAppOn(target.name, {
        interviewer: Option.some({
          baseUrl: fake.baseUrl,
          model: "fake-model",
          apiKey: Option.none(),
          timeoutMs: 2_000
        })
      })
    }, 120_000)
    afterAll(async () => {
      await started?.close()
      await fake?.close()
    })

    const call = async (method: string, path: string, body?: unknown, auth = true) => {
      const r = await fetch(`${started.app.origin}${path}`, {
        method,
        headers: {
          ...(auth ? bearer(started.key) : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await r.text()
      const json = r.headers.get("content-type")?.includes("json") === true && text !== ""
      return { status: r.status, text, body: (json ? JSON.parse(text) : {}) as { data: unknown } }
    }
    const api = (method: string, path: string, body?: unknown) => call(method, `/forms/api/v1${path}`, body)

    const publish = async () => {
      const created = await api("POST", "/forms", { kind: "interview", title: "Interview", definition })
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }

    /** Answers every question until the interview closes; the transcript as the respondent saw it. */
    const holdInterview = async (slug: string) => {
      const s = await call("POST", `/f/${slug}/interview`, {}, false)
      expect(s.status, s.text).toBe(201)
      const turn = s.body.data as Turn
      const seen: Array<Message> = [...turn.messages]
      let last: Turn = turn
      for (let i = 0; i < 20 && !last.done; i++) {
        const r = await call(
          "POST",
          `/f/${slug}/interview/${turn.responseId}/messages`,
          { token: turn.token, text: answerTo(seen.at(-1)?.text ?? "") },
          false
        )
        expect(r.status, r.text).toBe(200)
        last = r.body.data as Turn
        seen.push(...last.messages)
      }
      expect(last.done).toBe(true)
      return { responseId: turn.responseId, seen }
    }

    const detailOf = async (formId: string, responseId: string) => {
      const r = await api("GET", `/forms/${formId}/responses/${responseId}`)
      expect(r.status).toBe(200)
      return (r.body.data as Detail).interview
    }
    const csvOf = async (formId: string, query = "") => {
      const r = await call("GET", `/forms/api/v1/forms/${formId}/responses.csv${query}`)
      expect(r.status).toBe(200)
      return r.text
    }

    it("the built-in interviewer follows up one emergent item, within budget, and the reads, CSV and analytics show the items", async () => {
      fake.respondWith((body) =>
        schemaName(body) === "interviewer_output" ? { content: "not JSON" } : analysis
      )
      const form = await publish()
      const { responseId, seen } = await holdInterview(form.slug)

      const followups = seen.filter((m) => m.role === "assistant" && m.text.startsWith("You mentioned"))
      expect(followups.map((m) => m.text)).toEqual([
        'You mentioned "Exporting the monthly numbers is frustrating because it…": could you tell me more?'
      ])
      const painMessage = seen.find((m) => m.role === "user" && m.text === PAIN)

      const interview = await detailOf(form.id, responseId)
      expect(interview.quality.emergentFollowupCount).toBe(1)
      expect(interview.quality.followupCount).toBeGreaterThanOrEqual(1)
      const items = interview.emergent ?? []
      expect(items[0]).toEqual({
        id: "e1",
        captureType: "pain_point",
        summary: PAIN,
        relatedTo: { type: "goal", id: "pain" },
        evidenceMessageIds: [painMessage?.id],
        followedUp: true
      })
      // The answer to the follow-up is captured too, related to what the item was about.
      expect(items).toContainEqual(
        expect.objectContaining({
          captureType: "emotion",
          summary: "It makes me feel stressed at the end of every month.",
          relatedTo: { type: "goal", id: "pain" },
          followedUp: false
        })
      )
      const userIds = new Set(seen.filter((m) => m.role === "user").map((m) => m.id))
      for (const item of items) for (const id of item.evidenceMessageIds) expect(userIds.has(id)).toBe(true)

      // The compact list never carries the text.
      const list = await api("GET", `/forms/${form.id}/responses`)
      expect(list.text).not.toContain("stressed")
      expect(list.text).not.toContain('"emergent":')

      const csv = await csvOf(form.id)
      expect(csv.split(/\r?\n/u)[0]).toBe(
        "response_id,completed_at,analysis_status,sentiment,summary,field_plan,themes,emergent,transcript"
      )
      expect(csv).toContain(`pain_point: ${PAIN}`)
      expect(csv).toContain("emotion: It makes me feel stressed at the end of every month.")
      const deidentified = await csvOf(form.id, "?deidentified=true")
      expect(deidentified).toContain("pain_point; emotion")
      expect(deidentified).not.toContain("stressed")

      const analytics = await api("GET", `/forms/${form.id}/interview-analytics`)
      expect(analytics.status).toBe(200)
      const emergent = (analytics.body.data as { emergent: Array<Record<string, unknown>> }).emergent
      const painCount = items.filter((i) => i.captureType === "pain_point").length
      expect(emergent).toContainEqual({
        captureType: "pain_point",
        responses: 1,
        mentions: painCount,
        share: 1
      })
      expect(emergent).toContainEqual(
        expect.objectContaining({ captureType: "emotion", responses: 1, share: 1 })
      )
      expect(emergent).toContainEqual({ captureType: "barrier", responses: 0, mentions: 0, share: 0 })
      expect(JSON.stringify(analytics.body)).not.toContain("stressed")
    })

    it("a model's follow-ups on emergent items are cut to the budget, and items of types not captured are dropped", async () => {
      fake.respondWith(eagerModel)
      const form = await publish()
      const { responseId, seen } = await holdInterview(form.slug)

      const probes = seen.filter(
        (m) => m.text === "You said something interesting there. Could you tell me more?"
      )
      expect(probes).toHaveLength(1)
      const interview = await detailOf(form.id, responseId)
      expect(interview.quality.emergentFollowupCount).toBe(1)
      const items = interview.emergent ?? []
      const users = seen.filter((m) => m.role === "user")
      // One pain point per respondent message; the `quote` items never stored.
      expect(items.map((i) => [i.captureType, i.evidenceMessageIds])).toEqual(
        users.map((m) => ["pain_point", [m.id]])
      )
      expect(items.filter((i) => i.followedUp).map((i) => i.id)).toEqual(["e1"])
      // Ids go on from the highest kept one, as the prompt announces (a dropped last proposal leaves no gap).
      expect(items.map((i) => i.id)).toEqual(users.map((_, n) => `e${n + 1}`))

      // The model was told the policy and the items so far.
      const requests = fake.requests.filter((r) => schemaName(r.body) === "interviewer_output")
      const system = messagesOf(requests.at(-1)?.body)[0]?.content ?? ""
      expect(system).toContain('"emergentExtraction"')
      expect(system).toContain("maxEmergentFollowupsPerSession")
      expect(system).toMatch(/Emergent items so far: \[\{"id":"e1","captureType":"pain_point"/u)

      const analytics = await api("GET", `/forms/${form.id}/interview-analytics`)
      const emergent = (analytics.body.data as { emergent: Array<Record<string, unknown>> }).emergent
      expect(emergent.find((e) => e.captureType === "quote")).toBeUndefined()
    })
  })
}
