// The interview rules the domain owns: what may be asked next, what an extraction must satisfy and
// when an interview may end. An interviewer's proposal passes through `correctInterviewerOutput`.
import type { InterviewDefinition } from "./definition.js"
import type {
  InterviewAssistantTurn,
  InterviewCompletion,
  InterviewCompletionReason,
  InterviewFieldExtraction,
  InterviewFieldState,
  InterviewGoalState,
  InterviewEmergentItem,
  InterviewMemberCheckState,
  InterviewMessage,
  InterviewProbeKind,
  InterviewSession,
  InterviewTurnTarget,
  InterviewValidationState,
  InterviewerOutput
} from "./interviewer.js"

import {
  closingText,
  confirmationText,
  fieldQuestionText,
  fitQuestionText,
  goalQuestionText,
  probeText,
  retryPrefix
} from "./questions.js"
import {
  evidenceHolds,
  followupCount,
  type InterviewCorrection,
  type InterviewCorrectionRule
} from "./rule-basics.js"
import { correctEmergent, emergentProbeViolation } from "./emergent.js"
import { coerceFieldValue, sameValue, unmatchedSelectText } from "./answers.js"
import { customAnswerViolation, isCustomAnswer } from "./custom-answers.js"
import {
  isMemberCheckReply,
  memberCheckAfterReply,
  memberCheckAllowsCorrection,
  memberCheckBeforeClosing
} from "./member-check.js"
import {
  validationProbe,
  validationReplyOf,
  validationTurnViolation,
  withValidationAnswer
} from "./validation.js"

type Field = InterviewDefinition["fields"][number]
type Goal = InterviewDefinition["goals"][number]

export interface InterviewStep {
  readonly output: InterviewerOutput
  readonly corrections: ReadonlyArray<InterviewCorrection>
  /** Field and goal states after this exchange's extractions (apply with `applyInterviewStep`). */
  readonly fields: ReadonlyArray<InterviewFieldState>
  readonly goals: ReadonlyArray<InterviewGoalState>
  /** Emergent items after this exchange; undefined while emergentExtraction is off. */
  readonly emergent?: ReadonlyArray<InterviewEmergentItem>
  /** The member check's state after this step, when one is under way (see member-check.ts). */
  readonly memberCheck?: InterviewMemberCheckState
  /** The validation state after this exchange (a reply to a validation turn is recorded there). */
  readonly validation?: InterviewValidationState
}

const sameTarget = (a: InterviewTurnTarget | undefined, b: InterviewTurnTarget) =>
  a !== undefined && a.type === b.type && a.id === b.id

const assistantTurns = (session: InterviewSession) => session.messages.filter((m) => m.role === "assistant")

const turnsOn = (session: InterviewSession, target: InterviewTurnTarget, kinds: ReadonlyArray<string>) =>
  assistantTurns(session).filter((m) => sameTarget(m.target, target) && kinds.includes(m.kind ?? "")).length

const fieldTarget = (id: string): InterviewTurnTarget => ({ type: "field", id })
const goalTarget = (id: string): InterviewTurnTarget => ({ type: "goal", id })

/** Questions and probes on a field; confirmations are counted apart. */
export const fieldAttempts = (session: InterviewSession, fieldId: string): number =>
  turnsOn(session, fieldTarget(fieldId), ["question", "probe"])

export const goalProbes = (session: InterviewSession, goalId: string): number =>
  turnsOn(session, goalTarget(goalId), ["probe"])

const isSensitive = (field: Field) => field.sensitivity === "moderate" || field.sensitivity === "high"

/** A highly sensitive field is asked once at most: insisting on it is worse than a gap. */
export const maxFieldAttempts = (field: Field): number =>
  field.sensitivity === "high" ? 1 : field.askPolicy.maxAttempts

const moduleOf = (def: InterviewDefinition, moduleId: string | undefined) =>
  moduleId === undefined ? undefined : (def.modules ?? []).find((m) => m.id === moduleId)

const targetModuleId = (def: InterviewDefinition, target: InterviewTurnTarget | undefined) => {
  // Emergent follow-ups stand outside the modules: they count toward policy.maxFollowups only.
  if (target === undefined || target.type === "emergent") return undefined
  const item =
    target.type === "field"
      ? def.fields.find((f) => f.id === target.id)
      : def.goals.find((g) => g.id === target.id)
  return moduleOf(def, item?.moduleId)?.id
}

