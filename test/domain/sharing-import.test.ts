// The import's reading of parsed exports: which export a header is, which columns carry what, and
// which rows are refused whole (none) or skipped (empty ones).
import { IMPORT_ROWS_MAX, importRows } from "@folio/domain"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const ok = (records: ReadonlyArray<ReadonlyArray<string>>, source?: "bitly" | "linktree") => {
  const read = importRows(records, source, {})
  if (Result.isFailure(read)) throw new Error(read.failure.message)
  return read.success
}

describe("importRows", () => {
  it("reads Bitly's web export header (spaces and capitals) and keeps only valid back-halves", () => {
    const read = ok([
      ["Title", "Long URL", "Bitlink", "Tags"],
      ["Docs", "https://example.com/docs", "https://bit.ly/our-docs", "Docs; Team A"],
      ["Hash", "https://example.com/h", "bit.ly/3AbCd", ""]
    ])
    expect(read.source).toBe("bitly")
    expect(read.rows).toEqual([
      {
        row: 2,
        item: {
          type: "link",
          target_url: "https://example.com/docs",
          title: "Docs",
          slug: "our-docs",
          labels: ["docs", "team-a"]
        }
      },
      { row: 3, item: { type: "link", target_url: "https://example.com/h", title: "Hash" } }
    ])
  })

  it("takes a header without Bitly's columns as Linktree's, and applies the defaults to every row", () => {
    const read = importRows(
      [
        ["Link Title", "Link URL"],
        ["Shop", "https://shop.example.com"]
      ],
      undefined,
      { visibility: "private", labels: ["moved"] }
    )
    expect(Result.isSuccess(read) && read.success).toEqual({
      source: "linktree",
      rows: [
        {
          row: 2,
          item: {
            type: "link",
            target_url: "https://shop.example.com",
            title: "Shop",
            labels: ["moved"],
            visibility: "private"
          }
        }
      ]
    })
  })

  it("refuses an empty file, a header without a URL column for the named source, and too many rows", () => {
    expect(Result.isFailure(importRows([], undefined, {}))).toBe(true)
    const named = importRows([["title", "long_url"]], "linktree", {})
    expect(Result.isFailure(named) && named.failure.field).toBe("csv")
    const rows = Array.from({ length: IMPORT_ROWS_MAX + 1 }, () => ["x", "https://example.com"])
    expect(Result.isFailure(importRows([["title", "url"], ...rows], undefined, {}))).toBe(true)
    expect(ok([["title", "url"], ...rows.slice(1)]).rows).toHaveLength(IMPORT_ROWS_MAX)
  })
})
