// The completion screen's quiz results, built in the page from the completion's answer: the same
// markup the server writes for a post without JavaScript (page.ts quizResultsHtml), text only.
import type { FormDefinition, QuizResult } from "@folio/domain/browser"
import { quizResultLines } from "../quiz-results.js"
import type { Strings } from "../strings.js"

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => {
  const node = document.createElement(tag)
  if (className !== "") node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

/** The results section, or null when there is no quiz to show. */
export const quizResultsView = (
  definition: FormDefinition,
  quizzes: ReadonlyArray<QuizResult>,
  strings: Strings
): HTMLElement | null => {
  if (quizzes.length === 0) return null
  const section = element("section", "quiz-results")
  section.setAttribute("aria-labelledby", "quiz-results-title")
  const title = element("h3", "", strings.quizResults)
  title.id = "quiz-results-title"
  section.append(title)
  for (const q of quizResultLines(definition, quizzes, strings)) {
    const quiz = element("div", "quiz")
    quiz.append(element("p", "quiz-score", q.heading))
    if (q.cutoffLabel !== null) quiz.append(element("p", "quiz-cutoff", q.cutoffLabel))
    if (q.feedback.length > 0) {
      const list = element("ul", "quiz-feedback")
      for (const f of q.feedback) {
        const item = element("li", f.correct ? "correct" : "incorrect")
        item.append(
          element("span", "quiz-question", f.question),
          " ",
          element("span", "quiz-verdict", f.verdict),
          " ",
          element("span", "quiz-text", f.text)
        )
        list.append(item)
      }
      quiz.append(list)
    }
    section.append(quiz)
  }
  return section
}
