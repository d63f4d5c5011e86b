// CSV export of completed responses, as a stream of lines read page by page (constant memory).
// Classic: stable block-id columns (every input block of every published version, newest first),
// label or code values, `score_<id>` columns, file link columns, wide or long layout, and a
// conservative deidentified projection. Interview: summary, sentiment, extracted fields, themes and
// the transcript. Every cell is escaped against spreadsheet formula injection.
import { Effect, Option, Result, Stream } from "effect"
import { csvLine } from "../../kernel/csv.js"
import type { StorageError } from "../../kernel/errors.js"
import { FormRepository, type FormRecord } from "../ports/forms.js"
import { type ResponseFileRecord, type ResponseRecord, ResponseRepository } from "../ports/responses.js"
import type { Block } from "../definition/blocks.js"
import { decodeFormDefinition, type FormDefinition } from "../definition/definition.js"
import { readStoredInterviewDefinition } from "../interview/definition.js"
import { loadForm } from "../use-cases.js"
import { completedResponses, currentDefinitionOf } from "./sources.js"
import { emergentItemsOf, type FileUrl, storedInterviewOf } from "./reads.js"
import { storedQualityOf } from "./quality.js"
import { consentOf } from "./consent.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"

export interface CsvOptions {
  readonly values: "label" | "code"
  readonly layout: "wide" | "long"
  readonly deidentified: boolean
}

const PAGE = 500
const NO_ANSWER = new Set(["statement", "page_break", "divider", "image"])
/** Blocks whose answers may identify a person: left out of the deidentified projection. */
const IDENTIFYING = new Set([
  "short_text",
  "long_text",
  "email",
  "phone",
  "url",
  "address",
  "signature",
  "file_upload",
  "hidden_field",
  "date",
  "datetime",
  "date_range"
])

const choiceLabel = (block: Block, id: string): string => {
  if (
    "options" in block &&
    typeof block.options === "object" &&
    block.options !== null &&
    "choices" in block.options
  ) {
    const choices =
      (block.options as { choices?: ReadonlyArray<{ id: string; label: string }> }).choices ?? []
    return choices.find((c) => c.id === id)?.label ?? id
  }
  return id
}

/** The text of one answer in a cell. */
export const answerText = (
  block: Block,
  value: unknown,
  mode: "label" | "code",
  fileLinks: (key: string) => string | undefined
): string => {
  if (value === undefined || value === null) return ""
  const isChoice = ["multiple_choice", "dropdown", "checkboxes", "ranking"].includes(block.type)
  if (block.type === "file_upload" && Array.isArray(value)) {
    return value.map((k) => fileLinks(String(k)) ?? String(k)).join("\n")
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => (mode === "label" && isChoice ? choiceLabel(block, String(v)) : String(v)))
    if (block.type === "date_range") return parts.join("/")
    if (block.type === "address")
      return mode === "label" ? parts.filter((p) => p !== "").join(", ") : parts.join("|")
    return parts.join(mode === "label" ? "; " : ";")
  }
  if (typeof value === "string") {
    if (mode === "label" && isChoice) return choiceLabel(block, value)
    if (mode === "label" && block.type === "privacy_consent") return value === "y" ? "agreed" : "declined"
    return value
  }
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value)
}

/** Every published version's definition, newest first (the draft when nothing is published). */
const definitionsOf = (form: FormRecord) =>
  Effect.gen(function* () {
    const repo = yield* FormRepository
    const out: Array<FormDefinition> = []
    let cursor: string | undefined
    for (;;) {
      const page = yield* repo
        .listVersions(form.workspaceId, form.id, { limit: 100, cursor })
        .pipe(Effect.catchTag("InvalidCursor", () => Effect.succeed({ items: [], nextCursor: null })))
      for (const v of page.items) {
        const full = yield* repo.getVersion(form.workspaceId, form.id, v.id)
        if (Option.isNone(full)) continue
        const decoded = decodeFormDefinition(full.value.definition)
        if (Result.isSuccess(decoded)) out.push(decoded.success)
      }
      if (page.nextCursor === null) break
      cursor = page.nextCursor
    }
    if (out.length === 0) {
      const draft = decodeFormDefinition(yield* currentDefinitionOf(form))
      if (Result.isSuccess(draft)) out.push(draft.success)
    }
    return out
  })

export interface CsvExport {
  readonly filename: string
  /**
   * The CSV text in pieces: the header line, then the lines of one page of responses at a time. It
   * reads with the ports of the request that started the export, so it can run after that returned.
   */
  readonly lines: Stream.Stream<string, StorageError>
}

