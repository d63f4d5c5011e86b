// The Interviewer port: from a published interview definition and the transcript so far it proposes
// the next assistant turn, the fields read from the last user message and whether the interview ends.
import { Context, Data, type Effect, Schema } from "effect"
import { CAPTURE_TYPES, type InterviewDefinition, PROBE_KINDS } from "./definition.js"
import { InterviewCustomAnswer } from "./custom-answers.js"

const Unit = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
const Offset = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const NON_ANSWER_STATES = ["refused", "unknown", "not_applicable", "deferred"] as const
export const InterviewNonAnswerState = Schema.Literals(NON_ANSWER_STATES)
export type InterviewNonAnswerState = typeof InterviewNonAnswerState.Type

export const InterviewProbeKind = Schema.Literals(PROBE_KINDS)
export type InterviewProbeKind = typeof InterviewProbeKind.Type

export const InterviewTurnKind = Schema.Literals([
  "question",
  "probe",
  "confirmation",
  "closing",
  "member_check",
  "validation"
])
export type InterviewTurnKind = typeof InterviewTurnKind.Type

/**
 * What a turn asks about; field, goal and emergent-item ids live in separate namespaces, hence the
 * type. An `emergent` target is a follow-up probe on an item the respondent raised (emergent.ts).
 */
export const InterviewTurnTarget = Schema.Struct({
  type: Schema.Literals(["field", "goal", "emergent"]),
  id: Schema.String
})
export type InterviewTurnTarget = typeof InterviewTurnTarget.Type

export const InterviewAssistantTurn = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("question"), text: Schema.String, target: InterviewTurnTarget }),
  Schema.Struct({
    kind: Schema.Literal("probe"),
    text: Schema.String,
    target: InterviewTurnTarget,
    probeKind: InterviewProbeKind
  }),
  Schema.Struct({ kind: Schema.Literal("confirmation"), text: Schema.String, target: InterviewTurnTarget }),
  Schema.Struct({ kind: Schema.Literal("closing"), text: Schema.String }),
  /** The read-back of what was understood, before closing (memberCheck); it asks about no one item. */
  Schema.Struct({ kind: Schema.Literal("member_check"), text: Schema.String }),
  /** A validation item: an answered field asked again in other words in the closing phase (validation.ts). */
  Schema.Struct({ kind: Schema.Literal("validation"), text: Schema.String, target: InterviewTurnTarget })
])
export type InterviewAssistantTurn = typeof InterviewAssistantTurn.Type

/**
 * A typed value: text, option id(s), a boolean or a number, per the field's valueType; or, on a
 * select field that allows it, the respondent's own answer (`{ custom }`, see custom-answers.ts).
 */
export const InterviewExtractedValue = Schema.Union([
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  InterviewCustomAnswer
])
export type InterviewExtractedValue = typeof InterviewExtractedValue.Type

/** Offsets into the last user message's text (end exclusive); `quote`, when given, must match them. */
export const InterviewEvidenceSpan = Schema.Struct({
  start: Offset,
  end: Offset,
  quote: Schema.optionalKey(Schema.String)
})
export type InterviewEvidenceSpan = typeof InterviewEvidenceSpan.Type

export const InterviewFieldExtraction = Schema.Struct({
  fieldId: Schema.String,
  state: Schema.Literals(["answered", ...NON_ANSWER_STATES]),
  /** Required when `state` is `answered`, ignored otherwise. */
  value: Schema.optionalKey(InterviewExtractedValue),
  evidence: Schema.optionalKey(InterviewEvidenceSpan),
  confidence: Unit,
  /** True when the value was inferred rather than stated. */
  inferred: Schema.optionalKey(Schema.Boolean)
})
export type InterviewFieldExtraction = typeof InterviewFieldExtraction.Type

export const InterviewGoalCoverage = Schema.Struct({ goalId: Schema.String, coverage: Unit })
export type InterviewGoalCoverage = typeof InterviewGoalCoverage.Type

export const InterviewCompletionReason = Schema.Literals([
  "all_required_covered",
  "nothing_left_to_ask",
  "max_exchanges"
])
export type InterviewCompletionReason = typeof InterviewCompletionReason.Type

export const InterviewCompletion = Schema.Struct({
  done: Schema.Boolean,
  reason: Schema.optionalKey(InterviewCompletionReason)
})
export type InterviewCompletion = typeof InterviewCompletion.Type

export const InterviewCaptureType = Schema.Literals(CAPTURE_TYPES)
export type InterviewCaptureType = typeof InterviewCaptureType.Type

/** What an emergent item is about: a field, a goal or a module (the definition's topics). */
export const InterviewEmergentRelation = Schema.Struct({
  type: Schema.Literals(["field", "goal", "module"]),
  id: Schema.String
})
export type InterviewEmergentRelation = typeof InterviewEmergentRelation.Type

/**
 * Something the respondent raised that no field or goal asked for (emergentExtraction): its capture
 * type, a short summary, where the last user message says it, what it relates to, and whether it is
 * a theme the definition does not cover (`novel`). Checked by `correctEmergent` (emergent.ts).
 */
export const InterviewEmergentProposal = Schema.Struct({
  captureType: InterviewCaptureType,
  summary: Schema.String,
  evidence: Schema.optionalKey(InterviewEvidenceSpan),
  relatedTo: Schema.optionalKey(InterviewEmergentRelation),
  novel: Schema.optionalKey(Schema.Boolean)
})
export type InterviewEmergentProposal = typeof InterviewEmergentProposal.Type

