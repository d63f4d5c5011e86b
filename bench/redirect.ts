// The public redirect, the sharing service's hot path: GET /s/{slug} of a public link with three
// redirect rules (none matching the load's requests, so all three are evaluated) and two A/B
// variants, with view counting and analytics recording on (every request is a new visitor: no
// cookie, so every one is counted, recorded and its cookie minted), at 32 connections, beside a
// bare node:http server answering a fixed 302 (the target's reference) and one answering the
// response Folio sends (the same headers, fresh cookies and request id: what the response itself
// costs, apart from deciding it). Folio in its own process on PostgreSQL, the bare servers in
// theirs, load from autocannon here. A fourth load asks Folio's own process for that same response
// without deciding it (a path _canned-redirect.mjs adds to the server, in front of the app): what
// being Folio's process costs, apart from the redirect's own work.
//
// They take turns: BENCH_ROUNDS rounds (default 8) of BENCH_SECONDS each (default 3), each round
// loading Folio, then the fixed 302, then the same response, then Folio's process with the same
// response, and the figure is the median of the rounds' ratios. A shared two-core machine's speed
// drifts by half or more over minutes (the bare server measured 24,000 and 50,000 req/s ten
// minutes apart), so one long run of each in turn compared two different machines; adjacent
// seconds compare the same one.
//
// All requests come from one address and user agent, so analytics compacts them (a row per
// second); BENCH_DISTINCT_VISITORS=1 gives every request its own address (in X-Real-IP, which the
// server is told to trust), so every visit is a distinct visitor and a row of its own.
import { type ChildProcess, spawn } from "node:child_process"
import autocannon from "autocannon"
import pg from "pg"
import { createTempDatabase } from "../test/storage/targets.js"
import { cli, insertBenchLink, root, startServer, stop, withServerCpu } from "./_server.js"
import { CANNED_PATH } from "./_canned-redirect.mjs"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

const DURATION = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = 32
/** A pause after each load, longer than the view and visit flushes' one-second interval. */
const SETTLE_MS = 1_500
const SLUG = "bench-link"

const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0"
let visitors = 0
const DISTINCT = process.env.BENCH_DISTINCT_VISITORS === "1"

const options = (url: string): autocannon.Options => ({
  url,
  connections: CONNECTIONS,
  headers: { "user-agent": USER_AGENT },
  ...(DISTINCT
    ? {
        requests: [
          {
            setupRequest: (request: autocannon.Request) => ({
              ...request,
              headers: {
                ...request.headers,
                "x-real-ip": `198.18.${(visitors >> 8) & 255}.${visitors++ & 255}`
              }
            })
          }
        ]
      }
    : {})
})

interface Measured {
  readonly "req/s": number
  readonly "p50 ms": number
  readonly "p99 ms": number
  readonly "non-3xx": number
  readonly "server cpu us/req": number
  /** Of the server's CPU, the kernel's (its socket reads and writes, and what they run). */
  readonly "of it kernel": number
  /** Redirects answered (for Folio: views it must count). */
  readonly answered: number
}

const load = async (url: string, server: ChildProcess, seconds: number): Promise<Measured> => {
  const { result, cpuPerRequest, kernelPerRequest } = await withServerCpu(server, () =>
    autocannon({ ...options(url), duration: seconds })
  )
  return {
    "req/s": Math.round(result.requests.average),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "non-3xx": result.requests.total - result["3xx"],
    "server cpu us/req": cpuPerRequest,
    "of it kernel": kernelPerRequest,
    answered: result["3xx"]
  }
}

/** A bare reference server (bench/_raw-redirect.ts) in its own process, and its port. */
const startRaw = async (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, ["--import", "tsx", `${root}bench/_raw-redirect.ts`, ...args], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  const port = await new Promise<number>((resolve) =>
    child.stdout?.once("data", (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port))
  )
  return { child, url: `http://127.0.0.1:${port}/s/${SLUG}` }
}