const moduleProbes = (def: InterviewDefinition, session: InterviewSession, moduleId: string) =>
  assistantTurns(session).filter((m) => m.kind === "probe" && targetModuleId(def, m.target) === moduleId)
    .length

/** Room for one more probe under the session's and the target's module's `maxFollowups`. */
const followupBudgetLeft = (
  def: InterviewDefinition,
  session: InterviewSession,
  moduleId: string | undefined
) => {
  if (followupCount(session) >= def.policy.maxFollowups) return false
  const module = moduleOf(def, moduleId)
  return module?.maxFollowups === undefined || moduleProbes(def, session, module.id) < module.maxFollowups
}

// Replies to the closing phase's own turns are bounded by that phase, not by policy.maxExchanges.
const UNBUDGETED_TURNS: ReadonlyArray<string> = ["validation", "member_check"]

/** The exchanges policy.maxExchanges counts: every user message but replies to the closing phase's turns. */
export const budgetedExchangeCount = (session: InterviewSession): number => {
  let asked: string | undefined
  let n = 0
  for (const m of session.messages) {
    if (m.role === "assistant") asked = m.kind
    else if (!UNBUDGETED_TURNS.includes(asked ?? "")) n++
  }
  return n
}

export const budgetSpent = (def: InterviewDefinition, session: InterviewSession): boolean =>
  budgetedExchangeCount(session) >= def.policy.maxExchanges

// Eligibility -------------------------------------------------------------------------------------

const fieldStateOf = (fields: ReadonlyArray<InterviewFieldState>, id: string) =>
  fields.find((f) => f.fieldId === id)
const coverageOf = (goals: ReadonlyArray<InterviewGoalState>, id: string) =>
  goals.find((g) => g.goalId === id)?.coverage ?? 0

/**
 * A field may be asked while it has no state and attempts remain. A non-answer is final (a refusal is
 * respected; `deferred` means "not in this interview"). An implied value is asked about only when
 * `askIfAlreadyImplied` is set, and then once; a stated value is never asked again.
 */
export const canAskField = (
  field: Field,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
): boolean => {
  const state = fieldStateOf(fields, field.id)
  const attempts = fieldAttempts(session, field.id)
  if (attempts >= maxFieldAttempts(field)) return false
  if (state === undefined) return true
  return state.status === "answered" && state.implied && field.askPolicy.askIfAlreadyImplied && attempts === 0
}

/**
 * Fields take only `clarify` probes (the other kinds explore experiences, which is what goals are
 * for), only when `allowFollowup`, never on sensitive fields, and each probe spends an attempt.
 */
const canProbeField = (
  def: InterviewDefinition,
  field: Field,
  kind: InterviewProbeKind,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
): InterviewCorrectionRule | undefined => {
  if (!field.askPolicy.allowFollowup || isSensitive(field) || kind !== "clarify") return "followupNotAllowed"
  if (fieldStateOf(fields, field.id) !== undefined) return "alreadyAnswered"
  const attempts = fieldAttempts(session, field.id)
  if (attempts === 0) return "followupNotAllowed"
  if (attempts >= maxFieldAttempts(field)) return "maxAttempts"
  if (!followupBudgetLeft(def, session, field.moduleId)) return "followupBudget"
  return undefined
}

/** A goal is anchored once; its probes follow, within maxProbes, its kinds and the budgets. */
const canProbeGoal = (
  def: InterviewDefinition,
  goal: Goal,
  kind: InterviewProbeKind,
  session: InterviewSession
): InterviewCorrectionRule | undefined => {
  if (turnsOn(session, goalTarget(goal.id), ["question"]) === 0) return "followupNotAllowed"
  if (!goal.allowedProbeKinds.includes(kind)) return "disallowedProbeKind"
  if (goal.maxProbes !== undefined && goalProbes(session, goal.id) >= goal.maxProbes) return "maxProbes"
  if (!followupBudgetLeft(def, session, goal.moduleId)) return "followupBudget"
  return undefined
}

