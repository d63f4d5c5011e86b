// Wire shapes of the response read models (summaries, reports, analytics, insights), shared by the
// REST and MCP adapters.
import { Schema } from "effect"

const Cohort = Schema.Struct({ from: Schema.Date, to: Schema.Date })

export const ScoreSummarySchema = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["scale", "quiz"]),
  label: Schema.String,
  count: Schema.Int,
  average: Schema.NullOr(Schema.Finite),
  min: Schema.NullOr(Schema.Finite),
  max: Schema.NullOr(Schema.Finite),
  cutoffs: Schema.Array(
    Schema.Struct({ min: Schema.Finite, label: Schema.String, count: Schema.Int })
  ).annotate({
    description: "The current version's cutoffs, lowest first, with the responses whose score got each label"
  })
}).annotate({ identifier: "ScoreSummary" })

export const QualitySummarySchema = Schema.Struct({
  checked: Schema.Int,
  flagged: Schema.Int,
  traps: Schema.Array(Schema.Struct({ blockId: Schema.String, label: Schema.String, missed: Schema.Int }))
}).annotate({
  identifier: "QualitySummary",
  description:
    "Quality traps over completed responses: `checked` completed under a version with a trap, `flagged` missed at least one, `missed` per trap block of the current version"
})

export const QuestionSummaries = Schema.Array(Schema.Unknown).annotate({
  description: "QuestionSummary per block: kind choice | numeric | text | ranking | matrix"
})

export const InterviewAnalytics = Schema.Struct({
  funnel: Schema.Struct({ started: Schema.Int, engaged: Schema.Int, completed: Schema.Int }),
  coverage: Schema.Struct({
    completed: Schema.Int,
    pending: Schema.Int,
    analyzed: Schema.Int,
    partial: Schema.Int,
    failed: Schema.Int,
    analyzedShare: Schema.NullOr(Schema.Finite)
  }),
  codes: Schema.Array(
    Schema.Struct({
      code: Schema.String,
      label: Schema.NullOr(Schema.String),
      codeType: Schema.NullOr(Schema.String),
      emergent: Schema.Boolean,
      responses: Schema.Int,
      mentions: Schema.Int,
      share: Schema.Finite
    })
  ),
  averageExchangeCount: Schema.NullOr(Schema.Finite),
  emergent: Schema.Array(
    Schema.Struct({
      captureType: Schema.String,
      responses: Schema.Int,
      mentions: Schema.Int,
      share: Schema.Finite
    })
  ).annotate({
    description:
      "Emergent items of completed interviews per capture type (every type the current definition captures, zeros included): responses holding one, items, share of completed responses"
  }),
  validation: Schema.Array(
    Schema.Struct({
      fieldId: Schema.String,
      label: Schema.NullOr(Schema.String),
      assigned: Schema.Int,
      answered: Schema.Int,
      agreed: Schema.Int,
      agreementRate: Schema.NullOr(Schema.Finite)
    })
  ).annotate({
    description:
      "Per validation item (the current definition's validation.fieldIds, then any other item stored in a response): the responses it was assigned to, the re-test replies with a comparable value (answered), those agreeing with the extracted value, and agreed / answered (null before any)"
  })
}).annotate({ identifier: "InterviewAnalytics" })

export const ClassicReport = Schema.Struct({
  kind: Schema.Literal("classic"),
  questions: QuestionSummaries,
  scores: Schema.Array(ScoreSummarySchema),
  analytics: Schema.Struct({
    cohort: Cohort,
    started: Schema.Int,
    completed: Schema.Int,
    completionRate: Schema.NullOr(Schema.Finite),
    averageCompletionSeconds: Schema.NullOr(Schema.Finite),
    medianCompletionSeconds: Schema.NullOr(Schema.Finite),
    daily: Schema.Array(Schema.Struct({ day: Schema.String, started: Schema.Int, completed: Schema.Int }))
  })
}).annotate({ identifier: "ClassicReport" })

export const InterviewReport = Schema.Struct({
  kind: Schema.Literal("interview"),
  ...InterviewAnalytics.fields
}).annotate({ identifier: "InterviewReport" })

/** What an extraction found: the built-in extractor's answer, or a `form_insights` job's result. */
export const InsightsResult = Schema.Struct({
  scannedResponses: Schema.Int,
  autoThreshold: Schema.Finite,
  candidates: Schema.Array(
    Schema.Struct({
      blockId: Schema.String,
      blockLabel: Schema.String,
      field: Schema.String,
      suggestedType: Schema.String,
      frequency: Schema.Int,
      share: Schema.Finite,
      confidence: Schema.Finite,
      score: Schema.Finite,
      auto: Schema.Boolean
    })
  )
})

export const Insights = Schema.Struct({
  ...InsightsResult.fields,
  /** Who found the candidates: the built-in extractor, or the configured model (a job's result). */
  source: Schema.Literals(["builtin", "model"]),
  /**
   * The model's extraction for these answers, null without a model (or with nothing to read):
   * `current` (its result is the one shown), `queued` or `running` (the built-in result is shown
   * meanwhile), `failed` (for these answers; it runs again once they change).
   */
  model: Schema.NullOr(
    Schema.Struct({
      status: Schema.Literals(["current", "queued", "running", "failed"]),
      jobId: Schema.String
    })
  )
}).annotate({ identifier: "Insights" })

export const ResponseSummary = Schema.Struct({
  questions: QuestionSummaries,
  scores: Schema.Array(ScoreSummarySchema),
  quality: QualitySummarySchema
}).annotate({ identifier: "ResponseSummary" })
