// policy.context in the domain: which messages a model is shown, when the rolling summary is folded
// and how (incrementally, by the configured summariser or the built-in one when it fails), its cap,
// and that the interviewer's step keeps it (HTTP tests show it stored with the response).
import {
  applyInterviewStep,
  builtInSummaryFold,
  contextCutoff,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  INTERVIEW_SUMMARY_FOLD_MESSAGES,
  INTERVIEW_SUMMARY_MAX_CHARACTERS,
  InterviewDefinition,
  type InterviewMessage,
  type InterviewSession,
  InterviewSummariser,
  InterviewSummariserFailed,
  type InterviewSummariserService,
  type InterviewSummaryFold,
  interviewContext,
  recordUserMessage,
  summaryFoldDue,
  summaryLines,
  withContextSummary
} from "@folio/domain"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const label = (en: string) => ({ en })

const definition = (context: { recentMessageCount: number; summaryAfterMessages: number }) =>
  Schema.decodeUnknownSync(InterviewDefinition)({
    locales: { default: "en", supported: ["en"] },
    fields: [
      {
        id: "plan",
        labelByLocale: label("your plan"),
        valueType: "single_select",
        options: [
          { id: "free", labelByLocale: label("Free") },
          { id: "pro", labelByLocale: label("Pro") }
        ]
      },
      ...Array.from({ length: 30 }, (_, i) => ({
        id: `t${i}`,
        labelByLocale: label(`topic ${i}`),
        valueType: "short_text",
        requiredness: "hard"
      }))
    ],
    policy: { maxExchanges: 50, context }
  })

const def = definition({ recentMessageCount: 4, summaryAfterMessages: 8 })

/** A transcript of `exchanges` question/answer pairs after a greeting. */
const transcript = (exchanges: number, answer = (i: number) => `answer number ${i}`): InterviewSession => {
  const messages: Array<InterviewMessage> = [{ id: "g", role: "assistant", text: "Hello!" }]
  for (let i = 0; i < exchanges; i++)
    messages.push(
      {
        id: `q${i}`,
        role: "assistant",
        text: `Question ${i}?`,
        kind: "question",
        target: { type: "field", id: `t${i % 30}` }
      },
      { id: `a${i}`, role: "user", text: answer(i) }
    )
  return { ...emptyInterviewSession, messages }
}

/** `session` carrying `summary` (which must exist: the test just folded it). */
const withSummary = (session: InterviewSession, summary: InterviewSession["summary"]): InterviewSession => {
  if (summary === undefined) throw new Error("expected a summary")
  return { ...session, summary }
}

const run = <A>(effect: Effect.Effect<A>) => Effect.runSync(effect)
const fold = (session: InterviewSession, summariser?: InterviewSummariserService) =>
  Effect.runPromise(
    summariser === undefined
      ? withContextSummary(def, "en", session)
      : withContextSummary(def, "en", session).pipe(Effect.provideService(InterviewSummariser, summariser))
  )