const storedScore = (r: ResponseRecord, id: string) => {
  const scores = r.meta.scores
  if (!Array.isArray(scores)) return undefined
  return scores.find((x) => (x as { id?: unknown }).id === id) as
    | { readonly score?: unknown; readonly label?: unknown }
    | undefined
}
const scoreOf = (r: ResponseRecord, id: string): number | null => {
  const s = storedScore(r, id)
  return typeof s?.score === "number" ? s.score : null
}
/** The cutoff label the completion stored with the score; "" when none was reached. */
const cutoffLabelOf = (r: ResponseRecord, id: string): string => {
  const s = storedScore(r, id)
  return typeof s?.label === "string" ? s.label : ""
}
/** The trap blocks a response missed, joined as choice codes are (`;`); "" when it missed none. */
const trapsMissedOf = (r: ResponseRecord): string => (storedQualityOf(r.meta)?.trapsMissed ?? []).join(";")

/** The consent columns' headers, present while the form's settings hold researchCompliance. */
const CONSENT_COLUMNS = ["consent_accepted_at", "consent_items", "consent_settings_signature"] as const

/** Whether the export carries the consent columns: the form is under research compliance now. */
const underCompliance = (form: FormRecord) =>
  Effect.map(
    Effect.service(StoredFormDocumentReader),
    (documents) => documents.settings(form.settings)?.researchCompliance !== undefined
  )

/** The consent cells of one response (empty when it stored none); deidentified keeps the day only. */
const consentCells = (r: ResponseRecord, deidentified: boolean): ReadonlyArray<string> => {
  const c = consentOf(r.meta)
  if (c === null) return ["", "", ""]
  return [deidentified ? c.acceptedAt.slice(0, 10) : c.acceptedAt, c.items.join("\n"), c.settingsSignature]
}

/** GET /forms/{id}/responses.csv */
export const exportResponsesCsv = (formId: string, options: CsvOptions, fileUrl: FileUrl) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    const safeTitle =
      form.title
        .replace(/[^A-Za-z0-9._-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 60) || "form"
    const filename = `${safeTitle}-responses${options.deidentified ? "-deidentified" : ""}.csv`
    const ports = yield* Effect.context<FormRepository | ResponseRepository>()
    const consent = yield* underCompliance(form)
    if (form.kind === "interview")
      return {
        filename,
        lines: Stream.provideContext(interviewLines(form, options, consent), ports)
      } as CsvExport

    const definitions = yield* definitionsOf(form)
    const blocks = new Map<string, Block>()
    for (const d of definitions)
      for (const b of d.blocks) if (!NO_ANSWER.has(b.type) && !blocks.has(b.id)) blocks.set(b.id, b)
    const columns = [...blocks.values()].filter((b) => !options.deidentified || !IDENTIFYING.has(b.type))
    const scoreIds = [
      ...new Set(definitions.flatMap((d) => [...(d.scales ?? []), ...(d.quizzes ?? [])].map((s) => s.id)))
    ]
    const hasFiles = columns.some((b) => b.type === "file_upload")
    // A quality column only for forms that ever had a trap, as score columns only for defined scores.
    const hasTraps = definitions.some((d) =>
      d.blocks.some((b) => b.type === "multiple_choice" && b.options.qualityTrap !== undefined)
    )
    let row = 0

    const linesOf = (records: ReadonlyArray<ResponseRecord>) =>
      Effect.gen(function* () {
        const files: ReadonlyArray<ResponseFileRecord> = hasFiles
          ? yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
              r.listFiles(
                form.workspaceId,
                form.id,
                records.map((x) => x.id)
              )
            )
          : []
        const byKey = new Map(files.map((f) => [f.key, f]))
        const link = (key: string) => {
          const f = byKey.get(key)
          return f === undefined ? undefined : fileUrl(f)
        }
        return records.flatMap((r) => {
          row++
          const id = options.deidentified ? String(row) : r.id
          const completed = (r.completedAt ?? r.updatedAt).toISOString()
          const when = options.deidentified ? completed.slice(0, 10) : completed
          const cells = columns.map((b) => answerText(b, r.answers[b.id], options.values, link))
          const scores = scoreIds.map((s) => scoreOf(r, s))
          const labels = scoreIds.map((s) => cutoffLabelOf(r, s))
          const traps = trapsMissedOf(r)
          const agreed = consent ? consentCells(r, options.deidentified) : []
          if (options.layout === "wide")
            return [
              csvLine([
                id,
                r.formVersionId,
                when,
                ...cells,
                ...scores,
                ...labels,
                ...(hasTraps ? [traps] : []),
                ...agreed
              ])
            ]
          return [
            ...columns.flatMap((b, i) =>
              r.answers[b.id] === undefined ? [] : [csvLine([id, when, b.id, cells[i]])]
            ),
            ...scoreIds.flatMap((s, i) =>
              scores[i] === null ? [] : [csvLine([id, when, `score_${s}`, scores[i]])]
            ),
            ...scoreIds.flatMap((s, i) =>
              labels[i] === "" ? [] : [csvLine([id, when, `cutoff_${s}`, labels[i]])]
            ),
            ...(traps === "" ? [] : [csvLine([id, when, "quality_traps_missed", traps])]),
            ...CONSENT_COLUMNS.flatMap((name, i) =>
              agreed[i] === undefined || agreed[i] === "" ? [] : [csvLine([id, when, name, agreed[i]])]
            )
          ]
        })
      })

    const idColumn = options.deidentified ? "row" : "response_id"
    const header =
      options.layout === "wide"
        ? csvLine([
            idColumn,
            "form_version_id",
            "completed_at",
            ...columns.map((b) => b.id),
            ...scoreIds.map((s) => `score_${s}`),
            // After every score column, so the score columns keep their places.
            ...scoreIds.map((s) => `cutoff_${s}`),
            ...(hasTraps ? ["quality_traps_missed"] : []),
            ...(consent ? CONSENT_COLUMNS : [])
          ])
        : csvLine([idColumn, "completed_at", "block_id", "value"])
    const body = completedResponses(form, PAGE).pipe(
      Stream.grouped(PAGE),
      // One piece of text per page: few, large writes instead of one per line.
      Stream.mapEffect((chunk) => Effect.map(linesOf(chunk), (lines) => lines.join("")))
    )
    return {
      filename,
      lines: Stream.provideContext(Stream.concat(Stream.make(header), body), ports)
    } as CsvExport
  })

