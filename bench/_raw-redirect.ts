// Baselines for bench/redirect.ts: a bare node:http server answering every request with the same
// 302, no framework, no lookup. Run as a child process. With the argument `folio-response` it
// answers what Folio's redirect answers a new visitor instead (_folio-response.mjs): the cost of
// the response itself, apart from the work of deciding it.
import { createServer } from "node:http"
import { writeFolioResponse } from "./_folio-response.mjs"

const folioResponse = process.argv[2] === "folio-response"

const server = createServer((_req, res) => {
  if (folioResponse) writeFolioResponse(res)
  else {
    res.writeHead(302, { location: "https://example.com/target", "cache-control": "private, no-store" })
    res.end()
  }
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`
  )
})
process.on("SIGTERM", () => server.close())
