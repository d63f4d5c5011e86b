// A worker killed with SIGKILL mid-job: the job's lease lapses and another instance runs it to the
// end. Real processes (the built server), on PostgreSQL when configured, else on PGlite (the second
// process opens the data directory the first one left behind).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FAKE_NOTION_PAGES, FAKE_NOTION_TOKEN, startFakeNotion } from "../support/fake-notion.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, killServers, provisionWithCli, type Started, startServer } from "./process.js"

describe(`a worker killed mid-job [${TEST_DATABASE_URL === undefined ? "pglite" : "postgres"}]`, () => {
  let fake: Awaited<ReturnType<typeof startFakeNotion>>
  let db: Awaited<ReturnType<typeof createTempDatabase>> | undefined
  let dataDir = ""
  let env: Record<string, string> = {}
  let key = ""
  const servers: Array<Started> = []

  beforeAll(async () => {
    await build()
    fake = await startFakeNotion()
    dataDir = mkdtempSync(join(tmpdir(), "folio-job-crash-"))
    db = TEST_DATABASE_URL === undefined ? undefined : await createTempDatabase(TEST_DATABASE_URL)
    env = {
      ...(db === undefined ? { DATA_DIR: dataDir } : { DATABASE_URL: db.url, DATA_DIR: dataDir }),
      NOTION_TOKEN: FAKE_NOTION_TOKEN,
      NOTION_API_URL: fake.baseUrl,
      JOBS_LEASE_SECONDS: "2",
      JOBS_POLL_MS: "100"
    }
    ;({ key } = await provisionWithCli(env, "Crash", "sharing"))
  }, 240_000)

  afterAll(async () => {
    await killServers(servers)
    await fake?.close()
    await db?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const api = (origin: string, method: string, path: string, body?: unknown) =>
    fetch(`${origin}/share/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))

  it("runs the job again once the dead worker's lease lapses, to success", async () => {
    const a = await startServer(env)
    servers.push(a)
    // The first refresh reaches Notion and hangs there: the worker of A holds the job.
    const held = fake.hold()
    const created = await api(a.origin, "POST", "/resources", {
      type: "notion",
      slug: "crash-mirror",
      source_url: `https://www.notion.so/Fixture-${FAKE_NOTION_PAGES.root.replace(/-/g, "")}`
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    await held.reached
    const jobs = await api(a.origin, "GET", "/jobs")
    const job = (jobs.body.items as Array<Record<string, unknown>>)[0] ?? {}
    expect(job).toMatchObject({ status: "running", attempts: 1 })

    a.child.kill("SIGKILL")
    expect((await a.exited).signal).toBe("SIGKILL")
    held.release()
    const killedAt = Date.now()

    const b = await startServer(env)
    servers.push(b)
    let final: Record<string, unknown> = {}
    for (let i = 0; i < 200; i++) {
      final = (await api(b.origin, "GET", `/jobs/${job.job_id}`)).body
      if (final.status === "succeeded" || final.status === "failed") break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(final).toMatchObject({ status: "succeeded", attempts: 2 })
    // Not before the lease (2 s) of the dead worker lapsed.
    expect(Date.parse(final.finished_at as string)).toBeGreaterThanOrEqual(killedAt - 100)
    const pages = await api(b.origin, "GET", "/resources/crash-mirror/notion/pages")
    expect((pages.body.pages as Array<unknown>).length).toBe(4)
  })

  it("finishes or releases its claimed jobs when stopped with SIGTERM", async () => {
    const c = servers[1] as Started
    // A refresh hangs at Notion past the shutdown grace: the job is released, not lost.
    const held = fake.hold()
    const queued = await api(c.origin, "POST", "/resources/crash-mirror/notion/refresh", {})
    expect(queued.status).toBe(202)
    await held.reached
    c.child.kill("SIGTERM")
    expect((await c.exited).code).toBe(0)
    held.release()
    const d = await startServer(env)
    servers.push(d)
    let final: Record<string, unknown> = {}
    for (let i = 0; i < 100; i++) {
      final = (await api(d.origin, "GET", `/jobs/${queued.body.job_id}`)).body
      if (final.status === "succeeded" || final.status === "failed") break
      await new Promise((r) => setTimeout(r, 100))
    }
    // Released at shutdown, the attempt was given back: the next instance's run is its first.
    expect(final).toMatchObject({ status: "succeeded", attempts: 1 })
  })
})
