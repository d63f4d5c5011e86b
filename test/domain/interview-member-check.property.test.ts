// No model can get a correction past the rules in a member check: random replies and random or
// adversarial proposals once the read-back is given; every change to a field must be a stated,
// valid, evidenced value of that reply, none without allowCorrection, and never a third read-back.
import {
  applyInterviewStep,
  customAnswerAllowed,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  InterviewDefinition,
  isCustomAnswer,
  type InterviewerOutput,
  type InterviewExtractedValue,
  type InterviewSession,
  recordUserMessage
} from "@folio/domain"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const en = (text: string) => ({ en: text })

const definitionArb = fc
  .record({
    allowCorrection: fc.boolean(),
    confirmation: fc.constantFrom("never", "when_ambiguous", "always"),
    allowCustomAnswer: fc.boolean(),
    requireEvidenceSpan: fc.boolean()
  })
  .map((o) =>
    Schema.decodeUnknownSync(InterviewDefinition)({
      locales: { default: "en", supported: ["en"] },
      memberCheck: { enabled: true, allowCorrection: o.allowCorrection },
      fields: [
        {
          id: "plan",
          labelByLocale: en("plan"),
          valueType: "single_select",
          requiredness: "hard",
          options: [
            { id: "free", labelByLocale: en("Free") },
            { id: "pro", labelByLocale: en("Pro") }
          ],
          extraction: {
            confirmation: o.confirmation,
            allowCustomAnswer: o.allowCustomAnswer,
            requireEvidenceSpan: o.requireEvidenceSpan,
            allowInference: true
          }
        },
        { id: "team", labelByLocale: en("team size"), valueType: "number", requiredness: "hard" },
        { id: "renew", labelByLocale: en("renewal"), valueType: "boolean", requiredness: "hard" },
        {
          id: "age",
          labelByLocale: en("age"),
          valueType: "number",
          sensitivity: "moderate",
          extraction: { allowInference: true, requireEvidenceSpan: false }
        },
        { id: "role", labelByLocale: en("role"), valueType: "short_text" }
      ],
      goals: [
        {
          id: "pain",
          labelByLocale: en("Pain"),
          publicPromptHintByLocale: en("What is hard?"),
          allowedProbeKinds: [],
          requiredCoverage: 0.5
        }
      ],
      policy: { maxExchanges: 8 }
    })
  )

type Def = InterviewDefinition
type Field = Def["fields"][number]

/** The built-in interviewer's answers, until the first read-back. */
const scripted = (question: string) =>
  /plan/iu.test(question)
    ? "Pro"
    : /team/iu.test(question)
      ? "8"
      : /renew/iu.test(question)
        ? "yes"
        : /age/iu.test(question)
          ? "41"
          : /role/iu.test(question)
            ? "Designer"
            : "Reporting is slow"

const toReadBack = (def: Def): InterviewSession => {
  let s: InterviewSession = emptyInterviewSession
  for (let i = 0; i < 20; i++) {
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      deterministicInterviewerTurn({ definition: def, locale: "en", session: s })
    )
    s = applyInterviewStep(s, step, `q${i}`)
    if (step.output.turn.kind === "member_check") return s
    if (step.output.completion.done) break
    s = recordUserMessage(s, `r${i}`, scripted(step.output.turn.text))
  }
  throw new Error("no read-back was given")
}

const valueArb: fc.Arbitrary<InterviewExtractedValue> = fc.oneof(
  fc.constantFrom("free", "pro", "Free", "enterprise", "12", "yes", ""),
  fc.integer({ min: -3, max: 200 }),
  fc.double(),
  fc.boolean(),
  fc.array(fc.constantFrom("free", "pro", "zz"), { maxLength: 2 })
)

const proposalArb: fc.Arbitrary<InterviewerOutput> = (() => {
  const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constant(""))
  const turn = fc.oneof(
    fc.record({ kind: fc.constant("member_check" as const), text }),
    fc.record({ kind: fc.constant("closing" as const), text }),
    fc.record({
      kind: fc.constantFrom("question" as const, "confirmation" as const),
      text,
      target: fc.record({ type: fc.constant("field" as const), id: fc.constantFrom("plan", "team", "ghost") })
    })
  )
  const extraction = fc.record(
    {
      fieldId: fc.constantFrom("plan", "team", "renew", "age", "role", "ghost"),
      state: fc.constantFrom("answered" as const, "refused" as const, "unknown" as const),
      value: valueArb,
      evidence: fc.record(
        { start: fc.integer({ min: -2, max: 12 }), end: fc.integer({ min: 0, max: 40 }) },
        { requiredKeys: ["start", "end"] }
      ),
      confidence: fc.oneof(
        { weight: 3, arbitrary: fc.double({ min: 0.8, max: 1, noNaN: true }) },
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double()
      ),
      inferred: fc.boolean()
    },
    { requiredKeys: ["fieldId", "state", "confidence"] }
  )
  return fc.record({
    turn,
    extractions: fc.array(extraction, { maxLength: 4 }),
    goalCoverage: fc.constant([]),
    completion: fc.record(
      { done: fc.boolean(), reason: fc.constant("all_required_covered" as const) },
      { requiredKeys: ["done"] }
    )
  })
})()

