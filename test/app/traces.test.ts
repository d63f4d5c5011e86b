// Traces as an operator gets them: the app started with OTEL-style settings (config.traces), its
// spans exported by Effect's OTLP/HTTP exporter to a receiver on the loopback, read back as JSON.
// One request per service gives the expected tree; an incoming traceparent is continued; the
// samplers decide as OTEL_TRACES_SAMPLER says; no key, token, password or answer is in any span.
import { randomBytes } from "node:crypto"
import { readdirSync, rmSync } from "node:fs"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { PgliteStorageLive } from "@folio/adapters-storage"
import { jsonWithTraceIds, ObserverThreadLive, otlpTracerLayer, type TraceSamplerName } from "@folio/app"
import { FORMS_SCOPES, SHARING_SCOPES } from "@folio/domain"
import { Effect, Layer, Logger, Option, Redacted, References } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPgliteDir } from "../support/pglite-dir.js"
import { type RunningApp, startApp } from "../support/app.js"
import { signIn } from "../support/console.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { startHttpsReceiver } from "../support/https-receiver.js"
import { freePort } from "../support/free-port.js"
import { build, migratedDataDir, startServer } from "./process.js"
import { attr, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.js"

/** The exporter as the app builds it: over an observer's thread of its own, stopped after its last flush. */
const exporterOn = (settings: Parameters<typeof otlpTracerLayer>[0]) =>
  otlpTracerLayer(settings).pipe(Layer.provide(ObserverThreadLive))

const SERVER = 2
const CLIENT = 3
const CONSUMER = 5

const traces = (url: string, sampler: TraceSamplerName, ratio = 1) =>
  Option.some({
    url,
    serviceName: "folio-test",
    sampler,
    ratio,
    headers: Redacted.make({ "x-collector": "k" }),
    exportDelayMillis: 1000,
    exportBatchSize: 1000,
    exportTimeoutMillis: 10_000
  })

const hex = (bytes: number) => randomBytes(bytes).toString("hex")
const traceparent = (traceId: string, spanId: string, sampled: boolean) =>
  `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`

const post = (origin: string, path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

/** The spans of a trace under `root`, by parent: every descendant, at any depth. */
const descendants = (spans: ReadonlyArray<ReceivedSpan>, root: ReceivedSpan) => {
  const found: Array<ReceivedSpan> = []
  const walk = (id: string) => {
    for (const s of spans)
      if (s.parentSpanId === id && s.traceId === root.traceId) {
        found.push(s)
        walk(s.spanId)
      }
  }
  walk(root.spanId)
  return found
}

const serverSpan = (spans: ReadonlyArray<ReceivedSpan>, route: string, method = "POST") =>
  spans.find(
    (s) => s.kind === SERVER && attr(s, "http.route") === route && attr(s, "http.request.method") === method
  )

describe("traces exported over OTLP/HTTP", () => {
  let receiver: OtlpReceiver
  let app: RunningApp
  const { dir, dataDir } = freshPgliteDir("folio-traces-")
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    app = await startApp({
      storage: PgliteStorageLive({ dataDir }),
      config: { traces: traces(receiver.url, "always_on") }
    })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("a forms REST call: a server span with route, status, service and workspace, its SQL statements as children", async () => {
    const { key, workspaceId } = await newWorkspaceKey(app, FORMS_SCOPES)
    const title = `Title ${hex(8)}`
    const created = await post(app.origin, "/forms/api/v1/forms", bearer(key), {
      title,
      definition: { schemaVersion: 1, blocks: [{ id: "blk_name0001", type: "short_text", label: "Name" }] }
    })
    expect(created.status).toBe(201)
    const span = await receiver.waitFor((spans) => serverSpan(spans, "/forms/api/v1/forms"))
    expect(attr(span, "http.response.status_code")).toBe(201)
    expect(attr(span, "folio.service")).toBe("forms")
    expect(attr(span, "folio.workspace.id")).toBe(workspaceId)
    expect(span.parentSpanId ?? "").toBe("")
    const sql = await receiver.waitFor((spans) => {
      const children = descendants(spans, span).filter((s) => s.kind === CLIENT && attr(s, "db.query.text"))
      return children.length > 0 ? children : undefined
    })
    for (const statement of sql) {
      expect(statement.traceId).toBe(span.traceId)
      // Parameterised: the values are never in the text, and never recorded beside it.
      expect(String(attr(statement, "db.query.text"))).not.toContain(title)
    }
    expect(sql.some((s) => String(attr(s, "db.query.text")).includes("$1"))).toBe(true)
    expect(receiver.resource()["service.name"]?.stringValue).toBe("folio-test")
    // The collector's headers (OTEL_EXPORTER_OTLP_HEADERS) go with every export.
    expect(receiver.requestHeaders()[0]?.["x-collector"]).toBe("k")
  })

  it("continues an incoming traceparent on a sharing REST call", async () => {
    const { key } = await newWorkspaceKey(app, SHARING_SCOPES, "sharing")
    const [traceId, parentId] = [hex(16), hex(8)]
    const response = await post(
      app.origin,
      "/share/api/v1/resources",
      { ...bearer(key), traceparent: traceparent(traceId, parentId, true) },
      { type: "link", target_url: "https://example.com/" }
    )
    expect(response.status).toBe(201)
    const span = await receiver.waitFor((spans) => serverSpan(spans, "/share/api/v1/resources"))
    expect(span.traceId).toBe(traceId)
    expect(span.parentSpanId).toBe(parentId)
    expect(attr(span, "folio.service")).toBe("sharing")
  })

  it("gives the warm redirect (the node:http fast path) a server span, continuing a traceparent", async () => {
    const { key } = await newWorkspaceKey(app, SHARING_SCOPES, "sharing")
    const link = (await (
      await post(app.origin, "/share/api/v1/resources", bearer(key), {
        type: "link",
        target_url: "https://example.com/"
      })
    ).json()) as { slug: string }
    // Cold: through the routes (and cached); warm: answered on node:http.
    expect((await fetch(`${app.origin}/s/${link.slug}`, { redirect: "manual" })).status).toBe(302)
    const [traceId, parentId] = [hex(16), hex(8)]
    const warm = await fetch(`${app.origin}/s/${link.slug}`, {
      redirect: "manual",
      headers: { traceparent: traceparent(traceId, parentId, true) }
    })
    expect(warm.status).toBe(302)
    const span = await receiver.waitFor((spans) =>
      spans.find((s) => s.kind === SERVER && attr(s, "folio.fast_path") === true && s.traceId === traceId)
    )
    expect(span.parentSpanId).toBe(parentId)
    expect(attr(span, "url.path")).toBe(`/s/${link.slug}`)
    expect(attr(span, "http.response.status_code")).toBe(302)
    expect(attr(span, "folio.service")).toBe("public")
    expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano))
    // Epoch nanoseconds, as every other span: within a minute of now.
    expect(Math.abs(Number(BigInt(span.startTimeUnixNano) / 1_000_000n) - Date.now())).toBeLessThan(60_000)
    // Without a caller's traceparent: a trace of its own, with fresh ids and no parent.
    const before = new Set(receiver.spans().map((s) => s.traceId))
    expect((await fetch(`${app.origin}/s/${link.slug}`, { redirect: "manual" })).status).toBe(302)
    const root = await receiver.waitFor((spans) =>
      spans.find((s) => attr(s, "folio.fast_path") === true && !before.has(s.traceId))
    )
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(root.spanId).toMatch(/^[0-9a-f]{16}$/)
    expect(root.parentSpanId ?? "").toBe("")
    expect(root.name).toBe("GET")
    expect(attr(root, "http.request.method")).toBe("GET")
  })

  it("no span holds a key, token, password or answer (fuzzed)", async () => {
    const { key: formsKey } = await newWorkspaceKey(app, FORMS_SCOPES)
    const created = (await (
      await post(app.origin, "/forms/api/v1/forms", bearer(formsKey), {
        title: "Fuzz",
        definition: { schemaVersion: 1, blocks: [{ id: "blk_name0001", type: "short_text", label: "Name" }] }
      })
    ).json()) as { data: { id: string; slug: string } }
    const form = created.data
    expect(
      (
        await post(app.origin, `/forms/api/v1/forms/${form.id}/publish`, bearer(formsKey), {
          expectedDraftRevision: 1
        })
      ).status
    ).toBe(200)
    const secrets: Array<string> = [formsKey]
    // Long enough to be unmistakable, from the characters keys, tokens and answers use.
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{24,40}$/)
    await fc.assert(
      fc.asyncProperty(secret, secret, secret, secret, async (apiKey, answer, password, token) => {
        secrets.push(apiKey, answer, password, token)
        await fetch(`${app.origin}/forms/api/v1/forms`, { headers: bearer(`folio_${apiKey}`) })
        await fetch(`${app.origin}/share/api/v1/me`, { headers: bearer(apiKey) })
        const started = (await (await post(app.origin, `/f/${form.slug}/responses`, {}, {})).json()) as {
          data: { responseId: string; token: string }
        }
        secrets.push(started.data.token)
        const done = await post(
          app.origin,
          `/f/${form.slug}/responses/${started.data.responseId}/complete`,
          {},
          {
            token: started.data.token,
            answers: { blk_name0001: answer }
          }
        )
        expect(done.status).toBe(200)
        const { client } = await signIn(app, `${apiKey.slice(0, 8).toLowerCase()}@people.test`, password)
        secrets.push(...[...client.cookies.values()].filter((v) => v.length >= 16))
        await fetch(`${app.origin}/u/${token}`)
        await fetch(`${app.origin}/u/${token}?sent=1`)
        await fetch(`${app.origin}/blobs/x/y?exp=1&sig=${token}`)
      }),
      { numRuns: 8 }
    )
    // Everything exported so far (the exporter sends each second).
    await new Promise((r) => setTimeout(r, 1_500))
    const exported = receiver.bodies().join("\n")
    expect(exported).toContain("/u/[redacted]")
    for (const s of secrets) expect(exported).not.toContain(s)
    expect(exported.toLowerCase()).not.toContain("authorization")
    expect(exported.toLowerCase()).not.toContain("cookie")
  }, 120_000)
})

