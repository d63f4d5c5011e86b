// The forms MCP endpoint against the running app, driven by the SDK's own Client and
// StreamableHTTPClientTransport: tools per scope, the workspace context resource, the full agent
// flow (create, stale update -> conflict, re-read, update, publish, converge, query responses), every
// error path, strict inputs, and the protocol edges over plain fetch. Every tool JSON Schema is
// compiled with Ajv and every structuredContent is validated against its tool's outputSchema.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteStorageLive, PgStorageLive } from "@folio/adapters-storage"
import { FORMS_SCOPES, issueApiKey, ResponseRepository } from "@folio/domain"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { compileOncePerSchema, mcpClient } from "../support/mcp-client.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { freshRateWindow } from "../support/rate-window.js"
import { blk } from "../support/builders.js"
import { expectV2Reading, storeLegacyInterview } from "../support/legacy-interview.js"

type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details?: Record<string, unknown> }
}

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    { id: blk(2), type: "rating", label: "Mood", options: { scale: 5 } }
  ]
}

let app: RunningApp
let full: { key: string; workspaceId: string }
const ajv = makeAjv2020()
/** Every tool input schema must compile; a listing repeats the same ones, so each is compiled once. */
const compileInput = compileOncePerSchema((schema) => ajv.compile(schema))
const validators = new Map<string, ReturnType<typeof ajv.compile>>()
const clients: Array<Client> = []

