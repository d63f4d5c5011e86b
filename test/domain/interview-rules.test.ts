// The interview rules one by one: each proposal breaks one rule of the definition and the corrected
// output shows what the domain kept, replaced or cut off, and which correction it reported.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  emptyInterviewSession,
  InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  recordUserMessage
} from "@folio/domain"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

const definition = (input: unknown) => Schema.decodeUnknownSync(InterviewDefinition)(input)

const label = (en: string) => ({ en })

const base = {
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "plan",
      labelByLocale: label("Plan"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: label("Free") },
        { id: "pro", labelByLocale: label("Pro") }
      ]
    },
    { id: "nps", labelByLocale: label("Recommend"), valueType: "nps_0_10", requiredness: "hard" },
    {
      id: "income",
      labelByLocale: label("Income"),
      valueType: "number",
      sensitivity: "high",
      extraction: { allowInference: true }
    }
  ],
  goals: [
    {
      id: "pain",
      labelByLocale: label("Pain"),
      publicPromptHintByLocale: label("What is hard?"),
      allowedProbeKinds: ["why", "example"],
      maxProbes: 1,
      required: false
    }
  ]
}

const def = definition(base)

const ask = (
  target: { type: "field" | "goal"; id: string },
  kind: "question" | "probe" | "confirmation" = "question"
) => ({
  id: `a${Math.random()}`,
  role: "assistant" as const,
  text: "?",
  kind,
  target,
  ...(kind === "probe" ? { probeKind: "why" as const } : {})
})

/** A session in which `turns` were asked and the respondent just replied `reply`. */
const sessionAfter = (
  turns: ReadonlyArray<ReturnType<typeof ask>>,
  reply: string,
  extra: Partial<InterviewSession> = {}
): InterviewSession => {
  let s: InterviewSession = { ...emptyInterviewSession, ...extra }
  turns.forEach((t, i) => {
    s = { ...s, messages: [...s.messages, t] }
    if (i < turns.length - 1) s = recordUserMessage(s, `u${i}`, "…")
  })
  return recordUserMessage(s, "last", reply)
}

const proposal = (p: Partial<InterviewerOutput>): InterviewerOutput => ({
  turn: {
    kind: "question",
    text: "How likely are you to recommend us?",
    target: { type: "field", id: "nps" }
  },
  extractions: [],
  goalCoverage: [],
  completion: { done: false },
  ...p
})

const rules = (step: ReturnType<typeof correctInterviewerOutput>) => step.corrections.map((c) => c.rule)

