// Validation items (the definition's `validation`): a test-retest probe of extracted fields. Each
// respondent is assigned min(itemsPerRespondent, |fieldIds|) of the definition's `fieldIds` at the
// start, deterministically from (response id, assignmentVersion); in the closing phase each assigned
// item whose field holds an answered value is asked again in other words, and the reply's value is
// compared with the extracted one. The reply never changes the extracted field: it is only evidence
// of how stable the answer is.
import { sha256Hex } from "../../kernel/digest.js"
import type { InterviewDefinition } from "./definition.js"
import type {
  InterviewAssistantTurn,
  InterviewExtractedValue,
  InterviewFieldState,
  InterviewSession,
  InterviewTurnTarget,
  InterviewValidationState
} from "./interviewer.js"
import { sameValue } from "./answers.js"
import { answerHint, fieldLabel, fitQuestionText } from "./questions.js"

type Field = InterviewDefinition["fields"][number]

// Assignment --------------------------------------------------------------------------------------

/** The first 32 bits of SHA-256 of `text`, as a non-negative integer. */
const hash32 = (text: string): number => Number.parseInt(sha256Hex(text).slice(0, 8), 16)

/** The definition's validation ids, each once, in definition order; empty when validation is off. */
export const validationPool = (def: InterviewDefinition): ReadonlyArray<string> =>
  def.validation?.enabled === true ? [...new Set(def.validation.fieldIds)] : []

/**
 * The items a response is assigned: a permutation of the pool fixed by `assignmentVersion` (so a new
 * version reshuffles which items travel together), read as a ring from an offset drawn from SHA-256 of
 * (assignmentVersion, response id), `k = min(itemsPerRespondent, n)` items in a row. Every offset
 * assigns each item to exactly k of the n offsets, so with the hash's uniform offsets every item is
 * assigned with probability exactly k/n (up to a bias below n/2^32), and a response always gets the
 * same items.
 */
export const assignValidationItems = (
  def: InterviewDefinition,
  responseId: string
): ReadonlyArray<string> => {
  const pool = validationPool(def)
  const version = def.validation?.assignmentVersion ?? ""
  if (pool.length === 0) return []
  const ring = pool
    .map((id) => ({ id, key: sha256Hex(`${version}\u0000${id}`) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1))
    .map((x) => x.id)
  const k = Math.min(def.validation?.itemsPerRespondent ?? 0, ring.length)
  const offset = hash32(`${version}\u0000${responseId}`) % ring.length
  return Array.from({ length: k }, (_, i) => ring[(offset + i) % ring.length] as string)
}

/** The session state a new response starts with; undefined when the definition assigns nothing. */
export const validationAssignment = (
  def: InterviewDefinition,
  responseId: string
): InterviewValidationState | undefined => {
  const assigned = assignValidationItems(def, responseId)
  return assigned.length === 0 || def.validation === undefined
    ? undefined
    : { assignmentVersion: def.validation.assignmentVersion, assigned, answers: [] }
}

// The closing phase -------------------------------------------------------------------------------

const hasValue = (fields: ReadonlyArray<InterviewFieldState>, id: string) => {
  const state = fields.find((f) => f.fieldId === id)
  return state?.status === "answered" && state.value !== undefined
}

const validationAsked = (session: InterviewSession, fieldId: string) =>
  session.messages.some(
    (m) =>
      m.role === "assistant" &&
      m.kind === "validation" &&
      m.target?.type === "field" &&
      m.target.id === fieldId
  )

/**
 * Assigned items still to ask, in assignment order: not asked yet, and on a field that holds an
 * answered value (a field never answered, or answered with a refusal, has nothing to re-test: it ends
 * up in the summary's `skipped`).
 */
export const pendingValidationItems = (
  def: InterviewDefinition,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState> = session.fields
): ReadonlyArray<string> =>
  (session.validation?.assigned ?? []).filter(
    (id) => def.fields.some((f) => f.id === id) && !validationAsked(session, id) && hasValue(fields, id)
  )

type Lang = "en" | "ko" | "ja"
const lang = (locale: string): Lang => (locale === "ko" || locale === "ja" ? locale : "en")

// Other words than the field's question: the label, framed as a last check.
const TEMPLATES: Record<Lang, (label: string) => string> = {
  en: (label) => `One quick check: what is your answer for "${label}"?`,
  ko: (label) => `한 가지만 다시 확인할게요. "${label}"에 대한 답은 무엇인가요?`,
  ja: (label) => `ひとつだけ確認させてください。「${label}」についてのお答えは何ですか？`
}

export const validationQuestionText = (def: InterviewDefinition, field: Field, locale: string): string =>
  fitQuestionText(
    def,
    TEMPLATES[lang(locale)](fieldLabel(def, field, locale)) + answerHint(def, field, locale)
  )

type ValidationTurn = Extract<InterviewAssistantTurn, { kind: "validation" }>

/** The domain's next validation probe in the closing phase; undefined when none is left. */
export const validationProbe = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState> = session.fields
): ValidationTurn | undefined => {
  const id = pendingValidationItems(def, session, fields)[0]
  const field = def.fields.find((f) => f.id === id)
  return field === undefined
    ? undefined
    : {
        kind: "validation",
        text: validationQuestionText(def, field, locale),
        target: { type: "field", id: field.id }
      }
}

