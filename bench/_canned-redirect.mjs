// Preloaded into Folio's server by bench/redirect.ts (`--import`): a GET of CANNED_PATH is answered
// with Folio's redirect response, made as the bare reference server makes it, before the Effect app
// sees it. Folio's fast path answers its own redirects before this is reached, so the real redirect
// runs as it always does. A request for CANNED_PATH costs what being Folio's process costs (its
// node:http server and the fast path's first look, which finds no warm link of that slug and
// passes it on) and nothing of the decision, the views and analytics, the cookies' values or the
// request id.
import { Server } from "node:http"
import { writeFolioResponse } from "./_folio-response.mjs"

export const CANNED_PATH = "/s/bench-canned"

const emit = Server.prototype.emit
Server.prototype.emit = function (event, ...args) {
  const [request, response] = args
  if (event === "request" && request.method === "GET" && request.url === CANNED_PATH) {
    writeFolioResponse(response)
    return true
  }
  return emit.call(this, event, ...args)
}
