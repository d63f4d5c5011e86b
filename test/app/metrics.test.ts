// Prometheus metrics over real HTTP, on PGlite: the app with METRICS_PORT set answers GET /metrics on
// its own listener (bound to METRICS_HOST only, absent from the API port); the scrape parses with a
// real Prometheus text parser; each counter moves by exactly the requests sent (forms and sharing
// REST, a cold and a warm redirect, a 429, an upload, a job); histograms have buckets; the runtime's
// figures are there; many distinct slugs, ids, paths and user agents add no label values.
import { randomUUID } from "node:crypto"
import { connect } from "node:net"
import { CONNECTION_STATES } from "@folio/adapters-storage"
import { Context, Metric, Option } from "effect"
import parsePrometheus, { type PrometheusFamily } from "parse-prometheus-text-format"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { freePort } from "../support/free-port.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { openStorage, storageSkipped } from "../support/storage.js"

const SHARING_SCOPES = ["read", "write", "delete"]
const KEY_BUDGET = 40

let app: RunningApp
let drop: () => Promise<void> = async () => {}
let metricsPort = 0
let formsKey = ""
let sharingKey = ""

beforeAll(async () => {
  const storage = await openStorage("pglite")
  drop = storage.drop
  metricsPort = await freePort()
  app = await startApp({
    storage: storage.storage,
    config: {
      metrics: Option.some({ port: metricsPort, host: "127.0.0.1" }),
      sharingRequestsPerKey: KEY_BUDGET,
      rateLimitPerKey: 100_000
    }
  })
  formsKey = (await newWorkspaceKey(app, ["forms:read", "forms:write"])).key
  sharingKey = (await newWorkspaceKey(app, SHARING_SCOPES, "sharing")).key
}, 60_000)

afterAll(async () => {
  await app?.close()
  await drop()
})

const scrapeText = async (): Promise<string> => {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/plain")
  return response.text()
}

const scrape = async (): Promise<Array<PrometheusFamily>> => parsePrometheus(await scrapeText())

const family = (families: ReadonlyArray<PrometheusFamily>, name: string) =>
  families.find((f) => f.name === name)

const matches = (labels: Readonly<Record<string, string>> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([k, v]) => labels?.[k] === v)

/**
 * One histogram series' buckets (`le` => cumulative count). The parser (prom2json's shape) merges a
 * histogram family's series into one, so the series is parsed alone: its family's TYPE line and the
 * sample lines carrying every wanted label.
 */
const histogramOf = (text: string, name: string, labels: Record<string, string>) => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  const lines = text
    .split("\n")
    .filter(
      (line) =>
        line === `# TYPE ${name} histogram` ||
        (line.startsWith(`${name}_bucket{`) && wanted.every((w) => line.includes(w)))
    )
  const [parsed] = parsePrometheus(`${lines.join("\n")}\n`)
  expect(parsed?.type).toBe("HISTOGRAM")
  return parsed?.metrics[0]?.buckets ?? {}
}

/** A counter's or gauge's value over the samples with `labels` (0 when none); a histogram series' count. */
const figureOf = (text: string, name: string, labels: Record<string, string> = {}) => {
  const families = parsePrometheus(text)
  if (family(families, name)?.type === "HISTOGRAM")
    return Number(histogramOf(text, name, labels)["+Inf"] ?? 0)
  return (family(families, name)?.metrics ?? [])
    .filter((m) => matches(m.labels, labels))
    .reduce((sum, m) => sum + Number(m.value ?? 0), 0)
}

