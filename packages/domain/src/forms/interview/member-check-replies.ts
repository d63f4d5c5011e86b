// The built-in interviewer's reading of a reply to a member check read-back: the corrections it
// states ("Actually we're on the Free plan", "no, team size is 12"), found by field label or by an
// option only one field has, each with its span in the reply. The rules then check them like any.
import { sameValue } from "./answers.js"
import type { InterviewDefinition } from "./definition.js"
import type {
  InterviewEvidenceSpan,
  InterviewExtractedValue,
  InterviewFieldExtraction,
  InterviewSession
} from "./interviewer.js"
import { memberCheckAllowsCorrection, readsAsConfirmation } from "./member-check.js"

type Field = InterviewDefinition["fields"][number]

/** A field parser (the built-in interviewer's): a typed value and where it was read. */
export type FieldAnswerParser = (
  field: Field,
  text: string
) =>
  | {
      readonly value: InterviewExtractedValue
      readonly span: InterviewEvidenceSpan
      readonly confidence: number
    }
  | undefined

const POSSESSIVE = /^(your|my|our|the|their|his|her)\s+/iu
const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c)

/** Where the reply names the field (its label in any locale, "your plan" also as "plan"). */
const labelMention = (field: Field, text: string) => {
  const lower = text.toLowerCase()
  const labels = Object.values(field.labelByLocale)
    .flatMap((l) => [l.trim().toLowerCase(), l.trim().toLowerCase().replace(POSSESSIVE, "")])
    .filter((l) => l.length >= 2)
    .sort((a, b) => b.length - a.length)
  for (const label of labels) {
    for (let at = lower.indexOf(label); at !== -1; at = lower.indexOf(label, at + 1)) {
      const end = at + label.length
      // Whole words only where words have letters around them (not inside "planning").
      if (!isLetter(lower[at - 1]) && !isLetter(lower[end])) return { start: at, end }
    }
  }
  return undefined
}

const LINK = /^\s*(?:'s)?\s*(?::|=|->|→|is|was|are|were|should be|은|는|이|가|は|が|：)?\s*/iu
const CLAUSE_END = /[.;!?\n。！？]/u

/** The words after a label up to the end of the clause ("team size is 12, thanks" -> "12, thanks"). */
const clauseAfter = (text: string, from: number) => {
  const link = LINK.exec(text.slice(from))?.[0].length ?? 0
  const start = from + link
  const rest = text.slice(start)
  const stop = CLAUSE_END.exec(rest)
  const body = (stop === null ? rest : rest.slice(0, stop.index)).replace(/[\s,]+$/u, "")
  return { start, text: body }
}

const isSelect = (f: Field) => f.valueType === "single_select" || f.valueType === "multi_select"
const isNumeric = (f: Field) =>
  f.valueType === "number" || f.valueType === "scale_1_5" || f.valueType === "nps_0_10"

/**
 * The corrections a reply states: for a field it names, the value in the words after its label;
 * then an option named in the reply that only one select field has; then a lone number, when only
 * one numeric field has a value to correct. Values equal to the stored ones are not corrections.
 */
export const memberCheckCorrections = (
  def: InterviewDefinition,
  session: InterviewSession,
  parse: FieldAnswerParser
): ReadonlyArray<InterviewFieldExtraction> => {
  const text = session.messages.at(-1)?.text ?? ""
  if (!memberCheckAllowsCorrection(def) || readsAsConfirmation(text)) return []
  const found = new Map<string, InterviewFieldExtraction>()
  const add = (
    field: Field,
    value: InterviewExtractedValue,
    span: InterviewEvidenceSpan,
    confidence: number
  ) => {
    const stored = session.fields.find((s) => s.fieldId === field.id)
    if (found.has(field.id) || (stored?.value !== undefined && sameValue(stored.value, value))) return
    found.set(field.id, { fieldId: field.id, state: "answered", value, evidence: span, confidence })
  }
  for (const field of def.fields) {
    const mention = labelMention(field, text)
    if (mention === undefined) continue
    const clause = clauseAfter(text, mention.end)
    const parsed = clause.text.trim() === "" ? undefined : parse(field, clause.text)
    if (parsed !== undefined)
      add(
        field,
        parsed.value,
        { start: clause.start + parsed.span.start, end: clause.start + parsed.span.end },
        parsed.confidence
      )
  }
  const selects = def.fields.filter(isSelect).map((field) => ({ field, parsed: parse(field, text) }))
  for (const { field, parsed } of selects) {
    if (parsed === undefined) continue
    const shared = selects.some((o) => o.field !== field && o.parsed !== undefined)
    if (!shared) add(field, parsed.value, parsed.span, parsed.confidence)
  }
  const numbers = text.match(/\d+(?:[.,]\d+)*/gu) ?? []
  const numeric = def.fields.filter(
    (f) => isNumeric(f) && session.fields.some((s) => s.fieldId === f.id && s.value !== undefined)
  )
  const only = numeric[0]
  if (numeric.length === 1 && numbers.length === 1 && only !== undefined && !found.has(only.id)) {
    const parsed = parse(only, text)
    if (parsed !== undefined) add(only, parsed.value, parsed.span, parsed.confidence)
  }
  return [...found.values()]
}