/** What an interviewer proposes; adapters decode their raw output against this before the rules run. */
export const InterviewerOutput = Schema.Struct({
  turn: InterviewAssistantTurn,
  extractions: Schema.Array(InterviewFieldExtraction),
  goalCoverage: Schema.Array(InterviewGoalCoverage),
  completion: InterviewCompletion,
  /** Emergent items read from the last user message (kept only as emergentExtraction allows). */
  emergent: Schema.optionalKey(Schema.Array(InterviewEmergentProposal))
}).annotate({ identifier: "InterviewerOutput" })
export type InterviewerOutput = typeof InterviewerOutput.Type

// Transcript state ------------------------------------------------------------------------------

/** A transcript message; assistant messages keep what their turn targeted so budgets can be counted. */
export const InterviewMessage = Schema.Struct({
  id: Schema.String,
  role: Schema.Literals(["assistant", "user"]),
  text: Schema.String,
  kind: Schema.optionalKey(InterviewTurnKind),
  target: Schema.optionalKey(InterviewTurnTarget),
  probeKind: Schema.optionalKey(InterviewProbeKind)
})
export type InterviewMessage = typeof InterviewMessage.Type

/** `tentative`: a value recorded but waiting for the respondent's confirmation. */
export const InterviewFieldStatus = Schema.Literals(["answered", "tentative", ...NON_ANSWER_STATES])
export type InterviewFieldStatus = typeof InterviewFieldStatus.Type

export const InterviewFieldState = Schema.Struct({
  fieldId: Schema.String,
  status: InterviewFieldStatus,
  value: Schema.optionalKey(InterviewExtractedValue),
  confidence: Unit,
  /** The user message the value came from and where in it. */
  evidence: Schema.optionalKey(Schema.Struct({ messageId: Schema.String, start: Offset, end: Offset })),
  /** Inferred, or given while answering about something else (see askIfAlreadyImplied). */
  implied: Schema.Boolean
})
export type InterviewFieldState = typeof InterviewFieldState.Type

export const InterviewGoalState = Schema.Struct({ goalId: Schema.String, coverage: Unit })
export type InterviewGoalState = typeof InterviewGoalState.Type

/**
 * The rolling summary of the messages a model no longer sees verbatim (policy.context): it covers
 * the first `coveredCount` messages, the last of which is `throughMessageId` (see context.ts).
 */
export const InterviewContextSummary = Schema.Struct({
  text: Schema.String,
  coveredCount: Offset,
  throughMessageId: Schema.String
})
export type InterviewContextSummary = typeof InterviewContextSummary.Type

/** An emergent item as kept: ids `e<n>` (numbered by the rules), with the message that says it. */
export const InterviewEmergentItem = Schema.Struct({
  id: Schema.String,
  captureType: InterviewCaptureType,
  summary: Schema.String,
  relatedTo: Schema.optionalKey(InterviewEmergentRelation),
  evidenceMessageIds: Schema.Array(Schema.String),
  evidence: Schema.optionalKey(Schema.Struct({ messageId: Schema.String, start: Offset, end: Offset }))
})
export type InterviewEmergentItem = typeof InterviewEmergentItem.Type

/** What the respondent's latest reply to a member check read-back said (see member-check.ts). */
export const InterviewMemberCheckOutcome = Schema.Literals(["confirmed", "corrected", "disputed"])
export type InterviewMemberCheckOutcome = typeof InterviewMemberCheckOutcome.Type

/**
 * The member check under way: why the rules were closing when the first read-back was given (the
 * interview closes with it), the latest reply's outcome and the fields its corrections changed.
 */
export const InterviewMemberCheckState = Schema.Struct({
  completionReason: InterviewCompletionReason,
  outcome: Schema.optionalKey(InterviewMemberCheckOutcome),
  correctedFieldIds: Schema.Array(Schema.String)
})
export type InterviewMemberCheckState = typeof InterviewMemberCheckState.Type

/**
 * A reply to a validation turn: whether the value it gives agrees with the field's extracted value
 * (null: the reply gave no value the field's rules accept, so nothing could be compared).
 */
export const InterviewValidationAnswer = Schema.Struct({
  fieldId: Schema.String,
  messageId: Schema.String,
  agrees: Schema.NullOr(Schema.Boolean)
})
export type InterviewValidationAnswer = typeof InterviewValidationAnswer.Type

/** The validation items assigned to this respondent at the start (in asking order) and their answers. */
export const InterviewValidationState = Schema.Struct({
  assignmentVersion: Schema.String,
  assigned: Schema.Array(Schema.String),
  answers: Schema.Array(InterviewValidationAnswer)
})
export type InterviewValidationState = typeof InterviewValidationState.Type

export const InterviewSession = Schema.Struct({
  messages: Schema.Array(InterviewMessage),
  fields: Schema.Array(InterviewFieldState),
  goals: Schema.Array(InterviewGoalState),
  summary: Schema.optionalKey(InterviewContextSummary),
  /** Emergent items kept so far; present once emergentExtraction is enabled and a turn ran. */
  emergent: Schema.optionalKey(Schema.Array(InterviewEmergentItem)),
  memberCheck: Schema.optionalKey(InterviewMemberCheckState),
  validation: Schema.optionalKey(InterviewValidationState)
})
export type InterviewSession = typeof InterviewSession.Type

export const emptyInterviewSession: InterviewSession = { messages: [], fields: [], goals: [] }

export interface InterviewerInput {
  readonly definition: InterviewDefinition
  readonly locale: string
  readonly session: InterviewSession
}

/** The interviewer could not produce a turn (model down, malformed output); callers fall back. */
export class InterviewerFailed extends Data.TaggedError("InterviewerFailed")<{ readonly reason: string }> {}

export interface InterviewerService {
  readonly next: (input: InterviewerInput) => Effect.Effect<InterviewerOutput, InterviewerFailed>
}

export class Interviewer extends Context.Service<Interviewer, InterviewerService>()(
  "@folio/domain/Interviewer"
) {}