/** How much each figure moved while `act` ran. */
const delta = async (act: () => Promise<void>) => {
  const before = await scrapeText()
  await act()
  const after = await scrapeText()
  return (name: string, labels: Record<string, string> = {}) =>
    figureOf(after, name, labels) - figureOf(before, name, labels)
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const sharing = () => sharingClientOf(app.origin)

describe("the metrics listener", () => {
  it("answers the Prometheus text format on its own port, and nothing on the API port", async () => {
    const families = await scrape()
    expect(families.length).toBeGreaterThan(10)
    expect((await fetch(`${app.origin}/metrics`)).status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404)
  })

  it("answers none of the app's routes on its port", async () => {
    expect((await fetch(`${app.origin}/healthz`)).status).toBe(200)
    // The same connection for every request (keep-alive): each one the listener's, none the app's.
    for (const path of ["/healthz", "/s/anything", "/.well-known/oauth-authorization-server"]) {
      const response = await fetch(`http://127.0.0.1:${metricsPort}${path}`)
      expect(response.status).toBe(404)
      expect(await response.text()).toBe("not found\n")
    }
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "HEAD" })).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "POST" })).status).toBe(404)
  })

  it("is bound to METRICS_HOST only (127.0.0.2 is refused)", async () => {
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: "127.0.0.2", port: metricsPort })
      socket.once("connect", () => {
        socket.destroy()
        resolve("connected")
      })
      socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"))
    })
    expect(refused).toBe("ECONNREFUSED")
  })

  it("has the runtime's figures: CPU, memory, heap, event-loop delay", async () => {
    const families = await scrape()
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_gc_duration_seconds"
    ])
      expect(family(families, name), name).toBeDefined()
    expect(Number(family(families, "nodejs_heap_size_used_bytes")?.metrics[0]?.value)).toBeGreaterThan(
      1_000_000
    )
  })
})

