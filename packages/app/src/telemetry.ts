// Traces: OTLP/HTTP export built from the OTEL_* configuration, behind the OpenTelemetry samplers
// and the redaction of secret URL parts: Effect's exporter (effect/observability's OtlpExporter:
// batching, retries, back-off, the flush at shutdown) over Folio's own recording span
// (recording-span.ts) and the observer's thread, which writes the JSON and sends it.
import { Duration, Effect, Layer, Option, Redacted, Tracer, Version } from "effect"
import type { IncomingMessage } from "node:http"
import { FetchHttpClient, type Headers, HttpBody, HttpTraceContext } from "effect/http"
import { OtlpExporter, OtlpResource } from "effect/observability"
import type { TraceSamplerName, TraceSettings } from "./config.js"
import { EncodedInWorker, ObserverThread } from "./observer-thread.js"
import {
  NonRecordingSpan,
  RecordingSpan,
  recordsDirectly,
  type SpanBatch,
  type SpanRecord
} from "./recording-span.js"

/** The resource's service.version: the server's own. */
const SERVICE_VERSION = "1.0.0"

/** Which of Folio's services a route template belongs to (`folio.service`): never a path's values. */
export const serviceOfRoute = (route: string): "forms" | "sharing" | "console" | "public" =>
  route.startsWith("/forms/api") || route.startsWith("/forms/mcp")
    ? "forms"
    : route.startsWith("/share/api") || route.startsWith("/share/mcp")
      ? "sharing"
      : route.startsWith("/console")
        ? "console"
        : "public"

const TWO_POW_52 = 2 ** 52

/**
 * TraceIdRatioBased: sampled when the trace id's low 52 bits fall under `ratio` of their range, so
 * every process deciding on the same trace id with the same ratio decides alike.
 */
export const sampledByRatio = (traceId: string, ratio: number): boolean =>
  ratio >= 1 ? true : ratio <= 0 ? false : Number.parseInt(traceId.slice(-13), 16) / TWO_POW_52 < ratio

/** A caller's trace context from its `traceparent` header, if the header is a valid one. */
const callerSpan = (traceparent: string | undefined) =>
  traceparent === undefined
    ? Option.none<Tracer.ExternalSpan>()
    : HttpTraceContext.w3c({ traceparent } as unknown as Headers.Headers)

/**
 * OTEL_TRACES_SAMPLER's decision for a request, made at the edge before anything is built for it:
 * the parentbased_* samplers follow a caller's sampled flag (`traceparent`) and decide with their
 * root sampler only without one; the root sampler is always_on, always_off, or traceidratio by the
 * caller's trace id (low 52 bits, as every service decides it) or, for a trace begun here, whose id
 * would be random anyway, by a random draw.
 */
export const requestSampler = (sampler: TraceSamplerName, ratio: number) => {
  const decide = traceDecision(sampler, ratio)
  return (traceparent: string | undefined): boolean => decide(callerSpan(traceparent))
}

/**
 * OTEL_TRACES_SAMPLER's decision on a trace whose parent is a caller's, or none: the parentbased_*
 * samplers follow the caller's flag; the root sampler is always_on, always_off, or traceidratio by
 * the caller's trace id or, for a trace begun here, a random draw. Shared by the edge and the spans
 * begun in the process (a job run continuing its stored `traceparent`).
 */
const traceDecision = (sampler: TraceSamplerName, ratio: number) => {
  const parentBased = sampler.startsWith("parentbased_")
  const root = parentBased ? sampler.slice("parentbased_".length) : sampler
  return (caller: Option.Option<Tracer.AnySpan>): boolean => {
    if (Option.isSome(caller) && parentBased) return caller.value.sampled
    if (root === "always_off") return false
    if (root === "always_on") return true
    return Option.isSome(caller) ? sampledByRatio(caller.value.traceId, ratio) : Math.random() < ratio
  }
}

/**
 * The edge's sampling decisions: `draw(message)` makes it (once, when node:http emits the request,
 * before any fast path or the app sees it), `keep(message)` keeps a sampled one for the app (a
 * request no fast path answered), and `sampled(message)` reads it, for Effect's server-span
 * middleware and the request's fiber. Kept in a WeakSet of the sampled messages, not on the message
 * (a property added to node's own objects would give them a second shape on its hot paths); a
 * message never kept is not sampled.
 */
