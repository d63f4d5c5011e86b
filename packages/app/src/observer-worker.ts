// The observer's thread: the two things watching the app does that would otherwise run node's
// network code on the thread that answers requests, on one worker thread (observer-thread.ts starts
// it, once, when the first of them is configured):
// - the Prometheus listener's HTTP side: GET /metrics (and HEAD) asks the main thread for the
//   figures over the worker's port and answers them; anything else is 404;
// - the trace exporter's requests: the main thread hands each batch's request over (its URL,
//   headers and the spans as data), this thread writes the JSON and POSTs it, and the collector's
//   answer goes back.
// Why a thread: a scrape answered by an http.Server, or a batch POSTed by fetch, on the main thread
// runs node's HTTP, net and stream code that the app's requests run through; V8 recompiles that code
// for both kinds of caller, slower for the app for the rest of the process's life (~10% more CPU per
// redirect for the listener; most of what tracing at 10% cost for the exporter). Why one: a second
// busy isolate costs the process more than its own work (its event loop, heap and GC, V8's shared
// helper threads; decision 0036, "What watching costs").
// Only node's built-ins here, and only syntax Node strips as it loads (tests run this file as
// TypeScript, `npm start` the compiled one).
import { createServer } from "node:http"
import { parentPort } from "node:worker_threads"

/** One request to send: the exporter's own, with a batch of spans to write as OTLP/JSON here. */
export type ExportRequest = {
  readonly type: "export"
  readonly id: number
  readonly url: string
  readonly method: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** The batch as data (telemetry.ts, otlpWorkerSerialization). */
  readonly json: unknown
}

/** What the main thread sends. */
export type ToObserver =
  /** Listen for scrapes (once). */
  | { readonly type: "listen"; readonly port: number; readonly host: string }
  /** A scrape's figures, by its number, or that they could not be read. */
  | { readonly type: "scrape-answer"; readonly id: number; readonly body: string }
  | { readonly type: "scrape-failed"; readonly id: number }
  | ExportRequest

/** What this thread sends. */
export type FromObserver =
  | { readonly type: "listening" }
  | {
      readonly type: "cannot-listen"
      readonly message: string
      readonly code: string
      readonly syscall: string
    }
  | { readonly type: "scrape"; readonly id: number }
  /** The collector's answer, whole, or why there was none (the exporter retries or backs off). */
  | {
      readonly type: "exported"
      readonly id: number
      readonly status: number
      readonly statusText: string
      readonly headers: ReadonlyArray<readonly [string, string]>
      readonly body: ArrayBuffer
    }
  | { readonly type: "export-failed"; readonly id: number; readonly error: string }

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

/** OTLP/JSON writes a non-finite number as a string; JSON.stringify writes it as null. */
const nonFiniteToString = (_key: string, value: unknown) =>
  typeof value === "number" && !Number.isFinite(value) ? String(value) : value

/**
 * A batch of spans as OTLP/JSON, as Effect's `layerJson` writes it, without its second pass over
 * every batch whose text holds "null" anywhere (every batch with a SQL statement's `is null` in an
 * attribute): in a batch of spans a non-finite number can only be an attribute's `doubleValue`
 * (OtlpResource writes every other number as an `intValue`), and a string's quotes are escaped, so
 * `"doubleValue":null` in the text is exactly the case that needs the second pass.
 */
const encode = (data: unknown): string => {
  const text = JSON.stringify(data)
  return text.includes('"doubleValue":null') ? JSON.stringify(data, nonFiniteToString) : text
}

if (parentPort !== null) {
  const port = parentPort
  const send = (message: FromObserver, transfer?: ReadonlyArray<ArrayBuffer>) =>
    port.postMessage(message, transfer)
  const scrapes = new Map<number, (answer: string | undefined) => void>()
  let nextScrape = 0

  const listen = (listenPort: number, host: string) => {
    // Idle keep-alive connections outlive a scraper's interval (Prometheus: 15 s), so the scraper,
    // not this server, closes them: a server closing first races a scrape already sent (the app
    // server's reason too, app-layer.ts).
    const server = createServer({ keepAliveTimeout: 65_000 }, (request, response) => {
      const path = (request.url ?? "").split("?")[0]
      if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n")
        return
      }
      const id = nextScrape++
      scrapes.set(id, (body) => {
        if (body === undefined) {
          response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("scrape failed\n")
          return
        }
        response.writeHead(200, { "content-type": CONTENT_TYPE, "cache-control": "no-store" })
        response.end(request.method === "HEAD" ? undefined : body)
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

  const exportBatch = (request: ExportRequest) =>
    fetch(request.url, {
      method: request.method,
      headers: request.headers as Array<[string, string]>,
      body: encode(request.json)
    })
      .then(async (response) => {
        const body = await response.arrayBuffer()
        send(
          {
            type: "exported",
            id: request.id,
            status: response.status,
            statusText: response.statusText,
            headers: [...response.headers],
            body
          },
          [body]
        )
      })
      .catch((error: unknown) =>
        send({
          type: "export-failed",
          id: request.id,
          error: error instanceof Error ? error.message : String(error)
        })
      )

  port.on("message", (message: ToObserver) => {
    switch (message.type) {
      case "listen":
        listen(message.port, message.host)
        break
      case "scrape-answer":
      case "scrape-failed":
        scrapes.get(message.id)?.(message.type === "scrape-answer" ? message.body : undefined)
        scrapes.delete(message.id)
        break
      case "export":
        void exportBatch(message)
        break
    }
  })
}