const canAskGoal = (goal: Goal, session: InterviewSession, goals: ReadonlyArray<InterviewGoalState>) =>
  turnsOn(session, goalTarget(goal.id), ["question"]) === 0 &&
  coverageOf(goals, goal.id) < goal.requiredCoverage

const canConfirmField = (
  field: Field,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
) =>
  fieldStateOf(fields, field.id)?.status === "tentative" &&
  turnsOn(session, fieldTarget(field.id), ["confirmation"]) < field.askPolicy.maxAttempts

// Order and planning ------------------------------------------------------------------------------

type Item = { readonly type: "field"; readonly field: Field } | { readonly type: "goal"; readonly goal: Goal }

/**
 * Modules by `order`, then items with no (or an unknown) module; inside a module by priority, highly
 * sensitive fields last (asked once rapport exists), fields before goals, then definition order.
 */
export const interviewOrder = (def: InterviewDefinition): ReadonlyArray<Item> => {
  const modules = [...(def.modules ?? [])]
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.order - b.m.order || a.i - b.i)
  const rank = (moduleId: string | undefined) => {
    const r = modules.findIndex((x) => x.m.id === moduleId)
    return r === -1 ? modules.length : r
  }
  const items = [
    ...def.fields.map((field, i) => ({
      item: { type: "field", field } as Item,
      i,
      moduleId: field.moduleId,
      priority: field.priority,
      late: field.sensitivity === "high" ? 1 : 0,
      kind: 0
    })),
    ...def.goals.map((goal, i) => ({
      item: { type: "goal", goal } as Item,
      i,
      moduleId: goal.moduleId,
      priority: goal.priority,
      late: 0,
      kind: 1
    }))
  ]
  return items
    .sort(
      (a, b) =>
        rank(a.moduleId) - rank(b.moduleId) ||
        a.late - b.late ||
        b.priority - a.priority ||
        a.kind - b.kind ||
        a.i - b.i
    )
    .map((x) => x.item)
}

const nextProbeKind = (goal: Goal, session: InterviewSession): InterviewProbeKind | undefined =>
  goal.allowedProbeKinds[goalProbes(session, goal.id) % Math.max(1, goal.allowedProbeKinds.length)]

/**
 * The domain's own next turn (also what a rejected proposal is replaced with): confirm a tentative
 * value, probe the goal or re-ask the field just discussed, else the first askable item in order.
 */
export const planNextTurn = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState> = session.fields,
  goals: ReadonlyArray<InterviewGoalState> = session.goals
): Exclude<InterviewAssistantTurn, { kind: "closing" }> | undefined => {
  const fit = (text: string) => fitQuestionText(def, text)
  for (const field of def.fields) {
    if (canConfirmField(field, session, fields)) {
      const value = fieldStateOf(fields, field.id)?.value
      return {
        kind: "confirmation",
        text: fit(confirmationText(def, field, value, locale)),
        target: fieldTarget(field.id)
      }
    }
  }
  const last = assistantTurns(session).at(-1)
  // A follow-up on an emergent item is a digression: the goal discussed before it goes on after it.
  const onGoal = assistantTurns(session).findLast((m) => m.target?.type !== "emergent")
  if (onGoal?.target?.type === "goal" && onGoal.kind !== "closing") {
    const goal = def.goals.find((g) => g.id === onGoal.target?.id)
    const kind = goal === undefined ? undefined : nextProbeKind(goal, session)
    if (
      goal !== undefined &&
      kind !== undefined &&
      coverageOf(goals, goal.id) < goal.requiredCoverage &&
      canProbeGoal(def, goal, kind, session) === undefined
    )
      return {
        kind: "probe",
        text: fit(probeText(kind, locale)),
        target: goalTarget(goal.id),
        probeKind: kind
      }
  }
  if (last?.target?.type === "field" && (last.kind === "question" || last.kind === "probe")) {
    const field = def.fields.find((f) => f.id === last.target?.id)
    if (
      field !== undefined &&
      fieldStateOf(fields, field.id) === undefined &&
      canAskField(field, session, fields)
    )
      return {
        kind: "question",
        text: fit(retryPrefix(locale) + fieldQuestionText(def, field, locale)),
        target: fieldTarget(field.id)
      }
  }
  for (const item of interviewOrder(def)) {
    if (item.type === "field" && canAskField(item.field, session, fields))
      return {
        kind: "question",
        text: fit(fieldQuestionText(def, item.field, locale)),
        target: fieldTarget(item.field.id)
      }
    if (item.type === "goal" && canAskGoal(item.goal, session, goals))
      return {
        kind: "question",
        text: fit(goalQuestionText(def, item.goal, locale)),
        target: goalTarget(item.goal.id)
      }
  }
  return undefined
}

