// No interviewer can break an interview definition's rules: random definitions, random replies and
// random or adversarial proposals, every corrected step checked against the rules, whole sessions long.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  emptyInterviewSession,
  type InterviewDefinition,
  type InterviewerOutput,
  type InterviewExtractedValue,
  type InterviewSession,
  type InterviewStep,
  isCustomAnswer,
  PROBE_KINDS,
  recordUserMessage
} from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { interviewArb } from "./arbitraries.js"

type Field = InterviewDefinition["fields"][number]

/** Unique ids and module references that resolve, so the definition itself is publishable. */
const repair = (def: InterviewDefinition): InterviewDefinition => {
  const modules = (def.modules ?? []).map((m, i) => ({ ...m, id: `m${i}` }))
  const moduleRef = (i: number) => {
    const m = modules[i % Math.max(1, modules.length)]
    return m === undefined || i % 3 === 0 ? {} : { moduleId: m.id }
  }
  const strip = <T extends { readonly moduleId?: string }>(x: T): Omit<T, "moduleId"> => {
    const { moduleId: _, ...rest } = x
    return rest
  }
  return {
    ...def,
    ...(def.modules === undefined ? {} : { modules }),
    fields: def.fields.map((f, i) => ({
      ...strip(f),
      id: `f${i}`,
      options: f.options.map((o, j) => ({ ...o, id: `o${j}` })),
      ...moduleRef(i)
    })),
    goals: def.goals.map((g, i) => ({ ...strip(g), id: `g${i}`, ...moduleRef(i + 1) }))
  }
}

const valueArb: fc.Arbitrary<InterviewExtractedValue> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("o0", "o1", "yes", "7"),
  fc.integer({ min: -3, max: 14 }),
  fc.double(),
  fc.boolean(),
  fc.array(fc.constantFrom("o0", "o1", "o2", "zz"), { maxLength: 3 }),
  fc.record(
    {
      custom: fc.oneof(fc.string({ maxLength: 12 }), fc.constant("x".repeat(201))),
      options: fc.array(fc.constantFrom("o0", "zz"), { maxLength: 2 })
    },
    { requiredKeys: ["custom"] }
  )
)

const proposalArb = (def: InterviewDefinition): fc.Arbitrary<InterviewerOutput> => {
  const fieldId = fc.constantFrom(...def.fields.map((f) => f.id), "ghost")
  const goalId = fc.constantFrom(...def.goals.map((g) => g.id), "ghost")
  const target = fc.oneof(
    fieldId.map((id) => ({ type: "field" as const, id })),
    goalId.map((id) => ({ type: "goal" as const, id }))
  )
  const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constant(""), fc.constant("why ".repeat(700)))
  const turn = fc.oneof(
    fc.record({ kind: fc.constant("question" as const), text, target }),
    fc.record({
      kind: fc.constant("probe" as const),
      text,
      target,
      probeKind: fc.constantFrom(...PROBE_KINDS)
    }),
    fc.record({ kind: fc.constant("confirmation" as const), text, target }),
    fc.record({ kind: fc.constant("closing" as const), text })
  )
  const extraction = fc.record(
    {
      fieldId,
      state: fc.constantFrom(
        "answered" as const,
        "refused" as const,
        "unknown" as const,
        "not_applicable" as const,
        "deferred" as const
      ),
      value: valueArb,
      evidence: fc.record(
        {
          start: fc.integer({ min: -2, max: 40 }),
          end: fc.integer({ min: -2, max: 40 }),
          quote: fc.string({ maxLength: 5 })
        },
        { requiredKeys: ["start", "end"] }
      ),
      confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double()),
      inferred: fc.boolean()
    },
    { requiredKeys: ["fieldId", "state", "confidence"] }
  )
  return fc.record({
    turn,
    extractions: fc.array(extraction, { maxLength: 4 }),
    goalCoverage: fc.array(
      fc.record({ goalId, coverage: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double()) }),
      { maxLength: 3 }
    ),
    completion: fc.record(
      {
        done: fc.boolean(),
        reason: fc.constantFrom(
          "all_required_covered" as const,
          "nothing_left_to_ask" as const,
          "max_exchanges" as const
        )
      },
      { requiredKeys: ["done"] }
    )
  })
}