describe("a job queued inside a traced request", () => {
  let receiver: OtlpReceiver
  let hooks: Awaited<ReturnType<typeof startHttpsReceiver>>
  let app: RunningApp
  const { dir, dataDir } = freshPgliteDir("folio-traces-jobs-")
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    hooks = await startHttpsReceiver()
    app = await startApp({
      storage: PgliteStorageLive({ dataDir }),
      config: {
        traces: traces(receiver.url, "parentbased_always_on"),
        webhookAllowLoopback: true,
        webhookCaFile: Option.some(hooks.caFile)
      }
    })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await hooks?.close()
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("runs in the request's trace: the webhook delivery job a child of it, its POST a client span", async () => {
    const { key } = await newWorkspaceKey(app, SHARING_SCOPES, "sharing")
    const hookPath = `/hooks/${hex(12)}`
    const hook = await post(app.origin, "/share/api/v1/webhooks", bearer(key), {
      name: "Hook",
      url: hooks.url.replace("/hooks", hookPath),
      events: ["resource.created"]
    })
    expect(hook.status).toBe(201)
    const traceId = hex(16)
    const created = await post(
      app.origin,
      "/share/api/v1/resources",
      { ...bearer(key), traceparent: traceparent(traceId, hex(8), true) },
      { type: "link", target_url: "https://example.com/" }
    )
    expect(created.status).toBe(201)
    const job = await receiver.waitFor((spans) =>
      spans.find((s) => s.name === "job webhook_delivery" && s.traceId === traceId)
    )
    expect(job.kind).toBe(CONSUMER)
    expect(attr(job, "folio.job.type")).toBe("webhook_delivery")
    expect(attr(job, "folio.job.attempt")).toBe(1)
    const request = receiver.spans().find((s) => s.kind === SERVER && s.traceId === traceId)
    expect(request).toBeDefined()
    // The job's parent is a span of the request's trace (the one that queued it).
    expect(receiver.spans().some((s) => s.traceId === traceId && s.spanId === job.parentSpanId)).toBe(true)
    const delivery = await receiver.waitFor((spans) =>
      descendants(spans, job).find((s) => s.kind === CLIENT && attr(s, "folio.outbound") === "webhook")
    )
    expect(attr(delivery, "http.response.status_code")).toBe(200)
    expect(attr(delivery, "server.address")).toBe("127.0.0.1")
    expect(hooks.received.length).toBeGreaterThan(0)
    // The endpoint's path is not in any span, nor is the body's signature.
    expect(receiver.bodies().join("\n")).not.toContain(hookPath)
  }, 30_000)
})

