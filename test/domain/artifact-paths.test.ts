// The artifact path rules (sharing-api.md, HTML artifacts) as properties: every path they accept is
// a plain relative path that stays inside the site root whatever it is joined to; every path with a
// `..` or `.` segment, a backslash, an absolute start, an empty segment, a control character or a
// reserved start is refused; case-only clashes are found; the entry page is chosen as the spec says.
import { posix } from "node:path"
import {
  checkArtifactPath,
  entryPageOf,
  firstClash,
  isEditableText,
  artifactLimitsOf,
  DEFAULT_ARTIFACT_LIMITS
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const segmentChar = fc.constantFrom(..."abcXYZ019-_.~é日".split(""))
const segment = fc
  .array(segmentChar, { minLength: 1, maxLength: 12 })
  .map((cs) => cs.join(""))
  .filter((s) => s !== "." && s !== "..")
const validPath = fc
  .array(segment, { minLength: 1, maxLength: 6 })
  .map((ss) => ss.join("/"))
  .filter((p) => !p.startsWith(".auth") && !p.startsWith("_bidama"))

describe("artifact paths", () => {
  it("accepts plain relative paths unchanged, and each stays inside the root it is joined to", () => {
    fc.assert(
      fc.property(validPath, (path) => {
        const checked = checkArtifactPath(path)
        expect(Result.isSuccess(checked) && checked.success).toBe(path)
        const joined = posix.join("/site/root", path)
        expect(joined.startsWith("/site/root/")).toBe(true)
        expect(posix.normalize(path)).toBe(path)
      })
    )
  })

  it("refuses every path with a dot segment, a backslash, an absolute start or an empty segment", () => {
    const bad = fc.oneof(
      fc.tuple(validPath, fc.constantFrom("..", "."), validPath).map(([a, dots, b]) => `${a}/${dots}/${b}`),
      fc.tuple(fc.constantFrom("..", "."), validPath).map(([dots, b]) => `${dots}/${b}`),
      fc.tuple(validPath, fc.constantFrom("..", ".")).map(([a, dots]) => `${a}/${dots}`),
      fc.tuple(validPath, validPath).map(([a, b]) => `${a}\\${b}`),
      validPath.map((p) => `/${p}`),
      validPath.map((p) => `C:${p}`),
      fc.tuple(validPath, validPath).map(([a, b]) => `${a}//${b}`),
      validPath.map((p) => `${p}/`),
      fc.tuple(validPath, fc.integer({ min: 0, max: 31 })).map(([p, c]) => `${p}${String.fromCharCode(c)}`),
      validPath.map((p) => `.auth${p}`),
      validPath.map((p) => `_bidama/${p}`)
    )
    fc.assert(fc.property(bad, (path) => Result.isFailure(checkArtifactPath(path))))
    expect(Result.isFailure(checkArtifactPath(""))).toBe(true)
    expect(Result.isFailure(checkArtifactPath("a".repeat(513)))).toBe(true)
  })

  it("finds the first path that clashes with an earlier one, by letter case alone too", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(validPath, { minLength: 1, maxLength: 20, selector: (p) => p.toLowerCase() }),
        (paths) => {
          expect(firstClash(paths)).toBeUndefined()
          const twin = (paths[0] ?? "").toUpperCase()
          expect(firstClash([...paths, twin])).toBe(paths.length)
        }
      )
    )
  })

  it("takes the root index.html as the entry page, else the first .html or .htm file", () => {
    expect(entryPageOf([{ path: "about.html" }, { path: "index.html" }])?.path).toBe("index.html")
    expect(entryPageOf([{ path: "a/index.html" }, { path: "style.css" }, { path: "b.htm" }])?.path).toBe(
      "a/index.html"
    )
    expect(entryPageOf([{ path: "style.css" }, { path: "PAGE.HTM" }])?.path).toBe("PAGE.HTM")
    expect(entryPageOf([{ path: "style.css" }])).toBeUndefined()
  })

  it("shows text files up to 1 MiB as editable, and a server may only lower the limits", () => {
    expect(isEditableText("index.html", 10)).toBe(true)
    expect(isEditableText("app/main.JS", 10)).toBe(true)
    expect(isEditableText("photo.png", 10)).toBe(false)
    expect(isEditableText("Makefile", 10)).toBe(false)
    expect(isEditableText("big.json", 1024 * 1024 + 1)).toBe(false)
    expect(artifactLimitsOf({ files: 100, siteBytes: 10 ** 12 })).toEqual({
      ...DEFAULT_ARTIFACT_LIMITS,
      files: 100
    })
  })
})
