// The digest of a streamed multipart body under Idempotency-Key, as properties: it depends on the
// parts (names, values, file names and bytes, in order) and the route, never on how the bytes were
// chunked as they arrived; any change of a byte, a value or the order changes it.
import { multipartFingerprint, type UploadPart } from "@folio/domain"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

type Part =
  | { readonly kind: "field"; readonly name: string; readonly value: string }
  | { readonly kind: "file"; readonly name: string; readonly fileName: string; readonly bytes: Uint8Array }

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ kind: fc.constant("field" as const), name: fc.string({ maxLength: 8 }), value: fc.string() }),
  fc.record({
    kind: fc.constant("file" as const),
    name: fc.string({ maxLength: 8 }),
    fileName: fc.string({ maxLength: 12 }),
    bytes: fc.uint8Array({ maxLength: 200 })
  })
)

/** `bytes` cut at `cuts` (positions, any order), as a stream of chunks. */
const chunked = (bytes: Uint8Array, cuts: ReadonlyArray<number>) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b)
  const edges = [0, ...at, bytes.byteLength]
  return Stream.fromIterable(edges.slice(1).map((end, i) => bytes.subarray(edges[i], end)))
}

/** The digest of `parts` read through, each file cut at `cuts`. */
const digestOf = (route: string, parts: ReadonlyArray<Part>, cuts: ReadonlyArray<number> = []) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const fingerprint = multipartFingerprint(route)
      const stream = Stream.fromIterable(
        parts.map(
          (p): UploadPart =>
            p.kind === "field"
              ? { _tag: "Field", name: p.name, value: p.value }
              : { _tag: "File", name: p.name, fileName: p.fileName, content: chunked(p.bytes, cuts) }
        )
      )
      yield* Stream.runForEach(fingerprint.tap(stream), (p) =>
        p._tag === "File" ? Stream.runDrain(p.content) : Effect.void
      )
      return fingerprint.digest()
    })
  )

describe("multipart fingerprint", () => {
  it("is the same however the bytes were chunked", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (parts, cuts) => {
          expect(await digestOf("upload", parts, cuts)).toBe(await digestOf("upload", parts))
        }
      )
    )
  })

  it("changes with a file's bytes, a value, the order of the parts or the route", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 5 }), fc.nat(), async (parts, pick) => {
        const i = pick % parts.length
        const p = parts[i] as Part
        const changed: Part =
          p.kind === "field"
            ? { ...p, value: `${p.value}!` }
            : { ...p, bytes: new Uint8Array([...p.bytes, 0]) }
        const base = await digestOf("upload", parts)
        expect(
          await digestOf(
            "upload",
            parts.map((q, j) => (j === i ? changed : q))
          )
        ).not.toBe(base)
        expect(await digestOf("artifact", parts)).not.toBe(base)
        const swapped = [...parts].reverse()
        if (JSON.stringify(swapped) !== JSON.stringify(parts))
          expect(await digestOf("upload", swapped)).not.toBe(base)
      })
    )
  })

  it("tells a field from a file part with the same text", async () => {
    const asField = await digestOf("upload", [{ kind: "field", name: "a", value: "x" }])
    const asFile = await digestOf("upload", [
      { kind: "file", name: "a", fileName: "x", bytes: new Uint8Array() }
    ])
    expect(asField).not.toBe(asFile)
  })
})
