// No interviewer can make emergent extraction break its policy: random definitions and policies,
// random or adversarial proposals (items of any capture type, bad evidence, unknown relations,
// follow-ups on any id) mixed with the built-in interviewer's, whole sessions long. The emergent
// follow-up budget, policy.maxFollowups, captureTypes and the relatedness policy always hold.
import {
  applyInterviewStep,
  CAPTURE_TYPES,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emergentFollowupCount,
  emptyInterviewSession,
  evidenceHolds,
  followupCount,
  type InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  PROBE_KINDS,
  recordUserMessage
} from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { interviewArb } from "./arbitraries.js"

/** Unique ids and resolvable module references, and an emergentExtraction policy of any shape. */
const definitionArb = fc
  .tuple(
    interviewArb,
    fc.record({
      enabled: fc.boolean(),
      captureTypes: fc.subarray([...CAPTURE_TYPES]),
      relatednessPolicy: fc.record({
        onlyIfRelatedToFieldOrTopic: fc.boolean(),
        allowNovelTheme: fc.boolean(),
        requireEvidenceSpan: fc.boolean()
      }),
      followupPolicy: fc.record({
        allowEmergentFollowup: fc.boolean(),
        maxEmergentFollowupsPerSession: fc.integer({ min: 0, max: 10 })
      })
    }),
    fc.integer({ min: 0, max: 6 })
  )
  .map(([def, emergentExtraction, maxFollowups]): InterviewDefinition => {
    const modules = (def.modules ?? []).map((m, i) => ({ ...m, id: `m${i}` }))
    return {
      ...def,
      modules,
      fields: def.fields.map(({ moduleId: _, ...f }, i) => ({
        ...f,
        id: `f${i}`,
        options: f.options.map((o, j) => ({ ...o, id: `o${j}` }))
      })),
      goals: def.goals.map(({ moduleId: _, ...g }, i) => ({ ...g, id: `g${i}` })),
      policy: { ...def.policy, maxFollowups },
      emergentExtraction
    }
  })

const proposalArb = (def: InterviewDefinition): fc.Arbitrary<InterviewerOutput | "builtin"> => {
  const relation = fc.oneof(
    fc.constantFrom(...def.fields.map((f) => f.id), "ghost").map((id) => ({ type: "field" as const, id })),
    fc.constantFrom(...def.goals.map((g) => g.id), "ghost").map((id) => ({ type: "goal" as const, id })),
    fc.constantFrom("m0", "ghost").map((id) => ({ type: "module" as const, id }))
  )
  const emergentId = fc.constantFrom("e1", "e2", "e3", "e4", "e5", "e9", "ghost")
  const target = fc.oneof(
    fc.constantFrom(...def.fields.map((f) => f.id), "ghost").map((id) => ({ type: "field" as const, id })),
    fc.constantFrom(...def.goals.map((g) => g.id), "ghost").map((id) => ({ type: "goal" as const, id })),
    emergentId.map((id) => ({ type: "emergent" as const, id })),
    emergentId.map((id) => ({ type: "emergent" as const, id }))
  )
  const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constant("Tell me more?"))
  const turn = fc.oneof(
    fc.record({ kind: fc.constant("question" as const), text, target }),
    fc.record({
      kind: fc.constant("probe" as const),
      text,
      target,
      probeKind: fc.constantFrom(...PROBE_KINDS)
    }),
    fc.record({
      kind: fc.constant("probe" as const),
      text,
      target,
      probeKind: fc.constantFrom(...PROBE_KINDS)
    }),
    fc.record({ kind: fc.constant("closing" as const), text })
  )
  const item = fc.record(
    {
      captureType: fc.constantFrom(...CAPTURE_TYPES),
      summary: fc.oneof(fc.string({ maxLength: 20 }), fc.constant("x".repeat(400)), fc.constant("  ")),
      evidence: fc.record(
        {
          start: fc.integer({ min: -2, max: 30 }),
          end: fc.integer({ min: -2, max: 40 }),
          quote: fc.string({ maxLength: 4 })
        },
        { requiredKeys: ["start", "end"] }
      ),
      relatedTo: relation,
      novel: fc.boolean()
    },
    { requiredKeys: ["captureType", "summary"] }
  )
  const random = fc.record(
    {
      turn,
      extractions: fc.constant([]),
      goalCoverage: fc.constant([]),
      completion: fc.record({ done: fc.boolean() }),
      emergent: fc.array(item, { maxLength: 8 })
    },
    { requiredKeys: ["turn", "extractions", "goalCoverage", "completion"] }
  )
  return fc.oneof(random, random, fc.constant("builtin" as const))
}

