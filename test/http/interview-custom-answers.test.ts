// Custom answers and questions closed to their options, end to end over real HTTP on memory, PGlite
// and PostgreSQL, with the built-in interviewer and with a model (the fake chat-completions server):
// "We use Enterprise" for a plan with no such option is stored as custom and shown as such in the
// read, its key information and the CSV; a field with allowFreeText false asks again and says so;
// settings that could not act are refused on write with the error envelope.
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeReply, startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })

const customDefinition = {
  title: "Plans",
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "plan",
      labelByLocale: label("your plan"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: label("Free") },
        { id: "pro", labelByLocale: label("Pro") }
      ],
      extraction: { allowCustomAnswer: true }
    }
  ]
}

const closedDefinition = {
  title: "Tiers",
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "tier",
      labelByLocale: label("your tier"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "basic", labelByLocale: label("Basic") },
        { id: "plus", labelByLocale: label("Plus") }
      ],
      extraction: { allowFreeText: false }
    }
  ]
}

interface Turn {
  readonly responseId: string
  readonly token: string
  readonly messages: ReadonlyArray<{ readonly id: string; readonly role: string; readonly text: string }>
  readonly done: boolean
}

type Body = {
  data: Record<string, unknown>
  error: { code: string; details?: { issues?: ReadonlyArray<Record<string, unknown>> } }
}

// The model's side: what a model proposes for each message of these two interviews. ------------

