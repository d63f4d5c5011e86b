// What a model interviewer is shown of the transcript (policy.context): the whole of it up to
// `summaryAfterMessages` messages, then only the last `recentMessageCount` and a rolling summary of
// the rest, so a long interview's prompt stops growing. Pure: the window, when a fold is due, and
// the built-in summary (compact "asked → answered" lines, capped).
import { clipText } from "../../kernel/text.js"
import type { InterviewDefinition } from "./definition.js"
import type { InterviewContextSummary, InterviewMessage, InterviewSession } from "./interviewer.js"
import { fieldLabel, localizedText, valueText } from "./questions.js"

/** The stored summary's hard cap (characters); a summariser's text is cut to it. */
export const INTERVIEW_SUMMARY_MAX_CHARACTERS = 2000

/**
 * How many messages may have left the window before they are folded into the stored summary. Until
 * then they are shown as built-in lines, so a model summariser is called about once every three
 * exchanges rather than on every turn (bench/interview-context.ts measures the trade-off).
 */
export const INTERVIEW_SUMMARY_FOLD_MESSAGES = 6

// One built-in line: what was asked (its topic, or the question itself) and the answer, cut short.
const QUESTION_MAX = 100
const ANSWER_MAX = 160
const VALUE_MAX = 80
const OMITTED = "(earlier exchanges omitted)"

/** The index of the first message shown verbatim (0: the whole transcript is shown). */
export const contextCutoff = (def: InterviewDefinition, session: InterviewSession): number => {
  const { recentMessageCount, summaryAfterMessages } = def.policy.context
  const n = session.messages.length
  return n <= summaryAfterMessages ? 0 : Math.max(0, n - recentMessageCount)
}

/**
 * The session's summary when it still describes this transcript's first messages (the transcript
 * only grows, so a summary naming another message is from elsewhere and is rebuilt).
 */
export const validSummary = (session: InterviewSession): InterviewContextSummary | undefined => {
  const summary = session.summary
  return summary !== undefined &&
    summary.coveredCount > 0 &&
    session.messages[summary.coveredCount - 1]?.id === summary.throughMessageId
    ? summary
    : undefined
}

/** Where the summary should reach now (the cutoff), when enough messages wait to be folded in. */
export const summaryFoldDue = (
  def: InterviewDefinition,
  session: InterviewSession,
  foldMessages: number = INTERVIEW_SUMMARY_FOLD_MESSAGES
): number | undefined => {
  const cutoff = contextCutoff(def, session)
  const covered = validSummary(session)?.coveredCount ?? 0
  return cutoff > covered && cutoff - covered >= foldMessages ? cutoff : undefined
}

const oneLine = (text: string, max: number) => clipText(text.replace(/\s+/gu, " ").trim(), max)

/** What an assistant turn asked about, in the respondent's locale ("your plan", "Pain, probe why"). */
const topicOf = (def: InterviewDefinition, locale: string, asked: InterviewMessage | undefined) => {
  const target = asked?.target
  if (asked === undefined || target === undefined) return undefined
  const field = target.type === "field" ? def.fields.find((f) => f.id === target.id) : undefined
  const goal = target.type === "goal" ? def.goals.find((g) => g.id === target.id) : undefined
  const topic =
    field !== undefined
      ? fieldLabel(def, field, locale)
      : (localizedText(def, goal?.labelByLocale, locale) ?? target.id)
  const how =
    asked.kind === "probe"
      ? `probe ${asked.probeKind ?? ""}`.trim()
      : asked.kind === "question"
        ? ""
        : asked.kind
  return how === undefined || how === "" ? topic : `${topic}, ${how}`
}

/**
 * The value the rules recorded from `answer`, when it is the evidence of a known field state: an
 * option, a number, a non-answer. A text field's value is the answer itself, already on the line.
 */
const recordedFrom = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  answer: InterviewMessage
) => {
  const state = session.fields.find((f) => f.evidence?.messageId === answer.id)
  const field = def.fields.find((f) => f.id === state?.fieldId)
  if (state === undefined || field === undefined) return undefined
  if (field.valueType === "short_text" || field.valueType === "long_text") return undefined
  return state.status === "answered" || state.status === "tentative"
    ? oneLine(valueText(def, field, state.value, locale), VALUE_MAX)
    : state.status
}

