// A worker killed with SIGKILL during an interview analysis's last attempt: nothing is left to write
// the outcome, the queue fails the job when its lease lapses, and the sweep run with the next
// instance's periodic work closes the response's analysis as `failed`, the built-in analysis kept.
// Real processes (the built server) and the fake chat-completions server, on PostgreSQL when
// configured, else PGlite.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeChatCompletions, startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, killServers, provisionWithCli, type Started, startServer } from "./process.js"

const definition = {
  title: "Crash",
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "plan",
      labelByLocale: { en: "your plan" },
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: { en: "Free" } },
        { id: "pro", labelByLocale: { en: "Pro" } }
      ],
      extraction: { confirmation: "never" }
    }
  ]
}

const schemaName = (body: unknown) =>
  (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name

describe(`a worker killed during an analysis's last attempt [${TEST_DATABASE_URL === undefined ? "pglite" : "postgres"}]`, () => {
  let fake: FakeChatCompletions
  let db: Awaited<ReturnType<typeof createTempDatabase>> | undefined
  let dataDir = ""
  let env: Record<string, string> = {}
  let key = ""
  const servers: Array<Started> = []

  beforeAll(async () => {
    await build()
    fake = await startFakeChatCompletions()
    dataDir = mkdtempSync(join(tmpdir(), "folio-analysis-crash-"))
    db = TEST_DATABASE_URL === undefined ? undefined : await createTempDatabase(TEST_DATABASE_URL)
    env = {
      ...(db === undefined ? { DATA_DIR: dataDir } : { DATABASE_URL: db.url, DATA_DIR: dataDir }),
      INTERVIEWER_BASE_URL: fake.baseUrl,
      INTERVIEWER_MODEL: "fake-model",
      INTERVIEWER_TIMEOUT_MS: "60000",
      JOBS_LEASE_SECONDS: "2",
      JOBS_POLL_MS: "100",
      JOBS_RETRY_BASE_MS: "20",
      JOBS_SCHEDULE_MS: "200"
    }
    ;({ key } = await provisionWithCli(env, "Crash", "forms"))
  }, 240_000)

  afterAll(async () => {
    await killServers(servers)
    await fake?.close()
    await db?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const call = async (origin: string, method: string, path: string, body?: unknown, auth = true) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(auth ? { authorization: `Bearer ${key}` } : {})
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
  }

  it("closes the analysis as failed once the dead worker's lease lapsed", async () => {
    // The model's turns are malformed (the built-in interviewer answers); its analyses fail four
    // times, and the fifth, the last attempt, hangs: the worker of A holds it when A is killed.
    let analyses = 0
    let reachedLast: () => void = () => {}
    const last = new Promise<void>((resolve) => {
      reachedLast = resolve
    })
    fake.respondWith((body) => {
      if (schemaName(body) !== "interview_analysis") return { content: "not JSON" }
      analyses++
      if (analyses < 5) return { status: 400, body: { error: "bad" } }
      reachedLast()
      return "hang"
    })
    const a = await startServer(env)
    servers.push(a)
    const created = await call(a.origin, "POST", "/forms/api/v1/forms", {
      kind: "interview",
      title: "Crash",
      definition
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const form = created.body.data as { id: string; slug: string }
    await call(a.origin, "POST", `/forms/api/v1/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const opened = await call(a.origin, "POST", `/f/${form.slug}/interview`, {}, false)
    const turn = opened.body.data as { responseId: string; token: string }
    const answered = await call(
      a.origin,
      "POST",
      `/f/${form.slug}/interview/${turn.responseId}/messages`,
      { token: turn.token, text: "Pro" },
      false
    )
    expect((answered.body.data as { done: boolean }).done).toBe(true)
    await last

    const read = async (origin: string) =>
      (await call(origin, "GET", `/forms/api/v1/forms/${form.id}/responses/${turn.responseId}`)).body.data
        .interview as Record<string, unknown>
    expect((await read(a.origin)).analysisStatus).toBe("pending")
    a.child.kill("SIGKILL")
    expect((await a.exited).signal).toBe("SIGKILL")
    const killedAt = Date.now()

    const b = await startServer(env)
    servers.push(b)
    let interview: Record<string, unknown> = {}
    for (let i = 0; i < 200; i++) {
      interview = await read(b.origin)
      if (interview.analysisStatus !== "pending") break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(interview.analysisStatus).toBe("failed")
    // The built-in analysis stays; the dead attempt was the last, so the model was not asked again.
    expect(interview.summary).toBe("your plan: Pro")
    expect(interview.extractedFields).toEqual({ plan: "pro" })
    expect(analyses).toBe(5)
    // Not before the lease (2 s) of the dead worker lapsed.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1000)
  })
})
