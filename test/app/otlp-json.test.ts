// Folio's recorded spans (recording-span.ts) written as OTLP/JSON by the observer's thread
// (observer-worker.ts, `spansJson`) read back exactly as Effect's own OTLP tracer writes the same
// spans: every attribute type (strings, integers safe and not, doubles finite and not, bigints that
// fit 64 bits and not, booleans, arrays, an object), events, links, a child, a failure with its
// exception event and an interruption. Only the random ids and the clock's times are set aside.
import { Context, Effect, Exit, Layer, Option, Redacted, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import { describe, expect, it } from "vitest"
import { ObserverThread, otlpTracerLayer } from "@folio/app"
import type { EncodedInWorker } from "../../packages/app/src/observer-thread.js"
import { spansJson } from "../../packages/app/src/observer-worker.js"
import {
  directRecorderOf,
  RecordingSpan,
  randomHex,
  type SpanRecord,
  serverSpanRecord
} from "../../packages/app/src/recording-span.js"

const LINKED = Tracer.externalSpan({
  traceId: "0af7651916cd43dd8448eb211c80319c",
  spanId: "b7ad6b7169203331"
})

const program = Effect.withSpan(
  Effect.gen(function* () {
    yield* Effect.annotateCurrentSpan({
      text: "a value",
      integer: 42,
      negative: -7,
      double: 1.5,
      notANumber: Number.NaN,
      infinite: Number.NEGATIVE_INFINITY,
      unsafe: 2 ** 60,
      huge: 1e300,
      small: 12n,
      tooBig: 2n ** 70n,
      yes: true,
      list: ["a", 1, true],
      object: { x: 1, y: ["z"] }
    })
    const span = yield* Effect.currentSpan
    span.event("an event", 5_000n, { k: "v", n: 3 })
    yield* Effect.withSpan(Effect.void, "child", {
      kind: "client",
      attributes: { "db.query.text": "x is null" }
    })
    yield* Effect.ignore(Effect.withSpan(Effect.fail(new Error("it broke")), "failing"))
    yield* Effect.exit(Effect.withSpan(Effect.interrupt, "interrupted"))
  }),
  "request",
  { kind: "server", links: [{ span: LINKED, attributes: { why: "follows" } }] }
)

/** A fetch that keeps each body it is given and answers 200, as a collector would. */
const collecting = (bodies: Array<string>, body: (init: RequestInit | undefined) => string) =>
  ((_input: string | URL | Request, init?: RequestInit) => {
    bodies.push(body(init))
    return Promise.resolve(new Response(null, { status: 200 }))
  }) as typeof globalThis.fetch

const settings = {
  url: "http://127.0.0.1:4318/v1/traces",
  serviceName: "folio-test",
  sampler: "always_on" as const,
  ratio: 1,
  headers: Redacted.make({}),
  exportDelayMillis: 60_000,
  exportBatchSize: 1000,
  exportTimeoutMillis: 10_000
}

const effectsOwn = async () => {
  const bodies: Array<string> = []
  const tracer = Layer.effect(
    Tracer.Tracer,
    OtlpTracer.make({
      url: settings.url,
      resource: { serviceName: settings.serviceName, serviceVersion: "1.0.0" },
      exportInterval: "60 seconds"
    })
  ).pipe(
    Layer.provide(
      Layer.mergeAll(
        OtlpExporter.layerFlusher,
        OtlpSerialization.layerJson,
        FetchHttpClient.layer,
        Layer.succeed(
          FetchHttpClient.Fetch,
          collecting(bodies, (init) => String(init?.body))
        )
      )
    )
  )
  await Effect.runPromise(Effect.provide(program, tracer))
  return bodies
}

const noBatch = (): never => {
  throw new Error("the exporter sent no batch of spans")
}

/** The observer's thread in this process: each batch written as the thread writes it, and kept. */
const writingHere = (bodies: Array<string>) =>
  Layer.succeed(
    ObserverThread,
    ObserverThread.of({
      listen: () => Promise.reject(new Error("no listener here")),
      unlisten: () => {},
      fetch: collecting(bodies, (init) =>
        spansJson((init?.body as EncodedInWorker | undefined)?.batch ?? noBatch())
      )
    })
  )

const folios = async () => {
  const bodies: Array<string> = []
  await Effect.runPromise(
    Effect.provide(program, otlpTracerLayer(settings).pipe(Layer.provide(writingHere(bodies))))
  )
  return bodies
}

/** The export with each id named by its first appearance and every time but the event's set aside. */
const normalized = (bodies: ReadonlyArray<string>) => {
  const ids = new Map<string, string>()
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `id${ids.size}`)
    return ids.get(id)
  }
  return bodies.map((body) =>
    JSON.parse(body, (key, value) =>
      key === "traceId" || key === "spanId" || key === "parentSpanId"
        ? idOf(value as string)
        : (key === "startTimeUnixNano" || key === "endTimeUnixNano" || key === "timeUnixNano") &&
            value !== "5000"
          ? "time"
          : value
    )
  )
}