describe("sampling (OTEL_TRACES_SAMPLER)", () => {
  let receiver: OtlpReceiver
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
  })
  afterAll(() => receiver?.close())

  /** Runs requests against an app with `sampler`, closes it (flushing), answers what was exported. */
  const exportedWith = async (
    sampler: TraceSamplerName,
    ratio: number,
    requests: (app: RunningApp, key: string) => Promise<void>,
    dataDir?: string
  ) => {
    receiver.clear()
    const app = await startApp({
      config: { traces: traces(receiver.url, sampler, ratio) },
      ...(dataDir === undefined ? {} : { storage: PgliteStorageLive({ dataDir }) })
    })
    try {
      const { key } = await newWorkspaceKey(app, FORMS_SCOPES)
      await requests(app, key)
    } finally {
      await app.close()
    }
    return receiver.spans()
  }
  const tenCalls = async (app: RunningApp, key: string, headers: Record<string, string> = {}) => {
    for (let i = 0; i < 10; i++)
      expect(
        (await fetch(`${app.origin}/forms/api/v1/forms`, { headers: { ...bearer(key), ...headers } })).status
      ).toBe(200)
  }

  it("always_off and traceidratio 0 export nothing; always_on everything, flushed at shutdown", async () => {
    expect(await exportedWith("always_off", 1, (app, key) => tenCalls(app, key))).toEqual([])
    expect(await exportedWith("traceidratio", 0, (app, key) => tenCalls(app, key))).toEqual([])
    expect(await exportedWith("parentbased_traceidratio", 0, (app, key) => tenCalls(app, key))).toEqual([])
    const all = await exportedWith("always_on", 1, (app, key) => tenCalls(app, key))
    expect(
      all.filter((s) => s.kind === SERVER && attr(s, "http.route") === "/forms/api/v1/forms")
    ).toHaveLength(10)
  }, 60_000)

  it("parentbased_* follow the caller's sampled flag; traceidratio decides by the trace id", async () => {
    const unsampledParent = { traceparent: traceparent(hex(16), hex(8), false) }
    expect(
      await exportedWith("parentbased_always_on", 1, (app, key) => tenCalls(app, key, unsampledParent))
    ).toEqual([])
    const sampledTrace = hex(16)
    const sampledParent = { traceparent: traceparent(sampledTrace, hex(8), true) }
    const followed = await exportedWith("parentbased_always_off", 1, (app, key) =>
      tenCalls(app, key, sampledParent)
    )
    expect(followed.filter((s) => s.kind === SERVER)).toHaveLength(10)
    expect(followed.every((s) => s.traceId === sampledTrace)).toBe(true)
    // Half the trace id space: a trace id whose low bits are small is in, a large one out.
    const low = `${hex(8)}00000000${"0".repeat(8)}`
    const high = `${hex(8)}ffffffff${"f".repeat(8)}`
    const ratio = await exportedWith("traceidratio", 0.5, async (app, key) => {
      await tenCalls(app, key, { traceparent: traceparent(low, hex(8), false) })
      await tenCalls(app, key, { traceparent: traceparent(high, hex(8), true) })
    })
    expect(ratio.filter((s) => s.kind === SERVER && s.traceId === low)).toHaveLength(10)
    expect(ratio.filter((s) => s.traceId === high)).toHaveLength(0)
  }, 60_000)

  it("samples about the ratio of new traces at traceidratio 0.1, whole requests at a time", async () => {
    const { dir, dataDir } = freshPgliteDir("folio-traces-ratio-")
    const spans = await exportedWith(
      "traceidratio",
      0.1,
      async (app, key) => {
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < 100; i++)
              await fetch(`${app.origin}/forms/api/v1/forms`, { headers: bearer(key) })
          })
        )
      },
      dataDir
    ).finally(() => rmSync(dir, { recursive: true, force: true }))
    const roots = spans.filter((s) => s.kind === SERVER)
    const sampled = roots.length
    // 400 draws at p = 0.1: mean 40, sd 6; 15..70 fails only by a bug.
    expect(sampled).toBeGreaterThan(15)
    expect(sampled).toBeLessThan(70)
    // Decided once, at the edge: every span exported (the SQL statements too) belongs to a sampled
    // request's trace; an unsampled request runs untraced, so none of its statements is decided on
    // its own (under traceidratio, which ignores a parent's flag, they would be, by trace id).
    const traced = new Set(roots.map((s) => s.traceId))
    expect(spans.filter((s) => !traced.has(s.traceId))).toEqual([])
    expect(spans.length).toBeGreaterThan(sampled)
  }, 60_000)
})

