// A server killed with SIGKILL between a completion and its e-mail: the job queued in the
// completion's own write outlives the process, and the next instance sends the message, once. Real
// processes (the built server) and a real SMTP server, on PostgreSQL when configured, else PGlite.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtpServer, type TestSmtpServer, until } from "../support/smtp.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, killServers, provisionWithCli, type Started, startServer } from "./process.js"

describe(`a server killed before its notification e-mail went out [${TEST_DATABASE_URL === undefined ? "pglite" : "postgres"}]`, () => {
  let smtp: TestSmtpServer
  let db: Awaited<ReturnType<typeof createTempDatabase>> | undefined
  let dataDir = ""
  let env: Record<string, string> = {}
  let key = ""
  const servers: Array<Started> = []

  beforeAll(async () => {
    await build()
    smtp = await startSmtpServer()
    dataDir = mkdtempSync(join(tmpdir(), "folio-mail-crash-"))
    db = TEST_DATABASE_URL === undefined ? undefined : await createTempDatabase(TEST_DATABASE_URL)
    env = {
      ...(db === undefined ? { DATA_DIR: dataDir } : { DATABASE_URL: db.url, DATA_DIR: dataDir }),
      SMTP_URL: smtp.url,
      MAIL_FROM: "Folio <forms@folio.test>",
      JOBS_LEASE_SECONDS: "2",
      JOBS_POLL_MS: "100"
    }
    ;({ key } = await provisionWithCli(env, "Crash", "forms"))
  }, 240_000)

  afterAll(async () => {
    await killServers(servers)
    await smtp?.close()
    await db?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const call = async (origin: string, method: string, path: string, body: unknown, auth = true) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
  }

  it("sends the e-mail from the next instance, exactly once", async () => {
    const a = await startServer(env)
    servers.push(a)
    const created = await call(a.origin, "POST", "/forms/api/v1/forms", {
      title: "Crash survey",
      definition: { schemaVersion: 1, blocks: [{ id: "blk_name0001", type: "short_text", label: "Name" }] },
      settings: { notifications: { responseEmail: { enabled: true, recipients: ["owner@owners.test"] } } }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const form = created.body.data as { id: string; slug: string }
    expect(
      (await call(a.origin, "POST", `/forms/api/v1/forms/${form.id}/publish`, { expectedDraftRevision: 1 }))
        .status
    ).toBe(200)
    const started = await call(a.origin, "POST", `/f/${form.slug}/responses`, {}, false)
    const { responseId, token } = started.body.data as { responseId: string; token: string }

    // A's worker reaches the mail server and is held there, the message not yet accepted.
    const held = smtp.hold()
    const done = await call(
      a.origin,
      "POST",
      `/f/${form.slug}/responses/${responseId}/complete`,
      {
        token,
        answers: { blk_name0001: "Ada" }
      },
      false
    )
    expect(done.status).toBe(200)
    await held.reached
    a.child.kill("SIGKILL")
    expect((await a.exited).signal).toBe("SIGKILL")
    expect(smtp.received).toHaveLength(0)

    const b = await startServer(env)
    servers.push(b)
    const mine = () => smtp.received.filter((m) => m.parsed.messageId === `<${responseId}.r0@folio.test>`)
    await until(mine, (m) => m.length >= 1, 30_000)
    // Time for any second copy to arrive.
    await new Promise((r) => setTimeout(r, 3_000))
    expect(mine()).toHaveLength(1)
    expect(mine()[0]?.envelopeTo).toEqual(["owner@owners.test"])
    expect(mine()[0]?.parsed.text).toContain("Name: Ada")
  }, 240_000)
})
