// The rules' shared vocabulary: the value-free correction names, what counts as evidence, and how a
// transcript's exchanges and follow-ups are counted. rules.ts and the feature modules it calls
// (emergent.ts) both use these, so they live here rather than in rules.ts, which keeps the module
// graph free of cycles.
import type { InterviewEvidenceSpan, InterviewSession } from "./interviewer.js"
import type { ValidationCorrectionRule } from "./validation.js"

export type InterviewCorrectionRule =
  | "noUserMessage"
  | "unknownField"
  | "duplicateField"
  | "confidenceOutOfRange"
  | "evidenceMissing"
  | "evidenceNotInMessage"
  | "nonAnswerNotAllowed"
  | "missingValue"
  | "invalidValue"
  | "valueCoerced"
  | "inferenceNotAllowed"
  | "belowConfidenceThreshold"
  | "unknownGoal"
  | "coverageOutOfRange"
  | "goalNotAsked"
  | "maxExchanges"
  | "prematureCompletion"
  | "completionReason"
  | "closingTurn"
  | "unknownTarget"
  | "maxAttempts"
  | "alreadyAnswered"
  | "followupNotAllowed"
  | "maxProbes"
  | "followupBudget"
  | "disallowedProbeKind"
  | "confirmationWithoutValue"
  | "emptyText"
  | "questionTooLong"
  // emergentExtraction (emergent.ts)
  | "emergentDisabled"
  | "captureTypeNotAllowed"
  | "unknownRelatedTo"
  | "unrelatedEmergent"
  | "novelThemeNotAllowed"
  | "summaryTooLong"
  | "duplicateEmergent"
  | "emergentLimit"
  | "alreadyExplored"
  | "emergentFollowupBudget"
  | "customAnswerNotAllowed"
  | "customAnswerTooLong"
  | "memberCheckRequired"
  | "memberCheckNotDue"
  | "memberCheckPhase"
  | "correctionNotAllowed"
  | ValidationCorrectionRule

/** Value-free: which rule fired and on what (a field/goal id or the turn), never the content. */
export interface InterviewCorrection {
  readonly rule: InterviewCorrectionRule
  readonly subject?: string
}

/** A span is evidence when it lies inside the message, is not blank, and matches its quote if any. */
export const evidenceHolds = (text: string, span: InterviewEvidenceSpan): boolean =>
  Number.isInteger(span.start) &&
  Number.isInteger(span.end) &&
  span.start >= 0 &&
  span.end > span.start &&
  span.end <= text.length &&
  text.slice(span.start, span.end).trim() !== "" &&
  (span.quote === undefined || span.quote === text.slice(span.start, span.end))

const assistantTurnsOf = (session: InterviewSession) => session.messages.filter((m) => m.role === "assistant")

/** One exchange is one user message (an answer to the assistant turn before it). */
export const exchangeCount = (session: InterviewSession): number =>
  session.messages.filter((m) => m.role === "user").length

/** Probes are the follow-ups that the policy's and modules' `maxFollowups` budget. */
export const followupCount = (session: InterviewSession): number =>
  assistantTurnsOf(session).filter((m) => m.kind === "probe").length