describe("extractions", () => {
  const s = sessionAfter([ask({ type: "field", id: "plan" })], "We are on the Pro plan")

  it("keeps a well-formed extraction and maps the option label to its id", () => {
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        extractions: [
          {
            fieldId: "plan",
            state: "answered",
            value: "Pro",
            evidence: { start: 14, end: 17 },
            confidence: 0.9
          }
        ]
      })
    )
    expect(step.output.extractions).toEqual([
      { fieldId: "plan", state: "answered", value: "pro", evidence: { start: 14, end: 17 }, confidence: 0.9 }
    ])
    expect(step.fields).toEqual([
      {
        fieldId: "plan",
        status: "answered",
        value: "pro",
        confidence: 0.9,
        evidence: { messageId: "last", start: 14, end: 17 },
        implied: false
      }
    ])
    expect(rules(step)).toEqual(["valueCoerced"])
  })

  it("drops unknown fields and a second extraction of the same field", () => {
    const ev = { start: 14, end: 17 }
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        extractions: [
          { fieldId: "ghost", state: "answered", value: "x", evidence: ev, confidence: 1 },
          { fieldId: "plan", state: "answered", value: "pro", evidence: ev, confidence: 1 },
          { fieldId: "plan", state: "answered", value: "free", evidence: ev, confidence: 1 }
        ]
      })
    )
    expect(step.output.extractions.map((e) => e.value)).toEqual(["pro"])
    expect(rules(step)).toEqual(["unknownField", "duplicateField"])
  })

  it("requires evidence that is really in the last user message", () => {
    const cases = [
      { evidence: { start: 10, end: 99 }, rule: "evidenceNotInMessage" },
      { evidence: { start: 14, end: 17, quote: "Free" }, rule: "evidenceNotInMessage" },
      { evidence: { start: 2, end: 3 }, rule: "evidenceNotInMessage" }, // a blank
      { rule: "evidenceMissing" }
    ] as const
    for (const c of cases) {
      const step = correctInterviewerOutput(
        def,
        "en",
        s,
        proposal({
          extractions: [
            {
              fieldId: "plan",
              state: "answered",
              value: "pro",
              confidence: 0.9,
              ...("evidence" in c ? { evidence: c.evidence } : {})
            }
          ]
        })
      )
      expect(step.output.extractions).toEqual([])
      expect(rules(step)).toEqual([c.rule])
    }
  })

  it("drops confidences outside 0..1 and values that are not of the field's type", () => {
    const step = correctInterviewerOutput(
      def,
      "en",
      sessionAfter([ask({ type: "field", id: "nps" })], "eleven, 11"),
      proposal({
        extractions: [
          { fieldId: "nps", state: "answered", value: 11, evidence: { start: 8, end: 10 }, confidence: 0.9 },
          {
            fieldId: "plan",
            state: "answered",
            value: "pro",
            evidence: { start: 0, end: 6 },
            confidence: 1.5
          }
        ]
      })
    )
    expect(step.output.extractions).toEqual([])
    expect(rules(step)).toEqual(["invalidValue", "confidenceOutOfRange"])
  })

  it("below the threshold asks to confirm (when_ambiguous) or drops (never)", () => {
    const low = proposal({
      extractions: [
        {
          fieldId: "plan",
          state: "answered",
          value: "pro",
          evidence: { start: 14, end: 17 },
          confidence: 0.3
        }
      ]
    })
    const step = correctInterviewerOutput(def, "en", s, low)
    expect(step.fields[0]?.status).toBe("tentative")
    // A due confirmation is not forced: the proposed question on another field may stand.
    expect(step.output.turn.kind).toBe("question")
    const never = definition({
      ...base,
      fields: [{ ...base.fields[0], extraction: { confirmation: "never" } }, base.fields[1]]
    })
    const dropped = correctInterviewerOutput(never, "en", s, low)
    expect(dropped.fields).toEqual([])
    expect(rules(dropped)).toEqual(["belowConfidenceThreshold"])
  })

  it("a confirmation turn on a tentative value, answered with the value, makes it answered", () => {
    const tentative = {
      fieldId: "plan",
      status: "tentative" as const,
      value: "pro",
      confidence: 0.3,
      implied: false
    }
    const s2 = sessionAfter(
      [ask({ type: "field", id: "plan" }), ask({ type: "field", id: "plan" }, "confirmation")],
      "yes",
      { fields: [tentative] }
    )
    const yes = correctInterviewerOutput(
      def,
      "en",
      s2,
      proposal({
        extractions: [
          { fieldId: "plan", state: "answered", value: "pro", evidence: { start: 0, end: 3 }, confidence: 1 }
        ]
      })
    )
    expect(yes.fields[0]?.status).toBe("answered")
    const no = correctInterviewerOutput(def, "en", s2, proposal({}))
    expect(no.fields).toEqual([])
  })

  it("rejects inferred values unless allowInference, and always on sensitive fields", () => {
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        extractions: [
          {
            fieldId: "plan",
            state: "answered",
            value: "pro",
            evidence: { start: 14, end: 17 },
            confidence: 0.9,
            inferred: true
          },
          {
            fieldId: "income",
            state: "answered",
            value: 100,
            evidence: { start: 0, end: 2 },
            confidence: 0.9,
            inferred: true
          }
        ]
      })
    )
    expect(step.output.extractions).toEqual([])
    expect(rules(step)).toEqual(["inferenceNotAllowed", "inferenceNotAllowed"])
  })

  it("accepts only the field's allowed non-answer states", () => {
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        extractions: [{ fieldId: "plan", state: "deferred", evidence: { start: 0, end: 2 }, confidence: 0.9 }]
      })
    )
    expect(rules(step)).toEqual(["nonAnswerNotAllowed"])
    const ok = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        extractions: [{ fieldId: "plan", state: "refused", evidence: { start: 0, end: 2 }, confidence: 0.9 }]
      })
    )
    expect(ok.fields[0]?.status).toBe("refused")
  })

  it("takes nothing from a turn that has no user message to read", () => {
    const step = correctInterviewerOutput(
      def,
      "en",
      emptyInterviewSession,
      proposal({ extractions: [{ fieldId: "plan", state: "refused", confidence: 1 }] })
    )
    expect(step.output.extractions).toEqual([])
    expect(rules(step)).toEqual(["noUserMessage"])
  })
})

