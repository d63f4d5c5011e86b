// How an author's short_text/long_text `pattern` reads: the whole answer must match (as HTML's
// `pattern` attribute does), with the `u` flag. Shared by the server and the page; no import.

/**
 * The pattern as a regular expression over the whole answer, or undefined when its syntax is not a
 * valid `u`-flag regular expression (the write-time check refuses such a pattern).
 */
export const compileAnswerPattern = (source: string): RegExp | undefined => {
  try {
    return new RegExp(`^(?:${source})$`, "u")
  } catch {
    return undefined
  }
}