describe("the window a model is shown", () => {
  it("is the whole transcript up to summaryAfterMessages, then the last recentMessageCount messages", () => {
    const short = transcript(3) // 7 messages
    expect(interviewContext(def, "en", short)).toEqual({
      summary: undefined,
      messages: short.messages,
      omitted: 0
    })
    expect(contextCutoff(def, transcript(4))).toBe(5) // 9 messages > 8: the last 4 are shown
    const long = transcript(20)
    const context = interviewContext(def, "en", long)
    expect(context.messages).toEqual(long.messages.slice(-4))
    expect(context.omitted).toBe(long.messages.length - 4)
    // Without a stored summary every message that left is a built-in line.
    expect(context.summary?.split("\n")).toHaveLength(
      long.messages.slice(0, -4).filter((m) => m.role === "user").length
    )
    expect(context.summary).toContain('[topic 0] "answer number 0"')
  })

  it("waits until INTERVIEW_SUMMARY_FOLD_MESSAGES messages have left the window before a fold is due", () => {
    expect(summaryFoldDue(def, transcript(4))).toBeUndefined() // 5 left
    expect(summaryFoldDue(def, transcript(5))).toBe(7) // 11 messages, 7 left
    const folded = run(withContextSummary(def, "en", transcript(5)))
    expect(folded.summary).toMatchObject({ coveredCount: 7, throughMessageId: "a2" })
    // Two more exchanges: 4 more messages left, not yet enough for another fold...
    const later = withSummary(transcript(7), folded.summary)
    expect(summaryFoldDue(def, later)).toBeUndefined()
    // ...and the model sees them as built-in lines after the stored summary.
    const context = interviewContext(def, "en", later)
    expect(context.summary?.startsWith(folded.summary?.text ?? "-")).toBe(true)
    expect(context.summary).toContain('"answer number 3"')
    expect(context.summary).toContain('"answer number 4"')
    expect(context.summary).not.toContain('"answer number 5"')
    expect(context.messages).toEqual(later.messages.slice(-4))
  })

  it("folds incrementally: the summariser gets the previous summary and only the messages that left since", async () => {
    const calls: Array<InterviewSummaryFold> = []
    const recording: InterviewSummariserService = {
      fold: (input) => {
        calls.push(input)
        return Effect.succeed(`S${calls.length}`)
      }
    }
    const first = await fold(transcript(5), recording)
    expect(first.summary).toEqual({ text: "S1", coveredCount: 7, throughMessageId: "a2" })
    expect(calls[0]).toMatchObject({ previous: undefined, from: 0, to: 7 })

    const grown = withSummary(transcript(9), first.summary) // 19 messages, cutoff 15
    const second = await fold(grown, recording)
    expect(calls[1]).toMatchObject({ previous: "S1", from: 7, to: 15 })
    expect(second.summary).toEqual({ text: "S2", coveredCount: 15, throughMessageId: "a6" })
    // Nothing due: no call, the session as it was.
    expect(await fold(withSummary(transcript(9), second.summary), recording)).toEqual({
      ...transcript(9),
      summary: second.summary
    })
    expect(calls).toHaveLength(2)
  })

  it("keeps the built-in fold when the summariser fails or answers blank, and cuts a long one to the cap", async () => {
    const failing: InterviewSummariserService = {
      fold: () => Effect.fail(new InterviewSummariserFailed({ reason: "down" }))
    }
    const session = transcript(5)
    const builtIn = builtInSummaryFold({
      definition: def,
      locale: "en",
      session,
      previous: undefined,
      from: 0,
      to: 7
    })
    expect((await fold(session, failing)).summary?.text).toBe(builtIn)
    expect((await fold(session, { fold: () => Effect.succeed("  ") })).summary?.text).toBe(builtIn)
    const long = await fold(session, { fold: () => Effect.succeed("x".repeat(10_000)) })
    expect(long.summary?.text).toHaveLength(INTERVIEW_SUMMARY_MAX_CHARACTERS)
  })

  it("rebuilds a summary that does not describe this transcript", () => {
    const stray = {
      ...transcript(5),
      summary: { text: "elsewhere", coveredCount: 7, throughMessageId: "zz" }
    }
    expect(summaryFoldDue(def, stray)).toBe(7)
    expect(interviewContext(def, "en", stray).summary).not.toContain("elsewhere")
    expect(run(withContextSummary(def, "en", stray)).summary?.text).not.toContain("elsewhere")
  })

  it("built-in lines name the topic, the probe kind and what the rules recorded", () => {
    const session: InterviewSession = {
      messages: [
        {
          id: "q",
          role: "assistant",
          text: "Which plan?",
          kind: "question",
          target: { type: "field", id: "plan" }
        },
        { id: "a", role: "user", text: "We pay for Pro" },
        {
          id: "p",
          role: "assistant",
          text: "Why?",
          kind: "probe",
          target: { type: "goal", id: "x" },
          probeKind: "why"
        },
        { id: "b", role: "user", text: "Because\n  exports" }
      ],
      fields: [
        {
          fieldId: "plan",
          status: "answered",
          value: "pro",
          confidence: 0.9,
          evidence: { messageId: "a", start: 11, end: 14 },
          implied: false
        }
      ],
      goals: []
    }
    expect(summaryLines(def, "en", session, 0, 4)).toEqual([
      '- [your plan] "We pay for Pro" (recorded: Pro)',
      '- [x, probe why] "Because exports"'
    ])
    // A cut between a question and its answer still names what the answer was about.
    expect(summaryLines(def, "en", session, 1, 2)).toEqual(['- [your plan] "We pay for Pro" (recorded: Pro)'])
  })

  it("keeps the built-in summary under its cap, the newest lines kept and the cut marked", () => {
    const session = transcript(50, (i) => `answer ${i} ${"words ".repeat(40)}`)
    let s: InterviewSession = session
    let text = ""
    for (let to = 7; to <= 96; to += 6) {
      const previous = s.summary
      text = builtInSummaryFold({
        definition: def,
        locale: "en",
        session,
        previous: previous?.text,
        from: previous?.coveredCount ?? 0,
        to
      })
      s = { ...s, summary: { text, coveredCount: to, throughMessageId: session.messages[to - 1]?.id ?? "" } }
      expect(text.length).toBeLessThanOrEqual(INTERVIEW_SUMMARY_MAX_CHARACTERS)
    }
    expect(text.startsWith("(earlier exchanges omitted)\n")).toBe(true)
    expect(text).toContain('"answer 44 ')
    expect(text).not.toContain('"answer 3 ')
  })

  it("stays bounded whatever the transcript: at most recentMessageCount messages and a capped summary", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 2, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 0, maxLength: 50 }),
        fc.boolean(),
        (recent, after, lengths, stored) => {
          const d = definition({ recentMessageCount: recent, summaryAfterMessages: after })
          let session = transcript(lengths.length, (i) => "y".repeat(lengths[i] ?? 1))
          if (stored) session = run(withContextSummary(d, "en", session))
          const context = interviewContext(d, "en", session)
          if (session.messages.length <= after) expect(context.messages).toHaveLength(session.messages.length)
          else {
            expect(context.messages.length).toBeLessThanOrEqual(recent)
            expect(context.summary?.length ?? 0).toBeLessThanOrEqual(2 * INTERVIEW_SUMMARY_MAX_CHARACTERS + 1)
          }
          expect(context.omitted + context.messages.length).toBe(session.messages.length)
        }
      ),
      { numRuns: 200 }
    )
  })
})

