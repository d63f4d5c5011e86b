// The Prometheus listener's HTTP side, on a worker thread of its own (metrics-server.ts starts it):
// GET /metrics (and HEAD) asks the main thread for the figures over the worker's port and answers
// them; anything else is 404. Why a thread: one scrape answered by an http.Server on the main
// thread deoptimizes node's HTTP code the app's requests run through (a second kind of server,
// request and response reaching the same functions: V8 recompiles them for both, slower for the app
// for the rest of the process's life, ~10% more CPU per redirect). On its own isolate the scrapes'
// HTTP shares no compiled code with the app's.
// Only node's built-ins here, and only syntax Node strips as it loads (tests run this file as
// TypeScript, `npm start` the compiled one).
import { createServer } from "node:http"
import { parentPort, workerData } from "node:worker_threads"

/** What the main thread sends: where to listen, then each scrape's answer by its number. */
export type MetricsWorkerData = { readonly port: number; readonly host: string }
export type ScrapeAnswer =
  | { readonly id: number; readonly body: string }
  | { readonly id: number; readonly failed: true }
/** What this thread sends: that it listens (or why not), then each scrape it needs answered. */
export type MetricsWorkerMessage =
  | { readonly type: "listening" }
  | {
      readonly type: "cannot-listen"
      readonly message: string
      readonly code: string
      readonly syscall: string
    }
  | { readonly type: "scrape"; readonly id: number }

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

if (parentPort !== null) {
  const port = parentPort
  const { port: listenPort, host } = workerData as MetricsWorkerData
  const send = (message: MetricsWorkerMessage) => port.postMessage(message)
  const waiting = new Map<number, (answer: ScrapeAnswer) => void>()
  let next = 0
  port.on("message", (answer: ScrapeAnswer) => {
    waiting.get(answer.id)?.(answer)
    waiting.delete(answer.id)
  })
  // Idle keep-alive connections outlive a scraper's interval (Prometheus: 15 s), so the scraper,
  // not this server, closes them: a server closing first races a scrape already sent (the app
  // server's reason too, app-layer.ts).
  const server = createServer({ keepAliveTimeout: 65_000 }, (request, response) => {
    const path = (request.url ?? "").split("?")[0]
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n")
      return
    }
    const id = next++
    waiting.set(id, (answer) => {
      if ("failed" in answer) {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("scrape failed\n")
        return
      }
      response.writeHead(200, { "content-type": CONTENT_TYPE, "cache-control": "no-store" })
      response.end(request.method === "HEAD" ? undefined : answer.body)
    })
    send({ type: "scrape", id })
  })
  server.once("error", (error: NodeJS.ErrnoException) =>
    send({
      type: "cannot-listen",
      message: error.message,
      code: error.code ?? "",
      syscall: error.syscall ?? ""
    })
  )
  server.listen(listenPort, host, () => send({ type: "listening" }))
}
