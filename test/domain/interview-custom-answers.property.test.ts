// No interviewer, built-in or model, gets a custom value stored for a field that does not allow one:
// random select and text fields with random extraction settings, random replies and proposals.
import {
  applyInterviewStep,
  CUSTOM_ANSWER_MAX,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  type InterviewStep,
  isCustomAnswer,
  recordUserMessage
} from "@folio/domain"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

type Field = InterviewDefinition["fields"][number]

const fieldArb = (i: number) =>
  fc.record({
    id: fc.constant(`f${i}`),
    labelByLocale: fc.constant({ en: `Field ${i}` }),
    valueType: fc.constantFrom("single_select", "multi_select", "short_text", "number"),
    requiredness: fc.constantFrom("hard", "optional"),
    options: fc.constant([
      { id: "free", labelByLocale: { en: "Free" } },
      { id: "pro", labelByLocale: { en: "Pro" } }
    ]),
    extraction: fc.record(
      {
        allowCustomAnswer: fc.boolean(),
        allowFreeText: fc.boolean(),
        confirmation: fc.constantFrom("never", "when_ambiguous", "always"),
        requireEvidenceSpan: fc.boolean()
      },
      { requiredKeys: [] }
    )
  })

// Decoded without the write-time checks on purpose: a stored definition (or a future one) with a
// setting that cannot act must still never store a custom value where it is not allowed.
const definitionArb = fc
  .integer({ min: 1, max: 3 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => fieldArb(i))))
  .map((fields) =>
    Schema.decodeUnknownSync(InterviewDefinition)({ locales: { default: "en", supported: ["en"] }, fields })
  )

const replyArb = fc.oneof(
  fc.constantFrom("We use Enterprise", "Pro", "free and pro", "I don't know", "yes", "  ", "Enterprise?"),
  fc.string({ maxLength: 30 }),
  fc.constant("Enterprise ".repeat(30))
)

const valueArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("free", "Pro", "Enterprise"),
  fc.array(fc.constantFrom("free", "Enterprise", "zz"), { maxLength: 3 }),
  fc.record(
    {
      custom: fc.oneof(fc.string({ maxLength: 12 }), fc.constant("E".repeat(CUSTOM_ANSWER_MAX + 1))),
      options: fc.array(fc.constantFrom("free", "zz"), { maxLength: 2 })
    },
    { requiredKeys: ["custom"] }
  )
)

const proposalArb = (def: InterviewDefinition): fc.Arbitrary<InterviewerOutput> =>
  fc.record({
    turn: fc.constant({ kind: "closing" as const, text: "Bye" }),
    extractions: fc.array(
      fc.record(
        {
          fieldId: fc.constantFrom(...def.fields.map((f) => f.id)),
          state: fc.constant("answered" as const),
          value: valueArb,
          evidence: fc.record({
            start: fc.integer({ min: 0, max: 3 }),
            end: fc.integer({ min: 1, max: 30 })
          }),
          confidence: fc.double({ min: 0, max: 1, noNaN: true })
        },
        { requiredKeys: ["fieldId", "state", "value", "confidence"] }
      ),
      { maxLength: 3 }
    ),
    goalCoverage: fc.constant([]),
    completion: fc.constant({ done: false })
  })

const allowsCustom = (f: Field) =>
  (f.valueType === "single_select" || f.valueType === "multi_select") &&
  f.extraction.allowCustomAnswer === true &&
  f.extraction.allowFreeText

const checkNoForeignCustom = (def: InterviewDefinition, step: InterviewStep) => {
  const values = [
    ...step.fields.map((s) => ({ id: s.fieldId, value: s.value })),
    ...step.output.extractions.map((e) => ({ id: e.fieldId, value: e.value }))
  ]
  for (const { id, value } of values) {
    const field = def.fields.find((f) => f.id === id)
    expect(field).toBeDefined()
    if (field === undefined || value === undefined) continue
    if (isCustomAnswer(value)) {
      expect(allowsCustom(field)).toBe(true)
      expect(value.custom.trim()).not.toBe("")
      expect(value.custom.length).toBeLessThanOrEqual(CUSTOM_ANSWER_MAX)
    }
    // A select value that is not custom is made of option ids only.
    if (!isCustomAnswer(value) && (field.valueType === "single_select" || field.valueType === "multi_select"))
      for (const v of Array.isArray(value) ? value : [value]) expect(["free", "pro"]).toContain(v)
  }
}

describe("custom answers under any interviewer", () => {
  it("are stored only for select fields that allow them, within their length", () => {
    fc.assert(
      fc.property(
        definitionArb.chain((def) =>
          fc.tuple(
            fc.constant(def),
            fc.array(fc.tuple(replyArb, fc.option(proposalArb(def), { nil: undefined })), {
              minLength: 1,
              maxLength: 8
            })
          )
        ),
        ([def, exchanges]) => {
          let s: InterviewSession = emptyInterviewSession
          const turn = (proposal: InterviewerOutput | undefined, id: string) => {
            const proposed =
              proposal ?? deterministicInterviewerTurn({ definition: def, locale: "en", session: s })
            const step = correctInterviewerOutput(def, "en", s, proposed)
            checkNoForeignCustom(def, step)
            s = applyInterviewStep(s, step, id)
            return step
          }
          turn(undefined, "a0")
          for (const [i, [reply, proposal]] of exchanges.entries()) {
            s = recordUserMessage(s, `u${i}`, reply)
            if (turn(proposal, `a${i + 1}`).output.completion.done) break
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})
