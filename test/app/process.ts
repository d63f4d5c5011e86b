// Runs the built server and CLI as real child processes, the way `npm start` and `npm run cli` do.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { freshPgliteDir } from "../support/pglite-dir.js"

export const root = fileURLToPath(new URL("../..", import.meta.url))
const run = promisify(execFile)

/**
 * A new DATA_DIR whose embedded database is already made and migrated (a copy of the run's, as
 * pglite-dir.ts says), for a test of what the server or the CLI does with data, not of a first
 * start: its first process then restarts the database instead of creating it.
 */
export const migratedDataDir = (prefix: string): string => freshPgliteDir(prefix, "pglite").dir

/**
 * Node's compile cache for every process the tests start (the server, the CLI, tsc): a process
 * spends most of its start compiling the modules it loads (the CLI's `--help` took 3.0 s, 1.7 s
 * with the cache warm), and the suite starts a few hundred of them from the same files. The cache
 * is keyed by each file's contents, so a rebuilt file is compiled afresh; it changes nothing a
 * process does, only how fast its modules load.
 */
const COMPILE_CACHE = `${root}node_modules/.cache/folio-test-compile`

/**
 * `npm run build`'s compile and bundle once per test file (both incremental, so cheap when dist and
 * the bundle are current; the page assets are the global setup's).
 */
export const build = async (): Promise<void> => {
  const options = { cwd: root, env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE } }
  await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-b"], options)
  await run(process.execPath, [`${root}packages/app/bundle.mjs`], options)
}

export interface Started {
  readonly child: ChildProcess
  readonly origin: string
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const baseEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const clean: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NODE_COMPILE_CACHE: COMPILE_CACHE
  }
  return { ...clean, ...env }
}

/**
 * V8's WebAssembly tiering budget a hundredfold, as the CLI sets it for itself (cli.ts): a server
 * started with V8's default compiles the embedded database's hot functions with the optimizing
 * compiler within seconds of its start, ~3 s of a core and a peak RSS of ~840 MB (against ~300
 * MB) per start, which pays off for a server under load for hours and not for a test's server,
 * which answers a few dozen requests; the suite starts over forty. The flag changes which compiler
 * runs PostgreSQL's code, never what it does; a server under a test's load still tiers its hottest
 * functions up (decision 0028).
 */
const TEST_SERVER_FLAGS = ["--wasm-tiering-budget=1300000000"]

/**
 * Starts packages/app/bundle/main.js (what `npm start` runs) and resolves once it logs that it is
 * listening, the last line of its start (everything it prints at start is in `stdout()` by then);
 * `nodeArgs` go before the script (e.g. `--import` of test/support/loaded-packages.mjs).
 */
export const startServer = (
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = []
): Promise<Started> =>
  startListening(
    process.execPath,
    [...TEST_SERVER_FLAGS, ...nodeArgs, `${root}packages/app/bundle/main.js`],
    env
  )

/**
 * Runs `npm start` itself (npm, the script's shell and node), as a user does; the child is the npm
 * process, whose pid is the one a user would `kill`.
 */
export const startNpmStart = (env: Record<string, string>): Promise<Started> =>
  startListening("npm", ["start"], env)

const startListening = (command: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<Started>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: baseEnv({ PORT: "0", ...env }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    let listening = false
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("exit", (code, signal) => done({ code, signal }))
    )
    const timer = setTimeout(() => {
      // Leave no server behind a failed test (it may be up but silent, e.g. with LOG_LEVEL=warning).
      child.kill("SIGKILL")
      reject(new Error(`server did not start:\n${out}\n${err}`))
    }, 60_000)
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      // Found once: the lines after it (a test's access log) are only kept.
      if (listening) return
      const line = out.split("\n").find((l) => l.includes('"listening"'))
      if (line === undefined) return
      listening = true
      const address = (JSON.parse(line) as { annotations: { address: string } }).annotations.address
      clearTimeout(timer)
      // "listening" is the start's last line (main.ts): the keys and the setup link are in `out`.
      resolve({ child, origin: `http://${address}`, stdout: () => out, stderr: () => err, exited })
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before listening:\n${out}\n${err}`))
    })
  })

export const runProcess = async (
  script: "main" | "cli",
  args: ReadonlyArray<string>,
  env: Record<string, string>
): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      // The CLI sets the budget itself; a server that fails its start still waits for the compile.
      [...(script === "main" ? TEST_SERVER_FLAGS : []), `${root}packages/app/bundle/${script}.js`, ...args],
      {
        cwd: root,
        env: baseEnv(env),
        timeout: 60_000
      }
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }
  }
}

export const keyIn = (text: string): string | undefined =>
  /folio_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}/.exec(text)?.[0]

/**
 * A workspace made with the built CLI and a key of every scope of `service` in it; fails the test
 * (with what the CLI printed) when either is missing.
 */
export const provisionWithCli = async (
  env: Record<string, string>,
  name: string,
  service: "forms" | "sharing"
): Promise<{ readonly workspaceId: string; readonly key: string }> => {
  const workspace = await runProcess("cli", ["workspace", "create", name], env)
  const workspaceId = /workspace ([0-9a-f-]{36})/.exec(workspace.stdout)?.[1] ?? ""
  const created = await runProcess(
    "cli",
    ["key", "create", "--workspace", workspaceId, "--service", service, "--scopes", "all"],
    env
  )
  const key = keyIn(created.stdout) ?? ""
  if (key === "") throw new Error(`no key from the CLI: ${JSON.stringify({ workspace, created })}`)
  return { workspaceId, key }
}

/** SIGKILLs every server a test started and waits until each has gone. */
export const killServers = async (servers: ReadonlyArray<Started>): Promise<void> => {
  for (const server of servers) {
    server.child.kill("SIGKILL")
    await server.exited
  }
}

/** Linux: the pids of every live process descended from `pid` (from /proc; zombies count as gone). */
export const descendants = (pid: number): ReadonlyArray<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8")
    } catch {
      continue // exited while we looked
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    if (state === "Z") continue
    const parent = Number(ppid)
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
  }
  const found: Array<number> = []
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      found.push(c)
      walk(c)
    }
  }
  walk(pid)
  return found
}

/** Whether `pid` still runs (a zombie waiting for its parent to reap it does not). */
export const isRunning = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z"
  } catch {
    return false
  }
}
