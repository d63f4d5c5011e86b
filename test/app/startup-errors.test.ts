// Start-up failures a new user meets in the first hour: each is exactly one stderr line that names
// the cause (and the variable to change), exit code 1, and never a password. Runs the built server.
import { rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TEST_DATABASE_URL } from "../storage/targets.js"
import { build, migratedDataDir, runProcess } from "./process.js"

const dataDir = migratedDataDir("folio-startup-")
let occupied: Server
let busyPort = 0

beforeAll(async () => {
  occupied = createServer()
  await new Promise<void>((resolve) => occupied.listen(0, "127.0.0.1", resolve))
  const address = occupied.address()
  busyPort = typeof address === "object" && address !== null ? address.port : 0
  await build()
}, 240_000)
afterAll(() => {
  occupied.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Starts the server with `env`, expects it to fail, and returns its single stderr line. */
const failLine = async (env: Record<string, string>): Promise<string> => {
  const result = await runProcess("main", [], { DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warning", ...env })
  expect(result.code).toBe(1)
  const lines = result.stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  return lines[0] ?? ""
}

describe("start-up failures say what is wrong in one line", () => {
  it("a port in use names the address and says it is in use", async () => {
    const line = await failLine({ PORT: String(busyPort) })
    expect(line).toBe(
      `folio: cannot listen on 127.0.0.1:${busyPort} (HOST, PORT): the address is already in use (EADDRINUSE)`
    )
  })

  it("a METRICS_PORT in use names the metrics address and says it is in use", async () => {
    const line = await failLine({ METRICS_PORT: String(busyPort) })
    expect(line).toBe(
      `folio: cannot listen for metrics on 127.0.0.1:${busyPort}: the address is already in use (EADDRINUSE)`
    )
  })

  it("a HOST that does not resolve is named", async () => {
    const line = await failLine({ HOST: "no-such-host.invalid" })
    expect(line).toBe(
      "folio: cannot listen on no-such-host.invalid:0 (HOST, PORT): the host name does not resolve (ENOTFOUND)"
    )
  })

  it("an unreachable database names where it was looked for, without the password", async () => {
    const line = await failLine({ DATABASE_URL: "postgres://folio:s3cret-pw@127.0.0.1:1/folio" })
    expect(line).toBe(
      "folio: cannot open PostgreSQL at 127.0.0.1:1/folio (DATABASE_URL): connection refused (ECONNREFUSED)"
    )
    expect(line).not.toContain("s3cret")
  })

  it.skipIf(TEST_DATABASE_URL === undefined)("a missing database is named as missing", async () => {
    const url = new URL(TEST_DATABASE_URL ?? "")
    url.pathname = "/folio_no_such_database"
    const line = await failLine({ DATABASE_URL: url.toString() })
    expect(line).toBe(
      `folio: cannot open PostgreSQL at ${url.hostname}:${url.port || "5432"}/folio_no_such_database (DATABASE_URL): database "folio_no_such_database" does not exist`
    )
  })

  it.each([
    ["PUBLIC_ORIGIN", { PUBLIC_ORIGIN: "http://x/y" }],
    [
      "S3_ENDPOINT",
      {
        BLOB_STORE: "s3",
        S3_ENDPOINT: "http://x/y",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "a",
        S3_SECRET_ACCESS_KEY: "b"
      }
    ]
  ])("an origin with a path names %s once", async (name, env) => {
    const line = await failLine(env)
    expect(line).toBe(
      `folio: invalid configuration: ${name}: must be an origin such as https://forms.example.com (scheme, host, optional port; no path)`
    )
  })
})
