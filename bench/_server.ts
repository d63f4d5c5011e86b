// Running the real server for a benchmark: the CLI for workspaces and keys, a child process on a
// free port with the budgets lifted, and a clean stop; the redirect benches' link.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import pg from "pg"

export const root = fileURLToPath(new URL("..", import.meta.url))
const exec = promisify(execFile)

export const cli = async (env: NodeJS.ProcessEnv, args: ReadonlyArray<string>) =>
  (
    await exec(process.execPath, [`${root}packages/app/bundle/cli.js`, ...args], {
      env: { ...process.env, ...env }
    })
  ).stdout

/** A workspace and a full-scope key in it (for `service` when given, else the CLI's default). */
export const provision = async (env: NodeJS.ProcessEnv, name: string, service?: "forms" | "sharing") => {
  const ws = /workspace ([0-9a-f-]{36})/.exec(await cli(env, ["workspace", "create", name]))?.[1] ?? ""
  const key =
    /folio_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}/.exec(
      await cli(env, [
        "key",
        "create",
        "--workspace",
        ws,
        "--scopes",
        "all",
        ...(service === undefined ? [] : ["--service", service])
      ])
    )?.[0] ?? ""
  return { ws, key }
}

export const freePort = async () => {
  const { createServer } = await import("node:net")
  return new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a !== null ? a.port : 0))
    })
  })
}

/** The server `npm start` runs (the bundle `npm run build` makes), which the benchmarks start. */
const SERVER_ENTRY = "packages/app/bundle/main.js"

/** The node flags `npm start` runs the server with (package.json is their one source). */
export const serverNodeFlags = (): ReadonlyArray<string> => {
  const scripts = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: { start: string } })
    .scripts
  // A start script that does not run SERVER_ENTRY fails the benchmark rather than measuring a
  // server without npm start's flags (which happened for a while when the script moved from dist/
  // to bundle/).
  const matched = new RegExp(`node ((?:--\\S+ )*)${SERVER_ENTRY.replaceAll(".", "\\.")}`).exec(scripts.start)
  if (matched === null) throw new Error(`cannot find the server's node flags in npm start: ${scripts.start}`)
  const flags = matched[1] ?? ""
  // BENCH_NODE_FLAGS adds flags for a look inside (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  return [...flags.split(" "), ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ")].filter((f) => f !== "")
}

export const startServer = async (
  env: NodeJS.ProcessEnv,
  /** More node flags, after `npm start`'s and BENCH_NODE_FLAGS (a benchmark's `--import`). */
  nodeFlags: ReadonlyArray<string> = []
): Promise<{ origin: string; child: ChildProcess }> => {
  const port = await freePort()
  const child = spawn(process.execPath, [...serverNodeFlags(), ...nodeFlags, `${root}${SERVER_ENTRY}`], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      LOG_LEVEL: "warning",
      RATE_LIMIT_PER_KEY: "1000000000",
      AUTH_ATTEMPTS_PER_IP: "1000000000",
      RESPONDENT_REQUESTS_PER_IP: "1000000000"
    },
    stdio: ["ignore", process.env.BENCH_SERVER_STDOUT === "1" ? "inherit" : "ignore", "inherit"]
  })
  const origin = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return { origin, child }
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("server did not become ready")
}

export const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/** CPU time in microseconds: user and system together, and of it the system (kernel) time. */
interface CpuMicros {
  readonly all: number
  readonly sys: number
}

/** The CPU time a child process has used so far, from /proc; undefined where there is no /proc. */
const cpuMicros = (child: ChildProcess): CpuMicros | undefined => {
  const file = `/proc/${child.pid}/stat`
  if (child.pid === undefined || !existsSync(file)) return undefined
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th, in ticks.
  const fields = readFileSync(file, "utf8").split(") ")[1]?.split(" ") ?? []
  const user = Number(fields[11])
  const sys = Number(fields[12])
  return Number.isFinite(user + sys)
    ? { all: ((user + sys) * 1_000_000) / 100, sys: (sys * 1_000_000) / 100 }
    : undefined
}