const connect = async (key: string) => {
  const client = mcpClient("folio-test")
  const transport = new StreamableHTTPClientTransport(new URL(`${app.origin}/forms/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  })
  await client.connect(transport)
  clients.push(client)
  // Every tool's schemas compile, and are remembered to check what the tools return.
  const { tools } = await client.listTools()
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe("object")
    expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false)
    compileInput(tool.inputSchema)
    if (!validators.has(tool.name)) validators.set(tool.name, ajv.compile(tool.outputSchema ?? {}))
  }
  return client
}

/** Calls a tool and checks its structuredContent against the tool's declared outputSchema. */
const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args })
  const structured = result.structuredContent as Structured
  const validate = validators.get(name)
  expect(validate).toBeDefined()
  if (validate !== undefined && !validate(structured)) throw new Error(JSON.stringify(validate.errors))
  expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? "null")).toEqual(structured)
  return { isError: result.isError === true, data: structured }
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  full = await newWorkspaceKey(app, [...FORMS_SCOPES])
}, 60_000)
afterAll(async () => {
  for (const c of clients) await c.close()
  await app.close()
})

describe("the forms MCP endpoint", () => {
  it("lists only the tools the key's scopes allow", async () => {
    const names = async (scopes: ReadonlyArray<string>) => {
      const { key } = await newWorkspaceKey(app, scopes)
      const { tools } = await (await connect(key)).listTools()
      return tools.map((t) => t.name).sort()
    }
    expect(await names([...FORMS_SCOPES])).toEqual([
      "forms_create",
      "forms_publication",
      "forms_query",
      "forms_update",
      "responses_query"
    ])
    expect(await names(["forms:read"])).toEqual(["forms_query"])
    expect(await names(["forms:write"])).toEqual(["forms_create", "forms_update"])
    expect(await names(["forms:publish", "responses:read"])).toEqual(["forms_publication", "responses_query"])
    expect(await names(["files:read"])).toEqual([])
  })

  it("serves the workspace context resource", async () => {
    const { key } = await newWorkspaceKey(app, ["forms:read", "forms:write"])
    const client = await connect(key)
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toEqual(["svc://workspace/context"])
    const read = await client.readResource({ uri: "svc://workspace/context" })
    const context = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, unknown> & {
      capabilities: { blockTypes: Array<{ type: string }>; notifications: { email: boolean } }
      constraints: Record<string, unknown>
    }
    expect(context.scopes).toEqual(["forms:read", "forms:write"])
    expect(context.tools).toEqual(["forms_query", "forms_create", "forms_update"])
    expect(context.capabilities.blockTypes.map((b) => b.type)).toContain("short_text")
    // This test server has no SMTP_URL: an agent is told e-mail notifications are not sent.
    expect(context.capabilities.notifications).toEqual({ email: false })
    expect(context.constraints).toMatchObject({ customScriptEditing: false, partialResponses: false })
  })

  it("runs the agent flow: create, stale update, re-read, update, publish, converge, query responses", async () => {
    const client = await connect(full.key)
    const created = await call(client, "forms_create", { title: "Agent survey" })
    expect(created.isError).toBe(false)
    const form = created.data.form as { id: string; slug: string; draftRevision: number; status: string }
    expect(form).toMatchObject({ draftRevision: 1, status: "draft" })

    const stale = await call(client, "forms_update", {
      formId: form.id,
      action: "definition",
      definition,
      expectedDraftRevision: 7
    })
    expect(stale.isError).toBe(true)
    expect(stale.data.error?.code).toBe("conflict")
    const reread = await call(client, "forms_query", { action: "get", formId: form.id })
    const revision = (reread.data.form as { draftRevision: number }).draftRevision
    const updated = await call(client, "forms_update", {
      formId: form.id,
      action: "definition",
      definition,
      expectedDraftRevision: revision
    })
    expect(updated.isError).toBe(false)
    const draft = updated.data.form as { draftRevision: number; settingsSignature: string }
    expect(draft.draftRevision).toBe(revision + 1)

    const published = await call(client, "forms_publication", {
      formId: form.id,
      expectedDraftRevision: draft.draftRevision,
      desiredState: "published"
    })
    const current = (published.data.form as { currentVersionId: string; status: string }).currentVersionId
    expect(published.data.form).toMatchObject({ status: "published" })
    // Converging again changes nothing: no second version.
    const again = await call(client, "forms_publication", {
      formId: form.id,
      expectedDraftRevision: draft.draftRevision,
      desiredState: "published"
    })
    expect((again.data.form as { currentVersionId: string }).currentVersionId).toBe(current)
    const versions = await call(client, "forms_query", { action: "versions", formId: form.id })
    expect((versions.data.versions as Array<unknown>).length).toBe(1)
    const snapshot = await call(client, "forms_query", {
      action: "version",
      formId: form.id,
      versionId: current
    })
    expect((snapshot.data.version as { version: number }).version).toBe(1)
    const search = await call(client, "forms_query", { action: "search", search: "agent" })
    expect((search.data.forms as Array<{ id: string }>).map((f) => f.id)).toContain(form.id)

    // A respondent answers through the public route; the agent reads it back.
    const slug = (reread.data.form as { slug: string }).slug
    const started = (await (
      await fetch(`${app.origin}/f/${slug}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
    ).json()) as { data: { responseId: string; token: string } }
    await fetch(`${app.origin}/f/${slug}/responses/${started.data.responseId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: started.data.token, answers: { [blk(1)]: "Ann", [blk(2)]: 4 } })
    })
    const list = await call(client, "responses_query", { formId: form.id, action: "list" })
    const items = list.data.items as Array<Record<string, unknown>>
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ id: started.data.responseId, answerCount: 2 })
    expect(items[0]).not.toHaveProperty("answers")
    const detail = await call(client, "responses_query", {
      formId: form.id,
      action: "get",
      responseId: started.data.responseId
    })
    expect(detail.data.response).toMatchObject({ answers: { [blk(1)]: "Ann", [blk(2)]: 4 } })
    const report = await call(client, "responses_query", { formId: form.id, action: "report" })
    expect(report.data.report).toMatchObject({ kind: "classic", analytics: { completed: 1 } })

    const unpublished = await call(client, "forms_publication", {
      formId: form.id,
      expectedDraftRevision: draft.draftRevision,
      desiredState: "draft"
    })
    expect(unpublished.data.form).toMatchObject({ status: "draft" })
  })

  it("answers every error with the REST codes, value-free, and rejects unknown input keys by name", async () => {
    const client = await connect(full.key)
    const unknownKey = await call(client, "forms_query", {
      action: "get",
      formId: crypto.randomUUID(),
      colour: "red"
    })
    expect(unknownKey.data.error).toMatchObject({ code: "invalid" })
    expect(unknownKey.data.error?.message).toContain("colour")
    expect(unknownKey.data.error?.message).not.toContain("red")
    const missing = await call(client, "forms_query", { action: "get" })
    expect(missing.data.error).toMatchObject({
      code: "invalid",
      details: { issues: [{ path: ["formId"], rule: "required" }] }
    })
    const badValue = await call(client, "forms_query", { action: "search", limit: 500 })
    expect(badValue.data.error?.code).toBe("invalid")
    const notFound = await call(client, "forms_query", { action: "get", formId: crypto.randomUUID() })
    expect(notFound.data.error?.code).toBe("not_found")
    const empty = await call(client, "forms_create", { title: "Empty" })
    const emptyForm = empty.data.form as { id: string }
    const unprocessable = await call(client, "forms_publication", {
      formId: emptyForm.id,
      expectedDraftRevision: 1,
      desiredState: "published"
    })
    expect(unprocessable.data.error?.code).toBe("unprocessable")
    const badDefinition = await call(client, "forms_update", {
      formId: emptyForm.id,
      action: "definition",
      definition: { schemaVersion: 1, blocks: [{ id: "nope", type: "short_text", label: "x" }] },
      expectedDraftRevision: 1
    })
    expect(badDefinition.data.error?.code).toBe("invalid")
    const staleSettings = await call(client, "forms_update", {
      formId: emptyForm.id,
      action: "settings",
      settings: {},
      expectedSettingsSignature: "sha256:0000"
    })
    expect(staleSettings.data.error?.code).toBe("conflict")
    const unknownResponse = await call(client, "responses_query", {
      formId: emptyForm.id,
      action: "get",
      responseId: crypto.randomUUID()
    })
    expect(unknownResponse.data.error?.code).toBe("not_found")
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/unknown tool/)

    // Scopes: a hidden tool is forbidden; copying needs forms:read besides forms:write.
    const writer = await app.run(
      issueApiKey({ tenantId: full.workspaceId, service: "forms", name: "writer", scopes: ["forms:write"] })
    )
    const writerClient = await connect(writer.plaintext)
    const hidden = await writerClient.callTool({ name: "forms_query", arguments: { action: "search" } })
    expect(hidden.isError).toBe(true)
    expect((hidden.structuredContent as Structured).error?.code).toBe("forbidden")
    const copy = await call(writerClient, "forms_create", { copyFromFormId: emptyForm.id })
    expect(copy.data.error).toMatchObject({
      code: "forbidden",
      details: { requiredScopes: ["forms:write", "forms:read"] }
    })
    const copied = await call(client, "forms_create", { copyFromFormId: emptyForm.id })
    expect(copied.isError).toBe(false)
  })

  it("leaves interview transcripts out of detail reads unless includeTranscript is true", async () => {
    const client = await connect(full.key)
    const created = await call(client, "forms_create", {
      kind: "interview",
      title: "Interview",
      definition: {
        schemaVersion: 2,
        fields: [{ id: "role", labelByLocale: { en: "Role" }, valueType: "short_text" }]
      }
    })
    const form = created.data.form as { id: string }
    await call(client, "forms_publication", {
      formId: form.id,
      expectedDraftRevision: 1,
      desiredState: "published"
    })
    const read = await call(client, "forms_query", { action: "get", formId: form.id })
    const id = crypto.randomUUID()
    const at = new Date()
    await app.run(
      Effect.flatMap(ResponseRepository, (r) =>
        r.insert({
          id,
          workspaceId: full.workspaceId,
          formId: form.id,
          formVersionId: (read.data.form as { currentVersionId: string }).currentVersionId,
          status: "completed",
          answers: {},
          meta: {
            interview: {
              transcript: [{ role: "user", content: "secret words", blockId: "role", turnId: "t1" }],
              analysisStatus: "completed"
            }
          },
          createdAt: at,
          updatedAt: at,
          completedAt: at
        })
      )
    )
    const without = await call(client, "responses_query", { formId: form.id, action: "get", responseId: id })
    expect(JSON.stringify(without.data)).not.toContain("secret words")
    expect(without.data.response).toMatchObject({ interview: { transcript: [], transcriptCount: 1 } })
    const withTranscript = await call(client, "responses_query", {
      formId: form.id,
      action: "get",
      responseId: id,
      includeTranscript: true
    })
    expect(JSON.stringify(withTranscript.data)).toContain("secret words")
    const list = await call(client, "responses_query", { formId: form.id, action: "list" })
    expect(JSON.stringify(list.data)).not.toContain("secret words")
    const report = await call(client, "responses_query", { formId: form.id, action: "report" })
    expect(report.data.report).toMatchObject({ kind: "interview", funnel: { started: 1, engaged: 1 } })
  })

  it("forms_query answers a stored legacy interview definition as v2 (get and version)", async () => {
    const client = await connect(full.key)
    const created = await call(client, "forms_create", { kind: "interview", title: "Old study" })
    const formId = (created.data.form as { id: string }).id
    const versionId = await storeLegacyInterview(app, full.workspaceId, formId)
    const read = await call(client, "forms_query", { action: "get", formId })
    expectV2Reading((read.data.form as { draftDefinition: unknown }).draftDefinition)
    const version = await call(client, "forms_query", { action: "version", formId, versionId })
    expectV2Reading((version.data.version as { definition: unknown }).definition)
  })
})

describe("custom script over MCP", () => {
  it("cannot be set or changed, and a stored one survives a settings replacement", async () => {
    const rest = (method: string, path: string, body?: unknown) =>
      fetch(`${app.origin}/forms/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${full.key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { data: Record<string, unknown> }
      }))
    const created = (await rest("POST", "/forms", { title: "Scripted" })).body.data as {
      id: string
      settingsSignature: string
    }
    const scripted = await rest("PATCH", `/forms/${created.id}/settings`, {
      settings: { customScript: "console.log(1)" },
      expectedSettingsSignature: created.settingsSignature
    })
    expect(scripted.status).toBe(200)
    const signature = scripted.body.data.settingsSignature as string
    const client = await connect(full.key)
    const refused = await call(client, "forms_update", {
      formId: created.id,
      action: "settings",
      settings: { customScript: "alert(1)" },
      expectedSettingsSignature: signature
    })
    expect(refused.data.error).toMatchObject({
      code: "invalid",
      details: { issues: [{ path: ["settings", "customScript"], rule: "notOverMcp" }] }
    })
    const replaced = await call(client, "forms_update", {
      formId: created.id,
      action: "settings",
      settings: { submission: { acceptingResponses: false } },
      expectedSettingsSignature: signature
    })
    expect(replaced.isError).toBe(false)
    expect((replaced.data.form as { settings: Record<string, unknown> }).settings).toMatchObject({
      customScript: "console.log(1)",
      submission: { acceptingResponses: false }
    })
    const create = await call(client, "forms_create", { title: "x", settings: { customScript: "x" } })
    expect(create.data.error?.code).toBe("invalid")
  })
})

