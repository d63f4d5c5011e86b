// What an interview says: the definition's own texts in the respondent's locale, else templates
// (en, ko, ja) for questions, probes, confirmations and the closing; and questions kept short.
import type { InterviewDefinition } from "./definition.js"
import type { InterviewExtractedValue, InterviewProbeKind } from "./interviewer.js"
import { customAnswerText, isCustomAnswer, optionsHint } from "./custom-answers.js"

type Field = InterviewDefinition["fields"][number]
type Goal = InterviewDefinition["goals"][number]

type LocaleMap = { readonly [locale: string]: string }

/** The text for the locale, else the default locale's, else any; blank values never count. */
export const localizedText = (
  def: InterviewDefinition,
  map: LocaleMap | undefined,
  locale: string
): string | undefined =>
  [map?.[locale], map?.[def.locales.default], ...Object.values(map ?? {})].find(
    (v): v is string => v !== undefined && v.trim() !== ""
  )

type Lang = "en" | "ko" | "ja"
const lang = (locale: string): Lang => (locale === "ko" || locale === "ja" ? locale : "en")

const TEMPLATES = {
  en: {
    ask: (label: string) => `Could you tell me about ${label}?`,
    retry: "Sorry, I didn't quite get that. ",
    confirm: (label: string, value: string) => `Just to confirm, ${label}: ${value}. Is that right?`,
    closing: "Thank you, that is everything I wanted to ask.",
    yes: "yes",
    no: "no"
  },
  ko: {
    ask: (label: string) => `${label}에 대해 말씀해 주시겠어요?`,
    retry: "죄송하지만 잘 이해하지 못했어요. ",
    confirm: (label: string, value: string) => `확인할게요. ${label}: ${value}. 맞나요?`,
    closing: "감사합니다. 여쭤보고 싶은 것은 여기까지입니다.",
    yes: "예",
    no: "아니요"
  },
  ja: {
    ask: (label: string) => `${label}について教えていただけますか？`,
    retry: "すみません、よく分かりませんでした。",
    confirm: (label: string, value: string) => `確認させてください。${label}：${value}。よろしいですか？`,
    closing: "ありがとうございました。お聞きしたいことは以上です。",
    yes: "はい",
    no: "いいえ"
  }
} as const

const PROBE_TEMPLATES: Record<InterviewProbeKind, string> = {
  example: "Could you give me a concrete example?",
  behavior: "What did you actually do in that situation?",
  impact: "What impact did that have on you?",
  why: "Why is that?",
  tradeoff: "What would you give up to get that?",
  emotion: "How did that make you feel?",
  barrier: "What got in the way?",
  clarify: "Could you say a bit more about what you mean?",
  temporal_sequence: "What happened first, and what came next?",
  comparison: "How does that compare with what you used before?",
  counterexample: "Was there a time when it was different?",
  priority: "Which of those matters most to you?",
  laddering: "And why does that matter to you?"
}
// Only English has per-kind probes; other locales get one neutral follow-up until translations land.
const GENERIC_PROBE: Record<Exclude<Lang, "en">, string> = {
  ko: "조금 더 자세히 말씀해 주시겠어요?",
  ja: "もう少し詳しく教えていただけますか？"
}

export const fieldLabel = (def: InterviewDefinition, field: Field, locale: string) =>
  localizedText(def, field.labelByLocale, locale) ?? field.id

export const answerHint = (def: InterviewDefinition, field: Field, locale: string): string => {
  const t = TEMPLATES[lang(locale)]
  switch (field.valueType) {
    case "single_select":
    case "multi_select":
      return field.options.length === 0
        ? ""
        : optionsHint(
            field,
            field.options.map((o) => localizedText(def, o.labelByLocale, locale) ?? o.id),
            locale
          )
    case "boolean":
      return ` (${t.yes} / ${t.no})`
    case "scale_1_5":
      return " (1-5)"
    case "nps_0_10":
      return " (0-10)"
    default:
      return ""
  }
}

export const fieldQuestionText = (def: InterviewDefinition, field: Field, locale: string): string =>
  (localizedText(def, field.questionByLocale, locale) ??
    TEMPLATES[lang(locale)].ask(fieldLabel(def, field, locale))) + answerHint(def, field, locale)

export const goalQuestionText = (def: InterviewDefinition, goal: Goal, locale: string): string =>
  localizedText(def, goal.anchorQuestionByLocale, locale) ??
  localizedText(def, goal.publicPromptHintByLocale, locale) ??
  TEMPLATES[lang(locale)].ask(localizedText(def, goal.labelByLocale, locale) ?? goal.id)

export const probeText = (kind: InterviewProbeKind, locale: string): string => {
  const l = lang(locale)
  return l === "en" ? PROBE_TEMPLATES[kind] : GENERIC_PROBE[l]
}

export const valueText = (
  def: InterviewDefinition,
  field: Field,
  value: InterviewExtractedValue | undefined,
  locale: string
) => {
  const t = TEMPLATES[lang(locale)]
  const option = (id: string) =>
    localizedText(def, field.options.find((o) => o.id === id)?.labelByLocale, locale) ?? id
  if (typeof value === "boolean") return value ? t.yes : t.no
  if (isCustomAnswer(value))
    return [...(value.options ?? []).map(option), customAnswerText(value.custom, locale)].join(", ")
  if (Array.isArray(value)) return value.map(option).join(", ")
  if (typeof value === "string" && field.valueType === "single_select") return option(value)
  return String(value ?? "")
}

export const confirmationText = (
  def: InterviewDefinition,
  field: Field,
  value: InterviewExtractedValue | undefined,
  locale: string
): string =>
  TEMPLATES[lang(locale)].confirm(fieldLabel(def, field, locale), valueText(def, field, value, locale))

export const closingText = (def: InterviewDefinition, locale: string): string =>
  localizedText(def, def.closingByLocale, locale) ?? TEMPLATES[lang(locale)].closing

/** Cuts at a word boundary when one is near, so a long question still reads as a question. */
export const fitQuestionText = (def: InterviewDefinition, text: string): string => {
  const max = def.policy.maxQuestionCharacters
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(" ")
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`
}

// Counting the transcript -------------------------------------------------------------------------

/** What a question asked again starts with ("Sorry, I did not catch that. "). */
export const retryPrefix = (locale: string): string => TEMPLATES[lang(locale)].retry
