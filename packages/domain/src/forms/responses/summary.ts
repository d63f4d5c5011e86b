// Per-question summaries (QuestionSummary) and score summaries of a classic form, built from the
// storage's aggregates over completed responses and the current version's blocks.
import { Effect } from "effect"
import { WrongFormKind } from "../errors.js"
import type { FormRecord } from "../ports/forms.js"
import { type AnswerStats, ResponseRepository } from "../ports/responses.js"
import type { Block, Choice } from "../definition/blocks.js"
import { countryNamer, isCountryCode } from "../definition/countries.js"
import type { FormDefinition } from "../definition/definition.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import { loadForm } from "../use-cases.js"
import { classicDefinitionOf } from "./sources.js"

const TEXT_TYPES = new Set(["short_text", "long_text", "email", "date", "datetime", "time"])
const SAMPLES = 5

export type QuestionSummary =
  | {
      readonly kind: "choice"
      readonly blockId: string
      readonly label: string
      readonly answered: number
      readonly choices: ReadonlyArray<{
        id: string
        label: string
        count: number
        percent: number
        isOther?: true
      }>
    }
  | {
      readonly kind: "numeric"
      readonly blockId: string
      readonly label: string
      readonly answered: number
      readonly average: number | null
      readonly min: number | null
      readonly max: number | null
    }
  | {
      readonly kind: "text"
      readonly blockId: string
      readonly label: string
      readonly answered: number
      readonly samples: ReadonlyArray<string>
    }
  | {
      readonly kind: "ranking"
      readonly blockId: string
      readonly label: string
      readonly answered: number
      readonly items: ReadonlyArray<{ id: string; label: string; avgRank: number | null; count: number }>
    }
  | {
      readonly kind: "matrix"
      readonly groupId: string
      readonly title: string
      readonly columns: ReadonlyArray<{ id: string; label: string }>
      readonly rows: ReadonlyArray<{
        blockId: string
        rowLabel: string
        answered: number
        counts: Readonly<Record<string, number>>
      }>
    }

export interface ScoreSummary {
  readonly id: string
  readonly kind: "scale" | "quiz"
  readonly label: string
  readonly count: number
  readonly average: number | null
  readonly min: number | null
  readonly max: number | null
  /** The current version's cutoffs, lowest first, with how many responses got each label. */
  readonly cutoffs: ReadonlyArray<{ readonly min: number; readonly label: string; readonly count: number }>
}

/** Quality traps over completed responses: how many were checked, flagged, and misses per trap block. */
export interface QualitySummary {
  readonly checked: number
  readonly flagged: number
  readonly traps: ReadonlyArray<{ readonly blockId: string; readonly label: string; readonly missed: number }>
}

const percent = (count: number, of: number) => (of === 0 ? 0 : Math.round((count / of) * 10_000) / 100)

/**
 * The choices of a countries dropdown: one per answered country code, named in `locale`, most
 * answered first (the dropdown has no `choices` of its own, so they come from the answers).
 */
const countryChoices = (
  tokens: ReadonlyArray<{ readonly token: string; readonly count: number }>,
  answered: number,
  locale: string
) => {
  const nameOf = countryNamer(locale)
  return tokens
    .filter((t) => isCountryCode(t.token) && t.count > 0)
    .map((t) => ({
      id: t.token,
      label: nameOf(t.token),
      count: t.count,
      percent: percent(t.count, answered)
    }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, locale))
}

