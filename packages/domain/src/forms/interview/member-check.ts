// The member check (memberCheck): before closing, the interviewer reads back what it understood (the
// answered fields and what the respondent said on each goal) and asks the respondent to confirm; a
// correction goes through the same field rules as any extraction and the read-back repeats once.
import { clipText } from "../../kernel/text.js"
import { deterministicKeyInfo } from "./analysis.js"
import type { InterviewDefinition } from "./definition.js"
import type {
  InterviewAssistantTurn,
  InterviewCompletion,
  InterviewCompletionReason,
  InterviewFieldState,
  InterviewMemberCheckOutcome,
  InterviewMemberCheckState,
  InterviewSession
} from "./interviewer.js"
import { closingText, localizedText } from "./questions.js"

/** A correction repeats the read-back once; the interview then closes whatever the answer. */
export const MAX_READ_BACKS = 2

/**
 * A read-back lists everything understood, so it is exempt from `policy.maxQuestionCharacters`
 * (the spec's largest question size, 2,000, bounds it instead).
 */
export const MAX_READ_BACK_CHARACTERS = 2000

/** What one read-back line shows of a value, and of what the respondent said on a goal. */
const MAX_VALUE_CHARACTERS = 200
const MAX_GOAL_QUOTE_CHARACTERS = 100

export const memberCheckEnabled = (def: InterviewDefinition): boolean => def.memberCheck?.enabled === true

export const memberCheckAllowsCorrection = (def: InterviewDefinition): boolean =>
  def.memberCheck?.allowCorrection !== false

const assistantTurns = (session: InterviewSession) => session.messages.filter((m) => m.role === "assistant")

/** How many read-backs the interview has given. */
export const readBackCount = (session: InterviewSession): number =>
  assistantTurns(session).filter((m) => m.kind === "member_check").length

/** True when the last message is the respondent's reply to a read-back. */
export const isMemberCheckReply = (session: InterviewSession): boolean =>
  session.messages.at(-1)?.role === "user" && assistantTurns(session).at(-1)?.kind === "member_check"

/** Replies to read-backs: they do not spend `policy.maxExchanges` (the phase is bounded by itself). */
export const memberCheckReplyCount = (session: InterviewSession): number =>
  session.messages.filter((m, i) => m.role === "user" && session.messages[i - 1]?.kind === "member_check")
    .length

// Reading a reply ----------------------------------------------------------------------------------

