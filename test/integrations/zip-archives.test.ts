// The ZIP reader behind artifacts (yauzl), against crafted archives: a good one read entry by entry,
// and damaged, truncated, encrypted, path-escaping, bomb-like (by ratio) and lying (an entry that
// inflates past its declared size) archives, each refused with its code, plus every limit.
import { YauzlArtifactArchivesLive } from "@folio/adapters-integrations"
import { ArtifactArchives, type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS } from "@folio/domain"
import { Effect, Result, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { zipOf as zipBytes, zipWithRawNames } from "../support/zip.js"

const text = (s: string) => new TextEncoder().encode(s)

/** A ZIP as a Buffer, which the tests patch in place. */
const zipOf = async (files: ReadonlyArray<[string, Uint8Array]>, compress = true) =>
  Buffer.from(await zipBytes(files, compress))

/** Every offset of a ZIP record signature in `zip`. */
const offsetsOf = (zip: Buffer, signature: number) => {
  const found: Array<number> = []
  for (let i = 0; i + 4 <= zip.length; i++) if (zip.readUInt32LE(i) === signature) found.push(i)
  return found
}
const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50

const open = (archive: Uint8Array, limits: Partial<ArtifactLimits> = {}) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const archives = yield* ArtifactArchives
        const entries = yield* archives.open(Stream.make(archive), { ...DEFAULT_ARTIFACT_LIMITS, ...limits })
        const read: Array<{ path: string; size: number; text: string }> = []
        for (const e of entries) {
          const bytes = yield* Stream.runFold(
            e.read(),
            () => "",
            (acc, c) => acc + new TextDecoder().decode(c)
          )
          read.push({ path: e.path, size: e.size, text: bytes })
        }
        return read
      })
    ).pipe(Effect.provide(YauzlArtifactArchivesLive), Effect.result)
  )

const failureTag = (r: Result.Result<unknown, unknown>) =>
  Result.isFailure(r) ? (r.failure as { readonly _tag: string })._tag : "success"

describe("ZIP archives", () => {
  it("reads a good archive's files in order, folders left out", async () => {
    const zip = await zipOf([
      ["index.html", text("<h1>Hi</h1>")],
      ["css/site.css", text("h1{color:red}")],
      ["data/empty.txt", new Uint8Array(0)]
    ])
    const read = await open(zip)
    expect(Result.isSuccess(read) && read.success).toEqual([
      { path: "index.html", size: 11, text: "<h1>Hi</h1>" },
      { path: "css/site.css", size: 13, text: "h1{color:red}" },
      { path: "data/empty.txt", size: 0, text: "" }
    ])
  })

  it("refuses damaged, truncated and empty input as artifact_archive_invalid", async () => {
    const good = await zipOf([["index.html", text("<p>x</p>".repeat(100))]])
    for (const bad of [
      text("this is not a zip at all"),
      good.subarray(0, good.length - 30),
      new Uint8Array(0)
    ])
      expect(failureTag(await open(bad))).toBe("ArtifactArchiveInvalid")
  })

  it("refuses an encrypted archive", async () => {
    const zip = await zipOf([["index.html", text("secret")]])
    for (const at of offsetsOf(zip, LOCAL)) zip.writeUInt16LE(zip.readUInt16LE(at + 6) | 1, at + 6)
    for (const at of offsetsOf(zip, CENTRAL)) zip.writeUInt16LE(zip.readUInt16LE(at + 8) | 1, at + 8)
    expect(failureTag(await open(zip))).toBe("ArtifactArchiveInvalid")
  })

  it("refuses an entry whose path escapes the root as artifact_path_invalid", async () => {
    const zip = await zipOf([["aa/evil.html", text("x")]])
    for (let i = 0; i + 12 <= zip.length; i++)
      if (zip.toString("latin1", i, i + 12) === "aa/evil.html") zip.write("../evil.html", i, "latin1")
    expect(failureTag(await open(zip))).toBe("ArtifactPathInvalid")
  })

  it("refuses an entry name with a backslash as artifact_path_invalid instead of rewriting it", async () => {
    const zip = await zipWithRawNames([
      ["index.html", text("<h1>Hi</h1>")],
      ["a\\b.html", text("x")]
    ])
    expect(Buffer.from(zip).includes("a\\b.html", 0, "latin1")).toBe(true)
    expect(failureTag(await open(zip))).toBe("ArtifactPathInvalid")
    const plain = await zipWithRawNames([["a/b.html", text("x")]])
    const read = await open(plain)
    expect(Result.isSuccess(read) && read.success.map((e) => e.path)).toEqual(["a/b.html"])
  })

  it("refuses a zip bomb by its expansion ratio before inflating anything", async () => {
    const zip = await zipOf([
      ["index.html", text("ok")],
      ["zeros.bin", new Uint8Array(20 * 1024 * 1024)]
    ])
    expect(zip.length).toBeLessThan(100 * 1024)
    expect(failureTag(await open(zip))).toBe("ArtifactArchiveInvalid")
  })

  it("stops an entry that inflates past the size it declared, while inflating", async () => {
    const zip = await zipOf([["big.txt", new Uint8Array(512 * 1024).fill(0x61)]])
    // Both headers now claim 100 bytes; the ratio check passes, the inflation must stop it.
    for (const at of offsetsOf(zip, LOCAL)) zip.writeUInt32LE(100, at + 22)
    for (const at of offsetsOf(zip, CENTRAL)) zip.writeUInt32LE(100, at + 24)
    expect(failureTag(await open(zip))).toBe("ArtifactArchiveInvalid")
  })

  it("holds every limit: files, one file, the site and the archive", async () => {
    const four = await zipOf([
      ["a.html", text("a")],
      ["b.html", text("bb")],
      ["c.html", text("ccc")],
      ["d.html", text("dddd")]
    ])
    expect(failureTag(await open(four, { files: 3 }))).toBe("ArtifactTooManyFiles")
    expect(failureTag(await open(four, { fileBytes: 3 }))).toBe("ArtifactTooLarge")
    expect(failureTag(await open(four, { siteBytes: 9 }))).toBe("ArtifactTooLarge")
    expect(failureTag(await open(four, { zipBytes: 100 }))).toBe("ArtifactTooLarge")
    expect(Result.isSuccess(await open(four, { files: 4, fileBytes: 4, siteBytes: 10 }))).toBe(true)
  })
})
