// A job's trace context: the W3C `traceparent` of the span that queued it (a request's, another
// job's), stored with the job so its run continues that trace. Nothing when tracing is off.
import { Fiber, Option, type Tracer } from "effect"
import { HttpTraceContext } from "effect/http"

/**
 * The current fiber's span as a `traceparent`, read synchronously (the memory store queues jobs
 * inside Effect.sync); null outside a span or with tracing off (Effect's no-op spans).
 */
export const currentTraceparent = (): string | null => {
  const span = Fiber.getCurrent()?.cache.span
  if (span === undefined || span.traceId === "noop") return null
  return `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`
}

/** The span a stored `traceparent` names, as the parent of the job's run; none if absent or malformed. */
export const traceParentOf = (traceparent: string | null | undefined): Tracer.ExternalSpan | undefined =>
  traceparent == null ? undefined : Option.getOrUndefined(HttpTraceContext.w3c({ traceparent } as never))
