// Baselines for bench/redirect.ts: a bare node:http server answering every request with the same
// 302, no framework, no lookup. Run as a child process. With the argument `folio-response` it
// answers what Folio's redirect answers a new visitor instead (the same headers, two Set-Cookie
// values and a request id, fresh random values in each): the cost of the response itself, apart
// from the work of deciding it.
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"

const folioResponse = process.argv[2] === "folio-response"

const server = createServer((_req, res) => {
  if (folioResponse) {
    res.writeHead(302, {
      location: "https://a.example.com/",
      "cache-control": "private, no-store",
      "set-cookie": [
        `svc_v=${randomUUID().slice(0, 22)}; Max-Age=31536000; Path=/s/; HttpOnly; SameSite=Lax`,
        `svc_seen=${randomUUID()}; Max-Age=1800; Path=/s/bench-link; HttpOnly; SameSite=Lax`
      ],
      "x-request-id": randomUUID(),
      "content-length": "0"
    })
  } else {
    res.writeHead(302, { location: "https://example.com/target", "cache-control": "private, no-store" })
  }
  res.end()
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`
  )
})
process.on("SIGTERM", () => server.close())
