// What an answer means: yes/no words (en, ko, ja), a user's text coerced to a field's type, and
// whether an evidence span really lies in the message it points into.
import type { InterviewDefinition } from "./definition.js"
import type { InterviewExtractedValue } from "./interviewer.js"

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
 * The value in the field's type, or undefined when it cannot be one. Select values become option ids
 * (matched by id or label); a non-matching text is kept only when `allowCustomAnswer` is set.
 */
export const coerceFieldValue = (
  field: Field,
  value: InterviewExtractedValue
): InterviewExtractedValue | undefined => {
  const custom = field.extraction.allowCustomAnswer === true
  switch (field.valueType) {
    case "short_text":
    case "long_text": {
      const text = Array.isArray(value) ? value.join(", ") : String(value)
      return text.trim() === "" ? undefined : text.trim()
    }
    case "single_select": {
      const raw = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value
      if (typeof raw !== "string") return undefined
      return matchOption(field, raw) ?? (custom && raw.trim() !== "" ? raw.trim() : undefined)
    }
    case "multi_select": {
      const raws = Array.isArray(value) ? value : typeof value === "string" ? [value] : []
      const ids: Array<string> = []
      for (const raw of raws) {
        const id = matchOption(field, raw) ?? (custom && raw.trim() !== "" ? raw.trim() : undefined)
        if (id === undefined) return undefined
        if (!ids.includes(id)) ids.push(id)
      }
      return ids.length === 0 ? undefined : ids
    }
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
