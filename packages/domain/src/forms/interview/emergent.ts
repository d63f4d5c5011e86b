// Emergent extraction (the definition's `emergentExtraction`): what a respondent raises beyond the
// fields and goals (a pain point, a motivation, a barrier...) is kept as an emergent item with the
// message that says it, and an item may draw one follow-up probe within the session's emergent budget.
// Interviewers propose items (the built-in one from keyword and pattern lists, a model from its own
// reading); the rules here decide what is kept and which follow-ups may be asked.
import { clipText } from "../../kernel/text.js"
import type { InterviewDefinition } from "./definition.js"
import type {
  InterviewAssistantTurn,
  InterviewCaptureType,
  InterviewEmergentItem,
  InterviewEmergentProposal,
  InterviewEmergentRelation,
  InterviewSession,
  InterviewTurnTarget
} from "./interviewer.js"
import { fitQuestionText } from "./questions.js"
import {
  type InterviewCorrection,
  type InterviewCorrectionRule,
  evidenceHolds,
  followupCount
} from "./rule-basics.js"

type EmergentPolicy = NonNullable<InterviewDefinition["emergentExtraction"]>

/** A kept summary is at most this long (clipped, with a correction). */
export const MAX_EMERGENT_SUMMARY = 280
/** Items kept from one message, and in one session: the rest are dropped (`emergentLimit`). */
export const MAX_EMERGENT_PER_TURN = 5
export const MAX_EMERGENT_PER_SESSION = 50

/** The policy when the definition turns emergent extraction on; undefined when it is absent or off. */
export const emergentPolicy = (def: InterviewDefinition): EmergentPolicy | undefined =>
  def.emergentExtraction?.enabled === true ? def.emergentExtraction : undefined

const ID = /^e(\d+)$/u

/**
 * Item ids are `e<n>`: this turn's i-th proposal (0-based) gets `e<next + i>` whether or not it is
 * kept, so a follow-up proposed in the same output can name it before the rules have run.
 */
export const nextEmergentNumber = (items: ReadonlyArray<InterviewEmergentItem>): number =>
  items.reduce((n, item) => Math.max(n, Number(ID.exec(item.id)?.[1] ?? 0)), 0) + 1

const relationExists = (def: InterviewDefinition, r: InterviewEmergentRelation) =>
  r.type === "field"
    ? def.fields.some((f) => f.id === r.id)
    : r.type === "goal"
      ? def.goals.some((g) => g.id === r.id)
      : (def.modules ?? []).some((m) => m.id === r.id)

const normalized = (text: string) => text.trim().toLowerCase().replace(/\s+/gu, " ")

export interface EmergentResult {
  /** The proposals kept (summary trimmed and clipped, unknown relations dropped). */
  readonly kept: ReadonlyArray<InterviewEmergentProposal>
  /** The session's items once they are added. */
  readonly items: ReadonlyArray<InterviewEmergentItem>
}

/**
 * What of an interviewer's emergent proposals may be kept: nothing when the definition leaves the
 * feature off; else only `captureTypes`, evidence inside the last user message when
 * `requireEvidenceSpan`, an existing field, goal or module when `onlyIfRelatedToFieldOrTopic`, no
 * novel theme (marked novel, an `unexpected_topic`, or related to nothing) unless `allowNovelTheme`,
 * no repeat of an item already kept, and within the length and count caps. Undefined when off.
 */
