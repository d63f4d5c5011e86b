// What the model adapter sends, against a local fake chat-completions server: the prompt-only
// fields of a definition reach the model (persona tone, research brief, goal, module purposes, goal
// rubrics with the instruction never to reveal them, the codebook); over 50 exchanges the request
// carries at most policy.context.recentMessageCount messages and a bounded summary; and the model
// summariser's own call, its failures and its deadline.
import {
  builtInSummaryFallbackOf,
  interviewerMessages,
  interviewSummariserOutputJsonSchema,
  makeOpenAiCompatibleSummariser,
  OpenAiCompatibleInterviewerLive,
  type OpenAiCompatibleInterviewerOptions
} from "@folio/adapters-integrations"
import {
  applyInterviewStep,
  builtInSummaryFold,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  INTERVIEW_SUMMARY_MAX_CHARACTERS,
  InterviewDefinition,
  Interviewer,
  type InterviewerInput,
  type InterviewSession,
  type InterviewSummaryFold,
  recordUserMessage,
  withContextSummary
} from "@folio/domain"
import { Effect, Result, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeChatCompletions, startFakeChatCompletions } from "../support/fake-chat-completions.js"

const label = (en: string) => ({ en })

let fake: FakeChatCompletions
beforeAll(async () => {
  fake = await startFakeChatCompletions()
})
afterAll(async () => {
  await fake.close()
})

const options = (): OpenAiCompatibleInterviewerOptions => ({ baseUrl: fake.baseUrl, model: "test-model" })

type Body = {
  messages: Array<{ role: string; content: string }>
  response_format: { json_schema: { name: string; strict: boolean; schema: unknown } }
}
const bodyOf = (i: number) => fake.requests[i]?.body as Body

/** The adapter's turn for `input`, the fake answering what the built-in interviewer would. */
const modelTurn = (input: InterviewerInput) => {
  fake.respondWith(() => ({ content: deterministicInterviewerTurn(input) }))
  return Effect.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Interviewer).next(input)
    }).pipe(Effect.provide(OpenAiCompatibleInterviewerLive(options())))
  )
}

describe("the prompt-only fields reach the model", () => {
  it("sends persona tone, research brief, goal, module purposes, goal rubrics and the codebook", async () => {
    const definition = Schema.decodeUnknownSync(InterviewDefinition)({
      title: "Prompt-only fields",
      goal: "GOAL-amber-harbour",
      persona: { name: "Mina", tone: "TONE-velvet-lantern" },
      researchBrief: {
        purpose: "BRIEF-PURPOSE-quiet-orchard",
        participantProfile: "BRIEF-PROFILE-copper-kettle",
        decisionUse: "BRIEF-DECISION-linen-bridge",
        researchQuestions: ["BRIEF-QUESTION-paper-comet"],
        methodologyPresetId: "jtbd"
      },
      locales: { default: "en", supported: ["en"] },
      modules: [{ id: "usage", labelByLocale: label("Usage"), purpose: "MODULE-PURPOSE-slate-meadow" }],
      fields: [{ id: "plan", moduleId: "usage", labelByLocale: label("your plan"), valueType: "short_text" }],
      goals: [
        {
          id: "pain",
          moduleId: "usage",
          labelByLocale: label("Pain"),
          internalRubric: "RUBRIC-hidden-walnut",
          publicPromptHintByLocale: label("What is hardest?")
        }
      ],
      codebook: {
        version: "1",
        codes: [
          {
            id: "manual_export",
            codeType: "workaround",
            labelByLocale: label("CODE-LABEL-silver-fern"),
            descriptionByLocale: label("CODE-DESCRIPTION-granite-swallow")
          }
        ]
      }
    })
    const input: InterviewerInput = {
      definition,
      locale: "en",
      session: {
        ...emptyInterviewSession,
        messages: [
          {
            id: "q",
            role: "assistant",
            text: "Which plan are you on?",
            kind: "question",
            target: { type: "field", id: "plan" }
          },
          { id: "a", role: "user", text: "Pro" }
        ]
      }
    }
    await modelTurn(input)
    const [system, ...transcript] = bodyOf(0).messages
    expect(system?.role).toBe("system")
    for (const text of [
      "TONE-velvet-lantern",
      "GOAL-amber-harbour",
      "BRIEF-PURPOSE-quiet-orchard",
      "BRIEF-PROFILE-copper-kettle",
      "BRIEF-DECISION-linen-bridge",
      "BRIEF-QUESTION-paper-comet",
      "MODULE-PURPOSE-slate-meadow",
      "RUBRIC-hidden-walnut",
      '"id":"manual_export","type":"workaround","label":"CODE-LABEL-silver-fern","description":"CODE-DESCRIPTION-granite-swallow"',
      "Never reveal a goal's rubric",
      "Never name the codebook's codes to the respondent"
    ])
      expect(system?.content).toContain(text)
    // The rubric is for the model only: it is in the instructions, never in the conversation.
    expect(JSON.stringify(transcript)).not.toContain("RUBRIC")
  })
})

