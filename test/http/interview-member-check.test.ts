// The member check end to end over the public routes, on memory, PGlite and PostgreSQL, with the
// built-in interviewer and with a model (a fake chat-completions server): the read-back before
// closing, a correction that changes the stored values (extracted fields, key information, CSV),
// the second read-back, a plain confirmation, and allowCorrection false; the outcome in quality.
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeChatCompletions, startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { bearer } from "../support/keys.js"
import { until } from "../support/smtp.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })

const definition = (memberCheck: Record<string, unknown>, policy: Record<string, unknown> = {}) => ({
  title: "Member check interview",
  locales: { default: "en", supported: ["en"] },
  memberCheck,
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
    },
    {
      id: "team",
      priority: 80,
      labelByLocale: label("team size"),
      questionByLocale: label("How many people are on your team?"),
      valueType: "number",
      requiredness: "hard"
    }
  ],
  goals: [
    {
      id: "pain",
      priority: 60,
      labelByLocale: label("Pain"),
      publicPromptHintByLocale: label("What is hardest about reporting?"),
      allowedProbeKinds: [],
      requiredCoverage: 0.5
    }
  ],
  policy: { maxExchanges: 10, ...policy }
})

const PAIN = "Exporting the monthly numbers takes a full day"

/** What the respondent says to a question (read-backs are answered by the test itself). */
const answerTo = (question: string): string =>
  /plan/iu.test(question) ? "Pro" : /team/iu.test(question) ? "We are 8" : PAIN

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
interface Stored {
  readonly status: string
  readonly interview: {
    readonly transcript: ReadonlyArray<{ role: string; content: string; turnId: string }>
    readonly extractedFields: Record<string, unknown>
    readonly analysisStatus: string
    readonly keyInfo: ReadonlyArray<{
      label: string
      value: string
      evidenceMessageIds: ReadonlyArray<string>
    }>
    readonly quality: {
      completionReason: string | null
      exchangeCount: number
      memberCheck?: { outcome: string; readBacks: number; correctedFieldIds: ReadonlyArray<string> }
    }
  }
}

const isReadBack = (text: string) => /^(Before we finish|Thank you\. Here is what I have now)/u.test(text)

/** The fake model: it proposes closing every turn with what it read, and corrections in the member check. */
const modelReply = (body: unknown) => {
  const request = body as {
    messages: ReadonlyArray<{ role: string; content: string }>
    response_format?: { json_schema?: { name?: string } }
  }
  if (request.response_format?.json_schema?.name !== "interviewer_output") {
    // The analyst (a job after the interview ends, which may finish before a test reads the
    // response): it names the corrected plan with the reply that states it, as the built-in
    // analysis does, so a read sees the same key information before and after it ran.
    const correction = /^\[([^\]]+)\] user: .*\bFree\b/mu.exec(request.messages.at(-1)?.content ?? "")
    const keyInfo =
      correction === null
        ? []
        : [{ label: "your plan", value: "Free", evidenceMessageIds: [correction[1] as string] }]
    return { content: { summary: "s", sentiment: "neutral", keyInfo, insights: [] } }
  }
  const system = request.messages[0]?.content ?? ""
  const reply = request.messages.at(-1)
  const asked = request.messages.findLast((m) => m.role === "assistant")?.content ?? ""
  const closing = (extra: Record<string, unknown>) => ({
    content: {
      turn: { kind: "closing", text: "Thanks a lot!" },
      extractions: [],
      goalCoverage: [],
      completion: { done: true, reason: "all_required_covered" },
      ...extra
    }
  })
  if (reply?.role !== "user") return closing({})
  const text = reply.content
  if (system.includes("Member check phase: the respondent is replying to read-back")) {
    const at = text.indexOf("Free")
    if (at === -1) return closing({})
    return {
      content: {
        turn: { kind: "member_check", text: "So you are on Free now?" },
        extractions: [
          {
            fieldId: "plan",
            state: "answered",
            value: "free",
            evidence: { start: at, end: at + 4 },
            confidence: 0.95
          },
          // Refused by the rules: a correction is stated, never inferred.
          {
            fieldId: "team",
            state: "answered",
            value: 3,
            evidence: { start: 0, end: 3 },
            confidence: 0.9,
            inferred: true
          }
        ],
        goalCoverage: [],
        completion: { done: false }
      }
    }
  }
  const whole = { start: 0, end: text.length }
  if (/plan/iu.test(asked))
    return closing({
      extractions: [{ fieldId: "plan", state: "answered", value: "pro", evidence: whole, confidence: 0.95 }]
    })
  if (/team/iu.test(asked)) {
    const at = text.search(/\d/u)
    return closing({
      extractions: [
        {
          fieldId: "team",
          state: "answered",
          value: 8,
          evidence: { start: at, end: at + 1 },
          confidence: 0.95
        }
      ]
    })
  }
  return closing({ goalCoverage: [{ goalId: "pain", coverage: 1 }] })
}