const replyArb = fc.oneof(
  fc.constantFrom(
    "This is so frustrating. I prefer email anyway!",
    "We have a tight budget. I feel stressed at work every week.",
    "매일 회사에서 써요. 너무 불편해요.",
    "予算が少ないです。毎日使っています。",
    "yes",
    "Pro"
  ),
  fc.string({ maxLength: 40 })
)

const scenarioArb = definitionArb.chain((def) =>
  fc.tuple(fc.constant(def), fc.array(fc.tuple(replyArb, proposalArb(def)), { minLength: 1, maxLength: 25 }))
)

/** Every emergent rule, checked on the whole session after a step. */
const checkSession = (def: InterviewDefinition, s: InterviewSession) => {
  const policy = def.emergentExtraction
  const on = policy?.enabled === true
  const budget =
    on && policy.followupPolicy.allowEmergentFollowup
      ? policy.followupPolicy.maxEmergentFollowupsPerSession
      : 0
  expect(emergentFollowupCount(s)).toBeLessThanOrEqual(budget)
  expect(followupCount(s)).toBeLessThanOrEqual(def.policy.maxFollowups)
  const items = s.emergent ?? []
  if (!on) expect(items).toEqual([])
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length)
  for (const item of items) {
    expect(policy?.captureTypes).toContain(item.captureType)
    expect(item.summary.trim()).not.toBe("")
    expect(item.summary.length).toBeLessThanOrEqual(280)
    const said = s.messages.find((m) => m.id === item.evidenceMessageIds[0])
    expect(said?.role).toBe("user")
    if (policy?.relatednessPolicy.requireEvidenceSpan) expect(item.evidence).toBeDefined()
    if (item.evidence !== undefined)
      expect(evidenceHolds(said?.text ?? "", { start: item.evidence.start, end: item.evidence.end })).toBe(
        true
      )
    const related = item.relatedTo
    if (related !== undefined) {
      const known =
        related.type === "field"
          ? def.fields.some((f) => f.id === related.id)
          : related.type === "goal"
            ? def.goals.some((g) => g.id === related.id)
            : (def.modules ?? []).some((m) => m.id === related.id)
      expect(known).toBe(true)
    }
    if (policy?.relatednessPolicy.onlyIfRelatedToFieldOrTopic) expect(related).toBeDefined()
    if (policy?.relatednessPolicy.allowNovelTheme === false) {
      expect(related).toBeDefined()
      expect(item.captureType).not.toBe("unexpected_topic")
    }
  }
  const probed = s.messages.filter((m) => m.kind === "probe" && m.target?.type === "emergent")
  for (const m of probed) expect(items.some((i) => i.id === m.target?.id)).toBe(true)
  expect(new Set(probed.map((m) => m.target?.id)).size).toBe(probed.length)
}

describe("emergent extraction under adversarial interviewers", () => {
  it("no proposal exceeds the emergent follow-up budget or maxFollowups, or stores an item the policy refuses", () => {
    fc.assert(
      fc.property(scenarioArb, ([def, steps]) => {
        let s: InterviewSession = emptyInterviewSession
        for (const [i, [reply, proposal]] of steps.entries()) {
          if (i > 0) s = recordUserMessage(s, `u${i}`, reply)
          const output =
            proposal === "builtin"
              ? deterministicInterviewerTurn({ definition: def, locale: "en", session: s })
              : proposal
          const step = correctInterviewerOutput(def, "en", s, output)
          for (const c of step.corrections)
            expect(Object.keys(c).every((k) => k === "rule" || k === "subject")).toBe(true)
          s = applyInterviewStep(s, step, `a${i}`)
          checkSession(def, s)
          if (step.output.completion.done) break
        }
      }),
      { numRuns: 300 }
    )
  })
})
