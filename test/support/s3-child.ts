// s3rver in a process of its own, run with OpenSSL's legacy provider: its continuation tokens are
// DES-encrypted, which OpenSSL 3 refuses in-process, so a listing past one page needs this one.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { S3_BUCKET, s3rverOptions } from "./s3.js"

const SCRIPT = `
const S3rver = require("s3rver")
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[1],
  configureBuckets: [{ name: ${JSON.stringify(S3_BUCKET)} }] })
server.run().then(({ port }) => process.stdout.write("port " + port + "\\n"))
`

export const startS3Child = async () => {
  const directory = mkdtempSync(join(tmpdir(), "folio-s3rver-child-"))
  const child: ChildProcess = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", SCRIPT, directory],
    {
      stdio: ["ignore", "pipe", "inherit"]
    }
  )
  const port = await new Promise<number>((resolve, reject) => {
    let out = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const match = /port (\d+)/.exec(out)
      if (match?.[1] !== undefined) resolve(Number(match[1]))
    })
    child.on("exit", (code) => reject(new Error(`s3rver exited with ${code}`)))
  })
  return {
    options: s3rverOptions(port),
    close: async () => {
      const exited = new Promise((done) => child.on("exit", done))
      child.kill("SIGTERM")
      await exited
      rmSync(directory, { recursive: true, force: true })
    }
  }
}
