// What a finished interview leaves its readers: the extracted fields, key information with the
// messages it came from, a summary, the sentiment and the qualitative codes. The built-in analysis
// fills what simple rules can (analysisStatus `partial`); an InterviewAnalyst (a model) may do the
// rest as a job, and its output is checked like an interviewer's: evidence must name respondent
// messages of this transcript, codes must be the codebook's (or emergent where the codebook allows).
import { Context, Data, type Effect, Schema } from "effect"
import { clipText } from "../../kernel/text.js"
import type { InterviewDefinition } from "./definition.js"
import type { InterviewSession } from "./interviewer.js"
import { fieldLabel, localizedText, valueText } from "./questions.js"

export const InterviewSentiment = Schema.Literals(["positive", "neutral", "negative"])
export type InterviewSentiment = typeof InterviewSentiment.Type

export const InterviewKeyInfo = Schema.Struct({
  label: Schema.String,
  value: Schema.String,
  evidenceMessageIds: Schema.Array(Schema.String)
})
export type InterviewKeyInfo = typeof InterviewKeyInfo.Type

/** A qualitative code found in the interview, with the respondent messages that carry it. */
export const InterviewCodedInsight = Schema.Struct({
  code: Schema.String,
  evidenceMessageIds: Schema.Array(Schema.String),
  note: Schema.optionalKey(Schema.String)
})
export type InterviewCodedInsight = typeof InterviewCodedInsight.Type

/** What an analyst proposes for a finished interview; checked by `correctInterviewAnalysis`. */
export const InterviewAnalystOutput = Schema.Struct({
  summary: Schema.String,
  sentiment: InterviewSentiment,
  keyInfo: Schema.Array(InterviewKeyInfo),
  insights: Schema.Array(InterviewCodedInsight)
}).annotate({ identifier: "InterviewAnalystOutput" })
export type InterviewAnalystOutput = typeof InterviewAnalystOutput.Type

/** The analysis as stored under `meta.interview` (the reads' StoredInterview shape). */
export interface InterviewAnalysis {
  readonly summary?: string
  readonly sentiment?: InterviewSentiment
  readonly keyInfo: ReadonlyArray<InterviewKeyInfo>
  readonly insights: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly extractedFields: Readonly<Record<string, unknown>>
}

export interface InterviewAnalystInput {
  readonly definition: InterviewDefinition
  readonly locale: string
  readonly session: InterviewSession
  /** The fields as extracted during the interview (what the analysis may not contradict). */
  readonly extractedFields: Readonly<Record<string, unknown>>
}

/** The analyst could not analyse (model down, malformed output); the job retries or gives up. */
export class InterviewAnalystFailed extends Data.TaggedError("InterviewAnalystFailed")<{
  readonly reason: string
}> {}

export interface InterviewAnalystService {
  readonly analyze: (
    input: InterviewAnalystInput
  ) => Effect.Effect<InterviewAnalystOutput, InterviewAnalystFailed>
}

/**
 * The model-backed analyst, when the deployment configures one: completions then store the
 * built-in analysis as `pending` and queue a job for it. Null (the default): the built-in analysis
 * is all there is, stored as `partial`.
 */
export const InterviewAnalyst = Context.Reference<InterviewAnalystService | null>(
  "@folio/domain/InterviewAnalyst",
  { defaultValue: () => null }
)

// Limits of what is stored -------------------------------------------------------------------------

const MAX_SUMMARY = 4000
const MAX_KEY_INFO = 50
const MAX_INSIGHTS = 100
const MAX_LABEL = 500
const MAX_CODE = 80

const clip = clipText

// The built-in analysis --------------------------------------------------------------------------

/** A field the respondent declined or could not answer, as stored in `extractedFields`. */
export interface NonAnswerValue {
  readonly nonAnswer: "refused" | "unknown" | "not_applicable" | "deferred"
}

/**
 * The fields as the interview left them: a confirmed or stated value as its typed value (option
 * ids for selects), an allowed non-answer as `{ nonAnswer }`; values still waiting for a
 * confirmation are left out.
 */