describe("the built server configured by OTEL_* variables", () => {
  const dir = migratedDataDir("folio-traces-process-")
  beforeAll(build, 240_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("exports its spans, flushes them at SIGTERM, and writes trace_id/span_id on a request's log lines", async () => {
    const receiver = await startOtlpReceiver()
    const server = await startServer({
      DATA_DIR: dir,
      LOG_LEVEL: "info",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url.replace("/v1/traces", ""),
      OTEL_SERVICE_NAME: "folio-process",
      OTEL_TRACES_SAMPLER: "always_on",
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=abc123"
    })
    try {
      const key = /forms:\s+(folio_\S+)/.exec(server.stdout())?.[1] ?? ""
      const traceId = hex(16)
      const response = await fetch(`${server.origin}/forms/api/v1/forms`, {
        headers: { ...bearer(key), traceparent: traceparent(traceId, hex(8), true) }
      })
      expect(response.status).toBe(200)
      await new Promise((r) => setTimeout(r, 300))
      server.child.kill("SIGTERM")
      await server.exited
      // Exported by the shutdown's flush at the latest.
      const span = receiver.spans().find((s) => s.kind === SERVER && s.traceId === traceId)
      expect(span).toBeDefined()
      expect(receiver.resource()["service.name"]?.stringValue).toBe("folio-process")
      expect(receiver.requestHeaders()[0]?.["x-collector-token"]).toBe("abc123")
      const lines = server
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const access = lines.find((l) => l.message === "Sent HTTP response" && l.trace_id === traceId)
      expect(access, server.stdout()).toBeDefined()
      expect(typeof access?.span_id).toBe("string")
      // The startup line was written outside any span.
      expect(lines.find((l) => l.message === "listening")?.trace_id).toBeUndefined()
      // (The startup banner prints the key once; no log line does.)
      expect(JSON.stringify(lines)).not.toContain(key)
      expect(receiver.bodies().join("\n")).not.toContain(key)
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL")
      await receiver.close()
    }
  }, 120_000)

  it("exports over HTTPS to a collector whose certificate NODE_EXTRA_CA_CERTS trusts", async () => {
    const collector = await startHttpsReceiver()
    const server = await startServer({
      DATA_DIR: dir,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `https://127.0.0.1:${collector.port}/v1/traces`,
      OTEL_TRACES_SAMPLER: "always_on",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      // Read by node when the process starts; the observer's thread sends with the process's CAs.
      NODE_EXTRA_CA_CERTS: collector.caFile
    })
    try {
      const traceId = hex(16)
      const response = await fetch(`${server.origin}/healthz`, {
        headers: { traceparent: traceparent(traceId, hex(8), true) }
      })
      expect(response.status).toBe(200)
      // Sent by the schedule, while the server runs (not by the shutdown's flush).
      const end = Date.now() + 15_000
      while (Date.now() < end && !collector.received.some((r) => r.body.includes(traceId)))
        await new Promise((r) => setTimeout(r, 50))
      const export_ = collector.received.find((r) => r.body.includes(traceId))
      expect(export_?.headers["content-type"]).toBe("application/json")
      expect(JSON.parse(export_?.body ?? "{}")).toHaveProperty("resourceSpans")
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
      await collector.close()
    }
  }, 120_000)
})

describe("log lines inside a span", () => {
  it("carry the span's trace_id and span_id; outside one, none", async () => {
    const receiver = await startOtlpReceiver()
    const lines: Array<string> = []
    const capture = Logger.map(jsonWithTraceIds, (line) => {
      lines.push(line)
    })
    const settings = traces(receiver.url, "always_on")
    if (Option.isNone(settings)) throw new Error("unreachable")
    const ids = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Effect.logInfo("outside")
        return yield* Effect.withSpan(
          Effect.gen(function* () {
            yield* Effect.logInfo("inside")
            const span = yield* Effect.currentSpan
            return { traceId: span.traceId, spanId: span.spanId }
          }),
          "request",
          { kind: "server" }
        )
      }).pipe(
        Effect.provide(Layer.merge(exporterOn(settings.value), Logger.layer([capture]))),
        Effect.provideService(References.MinimumLogLevel, "Info")
      )
    )
    await receiver.close()
    const [outside, inside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(outside?.trace_id).toBeUndefined()
    expect(inside?.trace_id).toBe(ids.traceId)
    expect(inside?.span_id).toBe(ids.spanId)
  })
})

