// A multipart file part's bytes as the upload routes read them (fileContent): Node's parser's parts
// are read from their Readable as pushed, in batches (the HTTP suites' uploads go that way); a part
// of any other parser (a web request's, as an embedder's web handler would give) keeps its own
// stream. Both give the file's bytes exactly, in order.
import { fileContent } from "../../packages/adapters-http/src/sharing/files/file-content.js"
import { Readable } from "node:stream"
import { it } from "@effect/vitest"
import { NodeMultipart } from "@effect/platform-node"
import { Effect, Stream } from "effect"
import { HttpServerRequest, Multipart } from "effect/http"
import { describe, expect } from "vitest"

const bytesOf = (chunks: ReadonlyArray<Uint8Array>) => new Uint8Array(Buffer.concat(chunks))

/** `length` bytes of a pattern that repeats every 251 bytes (so a lost or moved chunk shows). */
const patterned = (length: number, step: number) => {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = (i * step) % 251
  return bytes
}

/** Whether two byte arrays are equal (a compare, not a deep walk of millions of elements). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0

const KIB = 1024

describe("fileContent", () => {
  it.live("takes Node's parts as pushed, in batches, and stops the body while the reader waits", () =>
    Effect.gen(function* () {
      const file = patterned(4096 * KIB, 13)
      const boundary = "----file-content-test"
      const encoder = new TextEncoder()
      const body = bytesOf([
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\n` +
            "Content-Type: application/octet-stream\r\n\r\n"
        ),
        file,
        encoder.encode(`\r\n--${boundary}--\r\n`)
      ])
      // The request body in 16 KiB pieces, counting what the parser has taken.
      let produced = 0
      const source = Readable.from(
        (function* () {
          for (let at = 0; at < body.byteLength; at += 16 * KIB) {
            const piece = body.subarray(at, at + 16 * KIB)
            produced += piece.byteLength
            yield Buffer.from(piece)
          }
        })(),
        { objectMode: false }
      )
      const parts = NodeMultipart.stream(source, {
        "content-type": `multipart/form-data; boundary=${boundary}`
      })
      const batches: Array<number> = []
      const read: Array<Uint8Array> = []
      let producedWhileWaiting = 0
      yield* Stream.runForEach(parts, (part) =>
        Multipart.isFile(part)
          ? Stream.runForEachArray(fileContent(part), (chunks) =>
              Effect.gen(function* () {
                batches.push(chunks.length)
                read.push(...chunks)
                // A reader slower than the body: the first time, wait long enough for an unpaused
                // body to be read whole.
                if (batches.length === 1) {
                  yield* Effect.sleep("200 millis")
                  producedWhileWaiting = produced
                }
              })
            )
          : Effect.void
      )
      expect(sameBytes(bytesOf(read), file)).toBe(true)
      // What gathered while the reader was away came as one array of many chunks...
      expect(Math.max(...batches)).toBeGreaterThan(1)
      // ...and the body stopped at the read-ahead (512 KiB) and the streams' own buffers, far
      // short of its 4 MiB.
      expect(producedWhileWaiting).toBeLessThan(1024 * KIB)
    })
  )

  it.effect("reads a web request's file part through the part's own stream, byte for byte", () =>
    Effect.gen(function* () {
      const file = patterned(300_000, 7)
      const form = new FormData()
      form.append("title", "a title")
      form.append("file", new Blob([file], { type: "application/octet-stream" }), "data.bin")
      const request = HttpServerRequest.fromWeb(
        new Request("http://localhost/uploads", { method: "POST", body: form })
      )
      const read: Array<Uint8Array> = []
      yield* Stream.runForEach(request.multipartStream, (part) =>
        Multipart.isFile(part)
          ? Stream.runForEach(fileContent(part), (chunk) => Effect.sync(() => void read.push(chunk)))
          : Effect.void
      )
      expect(sameBytes(bytesOf(read), file)).toBe(true)
    })
  )
})