export const correctEmergent = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposals: ReadonlyArray<InterviewEmergentProposal>,
  fix: (c: InterviewCorrection) => void
): EmergentResult | undefined => {
  const policy = emergentPolicy(def)
  if (policy === undefined) {
    for (const p of proposals) fix({ rule: "emergentDisabled", subject: p.captureType })
    return undefined
  }
  const before = session.emergent ?? []
  const last = session.messages.at(-1)
  if (last?.role !== "user") {
    if (proposals.length > 0) fix({ rule: "noUserMessage" })
    return { kept: [], items: before }
  }
  const rules = policy.relatednessPolicy
  const first = nextEmergentNumber(before)
  const kept: Array<InterviewEmergentProposal> = []
  const items: Array<InterviewEmergentItem> = [...before]
  for (const [index, p] of proposals.entries()) {
    const drop = (rule: InterviewCorrectionRule) => fix({ rule, subject: p.captureType })
    if (!policy.captureTypes.includes(p.captureType)) {
      drop("captureTypeNotAllowed")
      continue
    }
    const trimmed = p.summary.trim()
    if (trimmed === "") {
      drop("emptyText")
      continue
    }
    let evidence = p.evidence
    if (evidence !== undefined && !evidenceHolds(last.text, evidence)) {
      drop("evidenceNotInMessage")
      if (rules.requireEvidenceSpan) continue
      evidence = undefined
    } else if (evidence === undefined && rules.requireEvidenceSpan) {
      drop("evidenceMissing")
      continue
    }
    let relatedTo = p.relatedTo
    if (relatedTo !== undefined && !relationExists(def, relatedTo)) {
      drop("unknownRelatedTo")
      relatedTo = undefined
    }
    if (relatedTo === undefined && rules.onlyIfRelatedToFieldOrTopic) {
      drop("unrelatedEmergent")
      continue
    }
    const novel = p.novel === true || p.captureType === "unexpected_topic" || relatedTo === undefined
    if (novel && !rules.allowNovelTheme) {
      drop("novelThemeNotAllowed")
      continue
    }
    const summary = clipText(trimmed, MAX_EMERGENT_SUMMARY)
    if (summary !== trimmed) fix({ rule: "summaryTooLong", subject: p.captureType })
    const repeated = items.some(
      (i) =>
        i.captureType === p.captureType &&
        (normalized(i.summary) === normalized(summary) ||
          (evidence !== undefined &&
            i.evidence?.messageId === last.id &&
            i.evidence.start < evidence.end &&
            evidence.start < i.evidence.end))
    )
    if (repeated) {
      drop("duplicateEmergent")
      continue
    }
    if (kept.length >= MAX_EMERGENT_PER_TURN || items.length >= MAX_EMERGENT_PER_SESSION) {
      drop("emergentLimit")
      continue
    }
    kept.push({
      captureType: p.captureType,
      summary,
      ...(evidence === undefined ? {} : { evidence }),
      ...(relatedTo === undefined ? {} : { relatedTo }),
      ...(p.novel === undefined ? {} : { novel: p.novel })
    })
    items.push({
      id: `e${first + index}`,
      captureType: p.captureType,
      summary,
      ...(relatedTo === undefined ? {} : { relatedTo }),
      evidenceMessageIds: [last.id],
      ...(evidence === undefined
        ? {}
        : { evidence: { messageId: last.id, start: evidence.start, end: evidence.end } })
    })
  }
  return { kept, items }
}

/** The session's emergent items once `proposals` are checked (what the built-in interviewer plans with). */
export const emergentAfter = (
  def: InterviewDefinition,
  session: InterviewSession,
  proposals: ReadonlyArray<InterviewEmergentProposal>
): ReadonlyArray<InterviewEmergentItem> =>
  correctEmergent(def, session, proposals, () => undefined)?.items ?? session.emergent ?? []

// Follow-ups ---------------------------------------------------------------------------------------

const isEmergentProbe = (target: InterviewTurnTarget | undefined, kind: string | undefined) =>
  kind === "probe" && target?.type === "emergent"

/** Follow-up probes on emergent items so far; each also counts as a follow-up (followupCount). */
export const emergentFollowupCount = (session: InterviewSession): number =>
  session.messages.filter((m) => m.role === "assistant" && isEmergentProbe(m.target, m.kind)).length

const explored = (session: InterviewSession, id: string) =>
  session.messages.some(
    (m) => m.role === "assistant" && isEmergentProbe(m.target, m.kind) && m.target?.id === id
  )

/**
 * Why a follow-up probe on emergent item `id` cannot be asked (undefined when it can): only with
 * `allowEmergentFollowup`, on an item kept so far, once per item, within
 * `maxEmergentFollowupsPerSession` and within the session's `policy.maxFollowups`.
 */