const isResolved = (state: InterviewFieldState | undefined) =>
  state !== undefined && state.status !== "tentative"

/**
 * Hard fields must be answered (confirmed where needed) or carry an allowed non-answer; soft fields
 * must at least have been asked; required goals must reach `requiredCoverage`. Optional items never
 * hold an interview open.
 */
export const requiredCovered = (
  def: InterviewDefinition,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>,
  goals: ReadonlyArray<InterviewGoalState>
): boolean =>
  def.fields.every((f) =>
    f.requiredness === "hard"
      ? isResolved(fieldStateOf(fields, f.id))
      : f.requiredness === "soft"
        ? isResolved(fieldStateOf(fields, f.id)) || fieldAttempts(session, f.id) > 0
        : true
  ) && def.goals.every((g) => !g.required || coverageOf(goals, g.id) >= g.requiredCoverage)

/** Whether the interview may end now, and why; undefined while it must go on. */
export const completionReason = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState> = session.fields,
  goals: ReadonlyArray<InterviewGoalState> = session.goals
): InterviewCompletionReason | undefined => {
  if (budgetSpent(def, session)) return "max_exchanges"
  if (requiredCovered(def, session, fields, goals)) return "all_required_covered"
  if (planNextTurn(def, locale, session, fields, goals) === undefined) return "nothing_left_to_ask"
  return undefined
}

// Correcting a proposal ---------------------------------------------------------------------------

const isUnit = (n: number) => Number.isFinite(n) && n >= 0 && n <= 1

interface ExtractionResult {
  readonly kept: ReadonlyArray<InterviewFieldExtraction>
  readonly fields: ReadonlyArray<InterviewFieldState>
}

/**
 * Extraction settings: below `confidenceThreshold` a value is recorded only to be confirmed (or
 * dropped when `confirmation` is `never`); `when_ambiguous` also confirms inferred values; `always`
 * confirms every value; an answer to a confirmation turn on the field confirms it.
 */