export const extractedFieldsOf = (session: InterviewSession): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const f of session.fields) {
    if (f.status === "answered" && f.value !== undefined) out[f.fieldId] = f.value
    else if (f.status !== "answered" && f.status !== "tentative")
      out[f.fieldId] = { nonAnswer: f.status } satisfies NonAnswerValue
  }
  return out
}

const POSITIVE_EN =
  /\b(good|great|love|loved|like|liked|happy|easy|helpful|excellent|enjoy\w*|satisf\w*|nice|awesome|fast|amazing|useful|recommend\w*)\b/giu
const NEGATIVE_EN =
  /\b(bad|hate|hated|slow|hard|difficult|annoy\w*|frustrat\w*|confus\w*|broken|terrible|awful|poor|disappoint\w*|problem\w*|useless|expensive)\b/giu
const POSITIVE_CJK = [
  "좋",
  "만족",
  "편리",
  "훌륭",
  "최고",
  "추천",
  "良い",
  "いい",
  "満足",
  "便利",
  "好き",
  "嬉し"
]
const NEGATIVE_CJK = [
  "싫",
  "불편",
  "어렵",
  "나쁘",
  "불만",
  "느리",
  "짜증",
  "悪い",
  "嫌",
  "不便",
  "難し",
  "遅い",
  "不満"
]

const countMatches = (text: string, re: RegExp) => text.match(re)?.length ?? 0
const countSubstrings = (text: string, words: ReadonlyArray<string>) =>
  words.reduce((n, w) => n + text.split(w).length - 1, 0)

/**
 * Sentiment from what can be read without a model: NPS and 1–5 scale answers (weighted double) and
 * a small en/ko/ja word list over the respondent's messages. Undefined when nothing says anything.
 */
export const deterministicSentiment = (
  def: InterviewDefinition,
  session: InterviewSession
): InterviewSentiment | undefined => {
  let score = 0
  let signals = 0
  for (const state of session.fields) {
    const field = def.fields.find((f) => f.id === state.fieldId)
    if (state.status !== "answered" || typeof state.value !== "number" || field === undefined) continue
    if (field.valueType === "nps_0_10") {
      signals++
      score += state.value >= 9 ? 2 : state.value <= 6 ? -2 : 0
    } else if (field.valueType === "scale_1_5") {
      signals++
      score += state.value >= 4 ? 2 : state.value <= 2 ? -2 : 0
    }
  }
  for (const m of session.messages) {
    if (m.role !== "user") continue
    const positive = countMatches(m.text, POSITIVE_EN) + countSubstrings(m.text, POSITIVE_CJK)
    const negative = countMatches(m.text, NEGATIVE_EN) + countSubstrings(m.text, NEGATIVE_CJK)
    signals += positive + negative
    score += positive - negative
  }
  if (signals === 0) return undefined
  return score > 0 ? "positive" : score < 0 ? "negative" : "neutral"
}

/** Key information: one entry per answered field, labelled in the interview's locale. */
export const deterministicKeyInfo = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession
): ReadonlyArray<InterviewKeyInfo> =>
  session.fields.flatMap((state) => {
    const field = def.fields.find((f) => f.id === state.fieldId)
    if (field === undefined || state.status !== "answered" || state.value === undefined) return []
    return [
      {
        label: clip(fieldLabel(def, field, locale), MAX_LABEL),
        value: clip(valueText(def, field, state.value, locale), MAX_LABEL),
        evidenceMessageIds: state.evidence === undefined ? [] : [state.evidence.messageId]
      }
    ]
  })

const codeLabels = (code: NonNullable<InterviewDefinition["codebook"]>["codes"][number]) =>
  Object.values(code.labelByLocale)
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l.length >= 3)

