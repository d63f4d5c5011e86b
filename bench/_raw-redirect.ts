// Baseline for bench/redirect.ts: a bare node:http server answering every request with the same
// 302, no framework, no lookup. Run as a child process.
import { createServer } from "node:http"

const server = createServer((_req, res) => {
  res.writeHead(302, { location: "https://example.com/target", "cache-control": "private, no-store" })
  res.end()
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`
  )
})
process.on("SIGTERM", () => server.close())
