// Two app processes on one PostgreSQL, as a deployment with several instances runs: what must hold
// across them holds (a sharing key's budget is one budget, whichever instance answers).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, keyIn, runProcess, type Started, startServer } from "./process.js"

describe.skipIf(TEST_DATABASE_URL === undefined)("two instances on one PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTempDatabase>>
  let a: Started
  let b: Started
  let sharingKey = ""

  beforeAll(async () => {
    await build()
    db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    const env = { DATABASE_URL: db.url, SHARING_REQUESTS_PER_KEY: "5" }
    const workspace = await runProcess("cli", ["workspace", "create", "Instances"], env)
    const workspaceId = /workspace ([0-9a-f-]{36})/.exec(workspace.stdout)?.[1] ?? ""
    const key = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--service", "sharing", "--scopes", "all"],
      env
    )
    sharingKey = keyIn(key.stdout) ?? ""
    a = await startServer({ ...env, PORT: "0" })
    b = await startServer({ ...env, PORT: "0" })
  }, 240_000)

  afterAll(async () => {
    for (const server of [a, b]) {
      server?.child.kill("SIGTERM")
      await server?.exited
    }
    await db?.drop()
  })

  it("spends one key budget across both instances", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 7; i++) {
      const origin = i % 2 === 0 ? a.origin : b.origin
      const response = await fetch(`${origin}/share/api/v1/me`, {
        headers: { authorization: `Bearer ${sharingKey}` }
      })
      statuses.push(response.status)
      // Each instance writes its hits to the shared counters every 100 ms.
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
  })
})
