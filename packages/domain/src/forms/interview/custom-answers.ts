// Custom answers and closed questions (`extraction.allowCustomAnswer`, `extraction.allowFreeText`): a
// select field may take an answer that names none of its options, stored apart from option ids as
// `{ custom }` so every reader can tell the respondent's own words from a listed option; a field
// with `allowFreeText: false` is restricted to its options and its question says so.
import { Schema } from "effect"
import type { Issue } from "../../kernel/errors.js"
import type { InterviewDefinition } from "./definition.js"

type Field = InterviewDefinition["fields"][number]

/**
 * The respondent's own answer to a select field: `custom` is their text; a multi_select answer may
 * also carry the option ids it named (`options`). Option ids are slugs, so this object can never be
 * mistaken for one.
 */
export const InterviewCustomAnswer = Schema.Struct({
  custom: Schema.String,
  options: Schema.optionalKey(Schema.Array(Schema.String))
})
export type InterviewCustomAnswer = typeof InterviewCustomAnswer.Type

/** Longest custom text kept: an answer in place of an option label, not an essay (text fields are). */
export const CUSTOM_ANSWER_MAX = 200

export const isCustomAnswer = (value: unknown): value is InterviewCustomAnswer =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { custom?: unknown }).custom === "string"

const isSelect = (field: Field) => field.valueType === "single_select" || field.valueType === "multi_select"

/** Custom answers are taken only on a select field that allows them and is not closed to its options. */
export const customAnswerAllowed = (field: Field): boolean =>
  isSelect(field) && field.extraction.allowCustomAnswer === true && field.extraction.allowFreeText !== false

/** A field whose question is closed to its options (`allowFreeText: false`). */
export const restrictedToOptions = (field: Field): boolean =>
  isSelect(field) && field.extraction.allowFreeText === false && field.options.length > 0

/**
 * What a definition write may not hold, since the setting could never act: `allowFreeText: false`
 * on a field without options (text types are free text by nature; boolean, number and scales are
 * already restricted to their typed values), `allowCustomAnswer: true` on a field that is not a
 * select, and both together (a field closed to its options cannot take a custom answer).
 */
export const customAnswerIssues = (def: InterviewDefinition): ReadonlyArray<Issue> =>
  def.fields.flatMap((field, i) => {
    const at = (key: string) => ["fields", i, "extraction", key]
    const out: Array<Issue> = []
    if (field.extraction.allowFreeText === false && (!isSelect(field) || field.options.length === 0))
      out.push({ path: at("allowFreeText"), rule: "restrictionWithoutOptions" })
    if (field.extraction.allowCustomAnswer === true) {
      if (!isSelect(field)) out.push({ path: at("allowCustomAnswer"), rule: "customAnswerNotSelect" })
      else if (field.extraction.allowFreeText === false)
        out.push({ path: at("allowCustomAnswer"), rule: "customAnswerWithoutFreeText" })
    }
    return out
  })

/**
 * Why a proposed custom answer cannot stand (undefined when it can): only where the field allows
 * it, not blank, and at most CUSTOM_ANSWER_MAX characters. Plain text naming no option counts as a
 * proposed custom answer too (coerceFieldValue turns it into one), so it is checked the same way.
 */
export const customAnswerViolation = (
  field: Field,
  custom: string
): "customAnswerNotAllowed" | "customAnswerTooLong" | undefined => {
  if (!customAnswerAllowed(field)) return "customAnswerNotAllowed"
  if (custom.trim().length > CUSTOM_ANSWER_MAX) return "customAnswerTooLong"
  return undefined
}

type Lang = "en" | "ko" | "ja"
const lang = (locale: string): Lang => (locale === "ko" || locale === "ja" ? locale : "en")

const CUSTOM_MARK: Record<Lang, (text: string) => string> = {
  en: (text) => `${text} (other)`,
  ko: (text) => `${text} (기타)`,
  ja: (text) => `${text}（その他）`
}

/** A custom text as shown to people: marked as the respondent's own ("Enterprise (other)"). */
export const customAnswerText = (text: string, locale: string): string => CUSTOM_MARK[lang(locale)](text)

const CHOOSE: Record<Lang, { one: string; many: string }> = {
  en: { one: "please choose one", many: "please choose from" },
  ko: { one: "다음 중 하나를 골라 주세요", many: "다음 중에서 골라 주세요" },
  ja: { one: "次から一つ選んでください", many: "次から選んでください" }
}

/** The options hint of a question, saying it is closed to them when the field is. */
export const optionsHint = (field: Field, labels: ReadonlyArray<string>, locale: string): string => {
  const list = labels.join(" / ")
  if (!restrictedToOptions(field)) return ` (${list})`
  const t = CHOOSE[lang(locale)]
  const say = field.valueType === "single_select" ? t.one : t.many
  return lang(locale) === "ja" ? `（${say}：${list}）` : ` (${say}: ${list})`
}
