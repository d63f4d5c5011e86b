// Validation items: the assignment (only ids of `fieldIds`, exactly min(k, n) distinct, deterministic,
// balanced), and no interviewer proposal can ask an item outside the respondent's assignment, ask one
// twice or outside the closing phase, overwrite the extracted field with a re-test, or skip the probes.
import {
  applyInterviewStep,
  assignValidationItems,
  completionReason,
  correctInterviewerOutput,
  decodeInterviewDefinition,
  emptyInterviewDefinition,
  emptyInterviewSession,
  type InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  interviewSemanticIssues,
  pendingValidationItems,
  recordUserMessage,
  validationAssignment,
  validationQuestionText,
  validationSummary,
  valuesAgree
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { interviewArb } from "./arbitraries.js"

const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/u)

const withValidation = (
  def: InterviewDefinition,
  fieldIds: ReadonlyArray<string>,
  itemsPerRespondent: number,
  assignmentVersion = "v1"
): InterviewDefinition => ({
  ...def,
  validation: { enabled: true, fieldIds, itemsPerRespondent, assignmentVersion }
})

describe("assignValidationItems", () => {
  it("assigns exactly min(k, n) distinct ids of fieldIds, the same ones every time", () => {
    fc.assert(
      fc.property(
        interviewArb,
        fc.array(idArb, { maxLength: 20 }),
        fc.integer({ min: 1, max: 20 }),
        idArb,
        fc.string(),
        (base, fieldIds, k, version, responseId) => {
          const def = withValidation(base, fieldIds, k, version)
          const assigned = assignValidationItems(def, responseId)
          const distinct = new Set(fieldIds)
          expect(assigned.every((id) => distinct.has(id))).toBe(true)
          expect(new Set(assigned).size).toBe(assigned.length)
          expect(assigned).toHaveLength(Math.min(k, distinct.size))
          expect(assignValidationItems(def, responseId)).toEqual(assigned)
          const off = {
            ...def,
            validation: { enabled: false, fieldIds, itemsPerRespondent: k, assignmentVersion: version }
          }
          expect(assignValidationItems(off, responseId)).toEqual([])
        }
      )
    )
  })

  it("assigns every item to k/n of the respondents, within six standard deviations over 6000 ids", () => {
    const def = withValidation(emptyInterviewDefinition(), ["a", "b", "c", "d", "e"], 2)
    const counts = new Map<string, number>()
    const n = 6000
    for (let i = 0; i < n; i++)
      for (const id of assignValidationItems(def, `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, "0")}`))
        counts.set(id, (counts.get(id) ?? 0) + 1)
    // Each item: Binomial(6000, 2/5), mean 2400, standard deviation 37.9.
    for (const id of ["a", "b", "c", "d", "e"])
      expect(Math.abs((counts.get(id) ?? 0) - 2400)).toBeLessThan(228)
  })

  it("is refused on write when it names no field, a field twice, or nothing while enabled", () => {
    const base = emptyInterviewDefinition()
    const rules = (fieldIds: ReadonlyArray<string>) =>
      interviewSemanticIssues(withValidation(base, fieldIds, 1))
        .filter((i) => i.path[0] === "validation")
        .map((i) => i.rule)
    expect(rules(["ghost"])).toEqual(["danglingReference"])
    expect(rules([])).toEqual(["required"])
  })
})

describe("valuesAgree", () => {
  it("compares option sets regardless of order and text regardless of case and spacing", () => {
    const field = (valueType: string) => {
      const def = Result.getOrThrow(
        decodeInterviewDefinition({ fields: [{ id: "f", labelByLocale: { en: "f" }, valueType }] })
      )
      const [f] = def.fields
      if (f === undefined) throw new Error("no field")
      return f
    }
    expect(valuesAgree(field("multi_select"), ["a", "b"], ["b", "a"])).toBe(true)
    expect(valuesAgree(field("short_text"), "Team  Lead.", "team lead")).toBe(true)
    expect(valuesAgree(field("number"), 12, 3)).toBe(false)
    expect(valuesAgree(field("boolean"), true, true)).toBe(true)
  })
})

describe("validationQuestionText", () => {
  it("asks again in other words than the field's question, in en, ko and ja", () => {
    const def = Result.getOrThrow(
      decodeInterviewDefinition({
        locales: { default: "en", supported: ["en", "ko", "ja"] },
        fields: [
          {
            id: "renew",
            labelByLocale: { en: "renewal", ko: "갱신", ja: "更新" },
            questionByLocale: { en: "Will you renew?" },
            valueType: "boolean"
          }
        ]
      })
    )
    const [field] = def.fields
    if (field === undefined) throw new Error("no field")
    expect(validationQuestionText(def, field, "en")).toBe(
      'One quick check: what is your answer for "renewal"? (yes / no)'
    )
    expect(validationQuestionText(def, field, "ko")).toBe(
      '한 가지만 다시 확인할게요. "갱신"에 대한 답은 무엇인가요? (예 / 아니요)'
    )
    expect(validationQuestionText(def, field, "ja")).toBe(
      "ひとつだけ確認させてください。「更新」についてのお答えは何ですか？ (はい / いいえ)"
    )
  })
})

// Sessions under adversarial interviewers -----------------------------------------------------------

/**
 * Unique field ids, no modules or goals, and yes/no fields whose stated answers are kept as given, so
 * random proposals fill the fields and reach the closing phase often (its probes are what is tested).
 */
