// `kill <pid of npm start>` must stop the whole process tree: npm forwards SIGTERM/SIGINT to the
// script's shell, and the shell must not stand between npm and node (a plain `sh -c "a && b"` dies
// and leaves node running, holding the port and the data-dir lock). Runs the real `npm start`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { build, descendants, isRunning, startNpmStart, startServer } from "./process.js"

const dataDir = mkdtempSync(join(tmpdir(), "folio-npm-start-"))
const env = { DATA_DIR: dataDir, LOG_LEVEL: "info" }

beforeAll(build, 240_000)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const portAnswers = (origin: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(origin)
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

const until = async (deadlineMs: number, done: () => boolean): Promise<boolean> => {
  const end = Date.now() + deadlineMs
  while (Date.now() < end) {
    if (done()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return done()
}

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
  } catch {
    return ""
  }
}

describe.skipIf(process.platform !== "linux")("npm start and signals sent to the npm process", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to npm stops node too: every process exits, the port is free and the data dir unlocked",
    async (signal) => {
      const started = await startNpmStart(env)
      const npmPid = started.child.pid ?? 0
      const tree = descendants(npmPid)
      try {
        // The tree holds the server itself (node .../main.js), whatever sits between it and npm.
        expect(tree.some((pid) => commandLine(pid).includes("packages/app/bundle/main.js"))).toBe(true)
        expect(existsSync(join(dataDir, "folio.lock"))).toBe(true)

        const t0 = Date.now()
        started.child.kill(signal)
        const exit = await Promise.race([
          started.exited,
          new Promise((r) => setTimeout(() => r("npm still running after 10 s"), 10_000))
        ])
        const allGone = await until(5_000, () => tree.every((pid) => !isRunning(pid)))
        expect({ exit, allGone, left: tree.filter(isRunning).map(commandLine) }).toEqual({
          exit: { code: 0, signal: null },
          allGone: true,
          left: []
        })
        expect(Date.now() - t0).toBeLessThan(5_000)
        expect(await portAnswers(started.origin)).toBe(false)
        expect(existsSync(join(dataDir, "folio.lock"))).toBe(false)
      } finally {
        // Leave no server behind when the assertions fail (these are the processes this test started).
        for (const pid of [npmPid, ...tree].filter(isRunning)) process.kill(pid, "SIGKILL")
      }
    },
    120_000
  )

  it("a second start on the same data directory works afterwards", async () => {
    const again = await startServer(env)
    again.child.kill("SIGTERM")
    expect((await again.exited).code).toBe(0)
  })
})
