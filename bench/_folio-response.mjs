// The response Folio's redirect sends a new visitor (the same headers, two Set-Cookie values and a
// request id, fresh random values in each), without deciding it: what bench/redirect.ts's
// references answer, from a bare server (_raw-redirect.ts) and from inside Folio's own process
// (_canned-redirect.mjs). Plain JavaScript, so the server can preload it without a TypeScript loader.
import { randomUUID } from "node:crypto"

/** @param {import("node:http").ServerResponse} res */
export const writeFolioResponse = (res) => {
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
  res.end()
}