describe("traces and metrics on together", () => {
  // The metrics listener and the trace exporter share one worker thread (observer-worker.ts): one
  // isolate fewer than a thread each, which costs the app's requests more than its own work.
  const threads = () => readdirSync("/proc/self/task").length
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50))
  }

  it("start one thread for both: the scrape answers, the spans arrive, and the thread stops with the app", async () => {
    const receiver = await startOtlpReceiver()
    const metricsPort = await freePort()
    const before = threads()
    // The in-memory storage: what is counted is the app's threads, not the database's.
    const both = await startApp({
      config: {
        traces: traces(receiver.url, "always_on"),
        metrics: Option.some({ port: metricsPort, host: "127.0.0.1" })
      }
    })
    try {
      const { key } = await newWorkspaceKey(both, FORMS_SCOPES)
      const listed = await fetch(`${both.origin}/forms/api/v1/forms`, { headers: bearer(key) })
      expect(listed.status).toBe(200)
      const span = await receiver.waitFor((spans) => serverSpan(spans, "/forms/api/v1/forms", "GET"))
      expect(attr(span, "http.response.status_code")).toBe(200)
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(scraped.status).toBe(200)
      expect(await scraped.text()).toContain("folio_http_requests_total{")
      expect(threads() - before).toBe(1)
    } finally {
      await both.close()
      await receiver.close()
    }
    await until(() => threads() === before)
    expect(threads()).toBe(before)
  })
})