describe("turns", () => {
  it("replaces a question on a field already asked maxAttempts times", () => {
    const s = sessionAfter([ask({ type: "field", id: "nps" }), ask({ type: "field", id: "nps" })], "hm")
    const step = correctInterviewerOutput(def, "en", s, proposal({}))
    expect(rules(step)).toEqual(["maxAttempts"])
    expect(step.output.turn).toMatchObject({ kind: "question", target: { type: "field", id: "plan" } })
  })

  it("does not ask again what was implied unless askIfAlreadyImplied", () => {
    const s = sessionAfter([ask({ type: "field", id: "plan" })], "Pro, and I'd give you a 9")
    const implied = proposal({
      extractions: [
        { fieldId: "nps", state: "answered", value: 9, evidence: { start: 24, end: 25 }, confidence: 0.9 }
      ]
    })
    expect(rules(correctInterviewerOutput(def, "en", s, implied))).toEqual(["alreadyAnswered"])
    const asking = definition({
      ...base,
      fields: [base.fields[0], { ...base.fields[1], askPolicy: { askIfAlreadyImplied: true } }]
    })
    expect(rules(correctInterviewerOutput(asking, "en", s, implied))).toEqual([])
  })

  it("keeps probes to the goal's kinds and maxProbes", () => {
    const s = sessionAfter([ask({ type: "goal", id: "pain" })], "Exports are slow")
    const bad = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        turn: {
          kind: "probe",
          text: "How did it feel?",
          target: { type: "goal", id: "pain" },
          probeKind: "emotion"
        }
      })
    )
    expect(rules(bad)).toEqual(["disallowedProbeKind"])
    expect(bad.output.turn).toMatchObject({ kind: "probe", probeKind: "why", target: { id: "pain" } })
    const s2 = sessionAfter(
      [ask({ type: "goal", id: "pain" }), ask({ type: "goal", id: "pain" }, "probe")],
      "Because of size"
    )
    const again = correctInterviewerOutput(
      def,
      "en",
      s2,
      proposal({
        turn: { kind: "probe", text: "Example?", target: { type: "goal", id: "pain" }, probeKind: "example" }
      })
    )
    expect(rules(again)).toEqual(["maxProbes"])
    expect(again.output.turn.kind).not.toBe("probe")
  })

  it("spends no follow-up past the policy's maxFollowups", () => {
    const tight = definition({ ...base, policy: { maxFollowups: 0 } })
    const s = sessionAfter([ask({ type: "goal", id: "pain" })], "Exports are slow")
    const step = correctInterviewerOutput(
      tight,
      "en",
      s,
      proposal({
        turn: { kind: "probe", text: "Why?", target: { type: "goal", id: "pain" }, probeKind: "why" }
      })
    )
    expect(rules(step)).toEqual(["followupBudget"])
  })

  it("never probes a sensitive field", () => {
    const s = sessionAfter([ask({ type: "field", id: "income" })], "hmm")
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        turn: {
          kind: "probe",
          text: "Roughly?",
          target: { type: "field", id: "income" },
          probeKind: "clarify"
        }
      })
    )
    expect(rules(step)).toEqual(["followupNotAllowed"])
  })

  it("replaces unknown targets and confirmations of nothing, and shortens long questions", () => {
    const s = sessionAfter([ask({ type: "field", id: "plan" })], "Pro")
    expect(
      rules(
        correctInterviewerOutput(
          def,
          "en",
          s,
          proposal({ turn: { kind: "question", text: "?", target: { type: "field", id: "ghost" } } })
        )
      )
    ).toEqual(["unknownTarget"])
    expect(
      rules(
        correctInterviewerOutput(
          def,
          "en",
          s,
          proposal({ turn: { kind: "confirmation", text: "Right?", target: { type: "field", id: "nps" } } })
        )
      )
    ).toEqual(["confirmationWithoutValue"])
    const long = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        turn: { kind: "question", text: "word ".repeat(100), target: { type: "field", id: "nps" } }
      })
    )
    expect(rules(long)).toEqual(["questionTooLong"])
    expect(long.output.turn.text.length).toBeLessThanOrEqual(def.policy.maxQuestionCharacters)
  })
})

