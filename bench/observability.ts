// What watching Folio costs: the forms API's authenticated GET /forms/{id} and the public redirect
// GET /s/{slug}, each on two server processes over one PostgreSQL database, side by side in one run:
// one with nothing on (the default), one with traces exported at 10% sampling
// (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1, to an OTLP/HTTP sink in this process)
// and the Prometheus listener on (scraped during every load). Both take the same offered load at
// the same time (BENCH_FORMS_RATE, default 800/s; BENCH_REDIRECT_RATE, 5,000/s: both servers must
// keep up at once on two cores), over BENCH_ROUNDS rounds (default 8) of a new pair of processes
// each; the figure is the median of the rounds' ratios of server CPU per request, on / off
// (target: at most 1.10, issue 34).
// BENCH_OBSERVED=traces, =metrics or =none (an A/A check of the method) turns on only that;
// BENCH_PATH=forms or =redirect runs only that path; BENCH_TRACE_RATIO sets the sampling ratio
// (1: what a sampled request costs; 0: what tracing costs a request it does not sample);
// BENCH_SCRAPE_SECONDS the scrape interval (default 5; 0: no scrapes).
// BENCH_REFERENCE_ENV and BENCH_OBSERVED_ENV add environment (JSON) to the reference ("off") or the
// observed server, to measure one step against the one before it in one run (e.g. metrics against
// metrics and traces, or traces at 0% against 10%): the value "$SINK" is the OTLP receiver's URL,
// and "$METRICS_PORT" a port of the server's own, scraped as the observed server's is.
import type { ChildProcess } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import autocannon from "autocannon"
import { createTempDatabase } from "../test/storage/targets.js"
import { freePort, insertBenchLink, provision, startServer, stop, withServerCpu } from "./_server.js"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

const DURATION = Number(process.env.BENCH_SECONDS ?? 20)
/**
 * Each round's new processes are loaded this long before the measurement: a process's CPU per
 * request keeps falling for 20 to 40 s under this load (V8 still compiling its request paths, its
 * heap still growing to size); measured in 5 s slices after a 10 s warm-up, a server's first slice
 * cost 20 to 45% more than its last. A shorter warm-up measured how fast each process settled more
 * than what it costs to answer.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 30)
/**
 * Rounds: on this machine two identical servers' CPU per request differ by up to 8% in a round
 * (an A/A run's ratios span 0.92 to 1.08), so eight rounds put the median within about 3%.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
const CONNECTIONS = 32
/**
 * Both servers get the same offered load (requests per second, below either's ceiling here): CPU
 * per request depends on the load (a busier event loop answers more requests per wake-up), so
 * comparing each at its own maximum would charge the observed server for going slower.
 */
const RATES = {
  "GET /forms/{id}": Number(process.env.BENCH_FORMS_RATE ?? 800),
  "GET /s/{slug}": Number(process.env.BENCH_REDIRECT_RATE ?? 5000)
}
/** What the observed server has on: both (the figure), or one of them to see which costs what. */
const OBSERVED =
  process.env.BENCH_OBSERVED === "traces" ||
  process.env.BENCH_OBSERVED === "metrics" ||
  process.env.BENCH_OBSERVED === "none"
    ? process.env.BENCH_OBSERVED
    : "both"
const TRACED = OBSERVED === "both" || OBSERVED === "traces"
const MEASURED = OBSERVED === "both" || OBSERVED === "metrics"
/** What the second server has on, in words. */
const TRACED_LABEL = `traces ${Number(process.env.BENCH_TRACE_RATIO ?? "0.1") * 100}%`
const OBSERVED_LABEL = {
  both: `${TRACED_LABEL} + metrics`,
  traces: TRACED_LABEL,
  metrics: "metrics",
  none: "nothing (A/A check)"
}[OBSERVED]
/** What the reference server has on, in words: nothing, or what BENCH_REFERENCE_ENV adds. */
const REFERENCE_LABEL = process.env.BENCH_REFERENCE_ENV === undefined ? "off" : "reference env"
const SLUG = "bench-observed-link"
/** BENCH_PATH=forms or =redirect measures only that one (to look into one figure faster). */
const PATHS = ["GET /forms/{id}", "GET /s/{slug}"].filter(
  (name) =>
    process.env.BENCH_PATH === undefined ||
    (process.env.BENCH_PATH === "forms" ? name.startsWith("GET /forms") : name.startsWith("GET /s/"))
)

