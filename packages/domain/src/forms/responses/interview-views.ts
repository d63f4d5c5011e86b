// What the public interview routes answer: the title, the chat messages, the progress, and one turn's
// result, all read from a response row.
import { Option } from "effect"
import type { InterviewDefinition } from "../interview/definition.js"
import { type InterviewProfileItem, interviewProfileOf, liveProfileEnabled } from "../interview/experience.js"
import type { InterviewMessage, InterviewSession } from "../interview/interviewer.js"
import type { ResponseRecord } from "../ports/responses.js"
import { type LiveInterview, liveInterviewOf, type PublishedInterview } from "./interview-record.js"

/** The title a respondent sees: the interview's own, else the form's. */
export const interviewTitle = (published: Pick<PublishedInterview, "form" | "definition">): string =>
  published.definition.title.trim() === "" ? published.form.title : published.definition.title

/** Share of the interview's fields and goals settled so far (0..1), for the page's progress bar. */
export const interviewProgress = (def: InterviewDefinition, session: InterviewSession): number => {
  const total = def.fields.length + def.goals.length
  if (total === 0) return 1
  const fields = session.fields.filter((f) => f.status !== "tentative").length
  const goals = def.goals.filter(
    (g) => (session.goals.find((s) => s.goalId === g.id)?.coverage ?? 0) >= g.requiredCoverage
  ).length
  return Math.round(((fields + goals) / total) * 100) / 100
}

export interface InterviewChatMessage {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}

export interface InterviewTurnResult {
  readonly response: ResponseRecord
  /** New messages (a send: the respondent's and the reply) or the whole transcript (start, resume). */
  readonly messages: ReadonlyArray<InterviewChatMessage>
  readonly done: boolean
  readonly completionReason: string | null
  readonly progress: number
  readonly locale: string
  /** What has been understood so far (experience.liveProfile); absent when the definition turns it off. */
  readonly profile?: ReadonlyArray<InterviewProfileItem>
}

const chatMessage = (m: InterviewMessage): InterviewChatMessage => ({ id: m.id, role: m.role, text: m.text })

/** The whole conversation a response holds, as the respondent saw it (empty for a row not ours). */
export const interviewChatOf = (response: ResponseRecord): ReadonlyArray<InterviewChatMessage> =>
  Option.match(liveInterviewOf(response), {
    onNone: () => [],
    onSome: (live) => live.session.messages.map(chatMessage)
  })

/** What a route answers for a turn: `messages` as the respondent sees them, and the progress. */
export const resultOf = (
  def: InterviewDefinition,
  response: ResponseRecord,
  live: LiveInterview,
  messages: ReadonlyArray<InterviewMessage>,
  completionReason: string | null
): InterviewTurnResult => ({
  response,
  messages: messages.map(chatMessage),
  done: response.status === "completed",
  completionReason,
  progress: response.status === "completed" ? 1 : interviewProgress(def, live.session),
  locale: live.locale,
  ...(liveProfileEnabled(def) ? { profile: interviewProfileOf(def, live.locale, live.session) } : {})
})