describe("completion", () => {
  it("refuses to end while a hard field is open, and continues with the domain's plan", () => {
    const s = sessionAfter([ask({ type: "field", id: "plan" })], "Pro")
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        turn: { kind: "closing", text: "Bye" },
        completion: { done: true, reason: "all_required_covered" }
      })
    )
    expect(rules(step)).toEqual(["prematureCompletion"])
    expect(step.output.completion).toEqual({ done: false })
    expect(step.output.turn).toMatchObject({ kind: "question", target: { id: "plan" } })
  })

  it("ends once hard fields are resolved and required goals are covered", () => {
    const fields = [
      { fieldId: "plan", status: "answered" as const, value: "pro", confidence: 1, implied: false },
      { fieldId: "nps", status: "refused" as const, confidence: 1, implied: false }
    ]
    const withGoal = definition({
      ...base,
      goals: [{ ...base.goals[0], required: true, requiredCoverage: 0.5 }]
    })
    const s = sessionAfter([ask({ type: "goal", id: "pain" })], "Exports are slow", { fields })
    const closing = proposal({ turn: { kind: "closing", text: "Thanks!" }, completion: { done: true } })
    expect(correctInterviewerOutput(withGoal, "en", s, closing).output.completion.done).toBe(false)
    const covered = correctInterviewerOutput(withGoal, "en", s, {
      ...closing,
      goalCoverage: [{ goalId: "pain", coverage: 0.6 }]
    })
    expect(covered.output).toMatchObject({
      turn: { kind: "closing", text: "Thanks!" },
      completion: { done: true, reason: "all_required_covered" }
    })
  })

  it("drops coverage of goals never asked", () => {
    const s = sessionAfter([ask({ type: "field", id: "plan" })], "Pro")
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      proposal({
        goalCoverage: [
          { goalId: "pain", coverage: 1 },
          { goalId: "ghost", coverage: 1 }
        ]
      })
    )
    expect(rules(step)).toEqual(["goalNotAsked", "unknownGoal"])
  })

  it("forces the closing once maxExchanges is reached", () => {
    const short = definition({ ...base, policy: { maxExchanges: 1 } })
    const s = sessionAfter([ask({ type: "field", id: "plan" })], "Pro")
    const step = correctInterviewerOutput(short, "en", s, proposal({}))
    expect(rules(step)).toEqual(["maxExchanges"])
    expect(step.output.turn.kind).toBe("closing")
    expect(step.output.completion).toEqual({ done: true, reason: "max_exchanges" })
    const after = applyInterviewStep(s, step, "closing")
    expect(after.messages.at(-1)).toMatchObject({ role: "assistant", kind: "closing" })
  })
})
