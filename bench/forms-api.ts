// HTTP throughput of the forms API, server in its own process, load from autocannon in this one:
// authenticated GET /forms/{id}, GET /forms (page of 20 out of 10,000), PATCH /forms/{id} with a
// 50-block definition; a bare node:http + pg baseline for the same primary-key read; and the list
// at 1,000 vs 100,000 forms. On PGlite and on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { defaultFormSettings, encodeFormSettings, settingsSignature } from "@folio/domain"
import autocannon from "autocannon"
import pg from "pg"
import { createTempDatabase } from "../test/storage/targets.js"
import { provision, root, startServer, stop, withServerCpu } from "./_server.js"
import { benchDatabaseUrl, printTable, writeResult } from "./_stats.js"

const DURATION = Number(process.env.BENCH_SECONDS ?? 6)
const CONNECTIONS = 32

const settings = defaultFormSettings()
const SEED_SQL = `
  insert into forms (id, workspace_id, kind, title, slug, status, draft_revision, draft_definition, settings,
                     settings_signature, current_version_id, version_count, row_version, created_at, updated_at)
  select gen_random_uuid(), $1::uuid, 'classic', 'Bench form ' || i, $2 || '-' || i, 'draft', 1,
         '{"schemaVersion":1,"blocks":[],"logic":[]}'::jsonb, $3::jsonb, $4, null, 0, 1,
         now() - make_interval(secs => i), now() - make_interval(secs => i)
  from generate_series(1, $5::int) as i`
const seedParams = (workspaceId: string, prefix: string, n: number) => [
  workspaceId,
  prefix,
  JSON.stringify(encodeFormSettings(settings)),
  settingsSignature(settings),
  n
]

const fiftyBlocks = (round: number) => ({
  schemaVersion: 1,
  blocks: Array.from({ length: 50 }, (_, i) => ({
    id: `blk_${String(i).padStart(8, "0")}`,
    type: i % 2 === 0 ? "short_text" : "multiple_choice",
    label: `Question ${i} (round ${round})`,
    ...(i % 2 === 0
      ? {}
      : {
          options: {
            choices: [
              { id: "a", label: "Yes" },
              { id: "b", label: "No" }
            ]
          }
        })
  }))
})

// Each measured load follows an unrecorded one on the same URL, so every server (ours and the raw
// baseline alike) is compared warm, not during the JIT compilation of its first seconds.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)

const load = async (options: autocannon.Options, server: ChildProcess) => {
  if (WARMUP_SECONDS > 0) await autocannon({ connections: CONNECTIONS, duration: WARMUP_SECONDS, ...options })
  const { result, cpuPerRequest } = await withServerCpu(server, () =>
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...options })
  )
  return {
    "req/s": Math.round(result.requests.average),
    "2xx/s": Math.round(result["2xx"] / result.duration),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    non2xx: result.non2xx,
    "server cpu us/req": cpuPerRequest
  }
}