/**
 * One line per respondent message in `[from, to)`: what was asked (the topic of a targeted turn, else
 * the question) and what was answered, and what the rules recorded from it (the built-in summary,
 * and the messages not yet folded in).
 */
export const summaryLines = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession,
  from: number,
  to: number
): Array<string> => {
  const lines: Array<string> = []
  let asked: InterviewMessage | undefined
  session.messages.slice(0, to).forEach((m, i) => {
    if (m.role === "assistant") {
      asked = m
      return
    }
    if (i < from) return
    const topic = topicOf(def, locale, asked)
    const recorded = recordedFrom(def, locale, session, m)
    const prompt =
      topic !== undefined
        ? `[${topic}] `
        : asked === undefined
          ? ""
          : `asked "${oneLine(asked.text, QUESTION_MAX)}" → `
    const kept = recorded === undefined ? "" : ` (recorded: ${recorded})`
    lines.push(`- ${prompt}"${oneLine(m.text, ANSWER_MAX)}"${kept}`)
  })
  return lines
}

/** Lines within `max` characters: the oldest go first, and a marker says that some went. */
export const capSummaryLines = (lines: ReadonlyArray<string>, max: number): string => {
  let kept = lines.filter((l) => l.trim() !== "" && l !== OMITTED)
  let dropped = kept.length !== lines.filter((l) => l.trim() !== "").length
  const size = () => kept.join("\n").length + (dropped ? OMITTED.length + 1 : 0)
  while (kept.length > 1 && size() > max) {
    kept = kept.slice(1)
    dropped = true
  }
  return clipText((dropped ? [OMITTED, ...kept] : kept).join("\n"), max)
}

export interface InterviewSummaryFold {
  readonly definition: InterviewDefinition
  readonly locale: string
  readonly session: InterviewSession
  /** The summary so far (of messages `[0, from)`), if any. */
  readonly previous: string | undefined
  /** The messages `[from, to)` of the session are folded in. */
  readonly from: number
  readonly to: number
}

/** The built-in fold: the previous summary's lines and one line per new answer, capped. */
export const builtInSummaryFold = (fold: InterviewSummaryFold): string =>
  capSummaryLines(
    [
      ...(fold.previous?.split("\n") ?? []),
      ...summaryLines(fold.definition, fold.locale, fold.session, fold.from, fold.to)
    ],
    INTERVIEW_SUMMARY_MAX_CHARACTERS
  )

export interface InterviewContext {
  /** What came before `messages`, summarised; undefined when the whole transcript is shown. */
  readonly summary: string | undefined
  /** The messages shown verbatim, oldest first. */
  readonly messages: ReadonlyArray<InterviewMessage>
  /** How many messages before them are not shown verbatim. */
  readonly omitted: number
}

/**
 * What a model is shown of the session: the recent messages and the stored summary followed by
 * built-in lines for the messages that left the window since the last fold. The summary is at most
 * 2 × INTERVIEW_SUMMARY_MAX_CHARACTERS + 1 characters, whatever the transcript's length.
 */
export const interviewContext = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession
): InterviewContext => {
  const cutoff = contextCutoff(def, session)
  if (cutoff === 0) return { summary: undefined, messages: session.messages, omitted: 0 }
  const stored = validSummary(session)
  const covered = Math.min(stored?.coveredCount ?? 0, cutoff)
  const pending = summaryLines(def, locale, session, covered, cutoff)
  const parts = [
    ...(stored === undefined ? [] : [clipText(stored.text, INTERVIEW_SUMMARY_MAX_CHARACTERS)]),
    ...(pending.length === 0 ? [] : [capSummaryLines(pending, INTERVIEW_SUMMARY_MAX_CHARACTERS)])
  ]
  return { summary: parts.join("\n"), messages: session.messages.slice(cutoff), omitted: cutoff }
}
