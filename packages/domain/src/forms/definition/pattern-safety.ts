// The write-time check of an author's answer pattern: valid syntax, and no nested repetition that
// could backtrack catastrophically on a respondent's text (safe-regex2's star-height analysis).
import safeRegex from "safe-regex2"
import { compileAnswerPattern } from "./answer-pattern.js"

/** At most this many repetitions in one pattern (safe-regex2's own default). */
const REPETITION_LIMIT = 25

/** The rule a pattern breaks (`patternSyntax`, `unsafePattern`), or undefined when it is usable. */
export const patternIssue = (source: string): "patternSyntax" | "unsafePattern" | undefined => {
  const compiled = compileAnswerPattern(source)
  if (compiled === undefined) return "patternSyntax"
  return safeRegex(compiled.source, { limit: REPETITION_LIMIT }) ? undefined : "unsafePattern"
}