/** One line per item (`captureType: summary`); deidentified, the distinct capture types. */
const emergentCell = (r: ResponseRecord, deidentified: boolean): string => {
  const items = emergentItemsOf(r) ?? []
  return deidentified
    ? [...new Set(items.map((e) => e.captureType))].join("; ")
    : items.map((e) => `${e.captureType}: ${e.summary}`).join("\n")
}

const interviewLines = (form: FormRecord, options: CsvOptions, consent: boolean) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const definition = readStoredInterviewDefinition(yield* currentDefinitionOf(form))
      // Extracted fields may hold anything the respondent said: not part of the deidentified projection.
      const fieldIds = options.deidentified ? [] : (definition?.fields ?? []).map((f) => f.id)
      // Emergent items have a column when the interview defines emergentExtraction (even switched off
      // later, so items already kept stay exportable); deidentified: capture types only, no summary.
      const emergent = definition?.emergentExtraction !== undefined
      let row = 0
      const header = csvLine([
        options.deidentified ? "row" : "response_id",
        "completed_at",
        "analysis_status",
        "sentiment",
        ...(options.deidentified ? [] : ["summary"]),
        ...fieldIds.map((f) => `field_${f}`),
        "themes",
        ...(emergent ? ["emergent"] : []),
        ...(options.deidentified ? [] : ["transcript"]),
        ...(consent ? CONSENT_COLUMNS : [])
      ])
      const lineOf = (r: ResponseRecord) => {
        row++
        const i = storedInterviewOf(r)
        const completed = (r.completedAt ?? r.updatedAt).toISOString()
        const themes = [
          ...new Set(
            i.insights.flatMap((x) => {
              const code = x.code ?? x.codeId
              return typeof code === "string" ? [code] : []
            })
          )
        ].join("; ")
        const field = (id: string) => {
          const v = i.extractedFields[id]
          return v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v)
        }
        return csvLine([
          options.deidentified ? String(row) : r.id,
          options.deidentified ? completed.slice(0, 10) : completed,
          i.analysisStatus,
          i.sentiment ?? "",
          ...(options.deidentified ? [] : [i.summary ?? ""]),
          ...fieldIds.map(field),
          themes,
          ...(emergent ? [emergentCell(r, options.deidentified)] : []),
          ...(options.deidentified ? [] : [i.transcript.map((t) => `${t.role}: ${t.content}`).join("\n")]),
          ...(consent ? consentCells(r, options.deidentified) : [])
        ])
      }
      return Stream.concat(
        Stream.make(header),
        completedResponses(form, PAGE).pipe(Stream.mapArray((rows) => [rows.map(lineOf).join("")] as const))
      )
    })
  )