const correctExtractions = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposals: ReadonlyArray<InterviewFieldExtraction>,
  fix: (c: InterviewCorrection) => void
): ExtractionResult => {
  const last = session.messages.at(-1)
  if (last?.role !== "user") {
    if (proposals.length > 0) fix({ rule: "noUserMessage" })
    return { kept: [], fields: session.fields }
  }
  const asked = assistantTurns(session).at(-1)
  // A reply to a read-back states corrections: never inferred, never implied, confident or dropped,
  // and confirmed by being said (the read-back itself is the confirmation).
  const readBack = asked?.kind === "member_check"
  const kept: Array<InterviewFieldExtraction> = []
  const updates = new Map<string, InterviewFieldState>()
  for (const p of proposals) {
    const field = def.fields.find((f) => f.id === p.fieldId)
    const drop = (rule: InterviewCorrectionRule) => fix({ rule, subject: p.fieldId })
    if (field === undefined) {
      drop("unknownField")
      continue
    }
    if (updates.has(field.id)) {
      drop("duplicateField")
      continue
    }
    if (!isUnit(p.confidence)) {
      drop("confidenceOutOfRange")
      continue
    }
    let evidence = p.evidence
    if (evidence !== undefined && !evidenceHolds(last.text, evidence)) {
      drop("evidenceNotInMessage")
      if (field.extraction.requireEvidenceSpan) continue
      evidence = undefined
    } else if (evidence === undefined && field.extraction.requireEvidenceSpan) {
      drop("evidenceMissing")
      continue
    }
    const inferred = p.inferred === true
    if (inferred && (readBack || !field.extraction.allowInference || isSensitive(field))) {
      drop("inferenceNotAllowed")
      continue
    }
    const where =
      evidence === undefined
        ? {}
        : { evidence: { messageId: last.id, start: evidence.start, end: evidence.end } }
    const base = {
      fieldId: field.id,
      confidence: p.confidence,
      ...(evidence === undefined ? {} : { evidence })
    }
    const implied = !readBack && (inferred || !sameTarget(asked?.target, fieldTarget(field.id)))
    const confident = p.confidence >= field.extraction.confidenceThreshold
    if (p.state !== "answered") {
      if (!field.allowedNonAnswerStates.includes(p.state)) {
        drop("nonAnswerNotAllowed")
        continue
      }
      if (!confident) {
        drop("belowConfidenceThreshold")
        continue
      }
      kept.push({ ...base, state: p.state })
      updates.set(field.id, {
        fieldId: field.id,
        status: p.state,
        confidence: p.confidence,
        ...where,
        implied
      })
      continue
    }
    if (p.value === undefined) {
      drop("missingValue")
      continue
    }
    // A select answer naming no option is a custom answer: allowed only where the field says so,
    // within its length, and always with evidence (the respondent's own words, never the model's).
    const customText = unmatchedSelectText(field, p.value)
    const customRule = customText === undefined ? undefined : customAnswerViolation(field, customText)
    if (customRule !== undefined) {
      drop(customRule)
      continue
    }
    if (customText !== undefined && evidence === undefined) {
      drop("evidenceMissing")
      continue
    }
    const value = coerceFieldValue(field, p.value)
    if (value === undefined) {
      drop("invalidValue")
      continue
    }
    if (!sameValue(value, p.value)) fix({ rule: "valueCoerced", subject: field.id })
    const confirming =
      readBack || (asked?.kind === "confirmation" && sameTarget(asked.target, fieldTarget(field.id)))
    const mode = field.extraction.confirmation
    if (!confident && (mode === "never" || readBack)) {
      drop("belowConfidenceThreshold")
      continue
    }
    // A custom answer matched no option, so it is ambiguous by nature: `when_ambiguous` confirms it.
    const ambiguous = inferred || isCustomAnswer(value)
    const tentative =
      (!confirming && (mode === "always" || (mode === "when_ambiguous" && ambiguous))) || !confident
    kept.push({ ...base, state: "answered", value, ...(inferred ? { inferred } : {}) })
    updates.set(field.id, {
      fieldId: field.id,
      status: tentative ? "tentative" : "answered",
      value,
      confidence: p.confidence,
      ...where,
      implied
    })
  }
  // A confirmation answered without the value being restated means "no": the value is withdrawn, so
  // the field may be asked again while attempts remain.
  const withdrawn =
    asked?.kind === "confirmation" &&
    asked.target?.type === "field" &&
    !updates.has(asked.target.id) &&
    fieldStateOf(session.fields, asked.target.id)?.status === "tentative"
      ? asked.target.id
      : undefined
  const fields = [
    ...session.fields.filter((f) => !updates.has(f.fieldId) && f.fieldId !== withdrawn),
    ...updates.values()
  ]
  return { kept, fields }
}

/**
 * Coverage is the interviewer's judgement, so the domain only bounds it: known goals, 0..1, goals
 * that were actually asked, and never decreasing (completion must not flap).
 */
const correctCoverage = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposals: InterviewerOutput["goalCoverage"],
  fix: (c: InterviewCorrection) => void
) => {
  const last = session.messages.at(-1)
  if (last?.role !== "user") {
    if (proposals.length > 0) fix({ rule: "noUserMessage" })
    return { kept: [], goals: session.goals }
  }
  const kept: Array<InterviewerOutput["goalCoverage"][number]> = []
  for (const p of proposals) {
    const goal = def.goals.find((g) => g.id === p.goalId)
    if (goal === undefined) fix({ rule: "unknownGoal", subject: p.goalId })
    else if (!isUnit(p.coverage)) fix({ rule: "coverageOutOfRange", subject: goal.id })
    else if (turnsOn(session, goalTarget(goal.id), ["question", "probe"]) === 0)
      fix({ rule: "goalNotAsked", subject: goal.id })
    else if (!kept.some((k) => k.goalId === goal.id)) kept.push({ goalId: goal.id, coverage: p.coverage })
  }
  const goals = [
    ...session.goals.filter((g) => !kept.some((k) => k.goalId === g.goalId)),
    ...kept.map((k) => ({
      goalId: k.goalId,
      coverage: Math.max(k.coverage, coverageOf(session.goals, k.goalId))
    }))
  ]
  return { kept, goals }
}