describe("HTTP requests", () => {
  it("count forms REST requests by route template, method, status and service, with latency buckets", async () => {
    let formId = ""
    const moved = await delta(async () => {
      for (let i = 0; i < 3; i++) {
        const created = await fetch(`${app.origin}/forms/api/v1/forms`, {
          method: "POST",
          headers: { ...bearer(formsKey), "content-type": "application/json" },
          body: JSON.stringify({ title: `Form ${i}` })
        })
        expect(created.status).toBe(201)
        formId = ((await created.json()) as { data: { id: string } }).data.id
      }
      for (let i = 0; i < 2; i++)
        expect(
          (await fetch(`${app.origin}/forms/api/v1/forms/${formId}`, { headers: bearer(formsKey) })).status
        ).toBe(200)
    })
    const created = { route: "/forms/api/v1/forms", method: "POST", status: "201", service: "forms" }
    const read = { route: "/forms/api/v1/forms/:id", method: "GET", status: "200", service: "forms" }
    expect(moved("folio_http_requests_total", created)).toBe(3)
    expect(moved("folio_http_requests_total", read)).toBe(2)
    expect(moved("folio_http_request_duration_seconds", created)).toBe(3)

    const buckets = histogramOf(await scrapeText(), "folio_http_request_duration_seconds", read)
    expect(Object.keys(buckets).length).toBeGreaterThan(5)
    // Cumulative: the buckets never fall, and the last finite one holds every request here.
    const counts = Object.entries(buckets)
      .sort(([a], [b]) => (a === "+Inf" ? 1 : b === "+Inf" ? -1 : Number(a) - Number(b)))
      .map(([, count]) => Number(count))
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    expect(Number(buckets["10"])).toBe(Number(buckets["+Inf"]))
    expect(Number(buckets["+Inf"])).toBeGreaterThanOrEqual(2)
  })

  it("count sharing REST requests, and a 429 as a rate-limit refusal of a key", async () => {
    const slug = `metrics-${randomUUID().slice(0, 8)}`
    const tight = (await newWorkspaceKey(app, SHARING_SCOPES, "sharing")).key
    let refusedAt = 0
    const moved = await delta(async () => {
      const link = await sharing().call("POST", "/resources", {
        key: sharingKey,
        body: { type: "link", slug, target_url: "https://example.com/target" }
      })
      expect(link.status, JSON.stringify(link.body)).toBe(201)
      expect((await sharing().call("GET", `/resources/${slug}`, { key: sharingKey })).status).toBe(200)
      for (let i = 1; i <= KEY_BUDGET + 1; i++) {
        const me = await sharing().call("GET", "/me", { key: tight })
        if (me.status === 429) {
          refusedAt = i
          break
        }
      }
    })
    expect(refusedAt).toBeGreaterThan(0)
    const base = { service: "sharing" }
    expect(
      moved("folio_http_requests_total", { ...base, route: "/share/api/v1/resources", status: "201" })
    ).toBe(1)
    expect(
      moved("folio_http_requests_total", { ...base, route: "/share/api/v1/resources/:slug", method: "GET" })
    ).toBe(1)
    expect(moved("folio_http_requests_total", { ...base, route: "/share/api/v1/me", status: "200" })).toBe(
      refusedAt - 1
    )
    expect(moved("folio_http_requests_total", { ...base, route: "/share/api/v1/me", status: "429" })).toBe(1)
    expect(moved("folio_rate_limit_refusals_total", { service: "sharing", kind: "key" })).toBe(1)
  })

  it("count short-link redirects through the app (cold) and the node:http fast path (warm)", async () => {
    const slug = `go-${randomUUID().slice(0, 8)}`
    const link = await sharing().call("POST", "/resources", {
      key: sharingKey,
      body: { type: "link", slug, target_url: "https://example.com/go" }
    })
    expect(link.status).toBe(201)
    const moved = await delta(async () => {
      for (let i = 0; i < 3; i++) {
        const visit = await fetch(`${app.origin}/s/${slug}`, { redirect: "manual" })
        expect(visit.status).toBe(302)
      }
      expect((await fetch(`${app.origin}/s/no-such-${randomUUID().slice(0, 8)}`)).status).toBe(404)
    })
    const redirects = { route: "/s/:slug", method: "GET", status: "302", service: "public" }
    expect(moved("folio_http_requests_total", redirects)).toBe(3)
    expect(moved("folio_redirects_total", { outcome: "redirected" })).toBe(3)
    // The first visit warms the cache through the app; the next ones are the fast path's.
    expect(moved("folio_redirects_total", { outcome: "redirected", path: "app" })).toBe(1)
    expect(moved("folio_redirects_total", { outcome: "redirected", path: "fast" })).toBe(2)
    expect(moved("folio_redirects_total", { outcome: "not_found", path: "app" })).toBe(1)
    expect(moved("folio_http_requests_total", { route: "/s/:slug", status: "404" })).toBe(1)
  })

  it("count upload bytes, a job run and its latency, and read the queue's depth", async () => {
    const slug = `photo-${randomUUID().slice(0, 8)}`
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 10, b: 10 } } })
        .jpeg({ quality: 100 })
        .toBuffer()
    )
    let sentBytes = 0
    let job: Json = {}
    const moved = await delta(async () => {
      const body = new FormData()
      body.append("slug", slug)
      body.append("file", new Blob([jpeg]), "red.jpeg")
      // The request's length as it goes on the wire (multipart framing included).
      sentBytes = (await new Response(body).arrayBuffer()).byteLength
      const up = await sharing().call("POST", "/uploads", { key: sharingKey, form: body })
      expect(up.status, JSON.stringify(up.body)).toBe(201)
      const queued = await sharing().call("POST", `/resources/${slug}/file/optimize-original`, {
        key: sharingKey,
        body: {}
      })
      expect(queued.status, JSON.stringify(queued.body)).toBe(202)
      for (let i = 0; i < 200; i++) {
        job = (await sharing().call("GET", `/jobs/${queued.body.job_id as string}`, { key: sharingKey })).body
        if (["succeeded", "failed", "skipped"].includes(job.status as string)) break
        await new Promise((r) => setTimeout(r, 50))
      }
    })
    expect(["succeeded", "skipped"]).toContain(job.status)
    expect(moved("folio_upload_bytes_total", { kind: "sharing" })).toBe(sentBytes)
    expect(sentBytes).toBeGreaterThan(jpeg.byteLength)
    const run = { type: "optimize_original", outcome: job.status as string }
    expect(moved("folio_job_runs_total", run)).toBe(1)
    expect(moved("folio_job_run_duration_seconds", run)).toBe(1)
    const families = await scrape()
    // Every type and active status has a depth, this job's queue drained.
    const depth = family(families, "folio_job_queue_depth")
    expect(depth?.type).toBe("GAUGE")
    expect(depth?.metrics.length).toBe(12)
    const queued = depth?.metrics.find((m) =>
      matches(m.labels, { type: "optimize_original", status: "queued" })
    )
    expect(queued?.value).toBe("0")
  })

  it("measure the embedded database's statements", async () => {
    const moved = await delta(async () => {
      expect((await fetch(`${app.origin}/forms/api/v1/forms`, { headers: bearer(formsKey) })).status).toBe(
        200
      )
    })
    expect(moved("folio_db_statement_duration_seconds", { database: "pglite" })).toBeGreaterThan(0)
    const families = await scrape()
    expect(family(families, "folio_db_statements_in_flight")?.type).toBe("GAUGE")
  })
})

