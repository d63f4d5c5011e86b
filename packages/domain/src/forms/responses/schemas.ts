// Wire shapes of the response read models (summaries, reports, analytics, insights), shared by the
// REST and MCP adapters.
import { Schema } from "effect"

const Cohort = Schema.Struct({ from: Schema.Date, to: Schema.Date })

export const ScoreSummarySchema = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("scale", "quiz"),
  label: Schema.String,
  count: Schema.Int,
  average: Schema.NullOr(Schema.Number),
  min: Schema.NullOr(Schema.Number),
  max: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "ScoreSummary" })

export const QuestionSummaries = Schema.Array(Schema.Unknown).annotations({
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
    analyzedShare: Schema.NullOr(Schema.Number)
  }),
  codes: Schema.Array(
    Schema.Struct({
      code: Schema.String,
      label: Schema.NullOr(Schema.String),
      codeType: Schema.NullOr(Schema.String),
      emergent: Schema.Boolean,
      responses: Schema.Int,
      mentions: Schema.Int,
      share: Schema.Number
    })
  ),
  averageExchangeCount: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "InterviewAnalytics" })

export const ClassicReport = Schema.Struct({
  kind: Schema.Literal("classic"),
  questions: QuestionSummaries,
  scores: Schema.Array(ScoreSummarySchema),
  analytics: Schema.Struct({
    cohort: Cohort,
    started: Schema.Int,
    completed: Schema.Int,
    completionRate: Schema.NullOr(Schema.Number),
    averageCompletionSeconds: Schema.NullOr(Schema.Number),
    medianCompletionSeconds: Schema.NullOr(Schema.Number),
    daily: Schema.Array(Schema.Struct({ day: Schema.String, started: Schema.Int, completed: Schema.Int }))
  })
}).annotations({ identifier: "ClassicReport" })

export const InterviewReport = Schema.extend(
  Schema.Struct({ kind: Schema.Literal("interview") }),
  InterviewAnalytics
).annotations({ identifier: "InterviewReport" })

export const Insights = Schema.Struct({
  scannedResponses: Schema.Int,
  autoThreshold: Schema.Number,
  candidates: Schema.Array(
    Schema.Struct({
      blockId: Schema.String,
      blockLabel: Schema.String,
      field: Schema.String,
      suggestedType: Schema.String,
      frequency: Schema.Int,
      share: Schema.Number,
      confidence: Schema.Number,
      score: Schema.Number,
      auto: Schema.Boolean
    })
  )
}).annotations({ identifier: "Insights" })

export const ResponseSummary = Schema.Struct({
  questions: QuestionSummaries,
  scores: Schema.Array(ScoreSummarySchema)
}).annotations({ identifier: "ResponseSummary" })