describe("the MCP endpoint's protocol edges", () => {
  /** One MCP POST as a Streamable HTTP client sends it, to `origin` (this file's app by default). */
  const post = (body: string, headers: Record<string, string> = {}, key = full.key, origin = app.origin) =>
    fetch(`${origin}/forms/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers
      },
      body
    })
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })

  it("answers other methods 405 with Allow: POST, after authentication", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const r = await fetch(`${app.origin}/forms/mcp`, {
        method,
        headers: { authorization: `Bearer ${full.key}` }
      })
      expect([method, r.status, r.headers.get("allow")]).toEqual([method, 405, "POST"])
      expect((await fetch(`${app.origin}/forms/mcp`, { method })).status).toBe(401)
    }
  })

  it("refuses batches, foreign origins, oversized bodies and bad keys; accepts its own origin", async () => {
    const batch = await post(`[${ping},${ping}]`)
    expect(batch.status).toBe(400)
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32600)
    expect((await post(ping, { origin: "https://evil.example" })).status).toBe(403)
    const own = await post(ping, { origin: app.origin })
    expect(own.status).toBe(200)
    // The address's 600 attempts a minute are closer to running out than the key's 100,000.
    expect(own.headers.get("x-ratelimit-limit")).toBe("600")
    const big = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } })
    )
    expect(big.status).toBe(413)
    const bad = await post(ping, {}, "folio_AAAAAAAAAAAA_notarealkey")
    expect(bad.status).toBe(401)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("unauthorized")
    // A key issued for the sharing service is refused here word for word as an unknown key.
    const sharing = await newWorkspaceKey(app, ["read"], "sharing")
    const unknown = await post(ping, {}, `folio_${"a".repeat(12)}_${"b".repeat(43)}`)
    const foreign = await post(ping, {}, sharing.key)
    expect(unknown.status).toBe(401)
    expect([foreign.status, await foreign.json()]).toEqual([unknown.status, await unknown.json()])
    expect((await post("{not json")).status).toBe(400)
    expect((await post(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "ping" }))).status).toBe(400)
    for (const invalid of [
      { jsonrpc: "2.0", id: 1, method: "ping", params: "x" },
      { jsonrpc: "2.0", id: 1, method: "ping", result: {} }
    ]) {
      const r = await post(JSON.stringify(invalid))
      expect([r.status, ((await r.json()) as { error: { code: number } }).error.code]).toEqual([400, -32600])
    }
  })

  it("follows Streamable HTTP: Accept and Content-Type checks, 202 for notifications, protocol versions", async () => {
    expect((await post(ping, { accept: "application/json" })).status).toBe(406)
    expect((await post(ping, { "content-type": "text/plain" })).status).toBe(415)
    const note = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
    expect([note.status, await note.text()]).toEqual([202, ""])
    expect((await post(ping, { "mcp-protocol-version": "1999-01-01" })).status).toBe(400)
    const pong = await post(ping, { "mcp-protocol-version": "2025-06-18" })
    expect(await pong.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} })
  })

  it("answers a tool call with one JSON message: the client's id as sent, the text block the structured content's JSON", async () => {
    const created = await fetch(`${app.origin}/forms/api/v1/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${full.key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: 'Quotes " \\ \u2028 and 日本語' })
    })
    const formId = ((await created.json()) as { data: { id: string } }).data.id
    for (const id of ['id "with" \\ quotes \u2028 日本', 0, 2 ** 53 - 1]) {
      const answered = await post(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "forms_query", arguments: { action: "get", formId } }
        })
      )
      expect([answered.status, answered.headers.get("content-type")]).toEqual([200, "application/json"])
      const message = (await answered.json()) as {
        id: unknown
        result: {
          content: Array<{ type: string; text: string }>
          structuredContent: { form: { title: string } }
        }
      }
      expect(Object.keys(message).sort()).toEqual(["id", "jsonrpc", "result"])
      expect(message.id).toEqual(id)
      expect(Object.keys(message.result).sort()).toEqual(["content", "structuredContent"])
      expect(message.result.content).toHaveLength(1)
      expect(message.result.content[0]?.type).toBe("text")
      expect(JSON.parse(message.result.content[0]?.text ?? "null")).toEqual(message.result.structuredContent)
      expect(message.result.structuredContent.form.title).toBe('Quotes " \\ \u2028 and 日本語')
    }
    // A failed call and an unknown tool answer as before: an error result, a JSON-RPC error.
    const failed = (await (
      await post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "forms_query", arguments: { action: "get", formId: crypto.randomUUID() } }
        })
      )
    ).json()) as { result: { isError: boolean; structuredContent: { error: { code: string } } } }
    expect([failed.result.isError, failed.result.structuredContent.error.code]).toEqual([true, "not_found"])
    const unknown = (await (
      await post(
        JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "no_such_tool" } })
      )
    ).json()) as { id: number; error: { code: number } }
    expect([unknown.id, unknown.error.code]).toEqual([4, -32602])
  })

  it("keeps concurrent callers apart when they reuse JSON-RPC ids (one server answers every exchange)", async () => {
    // Real database I/O, so the exchanges are in flight at the same time inside the server.
    const dir = mkdtempSync(join(tmpdir(), "folio-mcp-mux-"))
    const db = TEST_DATABASE_URL === undefined ? undefined : await createTempDatabase(TEST_DATABASE_URL)
    const shared = await startApp({
      storage:
        db === undefined ? PgliteStorageLive({ dataDir: join(dir, "db") }) : PgStorageLive({ url: db.url }),
      config: { rateLimitPerKey: 100_000 }
    })
    try {
      // Two workspaces, each with its own form; the read-only key sees one tool, the full key five.
      const callers = await Promise.all(
        [[...FORMS_SCOPES], ["forms:read"]].map(async (scopes, i) => {
          const owner = await newWorkspaceKey(shared, [...FORMS_SCOPES])
          const title = `Workspace ${i} form`
          const created = await fetch(`${shared.origin}/forms/api/v1/forms`, {
            method: "POST",
            headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
            body: JSON.stringify({ title })
          })
          const formId = ((await created.json()) as { data: { id: string } }).data.id
          const reader = await shared.run(
            Effect.map(
              issueApiKey({ tenantId: owner.workspaceId, service: "forms", name: "reader", scopes }),
              (k) => k.plaintext
            )
          )
          return { key: reader, formId, title, tools: scopes.length === FORMS_SCOPES.length ? 5 : 1 }
        })
      )
      const rpc = (method: string, params: Record<string, unknown>) =>
        JSON.stringify({ jsonrpc: "2.0", id: 7, method, params })
      const send = (key: string, body: string) => post(body, {}, key, shared.origin).then((r) => r.json())
      const rounds = await Promise.all(
        Array.from({ length: 40 }, async (_, n) => {
          const caller = callers[n % 2] as (typeof callers)[number]
          const [read, listed] = (await Promise.all([
            send(
              caller.key,
              rpc("tools/call", { name: "forms_query", arguments: { action: "get", formId: caller.formId } })
            ),
            send(caller.key, rpc("tools/list", {}))
          ])) as [
            { id: number; result: { structuredContent: { form?: { id: string; title: string } } } },
            { id: number; result: { tools: Array<unknown> } }
          ]
          return { caller, read, listed }
        })
      )
      for (const { caller, read, listed } of rounds) {
        expect([
          read.id,
          read.result.structuredContent.form?.id,
          read.result.structuredContent.form?.title
        ]).toEqual([7, caller.formId, caller.title])
        expect([listed.id, listed.result.tools.length]).toEqual([7, caller.tools])
      }
    } finally {
      await shared.close()
      await db?.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("charges MCP requests to the same per-key budget as REST", async () => {
    const limited = await startApp({ config: { rateLimitPerKey: 3 } })
    try {
      const { key } = await newWorkspaceKey(limited, ["forms:read"])
      const rest = () =>
        fetch(`${limited.origin}/forms/api/v1/forms`, { headers: { authorization: `Bearer ${key}` } })
      const mcp = () => post(ping, {}, key, limited.origin)
      await freshRateWindow()
      const statuses = [(await rest()).status, (await mcp()).status, (await rest()).status]
      const over = await mcp()
      expect([...statuses, over.status]).toEqual([200, 200, 200, 429])
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })
})
