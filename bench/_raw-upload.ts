// Baseline for bench/uploads.ts: a bare node:http server that pipes each request body into a file
// and answers 201; no parsing, no framework. Run as a child process with the server's node flags.
import { createWriteStream, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"

const dir = mkdtempSync(join(tmpdir(), "folio-raw-upload-"))
let n = 0
const server = createServer((req, res) => {
  pipeline(req, createWriteStream(join(dir, String(n++)))).then(
    () => {
      res.writeHead(201, { "content-type": "application/json" })
      res.end("{}")
    },
    () => res.destroy()
  )
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`
  )
})
process.on("SIGTERM", () => {
  server.close()
  rmSync(dir, { recursive: true, force: true })
})