const replyArb = fc.oneof(
  fc.constantFrom(
    "yes",
    "no",
    "Actually we're on the Free plan",
    "No, team size is 12",
    "renewal: no",
    "role is PM",
    "Enterprise"
  ),
  fc.string({ minLength: 1, maxLength: 40 })
)

const validValue = (field: Field, v: InterviewExtractedValue): boolean => {
  const ids = field.options.map((o) => o.id)
  switch (field.valueType) {
    case "single_select":
      // A custom answer (allowCustomAnswer) is stored as `{ custom }`, never as a loose string.
      return (typeof v === "string" && ids.includes(v)) || (customAnswerAllowed(field) && isCustomAnswer(v))
    case "number":
      return typeof v === "number" && Number.isFinite(v)
    case "boolean":
      return typeof v === "boolean"
    default:
      return typeof v === "string" && v.trim() !== ""
  }
}

describe("member check under adversarial interviewers", () => {
  it("stores no correction the rules refuse, and never reads back more than twice", () => {
    fc.assert(
      fc.property(
        definitionArb,
        fc.array(fc.tuple(replyArb, proposalArb), { minLength: 1, maxLength: 5 }),
        (def, steps) => {
          let s = toReadBack(def)
          for (const [i, [reply, proposal]] of steps.entries()) {
            s = recordUserMessage(s, `m${i}`, reply)
            const step = correctInterviewerOutput(def, "en", s, proposal)
            for (const after of step.fields) {
              const before = s.fields.find((f) => f.fieldId === after.fieldId)
              if (JSON.stringify(before) === JSON.stringify(after)) continue
              // A changed field is a correction: allowed, stated in this reply, valid and confident.
              expect(def.memberCheck?.allowCorrection).toBe(true)
              const field = def.fields.find((f) => f.id === after.fieldId)
              if (field === undefined) throw new Error("unknown field stored")
              expect(after.implied).toBe(false)
              expect(after.status).not.toBe("tentative")
              expect(after.confidence).toBeGreaterThanOrEqual(field.extraction.confidenceThreshold)
              if (after.status === "answered")
                expect(after.value !== undefined && validValue(field, after.value)).toBe(true)
              else expect(field.allowedNonAnswerStates).toContain(after.status)
              if (field.extraction.requireEvidenceSpan) expect(after.evidence).toBeDefined()
              if (after.evidence !== undefined) {
                expect(after.evidence.messageId).toBe(`m${i}`)
                expect(after.evidence.end).toBeLessThanOrEqual(reply.length)
                expect(reply.slice(after.evidence.start, after.evidence.end).trim()).not.toBe("")
              }
            }
            for (const e of step.output.extractions) expect(e.inferred === true).toBe(false)
            expect(step.fields.map((f) => f.fieldId).sort()).toEqual(
              [
                ...new Set([
                  ...s.fields.map((f) => f.fieldId),
                  ...step.output.extractions.map((e) => e.fieldId)
                ])
              ].sort()
            )
            s = applyInterviewStep(s, step, `b${i}`)
            const readBacks = s.messages.filter((m) => m.kind === "member_check").length
            expect(readBacks).toBeLessThanOrEqual(2)
            expect(step.output.turn.kind === "closing").toBe(step.output.completion.done)
            expect(["member_check", "closing"]).toContain(step.output.turn.kind)
            if (step.output.turn.kind === "member_check")
              expect(step.output.turn.text.length).toBeLessThanOrEqual(2000)
            if (step.output.completion.done) {
              expect(step.output.completion.reason).toBe(s.memberCheck?.completionReason)
              expect(s.memberCheck?.outcome).toBeDefined()
              break
            }
          }
        }
      ),
      { numRuns: 500 }
    )
  })
})