const AGREES =
  /^\s*(yes|yeah|yep|yup|sure|correct|right|exactly|perfect|ok(ay)?|that['’]?s (right|correct|it|all)|looks (good|right|correct)|all (good|correct|right))\b|^\s*(네|예|응|맞아요|맞습니다|맞아|정확해요|좋아요)|^\s*(はい|ええ|うん|そうです|合って|正しい|大丈夫)/iu
const DISAGREES =
  /\b(no|not|nope|wrong|incorrect|actually|but|except|however)\b|아니|틀렸|틀려|틀린|그런데|근데|하지만|바꿔|いいえ|違い|違う|でも|ただ|しかし|直して/iu

/** A reply that agrees and says nothing against the read-back ("Yes, that's right"). */
export const readsAsConfirmation = (text: string): boolean => AGREES.test(text) && !DISAGREES.test(text)

// The read-back -------------------------------------------------------------------------------------

type Lang = "en" | "ko" | "ja"
const lang = (locale: string): Lang => (locale === "ko" || locale === "ja" ? locale : "en")

const TEMPLATES = {
  en: {
    first: "Before we finish, here is what I understood:",
    again: "Thank you. Here is what I have now:",
    ask: "Is that right? If anything is off, tell me what to change.",
    askAgain: "Is that right now?",
    askOnly: "Does this reflect what you said?",
    quote: (s: string) => `“${s}”`
  },
  ko: {
    first: "마치기 전에 제가 이해한 내용을 정리해 드릴게요:",
    again: "감사합니다. 지금 정리된 내용은 다음과 같아요:",
    ask: "맞나요? 다른 부분이 있으면 무엇을 고치면 될지 알려 주세요.",
    askAgain: "이제 맞나요?",
    askOnly: "말씀하신 내용과 맞나요?",
    quote: (s: string) => `“${s}”`
  },
  ja: {
    first: "終える前に、私が理解した内容をまとめます：",
    again: "ありがとうございます。現在の内容は次のとおりです：",
    ask: "これで合っていますか？違うところがあれば、どこを直せばよいか教えてください。",
    askAgain: "これで合っていますか？",
    askOnly: "おっしゃった内容と合っていますか？",
    quote: (s: string) => `「${s}」`
  }
} as const

/** Cuts at a word boundary when one is near. */
const cut = (text: string, max: number) => {
  const flat = text.replace(/\s+/gu, " ").trim()
  if (flat.length <= max) return flat
  const head = flat.slice(0, max - 1)
  const space = head.lastIndexOf(" ")
  return space > max / 2 ? `${head.slice(0, space)}…` : clipText(flat, max)
}

/** The goal target of the assistant turn message `i` answers, if it asked about a goal. */
const askedBefore = (session: InterviewSession, i: number) => {
  const target = session.messages.slice(0, i).findLast((p) => p.role === "assistant")?.target
  return target?.type === "goal" ? target : undefined
}

/**
 * One line per answered field (label: value in the locale, as the built-in key information shows
 * them) and per goal the respondent spoke to (its label and the start of what they said). Highly
 * sensitive values and non-answers are not read back: a refusal is respected, not restated.
 */
const readBackLines = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
): ReadonlyArray<string> => {
  const t = TEMPLATES[lang(locale)]
  const shown = fields.filter(
    (f) => def.fields.find((x) => x.id === f.fieldId && x.sensitivity !== "high") !== undefined
  )
  const ordered = def.fields.flatMap((f) => shown.filter((s) => s.fieldId === f.id))
  const fieldLines = deterministicKeyInfo(def, locale, { ...session, fields: ordered }).map(
    (k) => `- ${k.label}: ${cut(k.value, MAX_VALUE_CHARACTERS)}`
  )
  const goalLines = def.goals.flatMap((goal) => {
    const said = session.messages
      .filter((m, i) => m.role === "user" && askedBefore(session, i)?.id === goal.id)
      .map((m) => m.text)
      .join(" ")
    if (said.trim() === "") return []
    const label = localizedText(def, goal.labelByLocale, locale) ?? goal.id
    return [`- ${label}: ${t.quote(cut(said, MAX_GOAL_QUOTE_CHARACTERS))}`]
  })
  return [...fieldLines, ...goalLines]
}

/** Whether anything was understood that a read-back could show. */
export const memberCheckHasContent = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
): boolean => readBackLines(def, locale, session, fields).length > 0

/** The read-back's text, within MAX_READ_BACK_CHARACTERS (lines past it are left out). */
export const readBackText = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>
): string => {
  const t = TEMPLATES[lang(locale)]
  const again = readBackCount(session) > 0
  const intro = again ? t.again : t.first
  const ask = !memberCheckAllowsCorrection(def) ? t.askOnly : again ? t.askAgain : t.ask
  let room = MAX_READ_BACK_CHARACTERS - intro.length - ask.length - 4
  const lines: Array<string> = []
  for (const line of readBackLines(def, locale, session, fields)) {
    if (line.length + 1 > room) {
      lines.push("- …")
      break
    }
    lines.push(line)
    room -= line.length + 1
  }
  return clipText([intro, ...lines, ask].join("\n"), MAX_READ_BACK_CHARACTERS)
}

// The phase ---------------------------------------------------------------------------------------

type MemberCheckTurn = Extract<InterviewAssistantTurn, { kind: "member_check" }>

/**
 * The first read-back, when the rules are about to close with `reason`: only when memberCheck is
 * enabled, none was given yet and something was understood. Undefined: close as planned.
 */
export const memberCheckBeforeClosing = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>,
  reason: InterviewCompletionReason
): { readonly turn: MemberCheckTurn; readonly state: InterviewMemberCheckState } | undefined => {
  if (!memberCheckEnabled(def) || readBackCount(session) > 0) return undefined
  if (!memberCheckHasContent(def, locale, session, fields)) return undefined
  return {
    turn: { kind: "member_check", text: readBackText(def, locale, session, fields) },
    state: { completionReason: reason, correctedFieldIds: [] }
  }
}

const sameState = (a: InterviewFieldState | undefined, b: InterviewFieldState | undefined) =>
  a?.status === b?.status && JSON.stringify(a?.value) === JSON.stringify(b?.value)

