// Reads an uploaded CSV export into records with csv-parse (quotes, embedded newlines, a byte-order
// mark, ragged rows), so the domain's import rules see plain cells. A file csv-parse cannot read is
// the `csv` field's failure, explained without echoing its content.
import { CsvUnreadable } from "@folio/domain"
import { CsvError, parse } from "csv-parse/sync"
import { Result } from "effect"

export const readCsvRecords = (
  text: string
): Result.Result<ReadonlyArray<ReadonlyArray<string>>, CsvUnreadable> => {
  try {
    const records: Array<Array<string>> = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true
    })
    return Result.succeed(records)
  } catch (e) {
    return Result.fail(
      e instanceof CsvError
        ? new CsvUnreadable({ parserCode: e.code, line: typeof e.lines === "number" ? e.lines : undefined })
        : new CsvUnreadable({})
    )
  }
}