const SPAN_ID = Buffer.from('"spanId"')

/** An OTLP/HTTP receiver that counts the spans it is sent (JSON or protobuf: it counts JSON ones). */
const otlpSink = async () => {
  let spans = 0
  let posts = 0
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (c: Buffer) => chunks.push(c))
    request.on("end", () => {
      posts++
      // Counted on the bytes (no string, no parse): the sink shares the machine with the load.
      const body = Buffer.concat(chunks)
      for (let at = body.indexOf(SPAN_ID); at >= 0; at = body.indexOf(SPAN_ID, at + SPAN_ID.length)) spans++
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: () => ({ spans, posts }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

type Server = { readonly origin: string; readonly child: ChildProcess }
type Round = { readonly reqPerSec: number; readonly cpu: number; readonly p99: number }

/**
 * One round: the same offered load on both servers at once, so both meet the same machine (the
 * database's, the load generator's and the other server's work, which drift over a run on two
 * shared cores) and the ratio compares like with like.
 */
const loadBoth = async (
  options: (origin: string) => autocannon.Options,
  rate: number,
  servers: { readonly off: Server; readonly on: Server },
  scrape: (() => Promise<void>) | undefined
): Promise<{ readonly off: Round; readonly on: Round }> => {
  const both = <A>(f: (server: Server) => Promise<A>) => Promise.all([f(servers.off), f(servers.on)])
  if (WARMUP_SECONDS > 0)
    await both((s) =>
      autocannon({
        connections: CONNECTIONS,
        duration: WARMUP_SECONDS,
        overallRate: rate,
        ...options(s.origin)
      })
    )
  // Prometheus scrapes while the load runs, as it would: every 5 s here, three times its default
  // 15 s, so the scrape's own cost (two grouped counts in the database, 18 KB of text) is counted,
  // not hidden.
  // BENCH_SCRAPE_SECONDS sets the interval (0: no scrapes, to see what the listener costs apart from them).
  const every = Number(process.env.BENCH_SCRAPE_SECONDS ?? 5)
  const scraping = every > 0 ? scrape : undefined
  void scraping?.()
  const timer = scraping === undefined ? undefined : setInterval(() => void scraping(), every * 1000)
  try {
    const [off, on] = await both(async (s) => {
      const { result, cpuPerRequest } = await withServerCpu(
        s.child,
        () =>
          autocannon({
            connections: CONNECTIONS,
            duration: DURATION,
            overallRate: rate,
            ...options(s.origin)
          }),
        s === servers.off ? "off" : "on"
      )
      return { reqPerSec: result.requests.average, cpu: cpuPerRequest, p99: result.latency.p99 }
    })
    return { off, on }
  } finally {
    if (timer !== undefined) clearInterval(timer)
  }
}

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  const sink = await otlpSink()
  const metricsPort = await freePort()
  const results: Record<string, Array<Round>> = {}
  let scrapes = 0
  let scrapeBytes = 0
  let scrapeFailures = 0
  try {
    const env = { DATABASE_URL: db.url }
    const forms = await provision(env, "observed-forms", "forms")
    const sharing = await provision(env, "observed-sharing", "sharing")
    await insertBenchLink(db.url, sharing.ws, SLUG)

    // Scraped: the observed server's listener when metrics are on, and any listener the two
    // environments below ask for.
    const scraped = MEASURED ? [metricsPort] : []
    /** BENCH_REFERENCE_ENV or BENCH_OBSERVED_ENV, its placeholders filled in (the header says which). */
    const extraEnv = async (name: string): Promise<Record<string, string>> => {
      const extra = JSON.parse(process.env[name] ?? "{}") as Record<string, string>
      const out: Record<string, string> = {}
      for (const [key, value] of Object.entries(extra)) {
        if (value === "$METRICS_PORT") {
          const port = await freePort()
          scraped.push(port)
          out[key] = String(port)
        } else out[key] = value === "$SINK" ? sink.url : value
      }
      return out
    }
    const offEnv = { ...env, ...(await extraEnv("BENCH_REFERENCE_ENV")) }
    const onEnv = {
      ...env,
      ...(!TRACED
        ? {}
        : {
            OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
            OTEL_SERVICE_NAME: "folio-bench",
            OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
            OTEL_TRACES_SAMPLER_ARG: process.env.BENCH_TRACE_RATIO ?? "0.1"
          }),
      ...(MEASURED ? { METRICS_PORT: String(metricsPort) } : {}),
      ...(await extraEnv("BENCH_OBSERVED_ENV"))
    }
    // A new pair of processes every round (started in alternating order): two identical servers
    // differ by several per cent in CPU per request for the life of their processes (where the
    // scheduler put them, what the JIT made of them), so one pair would stand for all rounds.
    const startPair = async (round: number) =>
      round % 2 === 0
        ? { off: await startServer(offEnv), on: await startServer(onEnv) }
        : await startServer(onEnv).then(async (on) => ({ off: await startServer(offEnv), on }))
    const scrapeOne = async (port: number) => {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/metrics`)
        const text = await r.text()
        if (r.ok) {
          scrapes++
          scrapeBytes = text.length
        } else scrapeFailures++
      } catch {
        scrapeFailures++
      }
    }
    const scrape = async () => {
      await Promise.all(scraped.map(scrapeOne))
    }
    const headers = { authorization: `Bearer ${forms.key}`, "content-type": "application/json" }
    let formId = ""
    const paths = {
      "GET /forms/{id}": (origin: string) => ({ url: `${origin}/forms/api/v1/forms/${formId}`, headers }),
      "GET /s/{slug}": (origin: string) => ({
        url: `${origin}/s/${SLUG}`,
        headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0" }
      })
    }
    for (let round = 0; round < ROUNDS; round++) {
      const { off, on } = await startPair(round)
      try {
        if (formId === "") {
          const created = await fetch(`${off.origin}/forms/api/v1/forms`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              title: "Observed form",
              definition: {
                schemaVersion: 1,
                blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }]
              }
            })
          })
          formId = ((await created.json()) as { data: { id: string } }).data.id
        }
        for (const [name, options] of Object.entries(paths).filter(([name]) => PATHS.includes(name))) {
          const r = await loadBoth(
            options,
            RATES[name as keyof typeof RATES],
            { off, on },
            scraped.length > 0 ? scrape : undefined
          )
          for (const which of ["off", "on"] as const) {
            const key = `${name} ${which}`
            results[key] = [...(results[key] ?? []), r[which]]
          }
        }
      } finally {
        await stop(on.child)
        await stop(off.child)
      }
    }
  } finally {
    await sink.close()
    await db.drop()
  }
  const rows: Array<Record<string, string | number>> = []
  const ratios: Record<string, number> = {}
  const spread: Record<string, string> = {}
  for (const name of PATHS) {
    const median = (which: string, f: (r: Round) => number) =>
      summarize((results[`${name} ${which}`] ?? []).map(f)).median
    for (const which of ["off", "on"])
      rows.push({
        path: name,
        observability: which === "off" ? REFERENCE_LABEL : OBSERVED_LABEL,
        "req/s (median)": Math.round(median(which, (r) => r.reqPerSec)),
        "p99 ms (median)": median(which, (r) => r.p99),
        "server cpu us/req (median)": median(which, (r) => r.cpu)
      })
    // Each round's two servers ran side by side: the figure is the median of the rounds' ratios.
    const offs = results[`${name} off`] ?? []
    const perRound = (results[`${name} on`] ?? []).map((r, i) => r.cpu / (offs[i]?.cpu ?? Number.NaN))
    ratios[name] = summarize(perRound).median
    spread[name] = perRound.map((r) => r.toFixed(2)).join(" ")
  }
  printTable(rows)
  const { spans, posts } = sink.counts()
  for (const [name, ratio] of Object.entries(ratios))
    process.stdout.write(
      `\n${name} on PostgreSQL: server CPU per request with ${OBSERVED_LABEL} on = ${ratio.toFixed(3)}x ${REFERENCE_LABEL} (target <= 1.10; the rounds: ${spread[name]})`
    )
  process.stdout.write(
    `\n${spans} spans received in ${posts} OTLP exports; ${scrapes} scrapes of /metrics (last ${scrapeBytes} bytes, ${scrapeFailures} failed); ${ROUNDS} rounds (both servers loaded at once) of ${DURATION} s at ${CONNECTIONS} connections, offered ${RATES["GET /forms/{id}"]} and ${RATES["GET /s/{slug}"]} requests/s\n`
  )
  process.stdout.write(
    `written ${writeResult("observability", { at: new Date().toISOString(), rounds: ROUNDS, durationSeconds: DURATION, connections: CONNECTIONS, spans, posts, scrapes, scrapeFailures, ratios, results, rows })}\n`
  )
}