const replyArb = fc.oneof(
  fc.constantFrom("yes", "no", "7", "Pro", "I'd rather not say", "", "   ", "o0 and o1"),
  fc.string({ maxLength: 40 })
)

const scenarioArb = interviewArb
  .map(repair)
  .chain((def) =>
    fc.tuple(
      fc.constant(def),
      fc.array(fc.tuple(replyArb, proposalArb(def)), { minLength: 1, maxLength: 30 })
    )
  )

const validValue = (field: Field, v: InterviewExtractedValue): boolean => {
  const ids = field.options.map((o) => o.id)
  // A custom answer only where allowed: a select field with allowCustomAnswer, not closed to its options.
  const custom =
    isCustomAnswer(v) && field.extraction.allowCustomAnswer === true && field.extraction.allowFreeText
  if (isCustomAnswer(v) && !custom) return false
  switch (field.valueType) {
    case "short_text":
    case "long_text":
      return typeof v === "string" && v.trim() !== ""
    case "single_select":
      return isCustomAnswer(v)
        ? v.custom.trim() !== "" && v.options === undefined
        : typeof v === "string" && ids.includes(v)
    case "multi_select":
      return isCustomAnswer(v)
        ? v.custom.trim() !== "" && (v.options ?? []).every((x) => ids.includes(x))
        : Array.isArray(v) && v.length > 0 && v.every((x) => ids.includes(x))
    case "boolean":
      return typeof v === "boolean"
    case "number":
      return typeof v === "number" && Number.isFinite(v)
    case "scale_1_5":
      return Number.isInteger(v) && typeof v === "number" && v >= 1 && v <= 5
    case "nps_0_10":
      return Number.isInteger(v) && typeof v === "number" && v >= 0 && v <= 10
  }
}

const sensitive = (f: Field) => f.sensitivity === "moderate" || f.sensitivity === "high"
const turnsOn = (s: InterviewSession, type: string, id: string, kinds: ReadonlyArray<string>) =>
  s.messages.filter(
    (m) =>
      m.role === "assistant" && m.target?.type === type && m.target.id === id && kinds.includes(m.kind ?? "")
  ).length

