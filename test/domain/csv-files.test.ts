// Pure pieces of exports and uploads: CSV cells (quoting and formula neutralisation, checked by a
// real CSV parser over generated strings), content sniffing and accepted-type matching, file names,
// and the insight candidates' ranking.
import { acceptsType, cleanFilename, csvCell, csvLine, rankCandidates, sniffFileType } from "@folio/domain"
import { parse } from "csv-parse/sync"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const FORMULA = /^[=+\-@\t\r]/
const ascii = (s: string) => new TextEncoder().encode(s)

describe("CSV cells", () => {
  it("round-trip any text through a real CSV parser, with formula starts neutralised", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        (cells) => {
          const parsed = parse(csvLine(cells), { relax_quotes: false }) as Array<Array<string>>
          expect(parsed).toEqual([cells.map((c) => (FORMULA.test(c) ? `'${c}` : c))])
        }
      ),
      { numRuns: 300 }
    )
  })

  it("neutralises each formula prefix and leaves numbers alone", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\t=x", "\r=x"].map(csvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\t=x",
      '"\'\r=x"'
    ])
    expect(csvCell(-3)).toBe("-3")
    expect(csvCell(null)).toBe("")
  })
})

describe("upload content types", () => {
  it("sniffs binary formats from their leading bytes, whatever the client claims", () => {
    expect(sniffFileType(ascii("%PDF-1.7 ..."), "image/png")).toBe("application/pdf")
    expect(sniffFileType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]), "application/pdf")).toBe("image/jpeg")
    expect(sniffFileType(Uint8Array.from([0x1f, 0x8b, 8, 0]), "text/plain")).toBe("application/gzip")
    expect(sniffFileType(Uint8Array.from([0, 1, 2, 3, 0xff]), "application/pdf")).toBe(
      "application/octet-stream"
    )
  })

  it("keeps a claim only inside the sniffed family, and never an executable web type", () => {
    const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0])
    const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    expect(sniffFileType(zip, docx)).toBe(docx)
    expect(sniffFileType(zip, "application/pdf")).toBe("application/zip")
    expect(sniffFileType(ascii("a,b\n1,2\n"), "text/csv")).toBe("text/csv")
    expect(sniffFileType(ascii("<script>alert(1)</script>"), "text/html")).toBe("text/plain")
    expect(sniffFileType(ascii("<svg/>"), "image/svg+xml")).toBe("text/plain")
    expect(sniffFileType(ascii("hello"), "application/pdf")).toBe("text/plain")
    // A multi-byte character cut by the 64 KiB sample is still text.
    const long = ascii(`${"a".repeat(64 * 1024 - 1)}é tail`)
    expect(sniffFileType(long, "text/plain")).toBe("text/plain")
  })

  it("matches accepted types exactly or by a type/* wildcard; no list accepts anything", () => {
    expect(acceptsType(["image/*"], "image/png")).toBe(true)
    expect(acceptsType(["image/*"], "application/pdf")).toBe(false)
    expect(acceptsType(["Application/PDF"], "application/pdf")).toBe(true)
    expect(acceptsType([], "application/zip")).toBe(true)
    expect(acceptsType(undefined, "application/zip")).toBe(true)
  })

  it("cleans file names of paths, control characters and quotes", () => {
    expect(cleanFilename("../../etc/passwd")).toBe("passwd")
    expect(cleanFilename('C:\\Users\\me\\"cv"\u0000.pdf')).toBe("cv.pdf")
    expect(cleanFilename("..")).toBe("upload")
    expect(cleanFilename("x".repeat(300))).toHaveLength(255)
  })
})

describe("insight candidates", () => {
  const finding = (responseId: string, field: string, confidence: number, suggestedType = "email") => ({
    responseId,
    blockId: "b",
    field,
    suggestedType,
    confidence
  })

  it("count a response once per candidate, rank by frequency x confidence and mark auto past the threshold", () => {
    const findings = [
      finding("r1", "email", 0.9),
      finding("r1", "email", 0.5),
      finding("r2", "email", 0.9),
      finding("r3", "email", 0.9),
      finding("r1", "topic:price", 0.5, "checkboxes"),
      finding("r2", "topic:price", 0.5, "checkboxes"),
      finding("r3", "topic:price", 0.5, "checkboxes"),
      finding("r4", "topic:price", 0.5, "checkboxes"),
      finding("r1", "topic:once", 0.5, "checkboxes")
    ]
    const ranked = rankCandidates(findings, 10, new Map([["b", "Feedback"]]), {
      autoThreshold: 0.3,
      minResponses: 3
    })
    expect(ranked.map((c) => [c.field, c.frequency, c.score, c.auto])).toEqual([
      ["email", 3, 2.7, true],
      ["topic:price", 4, 2, true]
    ])
    expect(ranked[0]?.blockLabel).toBe("Feedback")
    const strict = rankCandidates(findings, 10, new Map(), { autoThreshold: 0.35, minResponses: 3 })
    expect(strict.map((c) => c.auto)).toEqual([false, true])
  })
})