export const emergentProbeViolation = (
  def: InterviewDefinition,
  session: InterviewSession,
  items: ReadonlyArray<InterviewEmergentItem>,
  id: string
): InterviewCorrectionRule | undefined => {
  const policy = emergentPolicy(def)
  if (policy === undefined || !policy.followupPolicy.allowEmergentFollowup) return "followupNotAllowed"
  if (!items.some((i) => i.id === id)) return "unknownTarget"
  if (explored(session, id)) return "alreadyExplored"
  if (emergentFollowupCount(session) >= policy.followupPolicy.maxEmergentFollowupsPerSession)
    return "emergentFollowupBudget"
  if (followupCount(session) >= def.policy.maxFollowups) return "followupBudget"
  return undefined
}

// The built-in extractor ---------------------------------------------------------------------------

type Lang = "en" | "ko" | "ja"
const lang = (locale: string): Lang => (locale === "ko" || locale === "ja" ? locale : "en")

/**
 * The capture types simple patterns can find. `contradiction` (comparing statements across the
 * interview), `unexpected_topic` (knowing what the definition does not cover) and `quote` (judging
 * what is worth quoting) need a reading only a model gives.
 */
export const DETERMINISTIC_CAPTURE_TYPES = [
  "pain_point",
  "barrier",
  "risk",
  "constraint",
  "motivation",
  "preference",
  "emotion",
  "context"
] as const satisfies ReadonlyArray<InterviewCaptureType>
type Detectable = (typeof DETERMINISTIC_CAPTURE_TYPES)[number]