describe("label cardinality", () => {
  it("stays bounded: distinct slugs, ids, paths and user agents add no label values", async () => {
    const labelValues = (families: ReadonlyArray<PrometheusFamily>) => {
      const values = new Set<string>()
      for (const f of families)
        if (f.name.startsWith("folio_"))
          for (const m of f.metrics)
            for (const [k, v] of Object.entries(m.labels ?? {})) if (k !== "le") values.add(`${k}=${v}`)
      return values
    }
    // Every kind of request once first, so the second round can add nothing new.
    const round = async (n: number) => {
      const agents: Array<string> = []
      for (let i = 0; i < n; i++) {
        const id = randomUUID()
        const agent = `Agent/${id}`
        agents.push(agent)
        const headers = { "user-agent": agent, ...bearer(sharingKey) }
        await (await fetch(`${app.origin}/s/missing-${id.slice(0, 8)}`, { headers })).arrayBuffer()
        await (
          await fetch(`${app.origin}/share/api/v1/resources/missing-${id.slice(0, 8)}`, { headers })
        ).arrayBuffer()
        await (
          await fetch(`${app.origin}/forms/api/v1/forms/${id}`, { headers: bearer(formsKey) })
        ).arrayBuffer()
        await (await fetch(`${app.origin}/nowhere/${id}`, { headers })).arrayBuffer()
        await (await fetch(`${app.origin}/share/nowhere/${id}`, { headers })).arrayBuffer()
      }
      return agents
    }
    await round(1)
    const before = labelValues(await scrape())
    const agents = await round(30)
    const after = labelValues(await scrape())
    expect([...after].filter((v) => !before.has(v))).toEqual([])
    for (const value of after) {
      expect(value).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/)
      expect(value).not.toMatch(/missing-|nowhere|Agent\//)
    }
    expect(agents.length).toBe(30)
    const routes = [...after].filter((v) => v.startsWith("route=")).map((v) => v.slice(6))
    expect(routes).toContain("route=unmatched".slice(6))
    for (const route of routes) expect(route === "unmatched" || route.startsWith("/")).toBe(true)
  })
})

describe("without METRICS_PORT", () => {
  it("starts no measuring: the request paths record nothing", async () => {
    const off = await startApp()
    try {
      const { key } = await newWorkspaceKey(off, SHARING_SCOPES, "sharing")
      expect((await sharing().call("GET", "/me", { key })).status).toBe(401) // the other app's origin
      expect((await fetch(`${off.origin}/share/api/v1/me`, { headers: bearer(key) })).status).toBe(200)
      expect((await fetch(`${off.origin}/metrics`)).status).toBe(404)
      // Requests of an app without metrics would land in Effect's default registry.
      const names = Metric.snapshotUnsafe(Context.empty()).map((s) => s.id)
      expect(names.filter((n) => n.startsWith("folio_http_"))).toEqual([])
    } finally {
      await off.close()
    }
  })
})

describe.skipIf(storageSkipped("postgres"))("on PostgreSQL", () => {
  it("reads the pool's use from the server: this instance's connections by state, no other's", async () => {
    const storage = await openStorage("postgres")
    const port = await freePort()
    const pg = await startApp({
      storage: storage.storage,
      config: { metrics: Option.some({ port, host: "127.0.0.1" }) }
    })
    try {
      const { key } = await newWorkspaceKey(pg, ["forms:read"])
      await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${pg.origin}/forms/api/v1/forms`, { headers: bearer(key) }).then((r) => r.arrayBuffer())
        )
      )
      const families = parsePrometheus(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())
      const connections = family(families, "folio_db_connections")
      expect(connections?.type).toBe("GAUGE")
      const byState = new Map(connections?.metrics.map((m) => [m.labels?.state ?? "", Number(m.value)]))
      const total = [...byState.values()].reduce((a, b) => a + b, 0)
      // The scrape's own statement is one of them (active); the pool holds at most 10; the other
      // app of this file (PGlite) and other test databases' connections are not counted.
      expect(byState.get("active")).toBeGreaterThanOrEqual(1)
      expect(total).toBeGreaterThanOrEqual(1)
      expect(total).toBeLessThanOrEqual(10)
      // Every state PostgreSQL names is a series (zeros included), and nothing else is.
      expect([...byState.keys()].sort()).toEqual([...CONNECTION_STATES].sort())
    } finally {
      await pg.close()
      await storage.drop()
    }
  }, 60_000)
})
