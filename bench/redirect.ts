// The public redirect, the sharing service's hot path: GET /s/{slug} of a public link with three
// redirect rules (none matching the load's requests, so all three are evaluated) and two A/B
// variants, with view counting and analytics recording on (every request is a new visitor: no
// cookie, so every one is counted, recorded and its cookie minted), at 32 connections, beside a
// bare node:http server answering a fixed 302 in the same run. Server in its own process on
// PostgreSQL, load from autocannon here. All requests come from one address and user agent, so
// analytics compacts them (a row per second); BENCH_DISTINCT_VISITORS=1 gives every request its
// own address (in X-Real-IP, which the server is told to trust), so every visit is a distinct
// visitor and a row of its own.
import { type ChildProcess, spawn } from "node:child_process"
import autocannon from "autocannon"
import pg from "pg"
import { createTempDatabase } from "../test/storage/targets.js"
import { cli, insertBenchLink, root, startServer, stop, withServerCpu } from "./_server.js"
import { benchDatabaseUrl, printTable, writeResult } from "./_stats.js"

const DURATION = Number(process.env.BENCH_SECONDS ?? 6)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = 32
const SLUG = "bench-link"

/** Redirects answered to the load (warm-up included): each one is a new visitor's counted view. */
let sent = 0

const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0"
let visitors = 0
const DISTINCT = process.env.BENCH_DISTINCT_VISITORS === "1"

const load = async (url: string, server: ChildProcess) => {
  const options: autocannon.Options = {
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
  }
  const warm = WARMUP_SECONDS > 0 ? await autocannon({ ...options, duration: WARMUP_SECONDS }) : undefined
  sent += warm?.["3xx"] ?? 0
  const { result, cpuPerRequest } = await withServerCpu(server, () =>
    autocannon({ ...options, duration: DURATION })
  )
  sent += result["3xx"]
  return {
    "req/s": Math.round(result.requests.average),
    "3xx/s": Math.round(result["3xx"] / result.duration),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "non-3xx": result.requests.total - result["3xx"],
    "server cpu us/req": cpuPerRequest
  }
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = []
  const db = await createTempDatabase(benchDatabaseUrl())
  let viewsCounted = 0
  let visitsRecorded = 0
  let visitRows = 0
  let requested = 0
  try {
    const env = { DATABASE_URL: db.url, ...(DISTINCT ? { ANALYTICS_IP_HEADER: "x-real-ip" } : {}) }
    const tenant =
      /workspace ([0-9a-f-]{36})/.exec(await cli(env, ["workspace", "create", "bench"]))?.[1] ?? ""
    const id = await insertBenchLink(db.url, tenant, SLUG)
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    const server = await startServer(env)
    try {
      const ours = await load(`${server.origin}/s/${SLUG}`, server.child)
      requested = sent
      rows.push({ server: "folio GET /s/{slug} (3 rules, 2 variants, views on)", ...ours })
    } finally {
      await stop(server.child)
    }
    viewsCounted = Number(
      (await client.query("select view_count from resources where id = $1", [id])).rows[0]?.view_count ?? 0
    )
    // Analytics records every counted view too (compacted: identical visits of a second are a row).
    const visits = (
      await client.query<{ visits: string; rows: string }>(
        "select coalesce(sum(count), 0) as visits, count(*) as rows from analytics_visits where resource_id = $1",
        [id]
      )
    ).rows[0]
    visitsRecorded = Number(visits?.visits ?? 0)
    visitRows = Number(visits?.rows ?? 0)
    await client.end()

    const raw = spawn(process.execPath, ["--import", "tsx", `${root}bench/_raw-redirect.ts`], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    const port = await new Promise<number>((resolve) =>
      raw.stdout?.once("data", (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port))
    )
    try {
      rows.push({
        server: "raw node:http, fixed 302",
        ...(await load(`http://127.0.0.1:${port}/s/${SLUG}`, raw))
      })
    } finally {
      await stop(raw)
    }
  } finally {
    await db.drop()
  }
  printTable(rows)
  const [ours, raw] = rows
  if (ours !== undefined && raw !== undefined) {
    const ratio = Number(ours["req/s"]) / Number(raw["req/s"])
    const p99 = Number(ours["p99 ms"]) / Math.max(1, Number(raw["p99 ms"]))
    process.stdout.write(
      `\nredirect on PostgreSQL: ${(ratio * 100).toFixed(0)}% of the raw server's req/s (target >= 70%), p99 ${ours["p99 ms"]} ms vs ${raw["p99 ms"]} ms raw (${p99.toFixed(2)}x, target < 3x) at ${CONNECTIONS} connections; ${viewsCounted} views written of ${requested} redirects answered (every request a new visitor); ${visitsRecorded} visits recorded for analytics in ${visitRows} rows\n`
    )
  }
  process.stdout.write(
    `written ${writeResult("redirect", { at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION, viewsCounted, visitsRecorded, visitRows, requested, rows })}\n`
  )
}