const authoring = async (origin: string, key: string, server: ChildProcess) => {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
  const forms: Array<string> = []
  for (let i = 0; i < CONNECTIONS; i++) {
    const r = await fetch(`${origin}/forms/api/v1/forms`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: `Patch target ${i}`, definition: fiftyBlocks(0) })
    })
    forms.push(((await r.json()) as { data: { id: string } }).data.id)
  }
  const target = forms[0] ?? ""
  const get = await load({ url: `${origin}/forms/api/v1/forms/${target}`, headers }, server)
  const list = await load({ url: `${origin}/forms/api/v1/forms?limit=20`, headers }, server)
  // PATCH needs each writer to carry its form's revision forward, which autocannon's pre-built
  // requests cannot do; 32 concurrent writers in this process, each editing its own form.
  const latencies: Array<number> = []
  let failures = 0
  const deadline = performance.now() + DURATION * 1000
  await Promise.all(
    forms.map(async (formId) => {
      let revision = 1
      let round = 0
      while (performance.now() < deadline) {
        round++
        const t0 = performance.now()
        const response = await fetch(`${origin}/forms/api/v1/forms/${formId}`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ definition: fiftyBlocks(round), expectedDraftRevision: revision })
        })
        const body = (await response.json()) as { data?: { draftRevision: number } }
        latencies.push(performance.now() - t0)
        if (response.status === 200 && body.data !== undefined) revision = body.data.draftRevision
        else failures++
      }
    })
  )
  const sorted = latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0)
  const patch = {
    "req/s": Math.round(latencies.length / DURATION),
    "2xx/s": Math.round((latencies.length - failures) / DURATION),
    "p50 ms": at(0.5),
    "p99 ms": at(0.99),
    non2xx: failures,
    "server cpu us/req": -1
  }
  return { target, get, list, patch }
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = []
  const row = (backend: string, what: string, r: Record<string, number>) => rows.push({ backend, what, ...r })

  // Embedded PGlite.
  const dir = mkdtempSync(join(tmpdir(), "folio-bench-api-"))
  try {
    const env = { DATA_DIR: dir, DATABASE_URL: "" }
    const { ws, key } = await provision(env, "bench")
    const db = new PGlite(join(dir, "pglite"))
    await db.query(SEED_SQL, seedParams(ws, "pg-lite", 10_000))
    await db.close()
    const server = await startServer(env)
    try {
      const r = await authoring(server.origin, key, server.child)
      row("pglite", "GET /forms/{id}", r.get)
      row("pglite", "GET /forms (20 of 10,000)", r.list)
      row("pglite", "PATCH /forms/{id} (50 blocks)", r.patch)
    } finally {
      await stop(server.child)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  // Real PostgreSQL.
  const db = await createTempDatabase(benchDatabaseUrl())
  const url = new URL(db.url)
  try {
    const env = { DATABASE_URL: url.toString() }
    const main = await provision(env, "bench")
    const small = await provision(env, "thousand")
    const large = await provision(env, "hundred-thousand")
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    await client.query(SEED_SQL, seedParams(main.ws, "ten-k", 10_000))
    await client.query(SEED_SQL, seedParams(small.ws, "one-k", 1_000))
    await client.query(SEED_SQL, seedParams(large.ws, "hundred-k", 100_000))
    await client.query("analyze")
    await client.end()

    const server = await startServer(env)
    let target = ""
    try {
      const r = await authoring(server.origin, main.key, server.child)
      target = r.target
      row("postgres", "GET /forms/{id}", r.get)
      row("postgres", "GET /forms (20 of 10,000)", r.list)
      row("postgres", "PATCH /forms/{id} (50 blocks)", r.patch)
      // The framework's own ceiling in this run: a route with no key check and no query.
      row(
        "postgres",
        "GET /healthz (same server, no auth, no DB)",
        await load({ url: `${server.origin}/healthz` }, server.child)
      )
      row(
        "postgres",
        "GET /forms (20 of 1,000)",
        await load(
          {
            url: `${server.origin}/forms/api/v1/forms?limit=20`,
            headers: { authorization: `Bearer ${small.key}` }
          },
          server.child
        )
      )
      row(
        "postgres",
        "GET /forms (20 of 100,000)",
        await load(
          {
            url: `${server.origin}/forms/api/v1/forms?limit=20`,
            headers: { authorization: `Bearer ${large.key}` }
          },
          server.child
        )
      )
    } finally {
      await stop(server.child)
    }

    const raw = spawn(process.execPath, ["--import", "tsx", `${root}bench/_raw-server.ts`], {
      env: { ...process.env, RAW_DATABASE_URL: url.toString(), RAW_WORKSPACE_ID: main.ws },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const port = await new Promise<number>((resolve) =>
      raw.stdout?.once("data", (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port))
    )
    try {
      row(
        "postgres",
        "raw node:http + pg, same PK read",
        await load({ url: `http://127.0.0.1:${port}/forms/${target}` }, raw)
      )
    } finally {
      await stop(raw)
    }
  } finally {
    await db.drop()
  }

  const pgGet = rows.find((r) => r.backend === "postgres" && r.what === "GET /forms/{id}")
  const rawGet = rows.find((r) => String(r.what).startsWith("raw"))
  printTable(rows)
  if (pgGet !== undefined && rawGet !== undefined) {
    process.stdout.write(
      `\nGET /forms/{id} on PostgreSQL: ${((Number(pgGet["req/s"]) / Number(rawGet["req/s"])) * 100).toFixed(0)}% of the raw baseline's req/s (target >= 50%), p99 ${pgGet["p99 ms"]} ms vs ${rawGet["p99 ms"]} ms raw (${(Number(pgGet["p99 ms"]) / Number(rawGet["p99 ms"])).toFixed(2)}x, target <= 2x), server CPU per request ${pgGet["server cpu us/req"]} us vs ${rawGet["server cpu us/req"]} us raw (${(Number(pgGet["server cpu us/req"]) / Number(rawGet["server cpu us/req"])).toFixed(2)}x, target <= 2.5x) at ${CONNECTIONS} connections\n`
    )
  }
  // Issue 35's row for the embedded default: the same server and read, PGlite against PostgreSQL.
  const liteGet = rows.find((r) => r.backend === "pglite" && r.what === "GET /forms/{id}")
  if (liteGet !== undefined && pgGet !== undefined)
    process.stdout.write(
      `GET /forms/{id} on PGlite: ${(Number(liteGet["req/s"]) / Number(pgGet["req/s"])).toFixed(2)} of the same server's req/s on PostgreSQL (target >= 0.7), server CPU per request ${liteGet["server cpu us/req"]} us vs ${pgGet["server cpu us/req"]} us\n`
    )
  process.stdout.write(
    `written ${writeResult("forms-api", { at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION, rows })}\n`
  )
}
