// The observer's thread, from the main thread's side: one worker thread (observer-worker.ts says
// why) for the Prometheus listener's HTTP and the trace exporter's requests, started when the first
// of them needs it and stopped when the app's scope closes, after both.
import { Worker } from "node:worker_threads"
import { Context, Effect, Layer } from "effect"
import type { ExportRequest, FromObserver, ToObserver } from "./observer-worker.js"
import type { SpanBatch } from "./recording-span.js"

/**
 * A batch of spans for the observer's thread to encode as OTLP/JSON (observer-worker.ts), not this
 * one, and how long its request may take (OTEL_EXPORTER_OTLP_TIMEOUT).
 */
export class EncodedInWorker {
  constructor(
    readonly batch: SpanBatch,
    readonly timeoutMillis: number
  ) {}
}

export interface ObserverThreadShape {
  /**
   * Listen for scrapes on the thread (once per app): each `GET /metrics` there is answered with
   * what `scrape` gives. Settles when the thread listens, or fails with node's own error (its code
   * and syscall) when it cannot.
   */
  readonly listen: (port: number, host: string, scrape: () => Promise<string>) => Promise<void>
  /** Stop listening (the app is closing): scrapes from now on are refused, not answered. */
  readonly unlisten: () => void
  /**
   * `fetch` for the trace exporter, sent from the thread: the request's URL and headers and the
   * batch of spans (an `EncodedInWorker` body) go over, the collector's whole answer comes back as a
   * Response. A request the thread could not send, one aborted, or one after the thread died
   * rejects as fetch's would, so the exporter retries and backs off as it does on its own.
   */
  readonly fetch: typeof globalThis.fetch
}

export class ObserverThread extends Context.Service<ObserverThread, ObserverThreadShape>()(
  "@folio/app/ObserverThread"
) {}

/** The thread's file: compiled beside this one, or (tests, run from source) the source. */
const workerFile = new URL(
  import.meta.url.endsWith(".ts") ? "./observer-worker.ts" : "./observer-worker.js",
  import.meta.url
)

/** A status whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304])

type Exported = Extract<FromObserver, { type: "exported" } | { type: "export-failed" }>

/** Starts the thread on first use; what its users wait on fails at once if it dies. */
const observerThread = () => {
  let worker: Worker | undefined
  let stopped: string | undefined
  const exports = new Map<number, (answer: Exported) => void>()
  let nextExport = 0
  let listening: { resolve: () => void; reject: (error: Error) => void } | undefined
  let scrape: (() => Promise<string>) | undefined

  const stop = (why: string) => {
    stopped ??= why
    for (const [id, settle] of exports) settle({ type: "export-failed", id, error: why })
    exports.clear()
    listening?.reject(new Error(why))
    listening = undefined
  }

  const post = (message: ToObserver) => thread().postMessage(message)

  const onMessage = (message: FromObserver) => {
    switch (message.type) {
      case "exported":
      case "export-failed":
        exports.get(message.id)?.(message)
        exports.delete(message.id)
        break
      case "scrape": {
        const id = message.id
        const read = scrape
        if (read === undefined) post({ type: "scrape-failed", id })
        else
          read().then(
            (body) => post({ type: "scrape-answer", id, body }),
            () => post({ type: "scrape-failed", id })
          )
        break
      }
      case "listening":
        listening?.resolve()
        listening = undefined
        break
      case "cannot-listen":
        // Node's own error, rebuilt: its code and syscall say why in the start-up line.
        listening?.reject(
          Object.assign(new Error(message.message), { code: message.code, syscall: message.syscall })
        )
        listening = undefined
        scrape = undefined
        break
    }
  }

  const thread = (): Worker => {
    if (worker !== undefined) return worker
    const started = new Worker(workerFile)
    // The app's own server keeps the process alive; this thread never does on its own.
    started.unref()
    started.on("message", onMessage)
    started.on("error", (error) => {
      console.error("the observer's thread failed", error)
      stop(error.message)
    })
    started.on("exit", () => stop("the observer's thread has stopped"))
    worker = started
    return started
  }

  const listen: ObserverThreadShape["listen"] = (port, host, read) =>
    new Promise<void>((resolve, reject) => {
      if (stopped !== undefined) return reject(new Error(stopped))
      if (scrape !== undefined || listening !== undefined)
        return reject(new Error("the observer's thread already listens for metrics"))
      scrape = read
      listening = { resolve, reject }
      post({ type: "listen", port, host })
    })

  const fetch: typeof globalThis.fetch = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      if (stopped !== undefined) return reject(new TypeError(stopped))
      const body: unknown = init?.body
      if (!(body instanceof EncodedInWorker))
        return reject(new TypeError("the observer's thread sends only a batch of spans"))
      const signal = init?.signal
      if (signal?.aborted) return reject(signal.reason)
      const id = nextExport++
      const onAbort = () => {
        exports.delete(id)
        reject(signal?.reason)
      }
      signal?.addEventListener("abort", onAbort, { once: true })
      exports.set(id, (answer) => {
        signal?.removeEventListener("abort", onAbort)
        if (answer.type === "export-failed") reject(new TypeError(answer.error))
        else
          try {
            resolve(
              new Response(NULL_BODY_STATUS.has(answer.status) ? null : answer.body, {
                status: answer.status,
                statusText: answer.statusText,
                headers: answer.headers as Array<[string, string]>
              })
            )
          } catch {
            // A status or status text a Response cannot hold (a status over 599, a status text
            // beyond Latin-1): an answer the exporter cannot read, so a failed export, not a throw
            // in the thread's message handler.
            reject(new TypeError("the collector's answer cannot be read"))
          }
      })
      const request: ExportRequest = {
        type: "export",
        id,
        url: input instanceof Request ? input.url : String(input),
        method: init?.method ?? "GET",
        headers: [...new globalThis.Headers(init?.headers)],
        batch: body.batch,
        timeoutMillis: body.timeoutMillis
      }
      post(request)
    })

  const unlisten = () => {
    scrape = undefined
    if (worker !== undefined && stopped === undefined) post({ type: "unlisten" })
  }

  const terminate = async () => {
    if (worker !== undefined) await worker.terminate()
  }
  return { service: ObserverThread.of({ listen, unlisten, fetch }), terminate }
}

/**
 * The observer's thread for one app: started by its first user (the metrics listener or the trace
 * exporter; an app with neither starts none), stopped when this layer's scope closes. Provide it
 * outside both users, so it stops after the listener and after the exporter's last flush.
 */
export const ObserverThreadLive = Layer.effect(
  ObserverThread,
  Effect.map(
    Effect.acquireRelease(Effect.sync(observerThread), ({ terminate }) => Effect.promise(terminate)),
    ({ service }) => service
  )
)
