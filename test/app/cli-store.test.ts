// The CLI says which store it opened (a key made in the embedded database by mistake gets 401 from a
// PostgreSQL server), never with the password; and the README's PostgreSQL lines pass DATABASE_URL.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, keyIn, root, runProcess, startServer } from "./process.js"

// Empty on purpose: the CLI's first call creates the embedded database (decision 0028 keeps one
// first start of each entry point proven), so this is not a copy of the migrated template.
const dataDir = mkdtempSync(join(tmpdir(), "folio-cli-store-"))

beforeAll(build, 240_000)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe("the CLI names its store on stderr", () => {
  it("the embedded database, with its absolute path", async () => {
    const result = await runProcess("cli", ["workspace", "list"], { DATA_DIR: dataDir })
    expect(result.code).toBe(0)
    expect(result.stderr.split("\n")[0]).toBe(
      `folio: using the embedded database at ${resolve(dataDir, "pglite")}`
    )
  })

  it.skipIf(TEST_DATABASE_URL === undefined)(
    "PostgreSQL as host:port/db without credentials; the key it prints works on a server with the same URL",
    async () => {
      const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
      const url = new URL(db.url)
      // The test server trusts local connections; the password is only there to be kept out of output.
      url.password = "hunter2-secret"
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() }
      const where = `folio: using PostgreSQL at ${url.hostname}:${url.port || "5432"}${url.pathname}`
      try {
        const created = await runProcess("cli", ["workspace", "create", "Acme"], env)
        expect(created.code).toBe(0)
        expect(created.stderr.split("\n")[0]).toBe(where)
        expect(`${created.stdout}${created.stderr}`).not.toContain("hunter2")
        const workspaceId = /workspace ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? ""
        const key = await runProcess(
          "cli",
          ["key", "create", "--workspace", workspaceId, "--scopes", "all"],
          env
        )
        expect(key.stderr.split("\n")[0]).toBe(where)
        const plaintext = keyIn(key.stdout) ?? ""

        const server = await startServer(env)
        try {
          const usage = await fetch(`${server.origin}/forms/api/v1/usage`, {
            headers: { authorization: `Bearer ${plaintext}` }
          })
          expect(usage.status).toBe(200)
        } finally {
          server.child.kill("SIGTERM")
          await server.exited
        }
      } finally {
        await db.drop()
      }
    },
    120_000
  )
})

describe("README, Running against PostgreSQL", () => {
  it("every npm start and npm run cli line there passes DATABASE_URL", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const section = readme.slice(readme.indexOf("### Running against PostgreSQL"))
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
    const commands = block.split("\n").filter((line) => /npm (start|run cli)/.test(line))
    expect(commands.length).toBeGreaterThanOrEqual(3)
    for (const line of commands) expect(line).toMatch(/^DATABASE_URL=\S+ npm /)
  })
})
