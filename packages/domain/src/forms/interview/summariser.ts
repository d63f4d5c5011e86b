// The InterviewSummariser port: folds the messages that left a model's window into the session's
// rolling summary (policy.context). The built-in one is the default; a model-backed one (a separate
// call) may replace it, and whatever it fails is folded by the built-in one instead.
import { Context, Data, Effect, Schema } from "effect"
import { clipText } from "../../kernel/text.js"
import {
  builtInSummaryFold,
  INTERVIEW_SUMMARY_MAX_CHARACTERS,
  type InterviewSummaryFold,
  summaryFoldDue,
  validSummary
} from "./context.js"
import type { InterviewDefinition } from "./definition.js"
import type { InterviewSession } from "./interviewer.js"

/** What a model summariser answers; adapters decode their raw output against this. */
export const InterviewSummariserOutput = Schema.Struct({ summary: Schema.String }).annotate({
  identifier: "InterviewSummariserOutput"
})
export type InterviewSummariserOutput = typeof InterviewSummariserOutput.Type

/** The summariser could not fold (model down, malformed output); the built-in fold is kept. */
export class InterviewSummariserFailed extends Data.TaggedError("InterviewSummariserFailed")<{
  readonly reason: string
}> {}

export interface InterviewSummariserService {
  /** The previous summary with messages `[from, to)` folded in (cut to the cap by the caller). */
  readonly fold: (input: InterviewSummaryFold) => Effect.Effect<string, InterviewSummariserFailed>
}

/** The built-in summariser: no model, compact "asked → answered" lines. */
export const builtInInterviewSummariser: InterviewSummariserService = {
  fold: (input) => Effect.succeed(builtInSummaryFold(input))
}

/** The summariser a deployment configures; the built-in one by default. */
export const InterviewSummariser = Context.Reference<InterviewSummariserService>(
  "@folio/domain/InterviewSummariser",
  { defaultValue: () => builtInInterviewSummariser }
)

/**
 * The session with its summary brought up to the window's cutoff when a fold is due (else as it
 * is). Runs before the interviewer, between the read and the compare-and-set write, so the summary
 * is stored with the turn it served or not at all.
 */
export const withContextSummary = (def: InterviewDefinition, locale: string, session: InterviewSession) =>
  Effect.gen(function* () {
    const through = summaryFoldDue(def, session)
    const last = through === undefined ? undefined : session.messages[through - 1]
    if (through === undefined || last === undefined) return session
    const previous = validSummary(session)
    const input: InterviewSummaryFold = {
      definition: def,
      locale,
      session,
      previous: previous?.text,
      from: previous?.coveredCount ?? 0,
      to: through
    }
    const summariser = yield* InterviewSummariser
    const folded = yield* summariser
      .fold(input)
      .pipe(
        Effect.catchTag("InterviewSummariserFailed", (e) =>
          Effect.as(
            Effect.logWarning("interview summariser failed; the built-in summary is kept", e.reason),
            builtInSummaryFold(input)
          )
        )
      )
    const text = folded.trim() === "" ? builtInSummaryFold(input) : folded.trim()
    return {
      ...session,
      summary: {
        text: clipText(text, INTERVIEW_SUMMARY_MAX_CHARACTERS),
        coveredCount: through,
        throughMessageId: last.id
      }
    } satisfies InterviewSession
  })
