// Reads an uploaded CSV export into records with csv-parse (quotes, embedded newlines, a byte-order
// mark, ragged rows), so the domain's import rules see plain cells. A file csv-parse cannot read is
// the `csv` field's failure, explained without echoing its content.
import { InvalidField } from "@folio/domain"
import { CsvError, parse } from "csv-parse/sync"
import { Result } from "effect"

export const readCsvRecords = (
  text: string
): Result.Result<ReadonlyArray<ReadonlyArray<string>>, InvalidField> => {
  try {
    const records: Array<Array<string>> = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true
    })
    return Result.succeed(records)
  } catch (e) {
    const where = e instanceof CsvError && typeof e.lines === "number" ? ` near line ${e.lines}` : ""
    const what = e instanceof CsvError ? ` (${e.code})` : ""
    return Result.fail(new InvalidField({ field: "csv", reason: `not a readable CSV file${what}${where}` }))
  }
}