/** Codebook codes whose label a respondent message contains (case-insensitive), with those messages. */
export const deterministicCodes = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession
): ReadonlyArray<Readonly<Record<string, unknown>>> => {
  const users = session.messages.filter((m) => m.role === "user")
  return (def.codebook?.codes ?? []).flatMap((code) => {
    const labels = codeLabels(code)
    const ids = users.filter((m) => labels.some((l) => m.text.toLowerCase().includes(l))).map((m) => m.id)
    if (ids.length === 0) return []
    return [
      {
        code: code.id,
        codeType: code.codeType,
        label: localizedText(def, code.labelByLocale, locale) ?? code.id,
        emergent: false,
        // Which codebook coded it: an edited codebook is a new version, and readers compare like with like.
        ...(def.codebook === undefined ? {} : { codebookVersion: def.codebook.version }),
        source: "keyword",
        evidenceMessageIds: ids
      }
    ]
  })
}

/** The built-in analysis of an interview: everything the rules can fill without a model. */
export const deterministicInterviewAnalysis = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession
): InterviewAnalysis => {
  const keyInfo = deterministicKeyInfo(def, locale, session)
  const sentiment = deterministicSentiment(def, session)
  const summary = keyInfo.map((k) => `${k.label}: ${k.value}`).join("; ")
  return {
    ...(summary === "" ? {} : { summary: clip(summary, MAX_SUMMARY) }),
    ...(sentiment === undefined ? {} : { sentiment }),
    keyInfo,
    insights: deterministicCodes(def, locale, session),
    extractedFields: extractedFieldsOf(session)
  }
}

// Checking an analyst --------------------------------------------------------------------------------

/**
 * What of an analyst's proposal may be stored: evidence ids only of this transcript's respondent
 * messages, non-blank key information, codes from the codebook (labelled and typed from it) or,
 * where the codebook allows emergent codes, new ones marked `emergent`; insights without evidence
 * are dropped when the definition requires evidence. Lengths and counts are capped. The extracted
 * fields stay the interview's own: an analyst never rewrites what the respondent confirmed.
 */
export const correctInterviewAnalysis = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  proposal: InterviewAnalystOutput
): InterviewAnalysis => {
  const userIds = new Set(session.messages.filter((m) => m.role === "user").map((m) => m.id))
  const evidence = (ids: ReadonlyArray<string>) => [...new Set(ids.filter((id) => userIds.has(id)))]
  const keyInfo = proposal.keyInfo
    .filter((k) => k.label.trim() !== "" && k.value.trim() !== "")
    .slice(0, MAX_KEY_INFO)
    .map((k) => ({
      label: clip(k.label.trim(), MAX_LABEL),
      value: clip(k.value.trim(), MAX_LABEL),
      evidenceMessageIds: evidence(k.evidenceMessageIds)
    }))
  const codes = new Map((def.codebook?.codes ?? []).map((c) => [c.id, c]))
  const emergentAllowed = def.codebook?.allowEmergentCodes ?? true
  const needsEvidence = def.emergentExtraction?.relatednessPolicy.requireEvidenceSpan ?? true
  const insights: Array<Record<string, unknown>> = []
  const seen = new Set<string>()
  for (const i of proposal.insights) {
    const id = i.code.trim()
    const ids = evidence(i.evidenceMessageIds)
    const known = codes.get(id)
    if (id === "" || id.length > MAX_CODE || seen.has(id)) continue
    if (known === undefined && !emergentAllowed) continue
    if (needsEvidence && ids.length === 0) continue
    seen.add(id)
    insights.push({
      code: id,
      ...(known === undefined
        ? { emergent: true }
        : {
            codeType: known.codeType,
            label: localizedText(def, known.labelByLocale, locale) ?? known.id,
            emergent: false,
            ...(def.codebook === undefined ? {} : { codebookVersion: def.codebook.version })
          }),
      source: "analyst",
      evidenceMessageIds: ids,
      ...(i.note === undefined || i.note.trim() === "" ? {} : { note: clip(i.note.trim(), MAX_LABEL) })
    })
    if (insights.length >= MAX_INSIGHTS) break
  }
  const summary = proposal.summary.trim()
  return {
    ...(summary === "" ? {} : { summary: clip(summary, MAX_SUMMARY) }),
    sentiment: proposal.sentiment,
    keyInfo,
    insights,
    extractedFields: extractedFieldsOf(session)
  }
}
