// The observer's thread: the two things watching the app does that would otherwise run node's
// network code on the thread that answers requests, on one worker thread (observer-thread.ts starts
// it, once, when the first of them is configured):
// - the Prometheus listener's HTTP side: GET /metrics (and HEAD) asks the main thread for the
//   figures over the worker's port and answers them; anything else is 404;
// - the trace exporter's requests: the main thread hands each batch's request over (its URL,
//   headers and the spans as data), this thread writes the JSON and POSTs it (node's http client,
//   on a kept-alive connection), and the collector's answer goes back.
// Why a thread: a scrape answered by an http.Server, or a batch POSTed by an HTTP client, on the main thread
// runs node's HTTP, net and stream code that the app's requests run through; V8 recompiles that code
// for both kinds of caller, slower for the app for the rest of the process's life (~10% more CPU per
// redirect for the listener; most of what tracing at 10% cost for the exporter). Why one: a second
// busy isolate costs the process more than its own work (its event loop, heap and GC, V8's shared
// helper threads; decision 0036, "What watching costs").
// Only node's built-ins here, and only syntax Node strips as it loads (tests run this file as
// TypeScript, `npm start` the compiled one).
import { Agent as HttpAgent, createServer, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import { parentPort } from "node:worker_threads"
import type { SpanBatch, SpanRecord } from "./recording-span.js"

/** One request to send: the exporter's own, with a batch of spans to write as OTLP/JSON here. */
export type ExportRequest = {
  readonly type: "export"
  readonly id: number
  readonly url: string
  readonly method: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** The batch: the spans' records (recording-span.ts), the resource and the scope. */
  readonly batch: SpanBatch
  /** How long the request may take, answer included (OTEL_EXPORTER_OTLP_TIMEOUT). */
  readonly timeoutMillis: number
}

/** What the main thread sends. */
export type ToObserver =
  /** Listen for scrapes (once), and stop. */
  | { readonly type: "listen"; readonly port: number; readonly host: string }
  | { readonly type: "unlisten" }
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

const INT64_BOUND = 2 ** 63

/** An OTLP/JSON AnyValue. */
type AnyValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: number | string }
  | { readonly doubleValue: number | string }
  | { readonly arrayValue: { readonly values: ReadonlyArray<AnyValue> } }

/**
 * An attribute's value as OTLP/JSON writes it, as Effect's exporter does: a string, an integer
 * (`intValue`, as a string when it is not a safe one), any other number a double (a non-finite
 * one as a string), a boolean, a bigint (an integer when it fits 64 bits, else a string), or an
 * array of them. Anything else was formatted as a string on the main thread.
 */
const anyValue = (value: unknown): AnyValue => {
  switch (typeof value) {
    case "string":
      return { stringValue: value }
    case "boolean":
      return { boolValue: value }
    case "bigint":
      return BigInt.asIntN(64, value) === value ? { intValue: String(value) } : { stringValue: String(value) }
    case "number":
      if (Number.isInteger(value) && value >= -INT64_BOUND && value < INT64_BOUND)
        return Number.isSafeInteger(value) ? { intValue: value } : { intValue: String(BigInt(value)) }
      return Number.isFinite(value) ? { doubleValue: value } : { doubleValue: String(value) }
    default:
      return Array.isArray(value)
        ? { arrayValue: { values: value.map(anyValue) } }
        : { stringValue: String(value) }
  }
}

/** Flat attributes (key, value, key, value...) as OTLP's list of key-values. */
const keyValues = (flat: ReadonlyArray<unknown>) => {
  const out: Array<{ readonly key: unknown; readonly value: AnyValue }> = []
  for (let i = 0; i < flat.length; i += 2) out.push({ key: flat[i], value: anyValue(flat[i + 1]) })
  return out
}

/**
 * A span's record (recording-span.ts) as an OTLP/JSON span object, with the keys in the order
 * Effect's exporter writes them (an absent parent is left out, as JSON.stringify leaves out an
 * undefined property).
 */
const otlpSpan = (span: SpanRecord) => {
  const [traceId, spanId, parentSpanId, name, kind, start, end, code, message, attributes, events, links] =
    span
  const otlpEvents = []
  if (events !== undefined)
    for (let i = 0; i < events.length; i += 3)
      otlpEvents.push({
        name: events[i],
        timeUnixNano: String(events[i + 1]),
        attributes: keyValues(events[i + 2] as ReadonlyArray<unknown>),
        droppedAttributesCount: 0
      })
  const otlpLinks = []
  if (links !== undefined)
    for (let i = 0; i < links.length; i += 3)
      otlpLinks.push({
        traceId: String(links[i]).padStart(32, "0"),
        spanId: links[i + 1],
        attributes: keyValues(links[i + 2] as ReadonlyArray<unknown>),
        droppedAttributesCount: 0
      })
  return {
    traceId: traceId.padStart(32, "0"),
    spanId,
    parentSpanId,
    name,
    kind,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(end),
    attributes: keyValues(attributes),
    droppedAttributesCount: 0,
    events: otlpEvents,
    droppedEventsCount: 0,
    status: message === undefined ? { code } : { code, message },
    links: otlpLinks,
    droppedLinksCount: 0
  }
}