describe("OTLP/JSON from Folio's recorded spans", () => {
  it("reads back as Effect's own exporter writes the same spans", async () => {
    const [theirs, ours] = [await effectsOwn(), await folios()]
    expect(theirs).toHaveLength(1)
    expect(ours).toHaveLength(1)
    expect(normalized(ours)).toEqual(normalized(theirs))
    // The spans are there, with what the comparison could miss if both were empty.
    const spans = normalized(ours)[0].resourceSpans[0].scopeSpans[0].spans as Array<{
      name: string
      status: { code: number }
    }>
    expect(spans.map((s) => s.name)).toEqual(["child", "failing", "interrupted", "request"])
    expect(spans.map((s) => s.status.code)).toEqual([1, 2, 0, 1])
    expect(ours[0]).toContain('"doubleValue":"NaN"')
    expect(ours[0]).toContain('"doubleValue":"-Infinity"')
    expect(ours[0]).toContain('"intValue":"1152921504606846976"')
  })
})

describe("span ids", () => {
  it("are fresh lowercase hex of the asked length, across refills of the random pool", () => {
    // 70,000 ids of 8 and 16 bytes draw 840,000 bytes: the 64 KiB pool is refilled twelve times over.
    const seen = new Set<string>()
    for (let i = 0; i < 70_000; i++) {
      const id = randomHex(i % 2 === 0 ? 8 : 16)
      expect(id).toMatch(i % 2 === 0 ? /^[0-9a-f]{16}$/ : /^[0-9a-f]{32}$/)
      seen.add(id)
    }
    expect(seen.size).toBe(70_000)
    // Not a constant pool: the bytes differ between draws (a zeroed pool would give one id).
    expect(new Set([...seen].map((id) => id.slice(0, 4))).size).toBeGreaterThan(1000)
  })
})

describe("a fast path's server span recorded directly", () => {
  // What fast-path.ts hands Folio's exporter at once, for the span a RecordingSpan records from the
  // same begin, attributes and end: equal but for the fresh ids, and redacted alike.
  const attributes = () => [
    "http.request.method",
    "GET",
    "url.path",
    "/u/upr_0123456789abcdef/files",
    "http.response.status_code",
    302,
    "folio.service",
    "public",
    "folio.fast_path",
    true
  ]
  const viaSpan = (parent: Option.Option<Tracer.AnySpan>) => {
    const records: Array<SpanRecord> = []
    const span = new RecordingSpan(
      {
        name: "GET",
        parent,
        annotations: Context.empty(),
        links: [],
        startTime: 10n,
        kind: "server",
        root: Option.isNone(parent),
        sampled: true
      },
      (record) => records.push(record),
      () => "public"
    )
    const flat = attributes()
    for (let i = 0; i < flat.length; i += 2) span.attribute(flat[i] as string, flat[i + 1])
    span.end(20n, Exit.void)
    return records[0] as SpanRecord
  }

  it("is what Folio's configured tracer takes from a fast path", async () => {
    const configured = await Effect.runPromise(
      Effect.withFiber((fiber) => Effect.succeed(fiber.getRef(Tracer.Tracer))).pipe(
        Effect.provide(otlpTracerLayer(settings).pipe(Layer.provide(writingHere([]))))
      )
    )
    expect(directRecorderOf(configured)).toBeDefined()
    // Any other tracer (a test's recorder) gets a span through Effect's interface.
    expect(
      directRecorderOf(Tracer.make({ span: (options) => new Tracer.NativeSpan(options) }))
    ).toBeUndefined()
  })

  it("is the record the span would make, for a new trace and for a caller's", () => {
    const caller = Tracer.externalSpan({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331"
    })
    for (const parent of [Option.none<Tracer.AnySpan>(), Option.some<Tracer.AnySpan>(caller)]) {
      const direct = serverSpanRecord(Option.getOrUndefined(parent), "GET", 10n, 20n, attributes())
      const spanned = viaSpan(parent)
      expect(direct.slice(2)).toEqual(spanned.slice(2))
      expect(direct[0]).toMatch(/^[0-9a-f]{32}$/)
      expect(direct[1]).toMatch(/^[0-9a-f]{16}$/)
      if (Option.isSome(parent)) {
        expect(direct[0]).toBe(caller.traceId)
        expect(direct[2]).toBe(caller.spanId)
      } else expect(direct[0]).not.toBe(spanned[0])
      // The upload request's secret segment is redacted in both.
      expect(JSON.stringify(direct[9])).not.toContain("upr_0123456789abcdef")
    }
  })
})
