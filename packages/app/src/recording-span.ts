// Folio's spans. An unsampled one records nothing. A sampled one is recorded for export: what
// Effect's OtlpTracer's span does (ids, parent, attributes, events, links, status from the exit),
// with the redaction of secret URL parts and the server span's `folio.service` done as each
// attribute is set, and, at its end, a flat record for the observer's thread instead of OTLP's
// nested objects. Why: a sampled span cost ~27 us of CPU at 100% sampling and more at 10%, most of
// it in the OTLP objects (built on the main thread, copied to the thread one object at a time by
// the structured clone, and held until the export, through garbage collections); a record is a
// few objects, and the thread writes the OTLP/JSON from it (observer-worker.ts, `spansJson`).
// Decision 0036, "What watching costs".
import { randomHexChars, redactSecrets } from "@folio/adapters-http/shared"
import { Cause, type Context, type Exit, Formatter, Option, type Tracer } from "effect"
import type { OtlpResource } from "effect/observability"

/** A span's kind as OTLP numbers it. */
const SPAN_KIND: Record<Tracer.SpanKind, number> = {
  internal: 1,
  server: 2,
  client: 3,
  producer: 4,
  consumer: 5
}

/** OTLP's status codes. */
const STATUS_UNSET = 0
const STATUS_OK = 1
const STATUS_ERROR = 2

/**
 * Attributes as a flat list, key then value: a value is a string, number, boolean or bigint as it
 * was set, an array of them, or (anything else) Effect's formatting of it as a string.
 */
export type FlatAttributes = Array<unknown>

/**
 * A finished span, for the observer's thread (a few objects where OTLP has dozens): ids, name, kind,
 * times in Unix-epoch nanoseconds, status, attributes, and events (`[name, time, attributes]`
 * each) and links (`[traceId, spanId, attributes]` each), flat.
 */
export type SpanRecord = readonly [
  traceId: string,
  spanId: string,
  parentSpanId: string | undefined,
  name: string,
  kind: number,
  startTime: bigint,
  endTime: bigint,
  statusCode: number,
  statusMessage: string | undefined,
  attributes: FlatAttributes,
  events: Array<unknown> | undefined,
  links: Array<unknown> | undefined
]

/**
 * The batch the observer's thread writes as OTLP/JSON (observer-worker.ts, `spansJson`): the
 * resource, the instrumentation scope and the spans' records.
 */
export interface SpanBatch {
  readonly resource: OtlpResource.Resource
  readonly scope: { readonly name: string; readonly version: string }
  readonly spans: ReadonlyArray<SpanRecord>
}

/**
 * `bytes` fresh random bytes (never handed out twice) as lowercase hex, from the shared random
 * text: asking the CSPRNG for each id (`randomBytes(16)`) was two thirds of a sampled span's CPU
 * on the main thread, and the native hex conversions of a span's two ids still ~2 us on a loaded
 * server. (The pool's text lives as long as an id cut from it: until the spans leave for the
 * exporter, a few seconds.)
 */
export const randomHex = (bytes: number): string => randomHexChars(bytes * 2)

/** A value as the record keeps it: a string redacted, a primitive as it is, anything else formatted. */
const recorded = (value: unknown): unknown => {
  switch (typeof value) {
    case "string":
      return redactSecrets(value)
    case "number":
    case "boolean":
    case "bigint":
      return value
    default:
      return Array.isArray(value) ? value.map(recorded) : redactSecrets(Formatter.format(value))
  }
}

const flatten = (entries: Iterable<readonly [string, unknown]>, into: FlatAttributes = []) => {
  for (const [key, value] of entries) into.push(key, recorded(value))
  return into
}

type SpanOptions = Parameters<Tracer.Tracer["span"]>[0]

/**
 * The records of Folio's exporting tracers, by tracer: a node:http fast path whose tracer is one of
 * them records its server span as a record at once (`serverSpanRecord`), without the span object,
 * its attribute map and its status objects that Effect's span interface needs (the span is begun
 * and ended in one call, with all its attributes known).
 */
const directRecorders = new WeakMap<Tracer.Tracer, (record: SpanRecord) => void>()

/** Registers `tracer`'s exporter for direct records (telemetry.ts, for the configured tracer). */
export const recordsDirectly = (tracer: Tracer.Tracer, push: (record: SpanRecord) => void): Tracer.Tracer => {
  directRecorders.set(tracer, push)
  return tracer
}

/** The exporter's push of a tracer of Folio's, if it is one. */
export const directRecorderOf = (tracer: Tracer.Tracer): ((record: SpanRecord) => void) | undefined =>
  directRecorders.get(tracer)

/**
 * A sampled server span that ended well, as a `RecordingSpan` would record it: a new trace (or the
 * caller's, `parent`), a new span id, and the attributes (key, value, ...) redacted as set.
 */
export const serverSpanRecord = (
  parent: Tracer.AnySpan | undefined,
  name: string,
  startTime: bigint,
  endTime: bigint,
  attributes: FlatAttributes
): SpanRecord => {
  for (let i = 1; i < attributes.length; i += 2) attributes[i] = recorded(attributes[i])
  return [
    parent === undefined ? randomHex(16) : parent.traceId,
    randomHex(8),
    parent?.spanId,
    name,
    SPAN_KIND.server,
    startTime,
    endTime,
    STATUS_OK,
    undefined,
    attributes,
    undefined,
    undefined
  ]
}