for (const target of storageTargets()) {
  for (const interviewer of ["built-in", "model"] as const) {
    describe.skipIf(target.skip)(`member check [${target.name}, ${interviewer} interviewer]`, () => {
      let started: Awaited<ReturnType<typeof startAppOn>> | undefined
      let fake: FakeChatCompletions | undefined

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
                  timeoutMs: 5_000
                })
              }
        )
      }, 120_000)
      afterAll(async () => {
        await started?.close()
        await fake?.close()
      })

      const app = () => {
        if (started === undefined) throw new Error("the app did not start")
        return started
      }
      const call = async (method: string, path: string, body?: unknown, auth = false) => {
        const r = await fetch(`${app().app.origin}${path}`, {
          method,
          headers: {
            ...(auth ? bearer(app().key) : {}),
            ...(body === undefined ? {} : { "content-type": "application/json" })
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await r.text()
        return {
          status: r.status,
          text,
          body: (text.startsWith("{") ? JSON.parse(text) : {}) as { data: unknown }
        }
      }
      const publish = async (def: unknown) => {
        const created = await call(
          "POST",
          "/forms/api/v1/forms",
          { kind: "interview", title: "MC", definition: def },
          true
        )
        expect(created.status).toBe(201)
        const form = created.body.data as { id: string; slug: string }
        const published = await call(
          "POST",
          `/forms/api/v1/forms/${form.id}/publish`,
          { expectedDraftRevision: 1 },
          true
        )
        expect(published.status).toBe(200)
        return form
      }
      /** Answers the questions until the first read-back; then `replies` to the read-backs. */
      const interview = async (def: unknown, replies: ReadonlyArray<string>) => {
        const form = await publish(def)
        const s = await call("POST", `/f/${form.slug}/interview`, {})
        expect(s.status).toBe(201)
        const first = s.body.data as Turn
        const seen: Array<Message> = [...first.messages]
        let last: Turn = first
        const pending = [...replies]
        for (let i = 0; i < 12 && !last.done; i++) {
          const question = seen.at(-1)?.text ?? ""
          const text = isReadBack(question) ? pending.shift() : answerTo(question)
          if (text === undefined) throw new Error(`no reply left for: ${question}`)
          const r = await call("POST", `/f/${form.slug}/interview/${first.responseId}/messages`, {
            token: first.token,
            text
          })
          expect(r.status, r.text).toBe(200)
          last = r.body.data as Turn
          seen.push(...last.messages)
        }
        expect(last.done).toBe(true)
        expect(pending).toEqual([])
        const detail = await call(
          "GET",
          `/forms/api/v1/forms/${form.id}/responses/${first.responseId}`,
          undefined,
          true
        )
        expect(detail.status).toBe(200)
        return { form, seen, last, stored: detail.body.data as Stored, responseId: first.responseId }
      }

      it("applies a correction, reads back once more, and stores the corrected values and the outcome", async () => {
        const correction = "Actually we're on the Free plan, and team size is 12"
        const { form, seen, last, stored, responseId } = await interview(definition({ enabled: true }), [
          correction,
          "Yes, that's right"
        ])
        const readBacks = seen.filter((m) => m.role === "assistant" && isReadBack(m.text))
        expect(readBacks.map((m) => m.text.split("\n")[0])).toEqual([
          "Before we finish, here is what I understood:",
          "Thank you. Here is what I have now:"
        ])
        expect(readBacks[0]?.text).toContain(
          "- your plan: Pro\n- team size: 8\n- Pain: “Exporting the monthly"
        )
        expect(last.completionReason).toBe("all_required_covered")
        const i = stored.interview
        // The transcript holds both read-backs and both replies, in order.
        expect(i.transcript.map((t) => t.content)).toEqual(seen.map((m) => m.text))
        expect(
          i.transcript
            .filter((t) => t.role === "user")
            .map((t) => t.content)
            .slice(-2)
        ).toEqual([correction, "Yes, that's right"])
        const replyId = seen.find((m) => m.text === correction)?.id
        if (interviewer === "built-in") {
          expect(readBacks[1]?.text).toContain("- your plan: Free\n- team size: 12\n")
          expect(i.extractedFields).toEqual({ plan: "free", team: 12 })
          expect(i.quality.memberCheck).toEqual({
            outcome: "corrected",
            readBacks: 2,
            correctedFieldIds: ["plan", "team"]
          })
        } else {
          // The model's read-back text is replaced by the domain's, and its inferred team size refused.
          expect(readBacks[1]?.text).toContain("- your plan: Free\n- team size: 8\n")
          expect(i.extractedFields).toEqual({ plan: "free", team: 8 })
          expect(i.quality.memberCheck).toEqual({
            outcome: "corrected",
            readBacks: 2,
            correctedFieldIds: ["plan"]
          })
          const prompts = (fake?.requests ?? [])
            .map((r) => (r.body as { messages: Array<{ content: string }> }).messages[0]?.content ?? "")
            .filter((p) => p.includes("member check"))
          expect(prompts.length).toBeGreaterThan(0)
        }
        expect(i.keyInfo.find((k) => k.label === "your plan")).toEqual({
          label: "your plan",
          value: "Free",
          evidenceMessageIds: [replyId]
        })
        if (interviewer === "model") {
          // Once the analyst's job has run (the analysis settled past the built-in's `partial`), its
          // key information names the same reply.
          const analysed = await until(
            async () =>
              (await call("GET", `/forms/api/v1/forms/${form.id}/responses/${responseId}`, undefined, true))
                .body.data as Stored,
            (r) => r.interview.analysisStatus !== "pending" && r.interview.analysisStatus !== "partial"
          )
          expect(analysed.interview.analysisStatus).toBe("completed")
          expect(analysed.interview.keyInfo).toEqual([
            { label: "your plan", value: "Free", evidenceMessageIds: [replyId] }
          ])
        }
        // Replies to read-backs are counted as exchanges in quality, but not against maxExchanges.
        expect(i.quality.exchangeCount).toBe(5)
        const csv = await fetch(`${app().app.origin}/forms/api/v1/forms/${form.id}/responses.csv`, {
          headers: bearer(app().key)
        })
        const row = (await csv.text()).split(/\r?\n/u).find((l) => l.startsWith(responseId)) ?? ""
        expect(row).toContain(interviewer === "built-in" ? ",free,12," : ",free,8,")
      })

      it("closes on a plain confirmation, also when the exchange budget was spent", async () => {
        const { seen, stored, last } = await interview(definition({ enabled: true }, { maxExchanges: 3 }), [
          "Yes, that's right"
        ])
        expect(seen.filter((m) => isReadBack(m.text))).toHaveLength(1)
        expect(last.completionReason).toBe("max_exchanges")
        expect(stored.interview.extractedFields).toEqual({ plan: "pro", team: 8 })
        expect(stored.interview.quality).toMatchObject({
          completionReason: "max_exchanges",
          exchangeCount: 4,
          memberCheck: { outcome: "confirmed", readBacks: 1, correctedFieldIds: [] }
        })
      })

      it("records a disagreement as disputed, without changing anything, when corrections are not allowed", async () => {
        const { seen, stored } = await interview(definition({ enabled: true, allowCorrection: false }), [
          "No, we're on the Free plan"
        ])
        const readBacks = seen.filter((m) => isReadBack(m.text))
        expect(readBacks).toHaveLength(1)
        expect(readBacks[0]?.text).toMatch(/Does this reflect what you said\?$/u)
        expect(stored.interview.extractedFields).toEqual({ plan: "pro", team: 8 })
        expect(stored.interview.quality.memberCheck).toEqual({
          outcome: "disputed",
          readBacks: 1,
          correctedFieldIds: []
        })
      })

      it("records the member check as unanswered when the respondent ends the interview during the read-back", async () => {
        const form = await publish(definition({ enabled: true }))
        const first = (await call("POST", `/f/${form.slug}/interview`, {})).body.data as Turn
        let question = first.messages.at(-1)?.text ?? ""
        for (let i = 0; i < 6 && !isReadBack(question); i++) {
          const r = await call("POST", `/f/${form.slug}/interview/${first.responseId}/messages`, {
            token: first.token,
            text: answerTo(question)
          })
          question = (r.body.data as Turn).messages.at(-1)?.text ?? ""
        }
        expect(isReadBack(question)).toBe(true)
        const finished = await call("POST", `/f/${form.slug}/interview/${first.responseId}/finish`, {
          token: first.token
        })
        expect(finished.status).toBe(200)
        const detail = await call(
          "GET",
          `/forms/api/v1/forms/${form.id}/responses/${first.responseId}`,
          undefined,
          true
        )
        expect((detail.body.data as Stored).interview.quality).toMatchObject({
          completionReason: "respondent_ended",
          memberCheck: { outcome: "unanswered", readBacks: 1, correctedFieldIds: [] }
        })
      })

      it("gives no read-back when memberCheck is off", async () => {
        const { seen, stored } = await interview(definition({ enabled: false }), [])
        expect(seen.some((m) => isReadBack(m.text))).toBe(false)
        expect(stored.interview.quality.memberCheck).toBeUndefined()
      })
    })
  }
}
