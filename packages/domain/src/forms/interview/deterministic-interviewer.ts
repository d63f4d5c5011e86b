// The built-in interviewer: no model, the definition's questions in the domain's order, template
// probes and simple typed parsers. The default, and the fallback when a model-backed one fails.
import { Effect, Layer } from "effect"
import type { InterviewDefinition } from "./definition.js"
import {
  Interviewer,
  type InterviewerInput,
  type InterviewerOutput,
  type InterviewEvidenceSpan,
  type InterviewExtractedValue,
  type InterviewFieldExtraction,
  type InterviewGoalCoverage,
  type InterviewNonAnswerState,
  type InterviewSession
} from "./interviewer.js"
import { clipText } from "../../kernel/text.js"
import { parseYesNo } from "./answers.js"
import { CUSTOM_ANSWER_MAX, customAnswerAllowed } from "./custom-answers.js"
import { closingText } from "./questions.js"
import { completionReason, interviewStateAfter, planNextTurn } from "./rules.js"
import { deterministicEmergent, deterministicEmergentFollowup, emergentAfter } from "./emergent.js"
import { memberCheckCorrections } from "./member-check-replies.js"
import { isMemberCheckReply, memberCheckAfterReply, memberCheckBeforeClosing } from "./member-check.js"
import { validationProbe } from "./validation.js"

type Field = InterviewDefinition["fields"][number]
type Goal = InterviewDefinition["goals"][number]

interface Parsed {
  readonly value: InterviewExtractedValue
  readonly span: InterviewEvidenceSpan
  readonly confidence: number
}

const span = (start: number, end: number): InterviewEvidenceSpan => ({ start, end })

/** The message without surrounding blanks, as a span (the whole answer is the evidence). */
const wholeSpan = (text: string): InterviewEvidenceSpan | undefined => {
  const start = text.length - text.trimStart().length
  const end = text.trimEnd().length
  return end > start ? span(start, end) : undefined
}