/** `locale` names what the definition does not (country answers): the form's settings locale. */
export const buildSummaries = (
  definition: FormDefinition,
  stats: AnswerStats,
  locale = "en"
): {
  readonly questions: ReadonlyArray<QuestionSummary>
  readonly scores: ReadonlyArray<ScoreSummary>
  readonly quality: QualitySummary
} => {
  const answered = new Map(stats.blocks.map((b) => [b.blockId, b]))
  const tokensOf = (blockId: string, arrays: boolean) =>
    stats.tokens.filter((t) => t.blockId === blockId && (t.avgPosition !== null) === arrays)
  const countOf = (blockId: string, token: string, arrays: boolean) =>
    tokensOf(blockId, arrays).find((t) => t.token === token)?.count ?? 0
  const questions: Array<QuestionSummary> = []
  const matrices = new Map<string, Array<Block & { options: { choices: ReadonlyArray<Choice> } }>>()

  for (const block of definition.blocks) {
    const n = answered.get(block.id)?.answered ?? 0
    switch (block.type) {
      case "multiple_choice":
      case "checkboxes":
      case "dropdown": {
        if (block.type !== "dropdown" && block.options.matrixGroupId !== undefined) {
          const rows = matrices.get(block.options.matrixGroupId) ?? []
          rows.push(block)
          matrices.set(block.options.matrixGroupId, rows)
          break
        }
        const arrays = block.type === "checkboxes"
        const countries =
          block.type === "dropdown" && block.options.dataset === "countries"
            ? countryChoices(tokensOf(block.id, arrays), n, locale)
            : []
        const known = new Set([...block.options.choices.map((c) => c.id), ...countries.map((c) => c.id)])
        const other = tokensOf(block.id, arrays)
          .filter((t) => !known.has(t.token))
          .reduce((s, t) => s + t.count, 0)
        questions.push({
          kind: "choice",
          blockId: block.id,
          label: block.label,
          answered: n,
          choices: [
            ...block.options.choices.map((c) => {
              const count = countOf(block.id, c.id, arrays)
              return { id: c.id, label: c.label, count, percent: percent(count, n) }
            }),
            ...countries,
            ...(other > 0
              ? [
                  {
                    id: "other",
                    label: "Other",
                    count: other,
                    percent: percent(other, n),
                    isOther: true as const
                  }
                ]
              : [])
          ]
        })
        break
      }
      case "ranking":
        questions.push({
          kind: "ranking",
          blockId: block.id,
          label: block.label,
          answered: n,
          items: block.options.choices.map((c) => {
            const t = tokensOf(block.id, true).find((x) => x.token === c.id)
            return { id: c.id, label: c.label, avgRank: t?.avgPosition ?? null, count: t?.count ?? 0 }
          })
        })
        break
      case "rating":
      case "number":
      case "calculated_field": {
        const s = answered.get(block.id)
        questions.push({
          kind: "numeric",
          blockId: block.id,
          label: block.label,
          answered: n,
          average: s?.average ?? null,
          min: s?.min ?? null,
          max: s?.max ?? null
        })
        break
      }
      default:
        if (TEXT_TYPES.has(block.type)) {
          questions.push({
            kind: "text",
            blockId: block.id,
            label: block.label,
            answered: n,
            samples: stats.samples.filter((x) => x.blockId === block.id).map((x) => x.text)
          })
        }
    }
  }
  for (const [groupId, rows] of matrices) {
    const first = rows[0]
    if (first === undefined) continue
    questions.push({
      kind: "matrix",
      groupId,
      title: first.label,
      columns: first.options.choices.map((c) => ({ id: c.id, label: c.label })),
      rows: rows.map((row) => ({
        blockId: row.id,
        rowLabel:
          "rowLabel" in row.options && typeof row.options.rowLabel === "string"
            ? row.options.rowLabel
            : row.label,
        answered: answered.get(row.id)?.answered ?? 0,
        counts: Object.fromEntries(
          first.options.choices.map((c) => [c.id, countOf(row.id, c.id, row.type === "checkboxes")])
        )
      }))
    })
  }
  const scores: Array<ScoreSummary> = [
    ...(definition.scales ?? []).map((s) => ({ ...s, kind: "scale" as const })),
    ...(definition.quizzes ?? []).map((q) => ({ ...q, kind: "quiz" as const }))
  ].map((s) => {
    const st = stats.scores.find((x) => x.id === s.id)
    // Two cutoffs may share a label; the label counts once, at its lowest cutoff.
    const labels = new Map<string, number>()
    for (const c of [...s.cutoffs].sort((a, b) => a.min - b.min))
      if (!labels.has(c.label)) labels.set(c.label, c.min)
    return {
      id: s.id,
      kind: s.kind,
      label: s.label,
      count: st?.count ?? 0,
      average: st?.average ?? null,
      min: st?.min ?? null,
      max: st?.max ?? null,
      cutoffs: [...labels].map(([label, min]) => ({
        min,
        label,
        count: stats.scoreLabels.find((x) => x.id === s.id && x.label === label)?.count ?? 0
      }))
    }
  })
  const quality: QualitySummary = {
    checked: stats.quality.checked,
    flagged: stats.quality.flagged,
    traps: definition.blocks.flatMap((b) =>
      b.type === "multiple_choice" && b.options.qualityTrap !== undefined
        ? [
            {
              blockId: b.id,
              label: b.label,
              missed: stats.quality.traps.find((t) => t.blockId === b.id)?.missed ?? 0
            }
          ]
        : []
    )
  }
  return { questions, scores, quality }
}

/** Summaries of a classic form's completed responses against the given definition's blocks. */
export const responseSummaryOf = (form: FormRecord, definition: FormDefinition) =>
  Effect.gen(function* () {
    const textBlocks = definition.blocks.filter((b) => TEXT_TYPES.has(b.type)).map((b) => b.id)
    const stats = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.answerStats(form.workspaceId, form.id, { sampleBlockIds: textBlocks, samplesPerBlock: SAMPLES })
    )
    const settings = (yield* StoredFormDocumentReader).settings(form.settings)
    return buildSummaries(definition, stats, settings?.locale ?? "en")
  })

/** GET /forms/{id}/responses/summary: classic forms only (interview -> unsupported_kind). */
export const responseSummary = (formId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    if (form.kind !== "classic") {
      return yield* new WrongFormKind({ read: "summary" })
    }
    // Summaries follow the current version's blocks (the draft when nothing is published yet).
    return yield* responseSummaryOf(form, yield* classicDefinitionOf(form))
  })