/** Fields whose status or value the reply's accepted corrections changed. */
const changedFieldIds = (
  def: InterviewDefinition,
  before: ReadonlyArray<InterviewFieldState>,
  after: ReadonlyArray<InterviewFieldState>
) =>
  def.fields
    .map((f) => f.id)
    .filter(
      (id) =>
        !sameState(
          before.find((s) => s.fieldId === id),
          after.find((s) => s.fieldId === id)
        )
    )

export interface MemberCheckAfterReply {
  readonly turn: Extract<InterviewAssistantTurn, { kind: "member_check" | "closing" }>
  readonly completion: InterviewCompletion
  readonly state: InterviewMemberCheckState
  readonly outcome: InterviewMemberCheckOutcome
}

/**
 * What follows the respondent's reply to a read-back, given the field states once its corrections
 * passed the rules: a correction (or a reply that neither agrees nor corrects, when corrections are
 * allowed) gets the read-back again, once; otherwise, or after the second, the interview closes
 * with the reason it was closing for. Without allowCorrection a reply that does not agree is
 * recorded as disputed.
 */
export const memberCheckAfterReply = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  fields: ReadonlyArray<InterviewFieldState>,
  closingProposal?: string
): MemberCheckAfterReply => {
  const reply = session.messages.at(-1)?.text ?? ""
  const prior = session.memberCheck ?? { completionReason: "nothing_left_to_ask", correctedFieldIds: [] }
  const changed = memberCheckAllowsCorrection(def) ? changedFieldIds(def, session.fields, fields) : []
  const corrected = [...new Set([...prior.correctedFieldIds, ...changed])]
  const agrees = readsAsConfirmation(reply)
  const outcome: InterviewMemberCheckOutcome =
    changed.length > 0
      ? "corrected"
      : agrees
        ? corrected.length > 0
          ? "corrected"
          : "confirmed"
        : "disputed"
  const again =
    memberCheckAllowsCorrection(def) &&
    readBackCount(session) < MAX_READ_BACKS &&
    (changed.length > 0 || !agrees)
  const state = { completionReason: prior.completionReason, outcome, correctedFieldIds: corrected }
  if (again)
    return {
      turn: { kind: "member_check", text: readBackText(def, locale, { ...session, fields }, fields) },
      completion: { done: false },
      state,
      outcome
    }
  const text = closingProposal?.trim() ? closingProposal : closingText(def, locale)
  return {
    turn: { kind: "closing", text },
    completion: { done: true, reason: prior.completionReason },
    state,
    outcome
  }
}

/** The member check as `quality` shows it: ids only, never values. Undefined: no read-back given. */
export const memberCheckQuality = (
  session: InterviewSession
):
  | {
      readonly outcome: InterviewMemberCheckOutcome | "unanswered"
      readonly readBacks: number
      readonly correctedFieldIds: ReadonlyArray<string>
    }
  | undefined => {
  const readBacks = readBackCount(session)
  if (readBacks === 0) return undefined
  return {
    outcome: session.memberCheck?.outcome ?? "unanswered",
    readBacks,
    correctedFieldIds: session.memberCheck?.correctedFieldIds ?? []
  }
}

/**
 * What a model is told about the member check (none when it is off): how the phase works and
 * where the interview stands in it. The rules still decide; this only keeps proposals lawful.
 */
export const memberCheckPromptLine = (
  def: InterviewDefinition,
  session: InterviewSession
): ReadonlyArray<string> => {
  if (!memberCheckEnabled(def)) return []
  const rule = memberCheckAllowsCorrection(def)
    ? "if the respondent's reply to it corrects something, extract only the corrections they state (answered values they said, evidence in that reply, never inferred) and propose member_check to read back once more (at most 2 read-backs), else propose closing."
    : "corrections are not allowed: extract nothing from the reply and propose closing."
  const phase = isMemberCheckReply(session)
    ? `the respondent is replying to read-back ${readBackCount(session)} of ${MAX_READ_BACKS}.`
    : readBackCount(session) > 0
      ? "the read-back was given."
      : "not started."
  return [
    `- member check: instead of closing, propose a turn of kind member_check (no target; the service writes its text from what was understood); ${rule}`,
    `Member check phase: ${phase}`
  ]
}
