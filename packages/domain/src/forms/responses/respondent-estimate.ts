// What the server guesses of who is answering: a leaf module, so the errors that carry it
// (RepeatSubmission) need none of the use cases that raise them.

/** RespondentEstimate: a form-scoped browser continuity estimate, not a verified identity. */
export interface RespondentEstimate {
  readonly id: string
  readonly confidence: "deterministic" | "probable" | "weak"
  readonly responseCount: number
  readonly repeatCount: number
}
