// Two app processes on one PostgreSQL, as a deployment with several instances runs: what must hold
// across them holds (a sharing key's budget is one budget, whichever instance answers; a slug is
// taken once; an Idempotency-Key runs its request once). Cache invalidation and view counts across
// instances are in test/http/sharing-public-instances.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, keyIn, runProcess, type Started, startServer } from "./process.js"
import { freshRateWindow } from "../support/rate-window.js"

describe.skipIf(TEST_DATABASE_URL === undefined)("two instances on one PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTempDatabase>>
  let a: Started
  let b: Started
  let env: Record<string, string> = {}
  let sharingKey = ""
  let workspaceId = ""
  const keys: Array<string> = []

  beforeAll(async () => {
    await build()
    db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    env = { DATABASE_URL: db.url, SHARING_REQUESTS_PER_KEY: "5" }
    const workspace = await runProcess("cli", ["workspace", "create", "Instances"], env)
    workspaceId = /workspace ([0-9a-f-]{36})/.exec(workspace.stdout)?.[1] ?? ""
    const key = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--service", "sharing", "--scopes", "all"],
      env
    )
    sharingKey = keyIn(key.stdout) ?? ""
    // More keys of the account, each with its own budget of 5 requests a minute.
    for (let i = 0; i < 3; i++) {
      const more = await runProcess(
        "cli",
        ["key", "create", "--workspace", workspaceId, "--service", "sharing", "--scopes", "all"],
        env
      )
      keys.push(keyIn(more.stdout) ?? "")
    }
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
    await freshRateWindow()
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

  const post = (
    origin: string,
    key: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {}
  ) =>
    fetch(`${origin}/share/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))

  it("lets exactly one of concurrent creates on both instances take a slug", async () => {
    const [k1 = "", k2 = ""] = keys
    const body = { type: "link", slug: "only-once", target_url: "https://example.com" }
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => post(a.origin, k1, "/resources", body)),
      ...Array.from({ length: 4 }, () => post(b.origin, k2, "/resources", body))
    ])
    expect(answers.filter((x) => x.status === 201)).toHaveLength(1)
    for (const x of answers.filter((y) => y.status !== 201)) expect(x.body.error_code).toBe("slug_taken")
  })

  it("runs a bulk create sent with one Idempotency-Key to both instances once", async () => {
    const k3 = keys[2] ?? ""
    const body = {
      items: Array.from({ length: 10 }, (_, i) => ({
        target_url: `https://example.com/${i}`,
        labels: ["twice"]
      }))
    }
    const idem = { "idempotency-key": "one-import" }
    const answers = await Promise.all([
      post(a.origin, k3, "/resources/bulk-create", body, idem),
      post(b.origin, k3, "/resources/bulk-create", body, idem),
      post(b.origin, k3, "/resources/bulk-create", body, idem)
    ])
    const ok = answers.filter((x) => x.status === 200)
    expect(ok.length).toBeGreaterThanOrEqual(1)
    for (const x of answers.filter((y) => y.status !== 200))
      expect(x.body.error_code).toBe("idempotency_conflict")
    const replay = await post(a.origin, k3, "/resources/bulk-create", body, idem)
    expect(replay.body).toEqual(ok[0]?.body)
    const listed = await fetch(`${b.origin}/share/api/v1/resources?label=twice&limit=100`, {
      headers: { authorization: `Bearer ${k3}` }
    }).then((r) => r.json() as Promise<{ items: ReadonlyArray<unknown> }>)
    expect(listed.items).toHaveLength(10)
  })

  // Last: it suspends the account the other tests use.
  it("stops the account's public side on both instances as soon as the CLI disables it", async () => {
    const created = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--service", "sharing", "--scopes", "all"],
      env
    )
    const k4 = keyIn(created.stdout) ?? ""
    const made = await post(a.origin, k4, "/resources", { type: "link", target_url: "https://example.com/x" })
    expect(made.status).toBe(201)
    const slug = made.body.slug as string
    const statuses = () =>
      Promise.all(
        [a, b].map(async (s) => (await fetch(`${s.origin}/s/${slug}`, { redirect: "manual" })).status)
      )
    // Twice: the second is answered from each instance's warm cache (the node:http fast path).
    expect(await statuses()).toEqual([302, 302])
    expect(await statuses()).toEqual([302, 302])
    const settle = async (expected: ReadonlyArray<number>) => {
      // The CLI's NOTIFY reaches both servers in milliseconds; the caches would take a minute.
      const end = Date.now() + 2_000
      let seen = await statuses()
      while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 25))
        seen = await statuses()
      }
      expect(seen).toEqual(expected)
    }
    expect((await runProcess("cli", ["workspace", "disable", workspaceId], env)).code).toBe(0)
    await settle([404, 404])
    expect((await runProcess("cli", ["workspace", "enable", workspaceId], env)).code).toBe(0)
    await settle([302, 302])
  })
})