/** Per locale and capture type, what marks a sentence; a sentence takes the first type that matches. */
const PATTERNS: Record<Lang, Record<Detectable, RegExp>> = {
  en: {
    pain_point:
      /\b(frustrat\w*|annoy\w*|painful|a pain|hassle|tedious|waste of time|takes forever|struggl\w*|headache|nightmare)\b/iu,
    barrier:
      /\b(can'?t|cannot|couldn'?t|unable to|prevents? me|stops? me|blocked|gets? in the way|too (expensive|complicated|hard))\b/iu,
    risk: /\b(risk\w*|afraid (that|of)|danger\w*|security|could lose|might lose|worried that)\b/iu,
    constraint: /\b(budget|deadline|only have|no time|limited|not allowed|have to|must|policy)\b/iu,
    motivation: /\b(because i want|so that|in order to|my goal|the reason i|i want to|i need to)\b/iu,
    preference: /\b(i prefer|i'?d rather|prefer\w*|favou?rite|i like\b.*\bbetter|i love)\b/iu,
    emotion: /\b(feel\w*|felt|happy|sad|angry|worried|anxious|stressed|excited|scared|upset|relieved)\b/iu,
    context: /\b(at work|at home|on my phone|every (day|week|month|morning)|usually|when i'?m)\b/iu
  },
  ko: {
    pain_point: /불편|짜증|번거롭|귀찮|힘들/u,
    barrier: /못\s?하|할 수 없|수가 없|막혀|방해/u,
    risk: /위험|보안|우려|잃을까/u,
    constraint: /예산|마감|시간이 없|해야 해|규정/u,
    motivation: /위해서|싶어서|목표|이유는/u,
    preference: /선호|더 좋|좋아해|좋아합니다/u,
    emotion: /기분|걱정|불안|화가|행복|스트레스|속상|기뻤|기쁘/u,
    context: /회사에서|집에서|매일|매주|매달|보통/u
  },
  ja: {
    pain_point: /不便|面倒|イライラ|大変|手間/u,
    barrier: /できない|できません|妨げ|邪魔/u,
    risk: /リスク|危険|セキュリティ|恐れ/u,
    constraint: /予算|締め切り|時間がない|しなければ|規則/u,
    motivation: /ために|したいから|目的|理由は/u,
    preference: /好み|の方が好き|が好きです|好きです/u,
    emotion: /気持ち|不安|心配|嬉し|悲し|ストレス|怒/u,
    context: /職場で|家で|毎日|毎週|毎月|普段/u
  }
}

/** Sentences of a message as trimmed spans (ending punctuation kept with its sentence). */
const sentencesOf = (text: string): ReadonlyArray<{ readonly start: number; readonly end: number }> =>
  [...text.matchAll(/[^.!?。！？\n]+[.!?。！？]*/gu)].flatMap((m) => {
    const raw = m[0]
    const start = m.index + (raw.length - raw.trimStart().length)
    const end = m.index + raw.trimEnd().length
    return end > start ? [{ start, end }] : []
  })

const detectedType = (sentence: string, types: ReadonlyArray<InterviewCaptureType>) =>
  DETERMINISTIC_CAPTURE_TYPES.find(
    (type) =>
      types.includes(type) && (["en", "ko", "ja"] as const).some((l) => PATTERNS[l][type].test(sentence))
  )

/**
 * The built-in extractor: each sentence of the last user message that matches a pattern of an
 * allowed capture type (all three locales' lists, since respondents mix languages) becomes one
 * proposal, its evidence the sentence, its summary the sentence itself, related to what the turn
 * before asked about (an answer is about its question). Empty when the feature is off.
 */
export const deterministicEmergent = (
  def: InterviewDefinition,
  session: InterviewSession
): ReadonlyArray<InterviewEmergentProposal> => {
  const policy = emergentPolicy(def)
  const last = session.messages.at(-1)
  if (policy === undefined || last?.role !== "user") return []
  const asked = session.messages.filter((m) => m.role === "assistant").at(-1)?.target
  const relatedTo: InterviewEmergentRelation | undefined =
    asked === undefined
      ? undefined
      : asked.type === "emergent"
        ? session.emergent?.find((i) => i.id === asked.id)?.relatedTo
        : { type: asked.type, id: asked.id }
  return sentencesOf(last.text).flatMap(({ start, end }) => {
    const sentence = last.text.slice(start, end)
    const captureType = detectedType(sentence, policy.captureTypes)
    if (captureType === undefined) return []
    return [
      {
        captureType,
        summary: clipText(sentence, MAX_EMERGENT_SUMMARY),
        evidence: { start, end },
        ...(relatedTo === undefined ? {} : { relatedTo })
      }
    ]
  })
}

const FOLLOWUP: Record<Lang, (quote: string) => string> = {
  en: (q) => `You mentioned "${q}": could you tell me more?`,
  ko: (q) => `"${q}"라고 말씀하셨는데, 조금 더 자세히 말씀해 주시겠어요?`,
  ja: (q) => `「${q}」とおっしゃいましたが、もう少し詳しく教えていただけますか？`
}

/** How much of an item's summary a template follow-up quotes. */
const FOLLOWUP_QUOTE = 60

/** The summary without its closing punctuation, cut at a word boundary when one is near. */
const quoteOf = (summary: string) => {
  const text = summary.replace(/[.!?。！？\s]+$/u, "")
  if (text.length <= FOLLOWUP_QUOTE) return text
  const cut = clipText(text, FOLLOWUP_QUOTE).slice(0, -1)
  const space = cut.lastIndexOf(" ")
  return `${space > FOLLOWUP_QUOTE / 2 ? cut.slice(0, space) : cut}…`
}

export const emergentFollowupText = (locale: string, item: InterviewEmergentItem): string =>
  FOLLOWUP[lang(locale)](quoteOf(item.summary))

/**
 * The built-in interviewer's follow-up: a template probe on the first item not yet explored, when
 * the rules allow one; never right after another emergent follow-up (one digression at a time).
 */
export const deterministicEmergentFollowup = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  items: ReadonlyArray<InterviewEmergentItem>
): Extract<InterviewAssistantTurn, { kind: "probe" }> | undefined => {
  const asked = session.messages.filter((m) => m.role === "assistant").at(-1)
  if (isEmergentProbe(asked?.target, asked?.kind)) return undefined
  const item = items.find((i) => emergentProbeViolation(def, session, items, i.id) === undefined)
  return item === undefined
    ? undefined
    : {
        kind: "probe",
        text: fitQuestionText(def, emergentFollowupText(locale, item)),
        target: { type: "emergent", id: item.id },
        probeKind: "clarify"
      }
}