const median = (values: ReadonlyArray<number>) => summarize(values).median

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  const children: Array<ChildProcess> = []
  try {
    const env = { DATABASE_URL: db.url, ...(DISTINCT ? { ANALYTICS_IP_HEADER: "x-real-ip" } : {}) }
    const tenant =
      /workspace ([0-9a-f-]{36})/.exec(await cli(env, ["workspace", "create", "bench"]))?.[1] ?? ""
    const id = await insertBenchLink(db.url, tenant, SLUG)
    const folio = await startServer(env, ["--import", `${root}bench/_canned-redirect.mjs`])
    children.push(folio.child)
    const fixed = await startRaw([])
    children.push(fixed.child)
    const same = await startRaw(["folio-response"])
    children.push(same.child)
    const servers = [
      {
        label: "folio GET /s/{slug} (3 rules, 2 variants, views on)",
        url: `${folio.origin}/s/${SLUG}`,
        child: folio.child
      },
      { label: "raw node:http, fixed 302", url: fixed.url, child: fixed.child },
      { label: "raw node:http, Folio's response (2 cookies, request id)", url: same.url, child: same.child },
      {
        label: "Folio's process, the same response, not decided",
        url: `${folio.origin}${CANNED_PATH}`,
        child: folio.child
      }
    ] as const

    // Each server warmed once; Folio's answers are views it must count, so they are counted here.
    let requested = 0
    if (WARMUP_SECONDS > 0)
      for (const [i, s] of servers.entries()) {
        const warm = await load(s.url, s.child, WARMUP_SECONDS)
        if (i === 0) requested += warm.answered
      }
    const rounds: Array<ReadonlyArray<Measured>> = []
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Array<Measured> = []
      for (const s of servers) {
        measured.push(await load(s.url, s.child, DURATION))
        // Folio flushes the second's views and visits after its load ends: let that finish
        // before the next server is measured, so none is charged for another's work.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
      }
      requested += measured[0]?.answered ?? 0
      rounds.push(measured)
    }

    await stop(folio.child)
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    const viewsCounted = Number(
      (await client.query("select view_count from resources where id = $1", [id])).rows[0]?.view_count ?? 0
    )
    // Analytics records every counted view too (compacted: identical visits of a second are a row).
    const visits = (
      await client.query<{ visits: string; rows: string }>(
        "select coalesce(sum(count), 0) as visits, count(*) as rows from analytics_visits where resource_id = $1",
        [id]
      )
    ).rows[0]
    await client.end()
    const visitsRecorded = Number(visits?.visits ?? 0)
    const visitRows = Number(visits?.rows ?? 0)

    const column = (i: number, key: keyof Measured) => rounds.map((r) => Number(r[i]?.[key] ?? Number.NaN))
    const rows = servers.map((s, i) => ({
      server: s.label,
      "req/s": median(column(i, "req/s")),
      "p50 ms": median(column(i, "p50 ms")),
      "p99 ms": median(column(i, "p99 ms")),
      "non-3xx": column(i, "non-3xx").reduce((a, b) => a + b, 0),
      "server cpu us/req": median(column(i, "server cpu us/req")),
      "of it kernel": median(column(i, "of it kernel"))
    }))
    const ratios = (a: number, b: number) =>
      rounds.map((r) => Number(r[a]?.["req/s"]) / Number(r[b]?.["req/s"]))
    const ofFixed = ratios(0, 1)
    const responseOfFixed = ratios(2, 1)
    const ofSame = ratios(0, 2)
    const cannedOfFixed = ratios(3, 1)
    const cannedOfSame = ratios(3, 2)
    const ofCanned = ratios(0, 3)
    const pct = (xs: ReadonlyArray<number>) => xs.map((x) => (x * 100).toFixed(0)).join(" ")
    const share = (xs: ReadonlyArray<number>) => `${(median(xs) * 100).toFixed(0)}% (rounds: ${pct(xs)})`
    const p99 = median(rounds.map((r) => Number(r[0]?.["p99 ms"]) / Math.max(1, Number(r[1]?.["p99 ms"]))))
    const cpu = (key: "server cpu us/req" | "of it kernel") =>
      // Two decimals: a median of an even count is a mean, whose binary sum can print 13.600000000000001.
      [0, 3, 2, 1].map((i) => Number((rows[i]?.[key] ?? Number.NaN).toFixed(2))).join(" / ")
    printTable(rows)
    process.stdout.write(
      `\nredirect on PostgreSQL: ${(median(ofFixed) * 100).toFixed(0)}% of the raw server's req/s (target >= 70%; the rounds: ${pct(ofFixed)}), p99 ${rows[0]?.["p99 ms"]} ms vs ${rows[1]?.["p99 ms"]} ms raw (${p99.toFixed(2)}x, target < 3x) at ${CONNECTIONS} connections; ${viewsCounted} views written of ${requested} redirects answered (every request a new visitor); ${visitsRecorded} visits recorded for analytics in ${visitRows} rows\n` +
        // Where the gap is, in three steps from the fixed 302: the response Folio must send (its
        // cookies and request id), being Folio's process, and the work of deciding and recording.
        "the split, each a share of the step before's req/s:\n" +
        `  the response itself: a bare server sending Folio's response answers ${share(responseOfFixed)} of the fixed 302\n` +
        `  being Folio's process: Folio's process sending that response undecided answers ${share(cannedOfSame)} of the bare server sending it (${share(cannedOfFixed)} of the fixed 302)\n` +
        `  the redirect's own work: Folio's redirect answers ${share(ofCanned)} of its process's undecided response (${share(ofSame)} of the bare server's)\n` +
        `server CPU a request (Folio / its process undecided / same response / fixed 302): ${cpu("server cpu us/req")} us, of it the kernel's ${cpu("of it kernel")} us\n`
    )
    process.stdout.write(
      `written ${writeResult("redirect", { at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION, rounds: ROUNDS, viewsCounted, visitsRecorded, visitRows, requested, rows, perRound: rounds })}\n`
    )
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) await stop(child)
    await db.drop()
  }
}
