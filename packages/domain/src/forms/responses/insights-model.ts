// Insights from a configured model: the `form_insights` job sends a classic form's free-text answers
// to the InsightModel, keeps only findings whose evidence the answers really contain, and stores the
// ranked result; GET insights answers it while it is current, else the built-in result and the job's state.
import { Clock, Effect, Option, Schema } from "effect"
import { type JobRecord, jobDedupeKey, type NewJob } from "../../kernel/jobs/job.js"
import {
  JobFailed,
  type JobOutcome,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { FormRepository } from "../ports/forms.js"
import type { ResponseRepository } from "../ports/responses.js"
import {
  type ExtractedInsight,
  InsightModel,
  type InsightModelService,
  type InsightPolicy,
  type InsightSource,
  type ProposedInsight
} from "../ports/insights.js"
import { builtInInsights, classicFormForInsights, scanInsights } from "./insights.js"
import { InsightsResult } from "./schemas.js"

/** Attempts of a `form_insights` job (the model is retried with the queue's backoff). */
export const FORM_INSIGHTS_MAX_ATTEMPTS = 3

/** Sources per model request: a page of answers is sent in slices the prompt can hold. */
export const INSIGHT_MODEL_BATCH = 50

/** Block types a model may suggest (what a promoted free-text field can become). */
export const INSIGHT_SUGGESTED_TYPES = [
  "short_text",
  "email",
  "url",
  "phone",
  "number",
  "date",
  "multiple_choice",
  "checkboxes"
] as const

/** The model's structured output: the one schema its JSON Schema is derived from. */
export const InsightModelOutput = Schema.Struct({
  insights: Schema.Array(
    Schema.Struct({
      source: Schema.Int,
      field: Schema.String,
      suggestedType: Schema.Literals(INSIGHT_SUGGESTED_TYPES),
      confidence: Schema.Finite,
      evidence: Schema.String
    })
  )
}).annotate({ identifier: "InsightModelOutput" })

const FIELD = /^[a-z][a-z0-9_]*(?::[\p{Ll}\p{Lo}\p{N}_-]{1,40})?$/u
const MAX_FIELD = 80
const normalize = (text: string) => text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim()

/**
 * What is kept of a model's proposals for `sources`: a finding must name one of the numbered
 * sources, quote at least three characters that occur in that answer (case and spacing aside),
 * name its field as `name` or `topic:term` in lower case, and suggest a known block type; its
 * confidence is clamped to 0..1. Everything else is dropped.
 */
export const correctModelInsights = (
  sources: ReadonlyArray<InsightSource>,
  proposed: ReadonlyArray<ProposedInsight>
): ReadonlyArray<ExtractedInsight> =>
  proposed.flatMap((p) => {
    const source = Number.isInteger(p.source) ? sources[p.source - 1] : undefined
    if (source === undefined) return []
    const evidence = normalize(p.evidence)
    if (evidence.length < 3 || !normalize(source.text).includes(evidence)) return []
    const field = p.field.trim().toLowerCase()
    if (field.length > MAX_FIELD || !FIELD.test(field)) return []
    if (!(INSIGHT_SUGGESTED_TYPES as ReadonlyArray<string>).includes(p.suggestedType)) return []
    const confidence = Number.isFinite(p.confidence) ? Math.min(1, Math.max(0, p.confidence)) : 0
    return [
      {
        responseId: source.responseId,
        blockId: source.blockId,
        field,
        suggestedType: p.suggestedType,
        confidence
      }
    ]
  })

/** The model over one page of sources, a batch per request, corrected batch by batch. */
const modelExtract = (model: InsightModelService) => (sources: ReadonlyArray<InsightSource>) =>
  Effect.forEach(
    Array.from({ length: Math.ceil(sources.length / INSIGHT_MODEL_BATCH) }, (_, i) =>
      sources.slice(i * INSIGHT_MODEL_BATCH, (i + 1) * INSIGHT_MODEL_BATCH)
    ),
    (batch) => Effect.map(model.extract(batch), (proposed) => correctModelInsights(batch, proposed))
  ).pipe(Effect.map((batches) => batches.flat()))

const insightsJob = (workspaceId: string, formId: string, basis: string, id: string, at: Date): NewJob => ({
  id,
  tenantId: workspaceId,
  type: "form_insights",
  resourceId: formId,
  dedupeKey: jobDedupeKey("form_insights", formId),
  payload: { formId, basis },
  maxAttempts: FORM_INSIGHTS_MAX_ATTEMPTS,
  runAt: at,
  retryOf: null,
  createdAt: at
})

const decodeResult = Schema.decodeUnknownOption(InsightsResult)

/**
 * The `form_insights` job: the model reads the answers the built-in extractor reads, and the ranked,
 * corrected result becomes the job's result with the basis it was computed on. Skipped when the
 * form is gone, no longer classic, or no model is configured any more; a model failure is retried.
 */
export const runFormInsightsJob = (
  job: JobRecord
): Effect.Effect<JobOutcome, JobFailed, FormRepository | ResponseRepository | InsightPolicy> =>
  Effect.gen(function* () {
    const formId = job.payload.formId
    if (typeof formId !== "string")
      return yield* new JobFailed({
        code: "invalid_payload",
        message: "the job names no form",
        retryable: false
      })
    const model = yield* InsightModel
    if (model === null) return skipped({ reason: "no_model" })
    const found = yield* Effect.flatMap(FormRepository, (r) => r.get(job.tenantId, formId))
    if (Option.isNone(found) || found.value.kind !== "classic") return skipped({ reason: "form_gone" })
    const result = yield* scanInsights(found.value, modelExtract(model)).pipe(
      Effect.catchTag("InsightModelFailed", (e) =>
        Effect.fail(new JobFailed({ code: "insights_failed", message: e.reason, retryable: true }))
      )
    )
    return succeeded({ ...result })
  }).pipe(Effect.catchTag("StorageError", storageUnavailable("form insights")))

/** The model's side of an insights answer: its job and what state it is in. */
export type InsightModelState = {
  readonly status: "current" | "queued" | "running" | "failed"
  readonly jobId: string
} | null

/**
 * GET /forms/{id}/insights. Without a model: the built-in result (`source: "builtin"`, `model: null`).
 * With one: the newest `form_insights` job's result while its basis is what is stored now
 * (`source: "model"`, status `current`); otherwise the built-in result with the job's state, a job
 * being queued when none is queued, running, or failed for this basis. Nothing scanned: no job.
 */
export const formInsights = (formId: string) =>
  Effect.gen(function* () {
    const form = yield* classicFormForInsights(formId)
    const builtin = yield* builtInInsights(form)
    const { basis, ...shown } = builtin
    const model = yield* InsightModel
    const answer = (state: InsightModelState) => ({ ...shown, source: "builtin" as const, model: state })
    if (model === null || builtin.scannedResponses === 0) return answer(null)
    const jobs = yield* JobQueue
    const latest = yield* jobs.latestFor(form.workspaceId, form.id, "form_insights")
    if (Option.isSome(latest)) {
      const job = latest.value
      const sameBasis = job.payload.basis === basis
      if (job.status === "queued" || job.status === "running")
        return answer({ status: job.status, jobId: job.id })
      if (sameBasis && job.status === "succeeded") {
        const result = decodeResult(job.result)
        if (Option.isSome(result))
          return {
            ...result.value,
            source: "model" as const,
            model: { status: "current" as const, jobId: job.id }
          }
      }
      // Failed (or skipped) for these very answers: not asked again until they change.
      if (sameBasis) return answer({ status: "failed", jobId: job.id })
    }
    const at = new Date(yield* Clock.currentTimeMillis)
    const id = yield* Effect.flatMap(IdGen, (ids) => ids.uuidV7)
    const queued = yield* jobs.enqueue(insightsJob(form.workspaceId, form.id, basis, id, at)).pipe(
      Effect.map((job) => job.id),
      // Another request queued it first: that job is the one to report.
      Effect.catchTag("JobAlreadyActive", (e) => Effect.succeed(e.activeJobId ?? id))
    )
    return answer({ status: "queued", jobId: queued })
  })
