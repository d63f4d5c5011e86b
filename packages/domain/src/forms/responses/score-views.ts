// The scores a completion stored (`meta.scores`, scoring.ts) as the reads show them: every scale and
// quiz score with its cutoff label for the owner, and the quiz results with feedback for the respondent.
import { Schema } from "effect"

const Score = Schema.NullOr(Schema.Finite)

export const ResponseScore = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["scale", "quiz"]),
  /** Null for a scale without a score (`missing: require_all` with an item unanswered, or nothing answered). */
  score: Score,
  /** Quizzes: the points of every item. */
  maxScore: Schema.optionalKey(Schema.Finite),
  /** The label of the highest cutoff the score reaches, or null (no cutoffs, none reached, no score). */
  cutoffLabel: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ResponseScore" })
export type ResponseScore = typeof ResponseScore.Type

export const QuizResult = Schema.Struct({
  id: Schema.String,
  score: Schema.Finite,
  maxScore: Schema.Finite,
  cutoffLabel: Schema.NullOr(Schema.String),
  /** The author's feedbackCorrect or feedbackIncorrect of each item that has one, in item order. */
  feedback: Schema.Array(
    Schema.Struct({ blockId: Schema.String, correct: Schema.Boolean, text: Schema.String })
  )
}).annotate({ identifier: "QuizResult" })
export type QuizResult = typeof QuizResult.Type

/** What scoring.ts stores per score; read defensively, since meta is JSON from storage. */
const StoredScore = Schema.Struct({
  kind: Schema.Literals(["scale", "quiz"]),
  id: Schema.String,
  score: Score,
  maxScore: Schema.optionalKey(Schema.Finite),
  correct: Schema.optionalKey(Schema.Array(Schema.String)),
  feedback: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  label: Schema.NullOr(Schema.String)
})
const isStoredScore = Schema.is(StoredScore)

const storedScoresOf = (meta: Readonly<Record<string, unknown>>): ReadonlyArray<typeof StoredScore.Type> => {
  const stored: unknown = meta.scores
  return Array.isArray(stored) ? (stored as ReadonlyArray<unknown>).filter(isStoredScore) : []
}

/** Every stored score of a response with its cutoff label, in definition order (scales, then quizzes). */
export const responseScoresOf = (meta: Readonly<Record<string, unknown>>): ReadonlyArray<ResponseScore> =>
  storedScoresOf(meta).map((s) => ({
    id: s.id,
    kind: s.kind,
    score: s.score,
    ...(s.kind === "quiz" && s.maxScore !== undefined ? { maxScore: s.maxScore } : {}),
    cutoffLabel: s.label
  }))

/** The quiz results the respondent sees once the response is completed. */
export const quizResultsOf = (meta: Readonly<Record<string, unknown>>): ReadonlyArray<QuizResult> =>
  storedScoresOf(meta).flatMap((s) =>
    s.kind === "quiz" && s.score !== null
      ? [
          {
            id: s.id,
            score: s.score,
            maxScore: s.maxScore ?? s.score,
            cutoffLabel: s.label,
            feedback: Object.entries(s.feedback ?? {}).map(([blockId, text]) => ({
              blockId,
              correct: (s.correct ?? []).includes(blockId),
              text
            }))
          }
        ]
      : []
  )
