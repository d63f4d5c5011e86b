// MCP scopes, ownership and JSON-RPC errors: partial responses are never readable over MCP (they
// read as not found), image keys must name an asset of the caller's workspace, a tools/call whose
// params break the protocol's schema is -32602 Invalid params (not -32603), and error messages
// carry the SDK's "MCP error <code>:" prefix once.
import { FORMS_SCOPES, MAX_CURSOR_LENGTH } from "@folio/domain"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { mcpClient } from "../support/mcp-client.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startPartialResponse } from "../support/respondent.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details?: { issues?: Array<{ path: unknown[]; rule: string }> } }
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])
const definition = {
  schemaVersion: 1,
  blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }]
}

let app: RunningApp
let owner: { key: string; workspaceId: string }
const clients: Array<Client> = []

const connect = async (key: string) => {
  const client = mcpClient("folio-test")
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.origin}/forms/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } }
    })
  )
  clients.push(client)
  return client
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args })
  return { isError: result.isError === true, data: result.structuredContent as Structured }
}

const rest = async (key: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
}

/** One raw JSON-RPC request, as a Streamable HTTP client sends it. */
const rpc = async (key: string, method: string, params: unknown) => {
  const response = await fetch(`${app.origin}/forms/mcp`, {
    method: "POST",
    headers: {
      ...bearer(key),
      "content-type": "application/json",
      accept: "application/json, text/event-stream"
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 42, method, params })
  })
  return {
    status: response.status,
    body: (await response.json()) as { id: unknown; error?: { code: number; message: string } }
  }
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  owner = await newWorkspaceKey(app, [...FORMS_SCOPES])
}, 60_000)
afterAll(async () => {
  for (const c of clients) await c.close()
  await app.close()
})

describe("MCP JSON-RPC errors", () => {
  it("answers tools/call with non-object arguments -32602 Invalid params, with the request's id", async () => {
    for (const args of ["x", 5, [1, 2], true, null]) {
      const answer = await rpc(owner.key, "tools/call", { name: "forms_query", arguments: args })
      expect([args, answer.status, answer.body.id, answer.body.error?.code]).toEqual([args, 200, 42, -32602])
      expect(answer.body.error?.message).not.toMatch(/MCP error/)
    }
    // Other params that break the protocol's schema are Invalid params too.
    for (const params of [{ arguments: {} }, { name: 7 }]) {
      const answer = await rpc(owner.key, "tools/call", params)
      expect(answer.body.error?.code).toBe(-32602)
    }
    const badUri = await rpc(owner.key, "resources/read", { uri: 5 })
    expect(badUri.body.error?.code).toBe(-32602)
  })

  it("says `unknown tool` with one MCP error prefix, not two", async () => {
    const raw = await rpc(owner.key, "tools/call", { name: "no_such_tool", arguments: {} })
    expect(raw.body.error).toEqual({ code: -32602, message: "unknown tool: no_such_tool" })
    const client = await connect(owner.key)
    const thrown = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: Error) => e.message
    )
    expect(thrown).toBe("MCP error -32602: unknown tool: no_such_tool")
    const resource = await rpc(owner.key, "resources/read", { uri: "svc://nope" })
    expect(resource.body.error).toEqual({ code: -32602, message: "unknown resource: svc://nope" })
  })
})

describe("MCP cursors", () => {
  it("advertise and enforce the domain's cursor length, the same bound REST cursors meet", async () => {
    const client = await connect(owner.key)
    const { tools } = await client.listTools()
    for (const name of ["forms_query", "responses_query"]) {
      const input = tools.find((t) => t.name === name)?.inputSchema as {
        properties: Record<string, { maxLength?: number }>
      }
      expect(input.properties.cursor?.maxLength).toBe(MAX_CURSOR_LENGTH)
    }
    const tooLong = await call(client, "forms_query", {
      action: "search",
      cursor: "A".repeat(MAX_CURSOR_LENGTH + 1)
    })
    expect(tooLong.isError).toBe(true)
    expect(tooLong.data.error?.code).toBe("invalid")
    expect(tooLong.data.error?.details?.issues?.map((i) => i.path)).toEqual([["cursor"]])
  })
})

describe("partial responses over MCP", () => {
  it("are never exposed: responses_query get reads a partial response as not found", async () => {
    const created = await rest(owner.key, "POST", "/forms", { title: "Partial over MCP", definition })
    const form = created.body.data as { id: string; slug: string }
    await rest(owner.key, "POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const { responseId, token } = await startPartialResponse(app.origin, form.slug, {
      blk_00000001: "in progress"
    })
    // Even a key holding responses:partial:read gets nothing over MCP.
    const client = await connect(owner.key)
    const partial = await call(client, "responses_query", { formId: form.id, action: "get", responseId })
    expect(partial.isError).toBe(true)
    expect(partial.data.error?.code).toBe("not_found")
    expect(JSON.stringify(partial.data)).not.toContain("in progress")
    // Once completed, the same response is readable.
    await fetch(`${app.origin}/f/${form.slug}/responses/${responseId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token })
    })
    const completed = await call(client, "responses_query", { formId: form.id, action: "get", responseId })
    expect(completed.isError).toBe(false)
    expect(completed.data.response).toMatchObject({ id: responseId, status: "completed" })
  })
})

describe("image ownership over MCP", () => {
  it("refuses another workspace's asset key on create, definition and settings updates", async () => {
    const created = await rest(owner.key, "POST", "/forms", { title: "Has an image" })
    const ownForm = created.body.data as { id: string }
    const upload = await fetch(`${app.origin}/forms/api/v1/forms/${ownForm.id}/assets`, {
      method: "POST",
      headers: { ...bearer(owner.key), "content-type": "image/png" },
      body: PNG
    })
    const foreignKey = ((await upload.json()) as { data: { key: string } }).data.key
    const other = await newWorkspaceKey(app, [...FORMS_SCOPES])
    const client = await connect(other.key)
    const imageDefinition = {
      schemaVersion: 1,
      blocks: [
        { id: "blk_00000001", type: "short_text", label: "Name" },
        { id: "blk_00000002", type: "image", imageKey: foreignKey }
      ]
    }
    const refusedCreate = await call(client, "forms_create", { title: "Steal", definition: imageDefinition })
    expect(refusedCreate.data.error).toMatchObject({
      code: "invalid",
      details: { issues: [{ path: ["definition", "blocks", 1, "imageKey"], rule: "assetOwnership" }] }
    })
    expect(JSON.stringify(refusedCreate.data)).not.toContain(foreignKey)
    const mine = await call(client, "forms_create", { title: "Mine" })
    const form = mine.data.form as { id: string; draftRevision: number; settingsSignature: string }
    const refusedUpdate = await call(client, "forms_update", {
      formId: form.id,
      action: "definition",
      definition: imageDefinition,
      expectedDraftRevision: form.draftRevision
    })
    expect(refusedUpdate.data.error?.details?.issues).toEqual([
      { path: ["definition", "blocks", 1, "imageKey"], rule: "assetOwnership" }
    ])
    const refusedSettings = await call(client, "forms_update", {
      formId: form.id,
      action: "settings",
      settings: { theme: { logoKey: foreignKey } },
      expectedSettingsSignature: form.settingsSignature
    })
    expect(refusedSettings.data.error?.details?.issues).toEqual([
      { path: ["settings", "theme", "logoKey"], rule: "assetOwnership" }
    ])
    // The owner may use its own asset.
    const ownerClient = await connect(owner.key)
    const allowed = await call(ownerClient, "forms_create", {
      title: "Own image",
      definition: imageDefinition
    })
    expect(allowed.isError).toBe(false)
  })
})