/** Field and goal states once a proposal's extractions and coverage are checked and applied. */
export const interviewStateAfter = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposal: Pick<InterviewerOutput, "extractions" | "goalCoverage">
): {
  readonly fields: ReadonlyArray<InterviewFieldState>
  readonly goals: ReadonlyArray<InterviewGoalState>
} => {
  const ignore = () => undefined
  const retest = validationReplyOf(session)
  const extractions = proposal.extractions.filter((e) => e.fieldId !== retest?.fieldId)
  return {
    fields: correctExtractions(def, session, extractions, ignore).fields,
    goals: correctCoverage(def, session, proposal.goalCoverage, ignore).goals
  }
}

type AskingTurn = Exclude<InterviewAssistantTurn, { kind: "closing" | "member_check" | "validation" }>

/**
 * The value a reply to a validation turn gives, held to the field's extraction rules as if the field
 * were unanswered; it is compared with the extracted value (withValidationAnswer), never stored on it.
 */
const retestValue = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposals: ReadonlyArray<InterviewFieldExtraction>,
  fieldId: string,
  fix: (c: InterviewCorrection) => void
) => {
  const proposal = proposals.find((p) => p.fieldId === fieldId)
  if (proposal === undefined) return undefined
  const unanswered = { ...session, fields: session.fields.filter((f) => f.fieldId !== fieldId) }
  const state = correctExtractions(def, unanswered, [proposal], fix).fields.find((f) => f.fieldId === fieldId)
  return state?.status === "answered" || state?.status === "tentative" ? state.value : undefined
}

/** Why a proposed asking turn cannot stand (undefined when it can). */
const turnViolation = (
  def: InterviewDefinition,
  session: InterviewSession,
  turn: AskingTurn,
  fields: ReadonlyArray<InterviewFieldState>,
  goals: ReadonlyArray<InterviewGoalState>,
  emergent: ReadonlyArray<InterviewEmergentItem>
): InterviewCorrectionRule | undefined => {
  if (turn.target.type === "emergent")
    return turn.kind === "probe"
      ? emergentProbeViolation(def, session, emergent, turn.target.id)
      : "unknownTarget"
  const field = turn.target.type === "field" ? def.fields.find((f) => f.id === turn.target.id) : undefined
  const goal = turn.target.type === "goal" ? def.goals.find((g) => g.id === turn.target.id) : undefined
  if (field === undefined && goal === undefined) return "unknownTarget"
  if (turn.kind === "confirmation")
    return field !== undefined && canConfirmField(field, session, fields)
      ? undefined
      : "confirmationWithoutValue"
  if (turn.kind === "probe")
    return field !== undefined
      ? canProbeField(def, field, turn.probeKind, session, fields)
      : goal !== undefined
        ? canProbeGoal(def, goal, turn.probeKind, session)
        : "unknownTarget"
  if (field !== undefined) {
    if (canAskField(field, session, fields)) return undefined
    return fieldAttempts(session, field.id) >= maxFieldAttempts(field) ? "maxAttempts" : "alreadyAnswered"
  }
  return goal !== undefined && canAskGoal(goal, session, goals) ? undefined : "alreadyAnswered"
}

const closingOf = (def: InterviewDefinition, locale: string, turn: InterviewAssistantTurn) =>
  turn.kind === "closing" && turn.text.trim() !== ""
    ? turn
    : { kind: "closing" as const, text: closingText(def, locale) }

/** Without allowCorrection, a reply to a read-back changes no value (it is recorded as disputed). */
const refuseCorrections = (
  proposals: ReadonlyArray<InterviewFieldExtraction>,
  fix: (c: InterviewCorrection) => void
): ReadonlyArray<InterviewFieldExtraction> => {
  for (const p of proposals) fix({ rule: "correctionNotAllowed", subject: p.fieldId })
  return []
}

/**
 * The respondent answered a read-back: the domain decides what follows (the read-back again after a
 * correction, once, else the closing); a proposal that asks something else is replaced.
 */
