// The trace exporter's requests, sent from a worker thread of its own (telemetry.ts starts it): the
// main thread hands each batch's request over (its URL, headers and the spans as data), this thread
// writes the JSON and POSTs it, and the collector's answer goes back. Why a thread: a batch POSTed by fetch on the main thread runs
// undici's client and its sockets through node's net and stream code the app's requests run
// through; V8 keeps recompiling that code for both kinds of socket, and at 10% sampling that, not
// recording the spans, was most of what tracing cost (decision 0036, "What watching costs").
// Only node's built-ins here, and only syntax Node strips as it loads (tests run this file as
// TypeScript, `npm start` the compiled one).
import { parentPort } from "node:worker_threads"

/** One request to send: the exporter's own, already encoded. */
export type OtlpWorkerRequest = {
  readonly id: number
  readonly url: string
  readonly method: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: string | Uint8Array<ArrayBuffer> | undefined
  /** A batch of spans to write as OTLP/JSON here (telemetry.ts, otlpWorkerSerialization). */
  readonly json?: unknown
}
/** The collector's answer, whole, or why there was none (the exporter retries or backs off). */
export type OtlpWorkerAnswer =
  | {
      readonly id: number
      readonly status: number
      readonly statusText: string
      readonly headers: ReadonlyArray<readonly [string, string]>
      readonly body: ArrayBuffer
    }
  | { readonly id: number; readonly error: string }

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
  port.on("message", (request: OtlpWorkerRequest) => {
    fetch(request.url, {
      method: request.method,
      headers: request.headers as Array<[string, string]>,
      body: request.json !== undefined ? encode(request.json) : (request.body ?? null)
    })
      .then(async (response) => {
        const body = await response.arrayBuffer()
        const answer: OtlpWorkerAnswer = {
          id: request.id,
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
          body
        }
        port.postMessage(answer, [body])
      })
      .catch((error: unknown) => {
        const answer: OtlpWorkerAnswer = {
          id: request.id,
          error: error instanceof Error ? error.message : String(error)
        }
        port.postMessage(answer)
      })
  })
}