const repair = (def: InterviewDefinition): InterviewDefinition => {
  const { modules: _, ...rest } = def
  return {
    ...rest,
    fields: def.fields.map(({ moduleId: _m, ...f }, i) => ({
      ...f,
      id: `f${i}`,
      valueType: "boolean" as const,
      extraction: {
        ...f.extraction,
        confirmation: "never" as const,
        confidenceThreshold: 0,
        requireEvidenceSpan: false
      }
    })),
    goals: []
  }
}

const proposalArb = (def: InterviewDefinition): fc.Arbitrary<InterviewerOutput> => {
  const fieldId = fc.constantFrom(...def.fields.map((f) => f.id), "ghost")
  const target = fc.oneof(
    fieldId.map((id) => ({ type: "field" as const, id })),
    fc.constantFrom(...def.goals.map((g) => g.id), "ghost").map((id) => ({ type: "goal" as const, id }))
  )
  const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constant(""))
  return fc.record({
    turn: fc.oneof(
      fc.record({ kind: fc.constant("validation" as const), text, target }),
      fc.record({ kind: fc.constant("validation" as const), text, target }),
      fc.record({ kind: fc.constant("question" as const), text, target }),
      fc.record({ kind: fc.constant("closing" as const), text })
    ),
    extractions: fc.array(
      fc.record({
        fieldId,
        state: fc.constant("answered" as const),
        value: fc.oneof(fc.boolean(), fc.boolean(), fc.constantFrom("yes", "x", 7)),
        confidence: fc.double({ min: 0, max: 1, noNaN: true })
      }),
      { maxLength: 3 }
    ),
    goalCoverage: fc.constant([]),
    completion: fc.record({ done: fc.boolean() })
  })
}

const scenarioArb = interviewArb
  .map(repair)
  .filter((def) => def.fields.length > 0)
  .chain((def) =>
    fc.tuple(
      fc
        .subarray(
          def.fields.map((f) => f.id),
          { minLength: 1 }
        )
        .map((ids) => withValidation(def, ids, 2)),
      fc.string(),
      fc.array(
        fc.tuple(fc.constantFrom("yes", "no", "7", "o0", "o1", "x", "I'd rather not say"), proposalArb(def)),
        { minLength: 1, maxLength: 30 }
      )
    )
  )

const validationTurns = (s: InterviewSession) =>
  s.messages.filter((m) => m.role === "assistant" && m.kind === "validation")

describe("validation probes under adversarial interviewers", () => {
  it("ask only assigned items, each once, in the closing phase, never overwrite a field, and come before the closing", () => {
    let probesAsked = 0
    let replies = 0
    fc.assert(
      fc.property(scenarioArb, ([def, responseId, steps]) => {
        const validation = validationAssignment(def, responseId)
        const assigned = validation?.assigned ?? []
        let s: InterviewSession = {
          ...emptyInterviewSession,
          ...(validation === undefined ? {} : { validation })
        }
        let readBackGiven = false
        for (const [i, [reply, proposal]] of steps.entries()) {
          if (i > 0) s = recordUserMessage(s, `u${i}`, reply)
          const step = correctInterviewerOutput(def, "en", s, proposal)
          const turn = step.output.turn
          if (turn.kind === "validation") {
            expect(assigned).toContain(turn.target.id)
            expect(validationTurns(s).some((m) => m.target?.id === turn.target.id)).toBe(false)
            expect(completionReason(def, "en", s, step.fields, step.goals)).toBeDefined()
            expect(step.fields.find((f) => f.fieldId === turn.target.id)?.status).toBe("answered")
            expect(turn.text.trim()).not.toBe("")
            probesAsked++
          }
          // A reply to a validation turn is compared, never stored over the field.
          const asked = s.messages.findLast((m) => m.role === "assistant")
          if (i > 0 && asked?.kind === "validation") {
            const id = asked.target?.id
            expect(step.fields.find((f) => f.fieldId === id)).toEqual(s.fields.find((f) => f.fieldId === id))
            expect(step.validation?.answers.map((a) => a.messageId)).toContain(`u${i}`)
            replies++
          }
          s = applyInterviewStep(s, step, `a${i}`)
          if (step.output.turn.kind === "member_check" && !readBackGiven) {
            // The probes come first in the closing phase: none is left when the read-back starts.
            readBackGiven = true
            expect(pendingValidationItems(def, s)).toEqual([])
          }
          if (step.output.completion.done) {
            // A proposal that skipped the probes got the domain's instead: none is left at the close
            // (a field first answered by a correction to the read-back comes after the probes and is
            // not re-tested).
            if (!readBackGiven) expect(pendingValidationItems(def, s)).toEqual([])
            break
          }
        }
        const probes = validationTurns(s)
        expect(probes.length).toBeLessThanOrEqual(assigned.length)
        expect(new Set(probes.map((m) => m.target?.id)).size).toBe(probes.length)
        // Replies to probes (and to a member check's read-backs, the rest of the closing phase) are
        // outside policy.maxExchanges.
        const readBacks = s.messages.filter((m) => m.kind === "member_check").length
        expect(s.messages.filter((m) => m.role === "user").length).toBeLessThanOrEqual(
          def.policy.maxExchanges + probes.length + readBacks
        )
        const summary = validationSummary(s)
        if (summary !== undefined) {
          expect(summary.assigned).toEqual(assigned)
          expect(summary.agreed).toBeLessThanOrEqual(summary.answered)
          expect(summary.skipped.every((id) => !probes.some((m) => m.target?.id === id))).toBe(true)
        }
      }),
      { numRuns: 300 }
    )
    // The runs reach the closing phase: probes are asked and replied to, not just never proposed.
    expect(probesAsked).toBeGreaterThan(20)
    expect(replies).toBeGreaterThan(10)
  })
})