/**
 * CPU time (microseconds) of each kind of thread of a child process so far, by the thread's name
 * (`node` is the main thread, `V8 DefaultWorke` V8's helpers, a worker thread's own name), and
 * of it the system time (`<name>.sys`), from
 * /proc/<pid>/task; empty where there is no /proc. A look inside for BENCH_THREADS=1.
 */
export const threadCpuMicros = (child: ChildProcess): Map<string, number> => {
  const byName = new Map<string, number>()
  const dir = `/proc/${child.pid}/task`
  if (child.pid === undefined || !existsSync(dir)) return byName
  for (const task of readdirSync(dir)) {
    try {
      const stat = readFileSync(`${dir}/${task}/stat`, "utf8")
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ")
      const micros = ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100
      byName.set(name, (byName.get(name) ?? 0) + micros)
      // Of it, the kernel's (system) time: a thread's socket writes and reads, and what the
      // kernel's network code charges to whichever thread it interrupts.
      byName.set(`${name}.sys`, (byName.get(`${name}.sys`) ?? 0) + (Number(fields[12]) * 1_000_000) / 100)
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName
}

/**
 * Runs a load and returns it with the server process's own CPU per answered request, and of it
 * the kernel's (-1 where it cannot be read): steadier than req/s on a machine whose two cores also
 * run the load generator and the database.
 */
export const withServerCpu = async <R extends { readonly requests: { readonly total: number } }>(
  server: ChildProcess,
  run: () => Promise<R>,
  label = `pid ${server.pid}`
): Promise<{ readonly result: R; readonly cpuPerRequest: number; readonly kernelPerRequest: number }> => {
  const threadsBefore = process.env.BENCH_THREADS === "1" ? threadCpuMicros(server) : undefined
  const before = cpuMicros(server)
  const result = await run()
  const after = cpuMicros(server)
  // To a tenth of a microsecond: a redirect costs ~60 us, so whole microseconds would move a
  // ratio of two by up to 3% on rounding alone.
  const perRequest = (micros: (cpu: CpuMicros) => number) =>
    before === undefined || after === undefined || result.requests.total === 0
      ? -1
      : Math.round(((micros(after) - micros(before)) * 10) / result.requests.total) / 10
  const cpuPerRequest = perRequest((cpu) => cpu.all)
  const kernelPerRequest = perRequest((cpu) => cpu.sys)
  if (threadsBefore !== undefined && result.requests.total > 0) {
    const parts = [...threadCpuMicros(server)].map(
      ([name, micros]) =>
        `${name}=${((micros - (threadsBefore.get(name) ?? 0)) / result.requests.total).toFixed(1)}`
    )
    process.stdout.write(`  threads (us/req) ${label}: ${parts.join(" ")}\n`)
  }
  return { result, cpuPerRequest, kernelPerRequest }
}

/**
 * The redirect benches' link: device, language and query rules and two A/B variants, so the
 * redirect decides what a real one does (no rule matches the load's desktop visitor).
 */
export const BENCH_LINK_DATA = {
  targetUrl: "https://example.com/target",
  redirectRules: [
    { conditions: { device: ["mobile"] }, target_url: "https://m.example.com/" },
    { conditions: { language: ["de", "fr"] }, target_url: "https://eu.example.com/" },
    {
      conditions: { query: [{ param: "ref", op: "equals", value: "news" }] },
      target_url: "https://news.example.com/"
    }
  ],
  testVariants: [
    { url: "https://a.example.com/", weight: 1 },
    { url: "https://b.example.com/", weight: 1 }
  ],
  fallbackUrl: null,
  webhookClicks: false,
  ogTitle: null,
  ogDescription: null,
  ogImageUrl: null
}

/** Writes the bench link `slug` of workspace `tenant` straight into the database; answers its id. */
export const insertBenchLink = async (databaseUrl: string, tenant: string, slug: string) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const id = randomUUID()
  try {
    await client.query(
      `insert into resources (id, tenant_id, type, slug, title, title_key, visibility, data, row_version, created_at, updated_at)
       values ($1, $2, 'link', $3, 'Bench link', 'bench link', 'public', $4::jsonb, 1, now(), now())`,
      [id, tenant, slug, JSON.stringify(BENCH_LINK_DATA)]
    )
  } finally {
    await client.end()
  }
  return id
}