const schemaName = (body: unknown) =>
  (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name

const chatOf = (body: unknown) => (body as { messages: Array<{ role: string; content: string }> }).messages

const question = (id: string, text: string) => ({ kind: "question", text, target: { type: "field", id } })

/**
 * A model that takes "We use Enterprise" as a custom answer (evidence: "Enterprise"), asks to
 * confirm it, and takes "yes" as the confirmation; on the closed tier field it proposes the same
 * custom answer, which the rules must refuse. Its analyses fail, so the built-in analysis stays.
 */
const modelReply = (body: unknown): FakeReply => {
  if (schemaName(body) !== "interviewer_output") return { status: 400, body: { error: "no analyses here" } }
  const messages = chatOf(body)
  const field = (messages[0]?.content ?? "").includes('"id":"tier"') ? "tier" : "plan"
  const last = messages.at(-1)
  const said = last?.role === "user" ? last.content : undefined
  const output = (turn: unknown, extractions: ReadonlyArray<unknown> = [], done = false) => ({
    content: {
      turn,
      extractions,
      goalCoverage: [],
      completion: done ? { done: true, reason: "all_required_covered" } : { done: false, reason: null }
    }
  })
  const enterprise = {
    fieldId: field,
    state: "answered",
    value: { custom: "Enterprise", options: null },
    evidence: { start: 7, end: 17, quote: "Enterprise" },
    confidence: 0.9,
    inferred: false
  }
  if (said === undefined) return output(question(field, `Which ${field} are you on?`))
  if (said === "We use Enterprise")
    return output(
      { kind: "confirmation", text: "So your plan is Enterprise?", target: { type: "field", id: field } },
      [enterprise]
    )
  if (said === "yes")
    return output(
      { kind: "closing", text: "Thanks!" },
      [{ ...enterprise, evidence: { start: 0, end: 3 } }],
      true
    )
  return output(
    { kind: "closing", text: "Thanks!" },
    [
      {
        fieldId: field,
        state: "answered",
        value: said,
        evidence: { start: 0, end: said.length },
        confidence: 0.95
      }
    ],
    true
  )
}

for (const target of storageTargets()) {
  for (const interviewer of ["built-in", "model"] as const) {
    describe.skipIf(target.skip)(
      `custom answers and closed questions [${target.name}, ${interviewer}]`,
      () => {
        let started: Awaited<ReturnType<typeof startAppOn>>
        let fake: Awaited<ReturnType<typeof startFakeChatCompletions>> | undefined

        beforeAll(async () => {
          if (interviewer === "model") {
            fake = await startFakeChatCompletions()
            fake.respondWith(modelReply)
          }
          started = await startAppOn(
            target.name,
            fake === undefined
              ? {}
              : {
                  interviewer: Option.some({
                    baseUrl: fake.baseUrl,
                    model: "fake-model",
                    apiKey: Option.none(),
                    timeoutMs: 2_000
                  })
                }
          )
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
          return { status: r.status, text, body: (text === "" ? {} : JSON.parse(text)) as Body }
        }
        const api = (method: string, path: string, body?: unknown) =>
          call(method, `/forms/api/v1${path}`, body)

        const publish = async (definition: unknown) => {
          const created = await api("POST", "/forms", { kind: "interview", title: "Interview", definition })
          expect(created.status, created.text).toBe(201)
          const form = created.body.data as { id: string; slug: string }
          expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(
            200
          )
          return form
        }
        const start = async (slug: string) => {
          const r = await call("POST", `/f/${slug}/interview`, {}, false)
          expect(r.status, r.text).toBe(201)
          return r.body.data as unknown as Turn
        }
        const say = async (slug: string, turn: Turn, text: string) => {
          const r = await call(
            "POST",
            `/f/${slug}/interview/${turn.responseId}/messages`,
            { token: turn.token, text },
            false
          )
          expect(r.status, r.text).toBe(200)
          return r.body.data as unknown as Turn
        }
        /** The response once its analysis settled (a model's analysis fails here: the built-in stays). */
        const settled = async (formId: string, responseId: string) => {
          for (let i = 0; i < 200; i++) {
            const r = await api("GET", `/forms/${formId}/responses/${responseId}`)
            const interview = (r.body.data as { interview: Record<string, unknown> }).interview
            if (interview.analysisStatus !== "pending") return interview
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
          throw new Error("the analysis did not settle")
        }
        const csvOf = async (formId: string) => {
          const r = await fetch(`${started.app.origin}/forms/api/v1/forms/${formId}/responses.csv`, {
            headers: bearer(started.key)
          })
          return (await r.text()).trim().split(/\r?\n/u)
        }

        it("stores 'We use Enterprise' as a custom answer and shows it in the read, key information and CSV", async () => {
          const form = await publish(customDefinition)
          const opened = await start(form.slug)
          const asked = await say(form.slug, opened, "We use Enterprise")
          // Confirmed first: the answer named no option.
          expect(asked.done).toBe(false)
          expect(asked.messages.at(-1)?.text).toBe(
            interviewer === "model"
              ? "So your plan is Enterprise?"
              : "Just to confirm, your plan: We use Enterprise (other). Is that right?"
          )
          const closed = await say(form.slug, opened, "yes")
          expect(closed.done).toBe(true)

          const custom = interviewer === "model" ? "Enterprise" : "We use Enterprise"
          const interview = await settled(form.id, opened.responseId)
          expect(interview.analysisStatus).toBe(interviewer === "model" ? "failed" : "partial")
          expect(interview.extractedFields).toEqual({ plan: { custom } })
          expect(interview.keyInfo).toEqual([
            { label: "your plan", value: `${custom} (other)`, evidenceMessageIds: [expect.any(String)] }
          ])
          expect(interview.summary).toBe(`your plan: ${custom} (other)`)

          const lines = await csvOf(form.id)
          expect(lines[0]).toContain(",field_plan,")
          expect(lines[1]).toContain(`,"{""custom"":""${custom}""}",`)
        })

        it("asks a field closed to its options again, saying so, and refuses a custom answer there", async () => {
          const form = await publish(closedDefinition)
          const opened = await start(form.slug)
          if (interviewer === "built-in")
            expect(opened.messages.at(-1)?.text).toBe(
              "Could you tell me about your tier? (please choose one: Basic / Plus)"
            )
          const again = await say(form.slug, opened, "We use Enterprise")
          expect(again.done).toBe(false)
          expect(again.messages.at(-1)?.text).toBe(
            "Sorry, I didn't quite get that. Could you tell me about your tier? (please choose one: Basic / Plus)"
          )
          const closed = await say(form.slug, opened, "Plus")
          expect(closed.done).toBe(true)
          const interview = await settled(form.id, opened.responseId)
          expect(interview.extractedFields).toEqual({ tier: "plus" })
          // The model is told what the settings mean; the rules held it to them above.
          if (fake !== undefined)
            expect(
              JSON.stringify(fake.requests.find((r) => schemaName(r.body) === "interviewer_output")?.body)
            ).toContain("A field with allowFreeText false takes only its options")
        })

        it("refuses settings that could not act, with the error envelope and value-free issues", async () => {
          const field = closedDefinition.fields[0]
          for (const [extraction, rule, key] of [
            [
              { allowFreeText: false, allowCustomAnswer: true },
              "customAnswerWithoutFreeText",
              "allowCustomAnswer"
            ],
            [{ allowFreeText: false }, "restrictionWithoutOptions", "allowFreeText"],
            [{ allowCustomAnswer: true }, "customAnswerNotSelect", "allowCustomAnswer"]
          ] as const) {
            const shape =
              rule === "customAnswerWithoutFreeText" ? {} : { valueType: "short_text", options: [] }
            const refused = await api("POST", "/forms", {
              kind: "interview",
              title: "Refused",
              definition: { ...closedDefinition, fields: [{ ...field, ...shape, extraction }] }
            })
            expect(refused.status, refused.text).toBe(400)
            expect(refused.body.error.code).toBe("invalid")
            expect(refused.body.error.details?.issues).toEqual([
              expect.objectContaining({ path: ["fields", 0, "extraction", key], rule })
            ])
          }
        })
      }
    )
  }
}
