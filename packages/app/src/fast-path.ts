// Puts the adapters' node:http fast paths in front of the Effect server: each request the server
// emits is offered to them first, and only a request none of them answers reaches the Effect app.
// (NodeHttpServer adds its own "request" listener; wrapping `emit` is what lets a fast path take a
// request without that listener also seeing it.) The wrapper is removed when its scope closes.
// With metrics on, each answer a fast path gives is counted and timed as the routes' answers are.
// With tracing on, a request a fast path answers gets its server span here, as a routed one gets
// Effect's: continuing an incoming `traceparent`, ended when the response is sent.
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { FastPath } from "@folio/adapters-http"
import { makeFastPathMetrics } from "@folio/adapters-http/shared"
import { Context, Effect, Exit, Option, References, Tracer } from "effect"
import { type Headers, HttpTraceContext } from "effect/http"
import { serviceOfRoute } from "./telemetry.js"

/** Unix-epoch nanoseconds (as Effect's clock gives spans), from the monotonic clock. */
const epochOrigin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint()
const nowNanos = () => epochOrigin + process.hrtime.bigint()

/**
 * The server span of a request a fast path answered, begun at `startTime` (taken before the fast
 * path ran, so nothing is spent on the requests it leaves to the app). Attributes only when sampled;
 * the tracer (redactingTracer within) redacts the path's secret segments.
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
    sampled: Option.isNone(parent) || parent.value.sampled
  })
  // An unsampled span records nothing and is never exported: nothing to wait for.
  if (!span.sampled) return
  response.once("finish", () => {
    const path = (request.url ?? "/").split("?", 1)[0] ?? "/"
    span.attribute("http.request.method", request.method ?? "GET")
    span.attribute("url.path", path)
    span.attribute("http.response.status_code", response.statusCode)
    span.attribute("folio.service", serviceOfRoute(path))
    span.attribute("folio.fast_path", true)
    span.end(nowNanos(), Exit.void)
  })
}

export const installFastPaths = (server: Server, paths: ReadonlyArray<FastPath>) =>
  Effect.acquireRelease(
    Effect.flatMap(makeFastPathMetrics, (measured) =>
      Effect.withFiber((fiber) => {
        // Tracing off (no tracer, or the native one): no clock read, no span.
        const tracer = fiber.getRef(References.TracerEnabled) ? fiber.getRef(Tracer.Tracer) : undefined
        const traced = tracer !== undefined && tracer !== Tracer.nativeTracer ? tracer : undefined
        const emit = server.emit
        server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
          if (event === "request") {
            const [request, response] = args as [IncomingMessage, ServerResponse]
            const startTime = traced === undefined ? 0n : nowNanos()
            const started = measured === undefined ? 0 : performance.now()
            for (const path of paths) {
              try {
                if (path(request, response)) {
                  measured?.(request, response, started)
                  if (traced !== undefined) fastPathSpan(traced, request, response, startTime)
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