const memberCheckReplyStep = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  proposal: InterviewerOutput,
  fields: ReadonlyArray<InterviewFieldState>,
  step: (turn: InterviewAssistantTurn, completion: InterviewCompletion) => InterviewStep,
  fix: (c: InterviewCorrection) => void
): InterviewStep => {
  const closing = proposal.turn.kind === "closing" ? proposal.turn.text : undefined
  const next = memberCheckAfterReply(def, locale, session, fields, closing)
  const proposed = proposal.turn.kind
  if (proposed !== "closing" && proposed !== "member_check") fix({ rule: "memberCheckPhase" })
  else if (proposed !== next.turn.kind)
    fix({ rule: proposed === "closing" ? "memberCheckRequired" : "memberCheckNotDue" })
  return { ...step(next.turn, next.completion), memberCheck: next.state }
}

/**
 * Checks an interviewer's proposal against every rule of the definition and returns what may be
 * used: kept extractions and coverage, a lawful turn (the domain's own plan when the proposal's
 * cannot stand) and a completion that is only true when allowed, and always true past the budget.
 */
export const correctInterviewerOutput = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  proposal: InterviewerOutput
): InterviewStep => {
  const corrections: Array<InterviewCorrection> = []
  const fix = (c: InterviewCorrection) => corrections.push(c)
  const memberCheckReply = isMemberCheckReply(session)
  // A reply to a validation turn re-tests its field: that extraction is compared, not applied.
  const retest = validationReplyOf(session)
  const proposed = proposal.extractions.filter((e) => e.fieldId !== retest?.fieldId)
  const extracted = correctExtractions(
    def,
    session,
    memberCheckReply && !memberCheckAllowsCorrection(def) ? refuseCorrections(proposed, fix) : proposed,
    fix
  )
  const covered = correctCoverage(def, session, proposal.goalCoverage, fix)
  const emerged = correctEmergent(def, session, proposal.emergent ?? [], fix)
  const validation =
    retest === undefined
      ? session.validation
      : withValidationAnswer(
          def,
          session,
          retest,
          retestValue(def, session, proposal.extractions, retest.fieldId, fix)
        )
  const { fields } = extracted
  const { goals } = covered
  const step = (turn: InterviewAssistantTurn, completion: InterviewCompletion): InterviewStep => ({
    output: {
      turn,
      extractions: extracted.kept,
      goalCoverage: covered.kept,
      completion,
      ...(emerged === undefined || emerged.kept.length === 0 ? {} : { emergent: emerged.kept })
    },
    corrections,
    fields,
    goals,
    ...(emerged === undefined ? {} : { emergent: emerged.items }),
    ...(session.memberCheck === undefined ? {} : { memberCheck: session.memberCheck }),
    ...(validation === undefined ? {} : { validation })
  })
  if (memberCheckReply) return memberCheckReplyStep(def, locale, session, proposal, fields, step, fix)
  // The closing phase: the respondent's validation probes, then the member check's read-back (when
  // due), come before the closing turn.
  const reason = completionReason(def, locale, session, fields, goals)
  const probe = reason === undefined ? undefined : validationProbe(def, locale, session, fields)
  const finish = (turn: InterviewAssistantTurn, completion: InterviewCompletion): InterviewStep => {
    if (completion.done && probe !== undefined) return step(probe, { done: false })
    const readBack =
      completion.done && completion.reason !== undefined
        ? memberCheckBeforeClosing(def, locale, session, fields, completion.reason)
        : undefined
    if (readBack === undefined) return step(turn, completion)
    if (proposal.turn.kind === "closing") fix({ rule: "memberCheckRequired" })
    return { ...step(readBack.turn, { done: false }), memberCheck: readBack.state }
  }
  if (proposal.turn.kind === "validation") {
    const rule = validationTurnViolation(session, fields, proposal.turn.target, reason !== undefined)
    if (rule === undefined && proposal.turn.text.trim() !== "")
      return finish({ ...proposal.turn, text: fitQuestionText(def, proposal.turn.text) }, { done: false })
    fix({ rule: rule ?? "emptyText", subject: proposal.turn.target.id })
  }
  const closeWith = (reason: InterviewCompletionReason) => {
    if (probe !== undefined) {
      fix({ rule: "validationPending", subject: probe.target.id })
      return finish(probe, { done: false })
    }
    if (proposal.turn.kind !== "closing") fix({ rule: "closingTurn" })
    if (
      proposal.completion.done &&
      proposal.completion.reason !== undefined &&
      proposal.completion.reason !== reason
    )
      fix({ rule: "completionReason" })
    return finish(closingOf(def, locale, proposal.turn), { done: true, reason })
  }
  const planned = () => {
    const next = planNextTurn(def, locale, session, fields, goals)
    if (next === undefined && probe !== undefined) return finish(probe, { done: false })
    return next === undefined
      ? finish(
          { kind: "closing", text: closingText(def, locale) },
          { done: true, reason: reason ?? "nothing_left_to_ask" }
        )
      : finish(next, { done: false })
  }
  if (proposal.turn.kind === "member_check") {
    // The read-back is the domain's (its text shows the stored values): only when the rules would close.
    const closing =
      reason === undefined
        ? planned()
        : finish({ kind: "closing", text: closingText(def, locale) }, { done: true, reason })
    if (closing.output.turn.kind !== "member_check") fix({ rule: "memberCheckNotDue" })
    return closing
  }
  if (reason === "max_exchanges") {
    if (probe !== undefined)
      return proposal.turn.kind === "validation" ? finish(probe, { done: false }) : closeWith(reason)
    if (!proposal.completion.done || proposal.turn.kind !== "closing") fix({ rule: "maxExchanges" })
    return finish(closingOf(def, locale, proposal.turn), { done: true, reason })
  }
  if (proposal.turn.kind === "validation")
    return probe !== undefined ? finish(probe, { done: false }) : planned()
  if (proposal.completion.done || proposal.turn.kind === "closing") {
    if (reason !== undefined) return closeWith(reason)
    fix({ rule: "prematureCompletion" })
    return planned()
  }
  const turn = proposal.turn
  const violation = turnViolation(def, session, turn, fields, goals, emerged?.items ?? [])
  if (violation !== undefined) {
    fix({ rule: violation, subject: turn.target.id })
    // A probe of a disallowed kind keeps its goal when another kind may still be used there.
    const goal = turn.target.type === "goal" ? def.goals.find((g) => g.id === turn.target.id) : undefined
    const kind = goal === undefined ? undefined : nextProbeKind(goal, session)
    if (
      violation === "disallowedProbeKind" &&
      goal !== undefined &&
      kind !== undefined &&
      canProbeGoal(def, goal, kind, session) === undefined
    )
      return finish(
        {
          kind: "probe",
          text: fitQuestionText(def, probeText(kind, locale)),
          target: turn.target,
          probeKind: kind
        },
        { done: false }
      )
    return planned()
  }
  if (turn.text.trim() === "") {
    fix({ rule: "emptyText", subject: turn.target.id })
    return planned()
  }
  const text = fitQuestionText(def, turn.text)
  if (text !== turn.text) fix({ rule: "questionTooLong", subject: turn.target.id })
  return finish({ ...turn, text }, { done: false })
}

// Recording ---------------------------------------------------------------------------------------

export const recordUserMessage = (session: InterviewSession, id: string, text: string): InterviewSession => ({
  ...session,
  messages: [...session.messages, { id, role: "user", text }]
})

/** Appends the step's assistant turn and takes its field and goal states. */
export const applyInterviewStep = (
  session: InterviewSession,
  step: InterviewStep,
  messageId: string
): InterviewSession => {
  const turn = step.output.turn
  const message: InterviewMessage = {
    id: messageId,
    role: "assistant",
    text: turn.text,
    kind: turn.kind,
    ...("target" in turn ? { target: turn.target } : {}),
    ...(turn.kind === "probe" ? { probeKind: turn.probeKind } : {})
  }
  return {
    ...session,
    messages: [...session.messages, message],
    fields: step.fields,
    goals: step.goals,
    ...(step.emergent === undefined ? {} : { emergent: step.emergent }),
    ...(step.memberCheck === undefined ? {} : { memberCheck: step.memberCheck }),
    ...(step.validation === undefined ? {} : { validation: step.validation })
  }
}