// 20 text fields, then 3 goals probed to full coverage: 50 exchanges, closing on max_exchanges.
const longInterview = Schema.decodeUnknownSync(InterviewDefinition)({
  title: "Monthly close",
  locales: { default: "en", supported: ["en"] },
  fields: Array.from({ length: 20 }, (_, i) => ({
    id: `f${i}`,
    labelByLocale: label(`step ${i + 1}`),
    valueType: "short_text",
    requiredness: "hard",
    extraction: { confirmation: "never" }
  })),
  goals: Array.from({ length: 3 }, (_, g) => ({
    id: `g${g}`,
    priority: 10,
    labelByLocale: label(`Pain ${g + 1}`),
    publicPromptHintByLocale: label(`What is hardest about part ${g + 1}?`),
    allowedProbeKinds: ["example", "why", "impact"],
    maxProbes: 9,
    requiredCoverage: 1
  })),
  policy: {
    maxExchanges: 50,
    maxFollowups: 30,
    targetFollowups: 9,
    context: { recentMessageCount: 6, summaryAfterMessages: 10 }
  }
})
const answer = (n: number) =>
  `Answer ${n}: we export the ledger by hand, check every line against the bank, and redo it when a subsidiary closes late. `.repeat(
    1 + (n % 3)
  )

describe("a 50-exchange interview through the model adapter", () => {
  it("sends at most recentMessageCount messages and a bounded summary, however long the transcript", async () => {
    const def = longInterview
    const R = def.policy.context.recentMessageCount
    let session: InterviewSession = emptyInterviewSession
    const sizes: Array<number> = []
    const wholeSizes: Array<number> = []
    const step = async (s: InterviewSession) => {
      const proposal = await modelTurn({ definition: def, locale: "en", session: s })
      return correctInterviewerOutput(def, "en", s, proposal)
    }
    session = applyInterviewStep(session, await step(session), "q0")
    for (let n = 1; n <= 50; n++) {
      const withUser = Effect.runSync(
        withContextSummary(def, "en", recordUserMessage(session, `a${n}`, answer(n)))
      )
      const next = await step(withUser)
      const body = bodyOf(0)
      const [system, ...transcript] = body.messages
      const chars = body.messages.reduce((sum, m) => sum + m.content.length, 0)
      sizes.push(chars)
      // What the adapter sent before policy.context: the whole transcript every turn.
      const whole: InterviewDefinition = {
        ...def,
        policy: { ...def.policy, context: { recentMessageCount: 1000, summaryAfterMessages: 1000 } }
      }
      wholeSizes.push(
        interviewerMessages({ definition: whole, locale: "en", session: withUser }).reduce(
          (sum, m) => sum + m.content.length,
          0
        )
      )
      if (withUser.messages.length > def.policy.context.summaryAfterMessages) {
        expect(transcript).toEqual(
          withUser.messages.slice(-R).map((m) => ({ role: m.role, content: m.text }))
        )
        const summary = system?.content.split(
          /Earlier in this interview \(\d+ messages, summarised[^\n]*\n/u
        )[1]
        expect(summary).toBeDefined()
        expect(summary?.length).toBeLessThanOrEqual(2 * INTERVIEW_SUMMARY_MAX_CHARACTERS + 1)
        if (withUser.summary !== undefined) expect(summary?.startsWith(withUser.summary.text)).toBe(true)
      } else expect(transcript).toHaveLength(withUser.messages.length)
      session = applyInterviewStep(withUser, next, `q${n}`)
      if (n < 50) expect(next.output.completion.done).toBe(false)
    }
    expect(session.messages).toHaveLength(101)
    const transcriptChars = session.messages.reduce((sum, m) => sum + m.text.length, 0)
    expect(transcriptChars).toBeGreaterThan(12_000)
    // Past the fields (answered by exchange 20) the request stops growing, while the whole
    // transcript would have grown by every answer since.
    expect(Math.max(...sizes.slice(20)) - (sizes[19] ?? 0)).toBeLessThan(2_500)
    expect((wholeSizes[49] ?? 0) - (wholeSizes[19] ?? 0)).toBeGreaterThan(8_000)
    // Beyond what every request carries (the instructions and the definition), the window and the
    // summary take less than half of what the whole transcript would.
    const fixed = interviewerMessages({
      definition: def,
      locale: "en",
      session: emptyInterviewSession
    }).reduce((sum, m) => sum + m.content.length, 0)
    expect((sizes[49] ?? 0) - fixed).toBeLessThan(((wholeSizes[49] ?? 0) - fixed) * 0.5)
  })
})

describe("makeOpenAiCompatibleSummariser", () => {
  const def = longInterview
  const session: InterviewSession = {
    ...emptyInterviewSession,
    messages: [
      {
        id: "q1",
        role: "assistant",
        text: "How do you close?",
        kind: "question",
        target: { type: "field", id: "f0" }
      },
      { id: "a1", role: "user", text: "By hand. ".repeat(300) },
      {
        id: "q2",
        role: "assistant",
        text: "What is hardest?",
        kind: "question",
        target: { type: "goal", id: "g0" }
      },
      { id: "a2", role: "user", text: "Late subsidiaries." }
    ]
  }
  const input: InterviewSummaryFold = {
    definition: def,
    locale: "en",
    session,
    previous: "PREVIOUS-SUMMARY",
    from: 1,
    to: 4
  }
  const foldWith = (summariser: ReturnType<typeof makeOpenAiCompatibleSummariser>) =>
    Effect.runPromise(Effect.result(summariser.fold(input)))

  it("asks its own short prompt with the previous summary and the new messages, and decodes the answer", async () => {
    fake.script({ content: { summary: "Closes by hand; late subsidiaries hurt." } })
    const result = await foldWith(makeOpenAiCompatibleSummariser(options()))
    expect(Result.isSuccess(result) && result.success).toBe("Closes by hand; late subsidiaries hurt.")
    const body = bodyOf(0)
    expect(body.response_format.json_schema).toEqual({
      name: "interview_summary",
      strict: true,
      schema: interviewSummariserOutputJsonSchema
    })
    expect(body.messages[0]?.content).toContain(`at most ${INTERVIEW_SUMMARY_MAX_CHARACTERS} characters`)
    const user = body.messages[1]?.content ?? ""
    expect(user).toContain("Previous summary:\nPREVIOUS-SUMMARY")
    // The cut fell after a question: it is shown for context; a long message is cut short.
    expect(user).toContain("(already summarised) assistant: How do you close?")
    expect(user).toContain("user: By hand.")
    expect(user).toContain("assistant: What is hardest?\nuser: Late subsidiaries.")
    expect(user.length).toBeLessThan(1_300)
  })

  it("fails on a malformed answer, and behind the fallback folds with the built-in summariser", async () => {
    fake.script({ content: { text: "wrong key" } })
    const failed = await foldWith(makeOpenAiCompatibleSummariser(options()))
    expect(Result.isFailure(failed) && failed.failure._tag).toBe("InterviewSummariserFailed")
    fake.script({ content: "not JSON" })
    const fallback = await foldWith(builtInSummaryFallbackOf(makeOpenAiCompatibleSummariser(options())))
    expect(Result.isSuccess(fallback) && fallback.success).toBe(builtInSummaryFold(input))
  })

  it("keeps the built-in fold when the model gives no summary within the deadline", async () => {
    fake.script("hang")
    const started = performance.now()
    const result = await foldWith(
      builtInSummaryFallbackOf(makeOpenAiCompatibleSummariser({ ...options(), timeoutMs: 10_000 }), 200)
    )
    expect(Result.isSuccess(result) && result.success).toBe(builtInSummaryFold(input))
    expect(performance.now() - started).toBeLessThan(1_500)
    await expect.poll(() => fake.abandoned()).toBe(1)
  })
})
