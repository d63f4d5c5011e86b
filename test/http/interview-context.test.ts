// policy.context end to end over real HTTP on memory, PGlite and PostgreSQL, with a model configured
// (a fake chat-completions server that records every request): a 50-exchange interview whose
// interviewer requests carry at most recentMessageCount messages and the rolling summary, the model
// summariser called in chunks with the previous summary read back from the stored row, and the
// summary kept in the response's runtime.
import { INTERVIEW_SUMMARY_MAX_CHARACTERS, ResponseRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type FakeReply,
  type RecordedRequest,
  startFakeChatCompletions
} from "../support/fake-chat-completions.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })
const FIELDS = 25
const RECENT = 6
const SUMMARY_AFTER = 10

/** 25 fields the model asks about twice each (it extracts nothing): 50 exchanges, then max_exchanges. */
const definition = {
  title: "A long interview",
  locales: { default: "en", supported: ["en"] },
  greetingByLocale: label("Hi! This one takes a while."),
  fields: Array.from({ length: FIELDS }, (_, i) => ({
    id: `f${i}`,
    labelByLocale: label(`topic ${i}`),
    valueType: "long_text"
  })),
  policy: {
    maxExchanges: 50,
    context: { recentMessageCount: RECENT, summaryAfterMessages: SUMMARY_AFTER }
  }
}

/** A respondent's answer of about 250 to 500 characters. */
const answer = (n: number) =>
  `Answer ${n}. We close the month by exporting the ledger, checking every line by hand and fixing what was booked late. `.repeat(
    2 + (n % 3)
  )

