// Classic-form insights from a configured model, over real HTTP on PGlite and PostgreSQL against the
// in-process fake OpenAI-compatible server: the route answers the built-in result while the
// `form_insights` job runs, then the model's findings whose evidence the answers hold; new answers
// queue the job again; a failing model leaves the built-in result with status `failed`.
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { blk } from "../support/builders.js"
import { startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { startAppOn, storageTargets } from "../support/storage.js"

type Insights = {
  scannedResponses: number
  source: "builtin" | "model"
  model: { status: string; jobId: string } | null
  candidates: Array<{ blockId: string; field: string; suggestedType: string; frequency: number }>
}

const definition = {
  schemaVersion: 1,
  blocks: [{ id: blk(1), type: "long_text", label: "How can we reach your team?" }]
}
const answers = [
  "Write to ann@example.com, we use Acme CRM daily",
  "Our lead is ben@example.com and we pay monthly",
  "Mail cy@example.com please"
]

/** The numbered answers of an insights request, as the prompt lists them. */
const numbered = (body: unknown): Array<{ n: number; text: string }> => {
  const messages = (body as { messages: Array<{ role: string; content: string }> }).messages
  const user = messages.find((m) => m.role === "user")?.content ?? ""
  return [...user.matchAll(/^\[(\d+)\] [^:]*: (.*)$/gmu)].map((m) => ({ n: Number(m[1]), text: m[2] ?? "" }))
}
const schemaName = (body: unknown) =>
  (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`insights from a configured model [${target.name}]`, () => {
    let fake: Awaited<ReturnType<typeof startFakeChatCompletions>>
    let started: Awaited<ReturnType<typeof startAppOn>>
    let client: FormsClient

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
      client = formsClient(started.app, started.key)
    }, 120_000)
    afterAll(async () => {
      await started?.close()
      await fake?.close()
    })

    const respond = async (slug: string, text: string) => {
      const origin = started.app.origin
      const s = await fetch(`${origin}/f/${slug}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      const { responseId, token } = ((await s.json()) as { data: { responseId: string; token: string } }).data
      const done = await fetch(`${origin}/f/${slug}/responses/${responseId}/complete`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, answers: { [blk(1)]: text } })
      })
      expect(done.status).toBe(200)
    }
    const insights = async (formId: string) => {
      const r = await client.api("GET", `/forms/${formId}/insights`)
      expect(r.status).toBe(200)
      return r.body.data as unknown as Insights
    }
    const settle = async (formId: string, until: (i: Insights) => boolean) => {
      for (let i = 0; i < 150; i++) {
        const r = await insights(formId)
        if (until(r)) return r
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error("the insights did not settle")
    }

    it("answers the built-in result while the job runs, then the model's findings the answers bear out", async () => {
      fake.respondWith((body) => {
        if (schemaName(body) !== "form_insights") return { status: 400, body: {} }
        return {
          content: {
            insights: numbered(body).flatMap(({ n, text }) => [
              ...(/\S+@\S+\.com/.exec(text) === null
                ? []
                : [
                    {
                      source: n,
                      field: "contact_email",
                      suggestedType: "email",
                      confidence: 1.7,
                      evidence: /\S+@\S+\.com/.exec(text)?.[0] ?? ""
                    }
                  ]),
              // Not in the answer: dropped by the domain.
              {
                source: n,
                field: "budget",
                suggestedType: "number",
                confidence: 0.9,
                evidence: "$1M budget"
              },
              // No such answer: dropped.
              { source: 99, field: "ghost", suggestedType: "short_text", confidence: 0.9, evidence: "Mail" }
            ])
          }
        }
      })
      const formId = await client.publish("model-insights", definition)
      for (const text of answers) await respond("model-insights", text)

      // Five readers at once: one job is queued (the queue's dedupe key), and every one reports it.
      const readers = await Promise.all(Array.from({ length: 5 }, () => insights(formId)))
      expect(new Set(readers.map((r) => r.model?.jobId)).size).toBe(1)
      const first = readers[0] as Insights
      expect(first.source).toBe("builtin")
      expect(first.model?.status).toMatch(/^(queued|running)$/)
      expect(first.candidates.map((c) => c.field)).toContain("email") // the built-in extractor's name

      const done = await settle(formId, (i) => i.source === "model")
      expect(done.model).toEqual({ status: "current", jobId: first.model?.jobId })
      expect(done.scannedResponses).toBe(3)
      expect(done.candidates).toEqual([
        expect.objectContaining({
          blockId: blk(1),
          field: "contact_email",
          suggestedType: "email",
          frequency: 3,
          confidence: 1
        })
      ])
      const requests = fake.requests.filter((r) => schemaName(r.body) === "form_insights")
      expect(requests).toHaveLength(1)
      expect(JSON.stringify(requests[0]?.body)).toContain("ben@example.com")
      // Asked again with nothing changed: the stored result, no new request.
      expect((await insights(formId)).source).toBe("model")
      expect(fake.requests.filter((r) => schemaName(r.body) === "form_insights")).toHaveLength(1)

      // A new answer changes what was read: the built-in result again while a new job runs.
      await respond("model-insights", "Reach dee@example.com")
      const stale = await insights(formId)
      expect(stale.source).toBe("builtin")
      expect(stale.model?.jobId).not.toBe(first.model?.jobId)
      const again = await settle(formId, (i) => i.source === "model")
      expect(again.candidates[0]).toMatchObject({ field: "contact_email", frequency: 4 })
    }, 60_000)

    it("keeps the built-in result and says failed when the model keeps failing", async () => {
      fake.script({ content: "not JSON at all" })
      const formId = await client.publish("failing-insights", definition)
      for (const text of answers) await respond("failing-insights", text)
      const failed = await settle(formId, (i) => i.model?.status === "failed")
      expect(failed.source).toBe("builtin")
      expect(failed.candidates.map((c) => c.field)).toContain("email")
      const asked = fake.requests.length
      // Failed for these answers: not queued again on the next read.
      expect((await insights(formId)).model?.status).toBe("failed")
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(fake.requests.length).toBe(asked)
    }, 60_000)
  })
}

describe("insights without a model", () => {
  it("are the built-in extractor's, with source builtin and no model state", async () => {
    const started = await startAppOn("memory")
    try {
      const client = formsClient(started.app, started.key)
      const formId = await client.publish("plain-insights", definition)
      const r = await client.api("GET", `/forms/${formId}/insights`)
      expect(r.body.data).toMatchObject({ source: "builtin", model: null, scannedResponses: 0 })
    } finally {
      await started.close()
    }
  }, 60_000)
})