describe("the OTLP/JSON bodies", () => {
  // Effect's own JSON serializer stringifies a batch twice whenever its text holds "null" anywhere
  // (a statement's `is null`); ours does so only for a non-finite number, which OTLP/JSON writes
  // as a string. Both batches must read back exactly as the spans were set.
  const exportSpan = async (attributes: Record<string, unknown>) => {
    const receiver = await startOtlpReceiver()
    const settings = traces(receiver.url, "always_on")
    if (Option.isNone(settings)) throw new Error("unreachable")
    await Effect.runPromise(
      Effect.withSpan(Effect.void, "statement", { kind: "server", attributes }).pipe(
        Effect.provide(exporterOn(settings.value))
      )
    )
    const span = await receiver.waitFor((spans) => spans.find((s) => s.name === "statement"))
    const bodies = receiver.bodies()
    await receiver.close()
    return { span, bodies }
  }

  it("keep null in strings as it is, and write a non-finite number as OTLP/JSON's string", async () => {
    const text = "select * from forms where deleted_at is null and note = '\"doubleValue\":null'"
    const plain = await exportSpan({ "db.query.text": text, "folio.ratio": 0.5 })
    expect(attr(plain.span, "db.query.text")).toBe(text)
    expect(attr(plain.span, "folio.ratio")).toBe(0.5)

    const nonFinite = await exportSpan({
      "db.query.text": text,
      "folio.ratio": Number.NaN,
      "folio.max": -Infinity
    })
    expect(attr(nonFinite.span, "db.query.text")).toBe(text)
    const raw = (key: string) => nonFinite.span.attributes.find((a) => a.key === key)?.value.doubleValue
    expect(raw("folio.ratio")).toBe("NaN")
    expect(raw("folio.max")).toBe("-Infinity")
    expect(nonFinite.bodies.join("")).not.toContain('"doubleValue":null')
  })
})