type Body = {
  messages: Array<{ role: string; content: string }>
  response_format: { json_schema: { name: string } }
}
const bodyOf = (r: RecordedRequest) => r.body as Body
const schemaName = (r: RecordedRequest) => bodyOf(r).response_format.json_schema.name
const chars = (r: RecordedRequest) => bodyOf(r).messages.reduce((sum, m) => sum + m.content.length, 0)

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`a 50-exchange interview with a bounded context [${target.name}]`, () => {
    let fake: Awaited<ReturnType<typeof startFakeChatCompletions>>
    let started: Awaited<ReturnType<typeof startAppOn>>

    beforeAll(async () => {
      fake = await startFakeChatCompletions()
      started = await startAppOn(target.name, {
        interviewer: Option.some({
          baseUrl: fake.baseUrl,
          model: "fake-model",
          apiKey: Option.none(),
          timeoutMs: 5_000
        })
      })
    }, 120_000)
    afterAll(async () => {
      await started?.close()
      await fake?.close()
    })

    const call = async (method: string, path: string, body?: unknown, auth = false) => {
      const r = await fetch(`${started.app.origin}${path}`, {
        method,
        headers: {
          ...(auth ? bearer(started.key) : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: r.status, body: (await r.json()) as { data: Record<string, unknown> } }
    }

    /** The fake model: question k on topic k mod 25, extracting nothing; summaries as `summary` says. */
    const scriptModel = (summary: (fold: number) => FakeReply) => {
      let asked = 0
      let folds = 0
      fake.respondWith((body) => {
        const name = (body as Body).response_format.json_schema.name
        if (name === "interview_summary") return summary(++folds)
        if (name === "interview_analysis")
          return { content: { summary: "Long.", sentiment: "neutral", keyInfo: [], insights: [] } }
        const k = asked++
        return {
          content: {
            turn: {
              kind: "question",
              text: `Model question ${k}: tell me about topic ${k % FIELDS}?`,
              target: { type: "field", id: `f${k % FIELDS}` }
            },
            extractions: [],
            goalCoverage: [],
            completion: { done: false }
          }
        }
      })
    }

    /** A published interview of `definition`, started. */
    const openInterview = async () => {
      const created = await call(
        "POST",
        "/forms/api/v1/forms",
        { kind: "interview", title: "Long", definition },
        true
      )
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect(
        (await call("POST", `/forms/api/v1/forms/${form.id}/publish`, { expectedDraftRevision: 1 }, true))
          .status
      ).toBe(200)
      const start = await call("POST", `/f/${form.slug}/interview`, {})
      expect(start.status).toBe(201)
      const { responseId, token } = start.body.data as { responseId: string; token: string }
      return { form, responseId, token }
    }

    const storedInterview = async (formId: string, responseId: string) => {
      const row = Option.getOrThrow(
        await started.app.run(
          Effect.flatMap(ResponseRepository, (r) => r.get(started.workspaceId, formId, responseId))
        )
      )
      return row.meta.interview as {
        transcript: Array<{ turnId: string }>
        runtime: { summary?: { text: string; coveredCount: number; throughMessageId: string } }
      }
    }

    it("sends the model at most recentMessageCount messages and the summary, folded in chunks and stored", async () => {
      scriptModel((fold) => ({ content: { summary: `MODEL-SUMMARY-${fold}` } }))
      const { form, responseId, token } = await openInterview()
      let last: { done: boolean; completionReason: string | null; messages: Array<{ text: string }> } = {
        done: false,
        completionReason: null,
        messages: []
      }
      for (let n = 1; n <= 50; n++) {
        const r = await call("POST", `/f/${form.slug}/interview/${responseId}/messages`, {
          token,
          text: answer(n)
        })
        expect(r.status, JSON.stringify(r.body)).toBe(200)
        last = r.body.data as unknown as typeof last
        if (n < 50)
          expect(last.messages.at(-1)?.text).toBe(`Model question ${n}: tell me about topic ${n % FIELDS}?`)
      }
      expect([last.done, last.completionReason]).toEqual([true, "max_exchanges"])

      const turns = fake.requests.filter((r) => schemaName(r) === "interviewer_output")
      const summaries = fake.requests.filter((r) => schemaName(r) === "interview_summary")
      expect(turns).toHaveLength(51) // the start and 50 messages
      // A fold once 6 messages have left the window: at messages 6, 9, ..., 48 (2n + 1 > 10 messages).
      expect(summaries).toHaveLength(15)

      turns.forEach((r, k) => {
        const [system, ...transcript] = bodyOf(r).messages
        const length = 2 * k + 1 // the greeting, and k questions with their answers
        if (length <= SUMMARY_AFTER) {
          expect(transcript).toHaveLength(length)
          expect(system?.content).not.toContain("Earlier in this interview")
          return
        }
        expect(transcript).toHaveLength(RECENT)
        expect(transcript.at(-1)).toEqual({ role: "user", content: answer(k).trim() })
        const summary = system?.content.split(
          /Earlier in this interview \(\d+ messages, summarised[^\n]*\n/u
        )[1]
        expect(summary?.length ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
          2 * INTERVIEW_SUMMARY_MAX_CHARACTERS + 1
        )
        // The model's latest summary, read back from the stored row, leads the summary section.
        const foldsSoFar = k < 6 ? 0 : Math.floor((k - 6) / 3) + 1
        if (foldsSoFar > 0) expect(summary?.startsWith(`MODEL-SUMMARY-${foldsSoFar}`)).toBe(true)
      })
      // Each fold gets the previous summary (stored by the previous turn's write) and only what left since.
      summaries.forEach((r, i) => {
        const user = bodyOf(r).messages[1]?.content ?? ""
        expect(user).toContain(`Previous summary:\n${i === 0 ? "(none)" : `MODEL-SUMMARY-${i}`}`)
        expect(user.split("\nuser: ").length - 1).toBeLessThanOrEqual(i === 0 ? 4 : 3)
        expect(chars(r)).toBeLessThan(INTERVIEW_SUMMARY_MAX_CHARACTERS + 4_000)
      })

      // Bounded: from the 10th exchange on, the request hardly grows, while the transcript grew by
      // every answer (whole, the last request would have been this much larger).
      const sizes = turns.map(chars)
      const transcriptChars = (upTo: number) =>
        [...Array(upTo).keys()].reduce((sum, n) => sum + answer(n + 1).length, 0)
      expect(Math.max(...sizes.slice(10)) - (sizes[10] ?? 0)).toBeLessThan(2_000)
      expect(transcriptChars(50) - transcriptChars(10)).toBeGreaterThan(12_000)
      expect(Math.max(...sizes)).toBeLessThan(
        (sizes[0] ?? 0) + 2 * INTERVIEW_SUMMARY_MAX_CHARACTERS + RECENT * 600
      )

      const interview = await storedInterview(form.id, responseId)
      expect(interview.transcript).toHaveLength(102)
      expect(interview.runtime.summary).toEqual({
        text: "MODEL-SUMMARY-15",
        coveredCount: 91,
        throughMessageId: interview.transcript[90]?.turnId
      })
    }, 60_000)

    it("keeps the built-in summary when the model summariser fails, and the model is shown it", async () => {
      scriptModel(() => ({ content: "not JSON" }))
      const { form, responseId, token } = await openInterview()
      for (let n = 1; n <= 12; n++) {
        const r = await call("POST", `/f/${form.slug}/interview/${responseId}/messages`, {
          token,
          text: answer(n)
        })
        expect(r.status).toBe(200)
      }
      // Folds at messages 6 and 9 (each summary call fails, the turn goes on) and 12.
      expect(fake.requests.filter((r) => schemaName(r) === "interview_summary")).toHaveLength(3)
      const { runtime } = await storedInterview(form.id, responseId)
      expect(runtime.summary?.coveredCount).toBe(19)
      expect(runtime.summary?.text.split("\n")).toHaveLength(9) // answers 1 to 9
      expect(runtime.summary?.text).toContain(`- [topic 1] "${answer(2).trim().slice(0, 40)}`)
      const turns = fake.requests.filter((r) => schemaName(r) === "interviewer_output")
      expect(bodyOf(turns.at(-1) as RecordedRequest).messages[0]?.content).toContain(
        runtime.summary?.text ?? "-"
      )
    }, 60_000)
  })
}
