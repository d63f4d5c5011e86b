// The quiz results on the completion screen: each quiz's score, the cutoff label it reached and the
// author's feedback per question. One model for the server's page (no JavaScript) and the script.
import type { FormDefinition, QuizResult } from "@folio/domain/browser"
import { fill, type Strings } from "./strings.js"

export interface QuizResultLines {
  readonly heading: string
  readonly cutoffLabel: string | null
  readonly feedback: ReadonlyArray<{
    readonly question: string
    readonly correct: boolean
    readonly verdict: string
    readonly text: string
  }>
}

/** What the completion screen says of each quiz, in the respondent's language. */
export const quizResultLines = (
  definition: FormDefinition,
  results: ReadonlyArray<QuizResult>,
  strings: Strings
): ReadonlyArray<QuizResultLines> =>
  results.map((r) => ({
    heading: fill(strings.quizScore, {
      quiz: definition.quizzes?.find((q) => q.id === r.id)?.label ?? r.id,
      score: r.score,
      max: r.maxScore
    }),
    cutoffLabel: r.cutoffLabel,
    feedback: r.feedback.map((f) => ({
      question: definition.blocks.find((b) => b.id === f.blockId)?.label ?? "",
      correct: f.correct,
      verdict: f.correct ? strings.quizCorrect : strings.quizIncorrect,
      text: f.text
    }))
  }))