describe("the exporter's thread (OTEL_BSP_*)", () => {
  const settingsFor = (url: string, exportDelayMillis: number, exportBatchSize: number) => {
    const settings = traces(url, "always_on")
    if (Option.isNone(settings)) throw new Error("unreachable")
    return { ...settings.value, exportDelayMillis, exportBatchSize }
  }
  const span = (name: string) => Effect.withSpan(Effect.void, name, { kind: "server" })
  const waitMillis = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))
  /** A collector whose first request `first` answers (or holds), and every later one a 204, its body kept. */
  const collectorAnsweringFirst = async (first: (response: ServerResponse) => void) => {
    const bodies: Array<string> = []
    let requests = 0
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        requests += 1
        if (requests === 1) return first(response)
        bodies.push(Buffer.concat(chunks).toString("utf8"))
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
      bodies,
      requests: () => requests,
      close: async () => {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    }
  }
  // Polls (up to 10 s) rather than waiting a fixed time: the thread starts, and the batch is written
  // and posted, at the pace of a loaded machine (a CI run once saw nothing after 600 ms).
  const poll = async (done: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms
    while (Date.now() < end && !done()) await new Promise((r) => setTimeout(r, 25))
  }
  const arrived = (read: () => ReadonlyArray<string>, expected: ReadonlyArray<string>) =>
    Effect.promise(async () => {
      await poll(() => expected.every((name) => read().includes(name)))
      return read()
    })

  it("sends a batch when the delay has passed or the batch is full, and what is left at shutdown", async () => {
    const receiver = await startOtlpReceiver()
    try {
      const names = () => receiver.spans().map((s) => s.name)
      // A long delay and a batch of two: one span waits, the second fills the batch and both go.
      const seen = await Effect.runPromise(
        Effect.gen(function* () {
          yield* span("first")
          yield* waitMillis(600)
          const afterOne = names()
          yield* span("second")
          const afterTwo = yield* arrived(names, ["first", "second"])
          yield* span("third")
          return { afterOne, afterTwo }
        }).pipe(Effect.provide(exporterOn(settingsFor(receiver.url, 60_000, 2))))
      )
      expect(seen.afterOne).toEqual([])
      expect([...seen.afterTwo].sort()).toEqual(["first", "second"])
      // The third went with the flush at shutdown.
      expect(names()).toContain("third")
      // A short delay sends a lone span without a full batch or a shutdown.
      receiver.clear()
      const soon = await Effect.runPromise(
        Effect.gen(function* () {
          yield* span("alone")
          // Before the scope closes and flushes it: the 50 ms delay is what sent it.
          return yield* arrived(names, ["alone"])
        }).pipe(Effect.provide(exporterOn(settingsFor(receiver.url, 50, 1000))))
      )
      expect(soon).toEqual(["alone"])
    } finally {
      await receiver.close()
    }
  })

  it("retries a collector that answers 503 once, and carries on past one that is down", async () => {
    const collector = await collectorAnsweringFirst((response) =>
      response.writeHead(503, { "retry-after": "0" }).end()
    )
    const url = collector.url
    try {
      await Effect.runPromise(span("retried").pipe(Effect.provide(exporterOn(settingsFor(url, 50, 1000)))))
      expect(collector.requests()).toBe(2)
      expect(collector.bodies.join("")).toContain('"name":"retried"')
    } finally {
      await collector.close()
    }
    // Nothing listens there now: the app's own work goes on, and shutdown does not hang.
    const started = Date.now()
    const value = await Effect.runPromise(
      Effect.as(span("lost"), 42).pipe(Effect.provide(exporterOn(settingsFor(url, 50, 1000))))
    )
    expect(value).toBe(42)
    expect(Date.now() - started).toBeLessThan(10_000)
  }, 30_000)

  it("fails a batch's request the collector holds past OTEL_EXPORTER_OTLP_TIMEOUT, and sends the next", async () => {
    // The collector takes the first request and never answers it; every later one gets a 204.
    const held: Array<ServerResponse> = []
    const collector = await collectorAnsweringFirst((response) => held.push(response))
    const bodies = collector.bodies
    const url = collector.url
    try {
      const sentOn = await Effect.runPromise(
        Effect.gen(function* () {
          yield* span("held")
          yield* Effect.promise(() => poll(() => held.length === 1))
          yield* span("next")
          // Well before the default 10 s: the held request failed after 300 ms and the exporter
          // went on to the next batch.
          yield* Effect.promise(() => poll(() => bodies.join("").includes('"name":"next"'), 5_000))
          return bodies.join("")
        }).pipe(Effect.provide(exporterOn({ ...settingsFor(url, 50, 1000), exportTimeoutMillis: 300 })))
      )
      expect(sentOn).toContain('"name":"next"')
      expect(held).toHaveLength(1)
    } finally {
      await collector.close()
    }
  }, 30_000)

  it("fails an export the collector answers with a status no Response can hold, and goes on", async () => {
    let answered = 0
    const collector = createServer((request, response) => {
      request.resume()
      request.on("end", () => {
        answered += 1
        response.writeHead(600, "Ünreadable").end()
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`
    try {
      const value = await Effect.runPromise(
        Effect.as(span("unreadable"), 7).pipe(Effect.provide(exporterOn(settingsFor(url, 50, 1000))))
      )
      expect(value).toBe(7)
      expect(answered).toBeGreaterThan(0)
    } finally {
      await new Promise((resolve) => collector.close(resolve))
    }
  }, 30_000)
})