const NON_ANSWERS: ReadonlyArray<readonly [InterviewNonAnswerState, RegExp]> = [
  [
    "refused",
    /\b(prefer not|rather not|skip( it| this)?|pass|no comment|won'?t say)\b|말하고 싶지 않|말씀드리기 어렵|言いたくない|答えたくない/iu
  ],
  ["unknown", /\b(don'?t know|do not know|not sure|no idea|dunno)\b|모르겠|わかりません|分かりません/iu],
  ["not_applicable", /\b(n\/a|not applicable|does ?n[o']t apply)\b|해당 ?없|該当(し|な)/iu],
  ["deferred", /\b(later|come back to (it|this))\b|나중에|後で/iu]
]

const nonAnswerOf = (field: Field, text: string) => {
  for (const [state, pattern] of NON_ANSWERS) {
    const m = pattern.exec(text)
    if (m !== null && field.allowedNonAnswerStates.includes(state))
      return { state, span: span(m.index, m.index + m[0].length) }
  }
  return undefined
}

const labelsOf = (option: Field["options"][number]) => [option.id, ...Object.values(option.labelByLocale)]

/** Options named in the text, longest label first so "very satisfied" beats "satisfied". */
const optionsIn = (field: Field, text: string) => {
  const lower = text.toLowerCase()
  const found: Array<{ id: string; start: number; end: number; exact: boolean }> = []
  const candidates = field.options
    .flatMap((o) => labelsOf(o).map((label) => ({ id: o.id, label: label.trim().toLowerCase() })))
    .filter((c) => c.label !== "")
    .sort((a, b) => b.label.length - a.label.length)
  for (const c of candidates) {
    const at = lower.indexOf(c.label)
    const overlaps = found.some((f) => at < f.end && at + c.label.length > f.start)
    if (at !== -1 && !overlaps && !found.some((f) => f.id === c.id))
      found.push({ id: c.id, start: at, end: at + c.label.length, exact: lower.trim() === c.label })
  }
  return found.sort((a, b) => a.start - b.start)
}

const NUMBER = /-?\d+(?:[.,]\d+)*/gu

const numbersIn = (text: string) =>
  [...text.matchAll(NUMBER)].map((m) => ({
    value: Number(m[0].replace(/,/gu, "")),
    start: m.index,
    end: m.index + m[0].length
  }))

const intAnswer = (text: string, min: number, max: number): Parsed | undefined => {
  const n = numbersIn(text).find((x) => Number.isInteger(x.value) && x.value >= min && x.value <= max)
  return n === undefined ? undefined : { value: n.value, span: span(n.start, n.end), confidence: 0.9 }
}

const booleanAnswer = (text: string): Parsed | undefined => {
  const whole = parseYesNo(text)
  const bounds = wholeSpan(text)
  if (whole !== undefined && bounds !== undefined) return { value: whole, span: bounds, confidence: 0.95 }
  // "Yes, every week" / "Not really, no": the opening words carry the answer.
  for (const m of [/^\s*(\S+\s+\S+?)(?=[\s,.!?。]|$)/u, /^\s*(\S+?)(?=[\s,.!?。]|$)/u]) {
    const hit = m.exec(text)
    const word = hit?.[1]
    if (hit === null || word === undefined) continue
    const value = parseYesNo(word)
    const start = hit.index + hit[0].length - word.length
    if (value !== undefined) return { value, span: span(start, start + word.length), confidence: 0.85 }
  }
  return undefined
}

/**
 * Where the built-in interviewer stands on a custom answer: at the default confidenceThreshold, so
 * the field's confirmation mode decides (`when_ambiguous` and `always` confirm it, `never` takes it
 * unless the threshold was raised above this, in which case it is asked again).
 */
const CUSTOM_ANSWER_CONFIDENCE = 0.6

/**
 * The whole answer as the respondent's own (`{ custom }`) on a select field that allows it, with
 * the whole answer as evidence: never a non-answer ("don't know", even where that state is not
 * allowed), a bare yes/no, a question back or text without a letter or digit.
 */
const customAnswerOf = (field: Field, text: string): Parsed | undefined => {
  const bounds = wholeSpan(text)
  if (bounds === undefined || !customAnswerAllowed(field)) return undefined
  const answer = text.slice(bounds.start, bounds.end)
  if (
    NON_ANSWERS.some(([, pattern]) => pattern.test(answer)) ||
    parseYesNo(answer) !== undefined ||
    /[?？]$/u.test(answer) ||
    !/[\p{L}\p{N}]/u.test(answer)
  )
    return undefined
  return {
    value: { custom: clipText(answer, CUSTOM_ANSWER_MAX) },
    span: bounds,
    confidence: CUSTOM_ANSWER_CONFIDENCE
  }
}

/** A typed value read from an answer, with where it was found; undefined when nothing fits. */
export const parseFieldAnswer = (field: Field, text: string): Parsed | undefined => {
  switch (field.valueType) {
    case "short_text":
    case "long_text": {
      const bounds = wholeSpan(text)
      return bounds === undefined
        ? undefined
        : { value: text.slice(bounds.start, bounds.end), span: bounds, confidence: 0.9 }
    }
    case "single_select": {
      const found = optionsIn(field, text)
      const first = found[0]
      if (first === undefined) return customAnswerOf(field, text)
      // Two options named: keep the first, but low enough that the rules ask to confirm it.
      const confidence = found.length > 1 ? 0.5 : first.exact ? 0.95 : 0.8
      return { value: first.id, span: span(first.start, first.end), confidence }
    }
    case "multi_select": {
      const found = optionsIn(field, text)
      const first = found[0]
      const last = found.at(-1)
      if (first === undefined || last === undefined) return customAnswerOf(field, text)
      return { value: found.map((f) => f.id), span: span(first.start, last.end), confidence: 0.85 }
    }
    case "boolean":
      return booleanAnswer(text)
    case "number": {
      const n = numbersIn(text)[0]
      return n === undefined || !Number.isFinite(n.value)
        ? undefined
        : { value: n.value, span: span(n.start, n.end), confidence: 0.9 }
    }
    case "scale_1_5":
      return intAnswer(text, 1, 5)
    case "nps_0_10":
      return intAnswer(text, 0, 10)
  }
}

const extractField = (field: Field, text: string, confirming: boolean, session: InterviewSession) => {
  if (confirming) {
    const pending = session.fields.find((f) => f.fieldId === field.id)
    const yes = booleanAnswer(text)
    if (yes?.value === true && pending?.value !== undefined)
      return [
        {
          fieldId: field.id,
          state: "answered" as const,
          value: pending.value,
          evidence: yes.span,
          confidence: 1
        }
      ]
    if (yes !== undefined) return []
  }
  const nonAnswer = nonAnswerOf(field, text)
  if (nonAnswer !== undefined)
    return [{ fieldId: field.id, state: nonAnswer.state, evidence: nonAnswer.span, confidence: 0.9 }]
  const parsed = parseFieldAnswer(field, text)
  return parsed === undefined
    ? []
    : [
        {
          fieldId: field.id,
          state: "answered" as const,
          value: parsed.value,
          evidence: parsed.span,
          confidence: parsed.confidence
        }
      ]
}

/** A goal is covered in equal steps by its anchor answer and the probes the policy aims for. */
const coverageStep = (def: InterviewDefinition, goal: Goal) => {
  const probes = Math.min(goal.maxProbes ?? def.policy.targetFollowups, def.policy.targetFollowups)
  return 1 / (1 + (goal.allowedProbeKinds.length === 0 ? 0 : probes))
}

// Too short to count as talking about the goal ("ok", "hm"); CJK answers carry more per character.
const substantive = (text: string) => text.trim().length >= 4

const extractGoal = (def: InterviewDefinition, goal: Goal, text: string, session: InterviewSession) => {
  if (!substantive(text)) return []
  const current = session.goals.find((g) => g.goalId === goal.id)?.coverage ?? 0
  return [{ goalId: goal.id, coverage: Math.min(1, current + coverageStep(def, goal)) }]
}

/** The built-in interviewer's proposal for the next turn (still checked by the rules like any other). */
export const deterministicInterviewerTurn = (input: InterviewerInput): InterviewerOutput => {
  const { definition: def, locale, session } = input
  const last = session.messages.at(-1)
  const asked = session.messages.filter((m) => m.role === "assistant").at(-1)
  let extractions: ReadonlyArray<InterviewFieldExtraction> = []
  let goalCoverage: ReadonlyArray<InterviewGoalCoverage> = []
  if (isMemberCheckReply(session)) {
    // A reply to the read-back: the corrections it states, then what the member check says follows.
    extractions = memberCheckCorrections(def, session, parseFieldAnswer)
    const { fields } = interviewStateAfter(def, session, { extractions, goalCoverage })
    const next = memberCheckAfterReply(def, locale, session, fields)
    return { turn: next.turn, extractions, goalCoverage, completion: next.completion }
  }
  if (last?.role === "user" && asked?.target !== undefined) {
    const target = asked.target
    if (target.type === "field") {
      const field = def.fields.find((f) => f.id === target.id)
      if (field !== undefined)
        extractions = extractField(field, last.text, asked.kind === "confirmation", session)
    } else if (target.type === "goal") {
      const goal = def.goals.find((g) => g.id === target.id)
      if (goal !== undefined) goalCoverage = extractGoal(def, goal, last.text, session)
    }
  }
  const { fields, goals } = interviewStateAfter(def, session, { extractions, goalCoverage })
  const emergent = deterministicEmergent(def, session)
  const found = emergent.length === 0 ? {} : { emergent }
  // The closing phase: the respondent's validation probes, then the member check's read-back.
  const probe = validationProbe(def, locale, session, fields)
  const close = (reason: NonNullable<ReturnType<typeof completionReason>>): InterviewerOutput => {
    if (probe !== undefined)
      return { turn: probe, extractions, goalCoverage, completion: { done: false }, ...found }
    const readBack = memberCheckBeforeClosing(def, locale, session, fields, reason)
    return readBack === undefined
      ? {
          turn: { kind: "closing", text: closingText(def, locale) },
          extractions,
          goalCoverage,
          completion: { done: true, reason },
          ...found
        }
      : { turn: readBack.turn, extractions, goalCoverage, completion: { done: false }, ...found }
  }
  const reason = completionReason(def, locale, session, fields, goals)
  if (reason === "max_exchanges") return close(reason)
  const next = planNextTurn(def, locale, session, fields, goals)
  if (next === undefined) return close(reason ?? "nothing_left_to_ask")
  // A due confirmation comes first; otherwise an emergent item may be followed up before the plan.
  const followup =
    next.kind === "confirmation"
      ? undefined
      : deterministicEmergentFollowup(def, locale, session, emergentAfter(def, session, emergent))
  return { turn: followup ?? next, extractions, goalCoverage, completion: { done: false }, ...found }
}

export const DeterministicInterviewerLive = Layer.succeed(
  Interviewer,
  Interviewer.of({ next: (input) => Effect.succeed(deterministicInterviewerTurn(input)) })
)