/** Every rule of the definition, checked on one corrected step taken from session `s`. */
const checkStep = (def: InterviewDefinition, s: InterviewSession, step: InterviewStep) => {
  const { output } = step
  const last = s.messages.at(-1)
  // Replies to member check read-backs do not spend maxExchanges.
  const exchanges = s.messages.filter(
    (m, i) => m.role === "user" && s.messages[i - 1]?.kind !== "member_check"
  ).length
  const seen = new Set<string>()
  for (const e of output.extractions) {
    const field = def.fields.find((f) => f.id === e.fieldId)
    expect(field).toBeDefined()
    if (field === undefined) continue
    expect(last?.role).toBe("user")
    expect(seen.has(e.fieldId)).toBe(false)
    seen.add(e.fieldId)
    expect(e.confidence >= 0 && e.confidence <= 1).toBe(true)
    if (field.extraction.requireEvidenceSpan) expect(e.evidence).toBeDefined()
    if (e.evidence !== undefined) {
      const quoted = (last?.text ?? "").slice(e.evidence.start, e.evidence.end)
      expect(e.evidence.start >= 0 && e.evidence.end <= (last?.text.length ?? 0)).toBe(true)
      expect(quoted.trim()).not.toBe("")
    }
    if (e.state === "answered") {
      expect(e.value !== undefined && validValue(field, e.value)).toBe(true)
      if (field.extraction.confirmation === "never")
        expect(e.confidence).toBeGreaterThanOrEqual(field.extraction.confidenceThreshold)
    } else {
      expect(field.allowedNonAnswerStates).toContain(e.state)
      expect(e.confidence).toBeGreaterThanOrEqual(field.extraction.confidenceThreshold)
    }
    if (e.inferred === true) expect(field.extraction.allowInference && !sensitive(field)).toBe(true)
  }
  for (const g of output.goalCoverage) {
    expect(def.goals.some((x) => x.id === g.goalId)).toBe(true)
    expect(g.coverage >= 0 && g.coverage <= 1).toBe(true)
    expect(turnsOn(s, "goal", g.goalId, ["question", "probe"])).toBeGreaterThan(0)
  }
  const turn = output.turn
  expect(turn.kind === "closing").toBe(output.completion.done)
  if (exchanges >= def.policy.maxExchanges && turn.kind !== "member_check")
    expect(output.completion).toEqual({ done: true, reason: "max_exchanges" })
  if (output.completion.reason === "all_required_covered")
    for (const f of def.fields.filter((x) => x.requiredness === "hard")) {
      const state = step.fields.find((x) => x.fieldId === f.id)
      expect(state !== undefined && state.status !== "tentative").toBe(true)
    }
  if (turn.kind === "closing") return
  if (turn.kind === "member_check") {
    expect(def.memberCheck?.enabled).toBe(true)
    expect(s.messages.filter((m) => m.kind === "member_check").length).toBeLessThan(2)
    expect(turn.text.length).toBeLessThanOrEqual(2000)
    return
  }
  expect(turn.text.trim()).not.toBe("")
  expect(turn.text.length).toBeLessThanOrEqual(def.policy.maxQuestionCharacters)
  const field = turn.target.type === "field" ? def.fields.find((f) => f.id === turn.target.id) : undefined
  const goal = turn.target.type === "goal" ? def.goals.find((g) => g.id === turn.target.id) : undefined
  expect(field !== undefined || goal !== undefined).toBe(true)
  const probes = s.messages.filter((m) => m.kind === "probe").length
  if (turn.kind === "probe") expect(probes).toBeLessThan(def.policy.maxFollowups)
  if (field !== undefined) {
    const state = step.fields.find((x) => x.fieldId === field.id)
    const cap = field.sensitivity === "high" ? 1 : field.askPolicy.maxAttempts
    if (turn.kind === "confirmation") expect(state?.status).toBe("tentative")
    else {
      expect(turnsOn(s, "field", field.id, ["question", "probe"])).toBeLessThan(cap)
      if (state !== undefined)
        expect(state.status === "answered" && state.implied && field.askPolicy.askIfAlreadyImplied).toBe(true)
    }
    if (turn.kind === "probe") {
      expect(field.askPolicy.allowFollowup && !sensitive(field)).toBe(true)
      expect(turn.probeKind).toBe("clarify")
    }
  }
  if (goal !== undefined) {
    expect(turn.kind).not.toBe("confirmation")
    if (turn.kind === "probe") {
      expect(goal.allowedProbeKinds).toContain(turn.probeKind)
      if (goal.maxProbes !== undefined)
        expect(turnsOn(s, "goal", goal.id, ["probe"])).toBeLessThan(goal.maxProbes)
    } else expect(turnsOn(s, "goal", goal.id, ["question"])).toBe(0)
  }
}

describe("interview rules under adversarial interviewers", () => {
  it("every corrected step keeps every rule, and sessions end within maxExchanges", () => {
    fc.assert(
      fc.property(scenarioArb, ([def, steps]) => {
        let s: InterviewSession = emptyInterviewSession
        for (const [i, [reply, proposal]] of steps.entries()) {
          if (i > 0) s = recordUserMessage(s, `u${i}`, reply)
          const step = correctInterviewerOutput(def, "en", s, proposal)
          checkStep(def, s, step)
          s = applyInterviewStep(s, step, `a${i}`)
          if (step.output.completion.done) break
        }
        const readBacks = s.messages.filter((m) => m.kind === "member_check").length
        expect(readBacks).toBeLessThanOrEqual(2)
        expect(s.messages.filter((m) => m.role === "user").length).toBeLessThanOrEqual(
          def.policy.maxExchanges + readBacks
        )
        for (const module of def.modules ?? []) {
          if (module.maxFollowups === undefined) continue
          const inModule = (t: { type: string; id: string } | undefined) =>
            t !== undefined &&
            [...def.fields, ...def.goals].some(
              (x) =>
                x.id === t.id &&
                x.moduleId === module.id &&
                (t.type === "field") === def.fields.includes(x as Field)
            )
          expect(
            s.messages.filter((m) => m.kind === "probe" && inModule(m.target)).length
          ).toBeLessThanOrEqual(module.maxFollowups)
        }
      }),
      { numRuns: 200 }
    )
  })
})
