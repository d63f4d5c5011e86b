// Links from another service's CSV export (`POST /resources/import`): Bitly's link export and
// Linktree's link export, told apart by their columns. Each data row becomes one bulk item (see
// bulk.ts), so a bad row fails alone and is reported by its row number. The CSV text itself is parsed
// by the adapter with a CSV library; this module only reads the parsed records.
import { Result, Schema } from "effect"
import { CsvEmpty, CsvTooManyRows, CsvUrlColumnMissing } from "../errors.js"
import { Visibility } from "./resource.js"
import { isResourceLabel, isResourceSlug, MAX_RESOURCE_LABELS, ResourceLabels } from "./rules.js"

/** Data rows per import call: a 1 MiB export holds a few thousand; larger exports are split. */
export const IMPORT_ROWS_MAX = 1000

export const ImportSource = Schema.Literals(["bitly", "linktree"])
export type ImportSource = typeof ImportSource.Type

/** What an import adds to every row: the visibility of the new links and labels beside their own. */
export const ImportOptions = {
  visibility: Schema.optionalKey(Visibility),
  labels: Schema.optionalKey(ResourceLabels)
}
export interface ImportDefaults {
  readonly visibility?: Visibility | undefined
  readonly labels?: ReadonlyArray<string> | undefined
}

/** One data row as a bulk item, with its 1-based line in the file (the header is line 1). */
export interface ImportRow {
  readonly row: number
  readonly item: unknown
}

/** Header names as compared: case, spaces, hyphens and dots folded (`Long URL` = `long_url`). */
const columnKey = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s.-]+/g, "_")

/** The columns each export names the fields by (the first present wins). */
const COLUMNS = {
  bitly: {
    url: ["long_url", "destination", "destination_url", "original_url"],
    title: ["title"],
    short: ["custom_bitlinks", "custom_bitlink", "custom_link", "custom_back_half", "bitlink", "link"],
    tags: ["tags"],
    archived: ["archived"]
  },
  linktree: {
    url: ["url", "link_url", "destination_url"],
    title: ["title", "link_title", "name"],
    short: [],
    tags: [],
    archived: []
  }
} as const satisfies Record<ImportSource, Record<string, ReadonlyArray<string>>>

/** Columns that only a Bitly export has: a file with one of them is Bitly's, else Linktree's. */
const BITLY_ONLY = ["long_url", "bitlink", "custom_bitlinks", "custom_bitlink"]

/** Bitly tags as labels: folded to the label alphabet; tags that fold to nothing are dropped. */
const labelsOf = (cell: string | undefined): ReadonlyArray<string> =>
  (cell ?? "")
    .split(/[,;|]/)
    .map((tag) =>
      tag
        .trim()
        .toLowerCase()
        .replace(/\s+/g, "-")
        .replace(/[^a-z0-9_-]/g, "")
        .slice(0, 64)
    )
    .filter(isResourceLabel)

/**
 * The slug a short link asks for: the back-half of its first address, kept only when it already is
 * a valid slug. Generated Bitly hashes mix cases (`3xYz9Ab`) and fold to clashes, so they are not
 * kept, and the new link gets a random slug instead.
 */
const slugOf = (cell: string | undefined): string | undefined => {
  const first = (cell ?? "").split(/[\s,]+/).find((part) => part.length > 0)
  if (first === undefined) return undefined
  const backHalf =
    first
      .replace(/[?#].*$/, "")
      .replace(/\/+$/, "")
      .split("/")
      .pop() ?? ""
  return isResourceSlug(backHalf) ? backHalf : undefined
}

const TRUE_WORDS = new Set(["true", "yes", "1", "on"])

/**
 * The bulk items of a parsed export (`records[0]` is its header row). The source is detected from
 * the columns unless named; an export without a destination column or with too many rows is refused
 * whole (field `csv`). Empty rows are skipped.
 */
export const importRows = (
  records: ReadonlyArray<ReadonlyArray<string>>,
  named: ImportSource | undefined,
  defaults: ImportDefaults
): Result.Result<
  { readonly source: ImportSource; readonly rows: ReadonlyArray<ImportRow> },
  CsvEmpty | CsvUrlColumnMissing | CsvTooManyRows
> => {
  const [header, ...data] = records
  if (header === undefined) return Result.fail(new CsvEmpty())
  const keys = header.map(columnKey)
  const source = named ?? (keys.some((k) => BITLY_ONLY.includes(k)) ? "bitly" : "linktree")
  const column = (names: ReadonlyArray<string>) => {
    for (const name of names) {
      const at = keys.indexOf(name)
      if (at >= 0) return at
    }
    return -1
  }
  const columns = COLUMNS[source]
  const url = column(columns.url)
  if (url < 0) return Result.fail(new CsvUrlColumnMissing({ source }))
  const title = column(columns.title)
  const short = column(columns.short)
  const tags = column(columns.tags)
  const archived = column(columns.archived)
  const cell = (record: ReadonlyArray<string>, at: number) => (at < 0 ? undefined : record[at]?.trim())
  const rows: Array<ImportRow> = []
  data.forEach((record, index) => {
    if (record.every((value) => value.trim() === "")) return
    const text = cell(record, title)
    const slug = slugOf(cell(record, short))
    const labels = [...(defaults.labels ?? []), ...labelsOf(cell(record, tags))].slice(0, MAX_RESOURCE_LABELS)
    rows.push({
      row: index + 2,
      item: {
        type: "link",
        target_url: cell(record, url) ?? "",
        ...(text === undefined || text === "" ? {} : { title: text }),
        ...(slug === undefined ? {} : { slug }),
        ...(labels.length === 0 ? {} : { labels }),
        ...(defaults.visibility === undefined ? {} : { visibility: defaults.visibility }),
        ...(TRUE_WORDS.has((cell(record, archived) ?? "").toLowerCase()) ? { archived: true } : {})
      }
    })
  })
  if (rows.length > IMPORT_ROWS_MAX) return Result.fail(new CsvTooManyRows({ maxRows: IMPORT_ROWS_MAX }))
  return Result.succeed({ source, rows })
}
