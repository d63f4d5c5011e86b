// What an answer means: yes/no words (en, ko, ja), a user's text coerced to a field's type, and
// whether an evidence span really lies in the message it points into.
import type { InterviewDefinition } from "./definition.js"
import type { InterviewExtractedValue } from "./interviewer.js"
import { CUSTOM_ANSWER_MAX, customAnswerAllowed, isCustomAnswer } from "./custom-answers.js"

type Field = InterviewDefinition["fields"][number]

const YES = new Set([
  "yes",
  "y",
  "yeah",
  "yep",
  "sure",
  "true",
  "of course",
  "correct",
  "right",
  "예",
  "네",
  "응",
  "맞아요",
  "はい",
  "ええ",
  "うん"
])
const NO = new Set([
  "no",
  "n",
  "nope",
  "nah",
  "false",
  "not really",
  "아니요",
  "아니오",
  "아뇨",
  "아니",
  "いいえ",
  "いや",
  "ううん"
])

export const parseYesNo = (text: string): boolean | undefined => {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[.!?。！？,]+$/u, "")
  if (YES.has(t)) return true
  if (NO.has(t)) return false
  return undefined
}

const matchOption = (field: Field, raw: string): string | undefined => {
  const t = raw.trim().toLowerCase()
  return field.options.find(
    (o) =>
      o.id.toLowerCase() === t || Object.values(o.labelByLocale).some((l) => l.trim().toLowerCase() === t)
  )?.id
}

const asNumber = (v: InterviewExtractedValue): number | undefined => {
  if (typeof v === "number") return v
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/u.test(v.replace(/,/gu, "")))
    return Number(v.replace(/,/gu, ""))
  return undefined
}

const intIn = (v: InterviewExtractedValue, min: number, max: number) => {
  const n = asNumber(v)
  return n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : undefined
}

/**
 * The text a value offers as the respondent's own answer: on a select field what names no option (a
 * custom answer's text, else plain texts matching no option id or label, joined); elsewhere only an
 * explicit `{ custom }`. Undefined when the value is all options, or plain typed text.
 */
export const unmatchedSelectText = (field: Field, value: InterviewExtractedValue): string | undefined => {
  if (field.valueType !== "single_select" && field.valueType !== "multi_select")
    return isCustomAnswer(value) ? value.custom : undefined
  const raws = isCustomAnswer(value)
    ? [...(value.options ?? []), value.custom]
    : Array.isArray(value)
      ? value
      : typeof value === "string"
        ? [value]
        : []
  const unmatched = raws.filter((raw) => raw.trim() !== "" && matchOption(field, raw) === undefined)
  return unmatched.length === 0 ? undefined : unmatched.map((raw) => raw.trim()).join(", ")
}

/**
 * A select value as option ids, plus the respondent's own text as `{ custom }` where the field
 * allows custom answers (single_select: `{ custom }`; multi_select: `{ custom, options? }` with the
 * ids named next to it); a custom text that names an option becomes that option.
 */
const coerceSelect = (field: Field, value: InterviewExtractedValue): InterviewExtractedValue | undefined => {
  const single = field.valueType === "single_select"
  if (isCustomAnswer(value) && single && (value.options ?? []).length > 0) return undefined
  const raws = isCustomAnswer(value)
    ? [...(value.options ?? []), value.custom]
    : Array.isArray(value)
      ? value
      : typeof value === "string"
        ? [value]
        : undefined
  if (raws === undefined || (single && raws.length !== 1)) return undefined
  const ids: Array<string> = []
  for (const raw of raws) {
    const id = matchOption(field, raw)
    if (id !== undefined && !ids.includes(id)) ids.push(id)
  }
  const custom = unmatchedSelectText(field, value)
  if (custom === undefined) return ids.length === 0 ? undefined : single ? ids[0] : ids
  if (!customAnswerAllowed(field) || custom.length > CUSTOM_ANSWER_MAX) return undefined
  return single || ids.length === 0 ? { custom } : { custom, options: ids }
}

/**
 * The value in the field's type, or undefined when it cannot be one. Select values become option ids
 * (matched by id or label); a text naming no option becomes a custom answer where the field allows
 * one (see custom-answers.ts), and is refused otherwise.
 */
export const coerceFieldValue = (
  field: Field,
  value: InterviewExtractedValue
): InterviewExtractedValue | undefined => {
  switch (field.valueType) {
    case "short_text":
    case "long_text": {
      if (isCustomAnswer(value)) return undefined
      const text = Array.isArray(value) ? value.join(", ") : String(value)
      return text.trim() === "" ? undefined : text.trim()
    }
    case "single_select":
    case "multi_select":
      return coerceSelect(field, value)
    case "boolean":
      if (typeof value === "boolean") return value
      if (value === 1 || value === 0) return value === 1
      return typeof value === "string" ? parseYesNo(value) : undefined
    case "number": {
      const n = Array.isArray(value) || typeof value === "boolean" ? undefined : asNumber(value)
      return n !== undefined && Number.isFinite(n) ? n : undefined
    }
    case "scale_1_5":
      return Array.isArray(value) || typeof value === "boolean" ? undefined : intIn(value, 1, 5)
    case "nps_0_10":
      return Array.isArray(value) || typeof value === "boolean" ? undefined : intIn(value, 0, 10)
  }
}

export const sameValue = (a: InterviewExtractedValue, b: InterviewExtractedValue) =>
  JSON.stringify(a) === JSON.stringify(b)