/** Which of Folio's services a route belongs to: `folio.service` of a server span. */
export type ServiceOfRoute = (route: string) => string

/** Every non-recording span's attributes: none, one shared map (a span is built per request). */
const NO_ATTRIBUTES: ReadonlyMap<string, unknown> = new Map()

/** What every span holds: its options, its status, and its ids, drawn when first read. */
abstract class BaseSpan {
  readonly _tag = "Span"
  readonly name: string
  readonly parent: Option.Option<Tracer.AnySpan>
  readonly annotations: Context.Context<never>
  readonly links: Array<Tracer.SpanLink>
  readonly kind: Tracer.SpanKind
  status: Tracer.SpanStatus
  protected _traceId: string | undefined = undefined
  protected _spanId: string | undefined = undefined

  constructor(options: SpanOptions) {
    this.name = options.name
    this.parent = options.parent
    this.annotations = options.annotations
    this.links = options.links
    this.kind = options.kind
    this.status = { _tag: "Started", startTime: options.startTime }
  }

  get traceId(): string {
    if (this._traceId === undefined)
      this._traceId = Option.isSome(this.parent) ? this.parent.value.traceId : randomHex(16)
    return this._traceId
  }

  get spanId(): string {
    if (this._spanId === undefined) this._spanId = randomHex(8)
    return this._spanId
  }
}

/**
 * A span that is not sampled: it carries the trace's ids (so `traceparent` sent on, a job's context
 * and a log line still name the trace, flagged unsampled) and records nothing, so an unsampled
 * request costs no attribute, event or export work.
 */
export class NonRecordingSpan extends BaseSpan implements Tracer.Span {
  readonly sampled = false
  readonly attributes: ReadonlyMap<string, unknown> = NO_ATTRIBUTES

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    if (this.status._tag === "Started")
      this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute(): void {}
  event(): void {}
  addLinks(): void {}
}

/** A sampled span, recorded for export (the file's header says how). */
export class RecordingSpan extends BaseSpan implements Tracer.Span {
  readonly sampled = true
  private _attributes: Map<string, unknown> | undefined = undefined
  private _events: Array<unknown> | undefined = undefined

  constructor(
    options: SpanOptions,
    private readonly push: (record: SpanRecord) => void,
    private readonly serviceOfRoute: ServiceOfRoute
  ) {
    super(options)
  }

  get attributes(): ReadonlyMap<string, unknown> {
    if (this._attributes === undefined) this._attributes = new Map()
    return this._attributes
  }

  attribute(key: string, value: unknown): void {
    if (this.status._tag === "Ended") return
    if (this._attributes === undefined) this._attributes = new Map()
    // Redacted as it is set, so no secret is held even in the span's own map.
    this._attributes.set(key, recorded(value))
    // The route template the router records names the service, so no handler has to.
    if (key === "http.route" && this.kind === "server" && typeof value === "string")
      this._attributes.set("folio.service", this.serviceOfRoute(value))
  }

  event(name: string, startTime: bigint, attributes?: Record<string, unknown>): void {
    if (this.status._tag === "Ended") return
    if (this._events === undefined) this._events = []
    this._events.push(
      redactSecrets(name),
      startTime,
      attributes === undefined ? [] : flatten(Object.entries(attributes))
    )
  }

  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    if (this.status._tag === "Ended") return
    this.links.push(...links)
  }

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    if (this.status._tag === "Ended") return
    const startTime = this.status.startTime
    this.status = { _tag: "Ended", startTime, endTime, exit }
    const attributes: FlatAttributes = []
    if (this._attributes !== undefined)
      for (const [key, value] of this._attributes) attributes.push(key, value)
    let events = this._events
    let statusCode = STATUS_OK
    let statusMessage: string | undefined
    // As Effect's exporter says an exit: interrupted only is unset, with the attribute; a failure
    // is an error with its first message, and an `exception` event for each error.
    if (exit._tag === "Failure") {
      if (Cause.hasInterruptsOnly(exit.cause)) {
        statusCode = STATUS_UNSET
        attributes.push("effect.fiber.interrupted", true)
      } else {
        const errors = Cause.prettyErrors(exit.cause, { includeCauseInStack: true })
        if (errors.length > 0) {
          statusCode = STATUS_ERROR
          statusMessage = redactSecrets(errors[0]?.message ?? "")
        }
        for (const error of errors) {
          events ??= []
          events.push("exception", endTime, [
            "exception.type",
            error.name,
            "exception.message",
            redactSecrets(error.message),
            "exception.stacktrace",
            redactSecrets(error.stack ?? "No stack trace available")
          ])
        }
      }
    }
    let links: Array<unknown> | undefined
    for (const link of this.links) {
      links ??= []
      links.push(link.span.traceId, link.span.spanId, flatten(Object.entries(link.attributes)))
    }
    this.push([
      this.traceId,
      this.spanId,
      Option.isSome(this.parent) ? this.parent.value.spanId : undefined,
      this.name,
      SPAN_KIND[this.kind] ?? 0,
      startTime,
      endTime,
      statusCode,
      statusMessage,
      attributes,
      events,
      links
    ])
  }
}