/**
 * A batch of spans as the OTLP/JSON body Effect's exporter sends: one resource, one scope. Plain
 * objects written by one JSON.stringify, V8's serializer in C++: twice as fast as building the
 * text by concatenation (~3 against ~6.5 us a fast-path span here; the concatenated pieces made
 * a tree of strings that the final join had to walk and copy).
 */
export const spansJson = (batch: SpanBatch): string =>
  JSON.stringify({
    resourceSpans: [
      { resource: batch.resource, scopeSpans: [{ scope: batch.scope, spans: batch.spans.map(otlpSpan) }] }
    ]
  })

/**
 * The collector's client by its URL's scheme: node's own, on a keep-alive agent, not `fetch`. A
 * batch goes once a second or two, too seldom for the JIT to warm undici's fetch (its web streams,
 * its body copies): a 1 KB POST cost ~6.5 ms of CPU here, against ~2 ms for `http.request`.
 */
const clients = {
  "http:": { request: httpRequest, agent: new HttpAgent({ keepAlive: true }) },
  "https:": { request: httpsRequest, agent: new HttpsAgent({ keepAlive: true }) }
}

/** A collector's whole answer. */
type Answer = {
  readonly status: number
  readonly statusText: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: ArrayBuffer
}

/** POSTs (or whatever the exporter asks) `body` to the collector and reads its whole answer. */
const send = (request: ExportRequest, body: Buffer) =>
  new Promise<Answer>((resolve, reject) => {
    const url = new URL(request.url)
    const client = url.protocol === "http:" || url.protocol === "https:" ? clients[url.protocol] : undefined
    if (client === undefined) return reject(new TypeError(`cannot send to a ${url.protocol} URL`))
    const headers: Record<string, string> = Object.fromEntries(request.headers)
    headers["content-length"] = String(body.length)
    const sent = client.request(url, { method: request.method, headers, agent: client.agent }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("error", reject)
      response.on("end", () => {
        const whole = Buffer.concat(chunks)
        const answerHeaders: Array<[string, string]> = []
        const raw = response.rawHeaders
        for (let i = 0; i < raw.length; i += 2) answerHeaders.push([raw[i] ?? "", raw[i + 1] ?? ""])
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? "",
          headers: answerHeaders,
          body: whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.length) as ArrayBuffer
        })
      })
    })
    sent.on("error", reject)
    // A collector that takes the batch and does not answer in time (OTEL_EXPORTER_OTLP_TIMEOUT,
    // 10 s by default: the whole request, a slow trickle of an answer included) fails the export,
    // so the exporter retries or backs off instead of waiting on it for good.
    const timer = setTimeout(
      () => sent.destroy(new Error("the collector did not answer in time")),
      request.timeoutMillis
    )
    sent.on("close", () => clearTimeout(timer))
    sent.end(body)
  })

if (parentPort !== null) {
  const port = parentPort
  const post = (message: FromObserver, transfer?: ReadonlyArray<ArrayBuffer>) =>
    port.postMessage(message, transfer)
  const scrapes = new Map<number, (answer: string | undefined) => void>()
  let nextScrape = 0
  let listener: ReturnType<typeof createServer> | undefined

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
      post({ type: "scrape", id })
    })
    const cannotListen = (error: NodeJS.ErrnoException) =>
      post({
        type: "cannot-listen",
        message: error.message,
        code: error.code ?? "",
        syscall: error.syscall ?? ""
      })
    server.once("error", cannotListen)
    server.listen(listenPort, host, () => {
      // Listening: a later error (an accept that failed) is the server's own, logged, and the
      // listener goes on.
      server.off("error", cannotListen)
      server.on("error", (error) => console.error("metrics listener error", error))
      listener = server
      post({ type: "listening" })
    })
  }

  /** Stops listening: no new connection, and the idle ones closed (a scrape under way finishes). */
  const unlisten = () => {
    listener?.close()
    listener?.closeIdleConnections()
    listener = undefined
  }

  // The JSON is written inside the chain, so a batch that cannot be written fails its export (the
  // exporter backs off) rather than the thread.
  const exportBatch = (request: ExportRequest) =>
    Promise.resolve()
      .then(() => send(request, Buffer.from(spansJson(request.batch))))
      .then((answer) => post({ type: "exported", id: request.id, ...answer }, [answer.body]))
      .catch((error: unknown) =>
        post({
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
      case "unlisten":
        unlisten()
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
