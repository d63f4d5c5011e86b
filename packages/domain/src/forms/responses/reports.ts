// Reports and analytics read models: the classic report (question and score summaries filtered by
// `q`, plus activity aggregates of a date cohort) and the interview analytics (funnel, analysis
// coverage, qualitative-code aggregates, validation items). Everything comes from storage aggregates; no transcript
// text is ever read here.
import { Clock, Effect } from "effect"
import { InvalidCohort, WrongFormKind } from "../errors.js"
import type { FormRecord } from "../ports/forms.js"
import { type InterviewStats, ResponseRepository, type ValidationItemStats } from "../ports/responses.js"
import { type InterviewDefinition, readStoredInterviewDefinition } from "../interview/definition.js"
import { fieldLabel } from "../interview/questions.js"
import { validationPool } from "../interview/validation.js"
import { loadForm } from "../use-cases.js"
import { classicDefinitionOf, currentDefinitionOf } from "./sources.js"
import { responseSummaryOf } from "./summary.js"

const DAY_MS = 24 * 60 * 60 * 1000
/** The default cohort: the last 30 days. Cohorts longer than 366 days are refused. */
export const DEFAULT_COHORT_DAYS = 30
const MAX_COHORT_MS = 366 * DAY_MS

export interface CohortQuery {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
}

export const resolveCohort = (query: CohortQuery, now: Date) =>
  Effect.gen(function* () {
    const to = query.to ?? now
    const from = query.from ?? new Date(to.getTime() - DEFAULT_COHORT_DAYS * DAY_MS)
    if (from.getTime() >= to.getTime()) return yield* new InvalidCohort({ rule: "order" })
    if (to.getTime() - from.getTime() > MAX_COHORT_MS) return yield* new InvalidCohort({ rule: "maxRange" })
    return { from, to }
  })

const matches = (q: string | undefined) => {
  const needle = q?.trim().toLowerCase() ?? ""
  return (fields: ReadonlyArray<string>) =>
    needle === "" || fields.some((f) => f.toLowerCase().includes(needle))
}

/** GET /forms/{id}/reports for either kind. */
export const formReport = (formId: string, query: CohortQuery & { readonly q?: string | undefined }) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    const now = new Date(yield* Clock.currentTimeMillis)
    if (form.kind === "interview") {
      return { kind: "interview" as const, ...(yield* interviewAnalyticsOf(form)) }
    }
    const cohort = yield* resolveCohort(query, now)
    const definition = yield* classicDefinitionOf(form)
    const summary = yield* responseSummaryOf(form, definition)
    const keep = matches(query.q)
    const activity = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.activity(form.workspaceId, form.id, cohort)
    )
    return {
      kind: "classic" as const,
      questions: summary.questions.filter((s) =>
        keep("blockId" in s ? [s.blockId, s.label] : [s.groupId, s.title, ...s.rows.map((r) => r.rowLabel)])
      ),
      scores: summary.scores,
      analytics: {
        cohort: { from: cohort.from, to: cohort.to },
        started: activity.started,
        completed: activity.completed,
        completionRate: activity.started === 0 ? null : activity.completed / activity.started,
        averageCompletionSeconds: activity.averageCompletionSeconds,
        medianCompletionSeconds: activity.medianCompletionSeconds,
        daily: activity.daily
      }
    }
  })

/** Counts per capture type: those stored, then the definition's other capture types at zero. */
const emergentCounts = (definition: InterviewDefinition | null, stats: InterviewStats) => {
  const share = (n: number) => (stats.completed === 0 ? 0 : n / stats.completed)
  const found = stats.emergent.map((e) => ({ ...e, share: share(e.responses) }))
  const captured =
    definition?.emergentExtraction?.enabled === true ? definition.emergentExtraction.captureTypes : []
  const unseen = captured.filter((t) => !found.some((e) => e.captureType === t))
  return [...found, ...unseen.map((captureType) => ({ captureType, responses: 0, mentions: 0, share: 0 }))]
}

/** The definition's validation items in its order (zero counts included), then items only stored. */
const validationItemsOf = (
  definition: InterviewDefinition | null,
  stats: ReadonlyArray<ValidationItemStats>
) => {
  const configured = definition === null ? [] : validationPool(definition)
  const ids = [...new Set([...configured, ...stats.map((s) => s.fieldId)])]
  return ids.map((fieldId) => {
    const s = stats.find((x) => x.fieldId === fieldId) ?? { assigned: 0, answered: 0, agreed: 0 }
    const field = definition?.fields.find((f) => f.id === fieldId)
    return {
      fieldId,
      label:
        definition === null || field === undefined
          ? null
          : fieldLabel(definition, field, definition.locales.default),
      assigned: s.assigned,
      answered: s.answered,
      agreed: s.agreed,
      agreementRate: s.answered === 0 ? null : s.agreed / s.answered
    }
  })
}

const interviewAnalyticsOf = (form: FormRecord) =>
  Effect.gen(function* () {
    const definition: InterviewDefinition | null = readStoredInterviewDefinition(
      yield* currentDefinitionOf(form)
    )
    const stats = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.interviewStats(form.workspaceId, form.id)
    )
    const validation = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.validationStats(form.workspaceId, form.id)
    )
    const codebook = new Map((definition?.codebook?.codes ?? []).map((c) => [c.id, c]))
    const analyzed = stats.analysis.completed ?? 0
    return {
      funnel: { started: stats.started, engaged: stats.engaged, completed: stats.completed },
      coverage: {
        completed: stats.completed,
        pending: stats.analysis.pending ?? 0,
        analyzed,
        partial: stats.analysis.partial ?? 0,
        failed: stats.analysis.failed ?? 0,
        analyzedShare: stats.completed === 0 ? null : analyzed / stats.completed
      },
      codes: stats.codes.map((c) => {
        const known = codebook.get(c.code)
        return {
          code: c.code,
          label: known === undefined ? null : (Object.values(known.labelByLocale)[0] ?? null),
          codeType: known?.codeType ?? null,
          emergent: known === undefined,
          responses: c.responses,
          mentions: c.mentions,
          share: stats.completed === 0 ? 0 : c.responses / stats.completed
        }
      }),
      averageExchangeCount: stats.averageExchangeCount,
      emergent: emergentCounts(definition, stats),
      validation: validationItemsOf(definition, validation)
    }
  })

/** GET /forms/{id}/interview-analytics: interview forms only (classic -> unsupported_kind). */
export const interviewAnalytics = (formId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    if (form.kind !== "interview") {
      return yield* new WrongFormKind({ read: "interviewAnalytics" })
    }
    return yield* interviewAnalyticsOf(form)
  })