describe("the summary in a held interview", () => {
  it("is brought up to date before each turn and kept by the interviewer's step", () => {
    let session: InterviewSession = emptyInterviewSession
    const step = (s: InterviewSession) =>
      correctInterviewerOutput(
        def,
        "en",
        s,
        deterministicInterviewerTurn({ definition: def, locale: "en", session: s })
      )
    session = applyInterviewStep(session, step(session), "q0")
    let folds = 0
    for (let i = 0; i < 30; i++) {
      const before = session.summary
      const withUser = run(withContextSummary(def, "en", recordUserMessage(session, `a${i}`, `reply ${i}`)))
      if (withUser.summary !== before) folds++
      session = applyInterviewStep(withUser, step(withUser), `q${i + 1}`)
      // The interviewer's step keeps the summary.
      expect(session.summary).toEqual(withUser.summary)
      const context = interviewContext(def, "en", session)
      expect(context.messages.length).toBeLessThanOrEqual(Math.max(4, 8))
    }
    // 61 messages: about one fold every three exchanges, none before the window filled.
    expect(folds).toBeGreaterThanOrEqual(8)
    expect(folds).toBeLessThanOrEqual(10)
    expect(session.summary?.coveredCount).toBeGreaterThan(
      session.messages.length - 4 - INTERVIEW_SUMMARY_FOLD_MESSAGES
    )
  })
})