export type ValidationCorrectionRule =
  | "validationOutsideClosingPhase"
  | "validationNotAssigned"
  | "validationAlreadyAsked"
  | "validationWithoutValue"
  | "validationPending"

/** Why a proposed validation turn cannot stand: only assigned items, each once, in the closing phase. */
export const validationTurnViolation = (
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>,
  target: InterviewTurnTarget,
  closingPhase: boolean
): ValidationCorrectionRule | undefined => {
  if (!closingPhase) return "validationOutsideClosingPhase"
  if (target.type !== "field" || !(session.validation?.assigned ?? []).includes(target.id))
    return "validationNotAssigned"
  if (validationAsked(session, target.id)) return "validationAlreadyAsked"
  if (!hasValue(fields, target.id)) return "validationWithoutValue"
  return undefined
}

// Replies -----------------------------------------------------------------------------------------

/** The field and message when the last message answers a validation turn; undefined otherwise. */
export const validationReplyOf = (
  session: InterviewSession
): { readonly fieldId: string; readonly messageId: string } | undefined => {
  const last = session.messages.at(-1)
  const asked = session.messages.findLast((m) => m.role === "assistant")
  return last?.role === "user" && asked?.kind === "validation" && asked.target?.type === "field"
    ? { fieldId: asked.target.id, messageId: last.id }
    : undefined
}

const normalText = (v: InterviewExtractedValue) =>
  String(v)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s.!?。！？,、]+$/u, "")
    .replace(/\s+/gu, " ")
    .trim()

/**
 * Whether two values of a field say the same: option sets regardless of order, text regardless of
 * case, spacing and closing punctuation, anything else exactly.
 */
export const valuesAgree = (
  field: Field,
  a: InterviewExtractedValue,
  b: InterviewExtractedValue
): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return sameValue([...a].sort(), [...b].sort())
  if (field.valueType === "short_text" || field.valueType === "long_text")
    return normalText(a) === normalText(b)
  return sameValue(a, b)
}

/**
 * The session's validation state with the reply recorded: `retest` is the reply's value as the
 * field's extraction rules accept it (undefined when they accept none).
 */
export const withValidationAnswer = (
  def: InterviewDefinition,
  session: InterviewSession,
  reply: { readonly fieldId: string; readonly messageId: string },
  retest: InterviewExtractedValue | undefined
): InterviewValidationState | undefined => {
  const state = session.validation
  if (state === undefined || state.answers.some((a) => a.fieldId === reply.fieldId)) return state
  const field = def.fields.find((f) => f.id === reply.fieldId)
  const extracted = session.fields.find((f) => f.fieldId === reply.fieldId)?.value
  const agrees =
    field === undefined || retest === undefined || extracted === undefined
      ? null
      : valuesAgree(field, extracted, retest)
  return { ...state, answers: [...state.answers, { ...reply, agrees }] }
}

// Summary and prompt ------------------------------------------------------------------------------

export interface InterviewValidationSummary {
  readonly assigned: ReadonlyArray<string>
  /** Replies whose value could be compared (agrees is true or false). */
  readonly answered: number
  readonly agreed: number
  /** Assigned items never asked: their field was not answered, or the interview ended first. */
  readonly skipped: ReadonlyArray<string>
}

/** What quality.validation shows: ids and counts, never a value. */
export const validationSummary = (session: InterviewSession): InterviewValidationSummary | undefined => {
  const state = session.validation
  if (state === undefined) return undefined
  const compared = state.answers.filter((a) => a.agrees !== null)
  return {
    assigned: state.assigned,
    answered: compared.length,
    agreed: compared.filter((a) => a.agrees === true).length,
    skipped: state.assigned.filter((id) => !validationAsked(session, id))
  }
}

/** The model's line about validation, in the closing phase only; undefined when nothing is pending. */
export const validationPromptLine = (
  def: InterviewDefinition,
  session: InterviewSession,
  closingPhase: boolean
): string | undefined => {
  const pending = closingPhase ? pendingValidationItems(def, session) : []
  return pending.length === 0
    ? undefined
    : `Validation: before closing, ask each of these fields once more in different words, one per turn, as a turn of kind "validation" targeting the field: ${JSON.stringify(pending)}. Extract the reply like the field's answer; it is compared with the earlier value, never stored over it. Ask no other field this way.`
}
