// Puts the adapters' node:http fast paths in front of the Effect server: each request the server
// emits is offered to them first, and only a request none of them answers reaches the Effect app.
// (NodeHttpServer adds its own "request" listener; wrapping `emit` is what lets a fast path take a
// request without that listener also seeing it.) The wrapper is removed when its scope closes.
// With metrics on, each answer a fast path gives is counted and timed as the routes' answers are.
// With tracing on, a request a fast path answers gets its server span here, as a routed one gets
// Effect's: continuing an incoming `traceparent`, ended when the response is sent; only when the
// edge's sampling decision (made here first, for every request) says it is traced.
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { FastPath } from "@folio/adapters-http"
import { makeFastPathMetrics } from "@folio/adapters-http/shared"
import { Context, Effect, Exit, Option, References, Tracer } from "effect"
import { type Headers, HttpTraceContext } from "effect/http"
import { directRecorderOf, type FlatAttributes, type SpanRecord, serverSpanRecord } from "./recording-span.js"
import { type RequestSampling, serviceOfRoute } from "./telemetry.js"

/** Unix-epoch nanoseconds (as Effect's clock gives spans), from the monotonic clock. */
const epochOrigin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint()
const nowNanos = () => epochOrigin + process.hrtime.bigint()

/** A fast path's answer as its server span's attributes (key, value, ...), before redaction. */
const fastPathAttributes = (request: IncomingMessage, response: ServerResponse): FlatAttributes => {
  const url = request.url ?? "/"
  const query = url.indexOf("?")
  const path = query < 0 ? url : url.slice(0, query)
  return [
    "http.request.method",
    request.method ?? "GET",
    "url.path",
    path,
    "http.response.status_code",
    response.statusCode,
    "folio.service",
    serviceOfRoute(path),
    "folio.fast_path",
    true
  ]
}

/** The caller's span of a request with a `traceparent` header, if it is a valid one. */
const callerOf = (request: IncomingMessage): Option.Option<Tracer.ExternalSpan> =>
  request.headers.traceparent === undefined
    ? Option.none()
    : HttpTraceContext.w3c(request.headers as Headers.Headers)

/**
 * Ends the span when the answer is sent: at once for an answer already written (a redirect), or
 * when it finishes (the authorization server's). No listener on a response that needs none: node's
 * response code stays on the one path every other response takes.
 */
const whenAnswered = (response: ServerResponse, end: () => void) => {
  if (response.writableEnded) end()
  else response.once("finish", end)
}

/**
 * The server span of a sampled request a fast path answered, begun at `startTime` (taken before the
 * fast path ran), through any tracer (a test's recorder): the tracer's spans redact the path's
 * secret segments as they are set.
 */
const fastPathSpan = (
  tracer: Tracer.Tracer,
  request: IncomingMessage,
  response: ServerResponse,
  startTime: bigint
) => {
  const parent = callerOf(request)
  const span = tracer.span({
    name: request.method ?? "GET",
    parent,
    annotations: Context.empty(),
    links: [],
    startTime,
    kind: "server",
    root: Option.isNone(parent),
    sampled: true
  })
  whenAnswered(response, () => {
    const attributes = fastPathAttributes(request, response)
    for (let i = 0; i < attributes.length; i += 2) span.attribute(attributes[i] as string, attributes[i + 1])
    span.end(nowNanos(), Exit.void)
  })
}

/**
 * The same span, with Folio's exporting tracer: recorded at once, as the span would record it,
 * for its exporter. (A sampled redirect's span took ~12 us of the main thread on a loaded server,
 * its code run cold for one request in ten; the span object, its attribute map and its statuses
 * were half of it.)
 */
const fastPathRecord = (
  push: (record: SpanRecord) => void,
  request: IncomingMessage,
  response: ServerResponse,
  startTime: bigint
) => {
  const parent = Option.getOrUndefined(callerOf(request))
  whenAnswered(response, () =>
    push(
      serverSpanRecord(
        parent,
        request.method ?? "GET",
        startTime,
        nowNanos(),
        fastPathAttributes(request, response)
      )
    )
  )
}

/**
 * Offers each request to `paths` first. With `sampling`, the edge's sampling decision is made here,
 * for every request, before anything else sees it (none: every request traced when a tracer is on,
 * as with a test's recorder).
 */
export const installFastPaths = (
  server: Server,
  paths: ReadonlyArray<FastPath>,
  sampling: Option.Option<RequestSampling>
) =>
  Effect.acquireRelease(
    Effect.flatMap(makeFastPathMetrics, (measured) =>
      Effect.withFiber((fiber) => {
        // Tracing off (no tracer, or the native one): no clock read, no span.
        const tracer = fiber.getRef(References.TracerEnabled) ? fiber.getRef(Tracer.Tracer) : undefined
        const traced = tracer !== undefined && tracer !== Tracer.nativeTracer ? tracer : undefined
        const edge = Option.isSome(sampling) && traced !== undefined ? sampling.value : undefined
        // Folio's exporting tracer takes a fast path's span as a record, at once.
        const direct = traced === undefined ? undefined : directRecorderOf(traced)
        const emit = server.emit
        server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
          if (event === "request") {
            const [request, response] = args as [IncomingMessage, ServerResponse]
            // Drawn here for every request (and kept, for the app, if no fast path takes it).
            const spanned = traced !== undefined && (edge === undefined || edge.draw(request))
            const startTime = spanned ? nowNanos() : 0n
            const started = measured === undefined ? 0 : performance.now()
            for (const path of paths) {
              try {
                if (path(request, response)) {
                  measured?.(request, response, started)
                  if (spanned) {
                    if (direct !== undefined) fastPathRecord(direct, request, response, startTime)
                    else fastPathSpan(traced as Tracer.Tracer, request, response, startTime)
                  }
                  return true
                }
              } catch (e) {
                // A fast path that fails leaves the request to the app, which answers it properly.
                console.error("fast path failed; the request goes to the app", e)
                if (response.headersSent) return true
              }
            }
            if (spanned) edge?.keep(request)
          }
          return Reflect.apply(emit, this, [event, ...args]) as boolean
        } as Server["emit"]
        return Effect.succeed(emit)
      })
    ),
    (emit) =>
      Effect.sync(() => {
        server.emit = emit
      })
  )
