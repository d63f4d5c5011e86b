// ZIP archives for tests and benchmarks, written with yazl (the writer of yauzl's author).
import yazl from "yazl"

/** A ZIP of `files` (path, bytes or text), deflated unless told. */
export const zipOf = (
  files: ReadonlyArray<readonly [string, Uint8Array | string]>,
  compress = true
): Promise<Uint8Array<ArrayBuffer>> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile()
    for (const [path, body] of files) zip.addBuffer(Buffer.from(body), path, { compress })
    zip.end()
    const chunks: Array<Buffer> = []
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c))
    zip.outputStream.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    zip.outputStream.on("error", reject)
  })
