// The public pages' HTML answer: compressed for the client, with the page's CSP and its nonce, never
// cached. Shared by the form page's routes and the withdrawal pages.
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"
import type { Html } from "../../shared/index.js"
import { negotiateEncoding } from "./assets.js"
import { contentSecurityPolicy } from "./page.js"

/** An HTML response, compressed for the client, with the page's CSP and its nonce. */
export const htmlResponse = (
  request: HttpServerRequest.HttpServerRequest,
  body: Html,
  nonce: string,
  status = 200,
  extra: Readonly<Record<string, string>> = {}
) => {
  const encoding = negotiateEncoding(request.headers["accept-encoding"])
  const raw = Buffer.from(body.text, "utf8")
  const bytes =
    encoding === "br"
      ? brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length }
        })
      : encoding === "gzip"
        ? gzipSync(raw, { level: 6 })
        : raw
  return HttpServerResponse.uint8Array(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      ...(encoding === undefined ? {} : { "content-encoding": encoding }),
      vary: "accept-encoding",
      "cache-control": "no-store",
      "content-security-policy": contentSecurityPolicy(nonce),
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      ...extra
    }
  })
}
