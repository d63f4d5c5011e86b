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
import { type RequestSampling, serviceOfRoute } from "./telemetry.js"

/** Unix-epoch nanoseconds (as Effect's clock gives spans), from the monotonic clock. */
const epochOrigin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint()
const nowNanos = () => epochOrigin + process.hrtime.bigint()

/**
 * The server span of a sampled request a fast path answered, begun at `startTime` (taken before the
 * fast path ran). The tracer's spans redact the path's secret segments as they are set.
 */
const fastPathSpan = (
  tracer: Tracer.Tracer,
  request: IncomingMessage,
  response: ServerResponse,
  startTime: bigint
) => {
  const parent =
    request.headers.traceparent === undefined
      ? Option.none<Tracer.AnySpan>()
      : HttpTraceContext.w3c(request.headers as Headers.Headers)
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
  const end = () => {
    const path = (request.url ?? "/").split("?", 1)[0] ?? "/"
    span.attribute("http.request.method", request.method ?? "GET")
    span.attribute("url.path", path)
    span.attribute("http.response.status_code", response.statusCode)
    span.attribute("folio.service", serviceOfRoute(path))
    span.attribute("folio.fast_path", true)
    span.end(nowNanos(), Exit.void)
  }
  // An answer already written (a redirect) ends its span now; one still being written (the
  // authorization server's) when it finishes. No listener on a response that needs none: node's
  // response code stays on the one path every other response takes.
  if (response.writableEnded) end()
  else response.once("finish", end)
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
        const decide = Option.isSome(sampling) && traced !== undefined ? sampling.value.decide : undefined
        const emit = server.emit
        server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
          if (event === "request") {
            const [request, response] = args as [IncomingMessage, ServerResponse]
            // Decided here for every request (and kept, for the app if no fast path takes it).
            const spanned =
              traced !== undefined && (decide === undefined || decide(request)) ? traced : undefined
            const startTime = spanned === undefined ? 0n : nowNanos()
            const started = measured === undefined ? 0 : performance.now()
            for (const path of paths) {
              try {
                if (path(request, response)) {
                  measured?.(request, response, started)
                  if (spanned !== undefined) fastPathSpan(spanned, request, response, startTime)
                  return true
                }
              } catch (e) {
                // A fast path that fails leaves the request to the app, which answers it properly.
                console.error("fast path failed; the request goes to the app", e)
                if (response.headersSent) return true
              }
            }
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
