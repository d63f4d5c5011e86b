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

/**
 * A ZIP whose entry names are stored as given, byte for byte, even where yazl would rewrite them
 * (it turns `\` into `/`): written with a stand-in name of the same length, then the name's bytes are
 * replaced in the local and central headers (the name is not covered by any CRC).
 */
export const zipWithRawNames = async (
  files: ReadonlyArray<readonly [string, Uint8Array | string]>
): Promise<Uint8Array<ArrayBuffer>> => {
  const standIn = (name: string, i: number) => `${i}${"~".repeat(name.length)}`.slice(0, name.length)
  const zip = Buffer.from(await zipOf(files.map(([name, body], i) => [standIn(name, i), body] as const)))
  files.forEach(([name], i) => {
    const from = Buffer.from(standIn(name, i), "latin1")
    const to = Buffer.from(name, "latin1")
    if (to.length !== from.length || name.length <= String(i).length)
      throw new Error("raw names must be latin1 and longer than their index")
    for (let at = zip.indexOf(from); at !== -1; at = zip.indexOf(from, at + 1)) to.copy(zip, at)
  })
  return new Uint8Array(zip)
}