export const requestSampling = (decide: (traceparent: string | undefined) => boolean) => {
  const sampledMessages = new WeakSet<IncomingMessage>()
  return {
    draw: (message: IncomingMessage): boolean => {
      const header = message.headers.traceparent
      return decide(typeof header === "string" ? header : undefined)
    },
    keep: (message: IncomingMessage): void => {
      sampledMessages.add(message)
    },
    sampled: (message: IncomingMessage): boolean => sampledMessages.has(message)
  }
}

export type RequestSampling = ReturnType<typeof requestSampling>

/**
 * OTEL_TRACES_SAMPLER's semantics for the spans begun inside the process. A request's server span
 * is begun only for a request the edge sampled (`requestSampler`), so a server span is recorded;
 * the spans an unsampled request's statements begin have no parent, so they record nothing. Any
 * other span follows its parent's flag when the parent is this process's span or the sampler is
 * parentbased_* (traceidratio decides on an external parent's trace id). A trace
 * begins at a request or at a job run: a job run with no recorded trace is decided by the root
 * sampler, and any other span with no parent at all (a batcher's statement or transaction, the job
 * poll, housekeeping) is never sampled: it is background noise, not a request's or a job's work.
 */
export const samplingTracer = (
  inner: Tracer.Tracer,
  sampler: TraceSamplerName,
  ratio: number
): Tracer.Tracer => {
  const decide = traceDecision(sampler, ratio)
  return Tracer.make({
    ...inner,
    span(options) {
      const parent = options.parent
      let sampled: boolean
      // (A fast path's server span, recorded directly for this tracer's exporter, relies on this:
      // fast-path.ts begins one only for a request the edge sampled.)
      if (options.kind === "server") sampled = true
      // A span of this process decided for the whole trace (by a draw, not by the trace id), so
      // its children follow it under every sampler; a caller's as the sampler says.
      else if (Option.isSome(parent))
        sampled = parent.value._tag === "Span" ? parent.value.sampled : decide(parent)
      // A job run begins a trace (the draw made before the exporter's span is built); any other
      // span without a parent is background work.
      else sampled = options.kind === "consumer" && decide(parent)
      return sampled ? inner.span({ ...options, sampled: true }) : new NonRecordingSpan(options)
    }
  })
}

/**
 * `fetch` for the trace exporter: the observer's thread's (observer-thread.ts), so the batch is
 * written and POSTed off the thread that answers requests. The exporter is built on top of it, so
 * its last flush at shutdown goes before the thread stops.
 */
export const exporterFetchLayer = Layer.effect(
  FetchHttpClient.Fetch,
  Effect.gen(function* () {
    return (yield* ObserverThread).fetch
  })
)

/** The instrumentation scope of every span, as Effect's exporter names it. */
const SCOPE = { name: "effect", version: Version.getCurrentVersion() }

/**
 * The configured tracer: spans sampled as OTEL_TRACES_SAMPLER says, each sampled one recorded
 * redacted (secret path segments and query values) with its service (recording-span.ts), batched
 * by Effect's OTLP exporter (interval, batch size, retries, back-off, the flush when the layer's
 * scope closes at shutdown) and written and POSTed as OTLP/HTTP JSON by the observer's thread. The
 * exporter's own requests are untraced (it turns tracing off around them).
 */
export const otlpTracerLayer = (settings: TraceSettings) =>
  Layer.effect(
    Tracer.Tracer,
    Effect.gen(function* () {
      const resource = yield* OtlpResource.fromConfig({
        serviceName: settings.serviceName,
        serviceVersion: SERVICE_VERSION
      })
      const exporter = yield* OtlpExporter.make({
        label: "OtlpTracer",
        url: settings.url,
        headers: Redacted.value(settings.headers),
        exportInterval: Duration.millis(settings.exportDelayMillis),
        maxBatchSize: settings.exportBatchSize,
        body: (spans) => {
          const batch: SpanBatch = { resource, scope: SCOPE, spans }
          return [
            HttpBody.raw(new EncodedInWorker(batch, settings.exportTimeoutMillis), {
              contentType: "application/json"
            }),
            Effect.void
          ]
        },
        shutdownTimeout: Duration.seconds(3)
      })
      const push = (record: SpanRecord) => exporter.push(record)
      const recording = Tracer.make({ span: (options) => new RecordingSpan(options, push, serviceOfRoute) })
      return recordsDirectly(samplingTracer(recording, settings.sampler, settings.ratio), push)
    })
  ).pipe(Layer.provide(Layer.mergeAll(OtlpExporter.layerFlusher, FetchHttpClient.layer, exporterFetchLayer)))
