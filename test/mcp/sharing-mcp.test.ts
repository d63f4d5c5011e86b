// The sharing MCP endpoint (/share/mcp) against the running app, driven by the SDK's own Client with
// a sharing API key: the tools a key's scopes show, the account context resource, every tool's happy
// path and its scope refusal, the sharing error codes as tool errors, and the HTTP edges (the 401
// challenge naming the protected resource metadata, Origin, 405, non-key bearers without a token
// authenticator). Every structuredContent is checked against its tool's declared outputSchema.
import { ViewCounter, VisitRecorder } from "@folio/domain"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { compileOncePerSchema, mcpClient } from "../support/mcp-client.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { freshRateWindow } from "../support/rate-window.js"

type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details?: Record<string, unknown> }
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
  const transport = new StreamableHTTPClientTransport(new URL(`${app.origin}/share/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  })
  await client.connect(transport)
  clients.push(client)
  const { tools } = await client.listTools()
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe("object")
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

type Resource = {
  slug: string
  type: string
  url: string
  labels: Array<string>
  archived: boolean
  pinned: boolean
}
type WithEtag = { resource: Resource & Record<string, unknown>; etag: string; collection_etag?: string }

/** The operations tools (wt-tools): each has actions of read and of write; revoking an upload request is delete. */
const OPERATIONS = [
  "sharing_files",
  "sharing_upload_requests",
  "sharing_upload_submissions",
  "sharing_jobs",
  "sharing_webhooks"
]
const READ = [
  "sharing_query",
  "sharing_analytics",
  "sharing_link_simulate",
  "sharing_markdown_versions",
  "sharing_bio",
  ...OPERATIONS
]
const WRITE = [
  "sharing_create",
  "sharing_update",
  "sharing_markdown_versions",
  "sharing_collection",
  "sharing_bio",
  "sharing_manage",
  ...OPERATIONS
]
const DELETE = ["sharing_collection", "sharing_bio", "sharing_manage", "sharing_upload_requests"]

const names = async (scopes: ReadonlyArray<string>) => {
  const { key } = await newWorkspaceKey(app, scopes, "sharing")
  const { tools } = await (await connect(key)).listTools()
  return tools.map((t) => t.name).sort()
}

/** A key of `full`'s account with `scopes`, connected. */
const clientWith = async (scopes: ReadonlyArray<string>) => {
  const { issueApiKey } = await import("@folio/domain")
  const key = await app.run(
    issueApiKey({ tenantId: full.workspaceId, service: "sharing", name: "t", scopes })
  )
  return connect(key.plaintext)
}

const expectRefused = (outcome: { isError: boolean; data: Structured }, scope: string) => {
  expect(outcome.isError).toBe(true)
  expect(outcome.data.error?.code).toBe("insufficient_scope")
  expect(outcome.data.error?.message).toContain(scope)
}

describe("the sharing tools", () => {
  it("lists the tools each scope allows (REST's operation scope table)", async () => {
    expect(await names(["read"])).toEqual([...READ].sort())
    expect(await names(["write"])).toEqual([...new Set(WRITE)].sort())
    expect(await names(["delete"])).toEqual([...DELETE].sort())
    expect(await names(["read", "write", "delete"])).toEqual(
      [...new Set([...READ, ...WRITE, ...DELETE])].sort()
    )
  })

  it("creates, reads, searches, updates and simulates a link with rules and variants; counts its visits", async () => {
    const client = await connect(full.key)
    const created = await call(client, "sharing_create", {
      resource: {
        type: "link",
        slug: "mcp-launch",
        title: "Launch",
        target_url: "https://example.com/launch",
        labels: ["launch"],
        redirect_rules: [{ conditions: { language: ["fr"] }, target_url: "https://example.com/fr" }]
      }
    })
    expect(created.isError).toBe(false)
    const link = created.data as unknown as WithEtag
    expect(link.resource).toMatchObject({
      type: "link",
      slug: "mcp-launch",
      url: `${app.origin}/s/mcp-launch`
    })

    const got = await call(client, "sharing_query", { action: "get", slug: "mcp-launch" })
    expect((got.data.resource as WithEtag).etag).toBe(link.etag)
    const listed = await call(client, "sharing_query", { action: "list", type: "link" })
    expect((listed.data.items as Array<Resource>).map((r) => r.slug)).toContain("mcp-launch")
    const searched = await call(client, "sharing_query", { action: "search", q: "launch" })
    expect((searched.data.items as Array<Resource>).map((r) => r.slug)).toEqual(["mcp-launch"])
    const labels = await call(client, "sharing_query", { action: "labels" })
    expect(labels.data.labels).toContainEqual({ label: "launch", resources: 1 })

    const fr = await call(client, "sharing_link_simulate", {
      slug: "mcp-launch",
      visit: { languages: ["fr"] }
    })
    expect(fr.data).toMatchObject({ destination: "https://example.com/fr", matched: { kind: "rule" } })
    const unsaved = await call(client, "sharing_link_simulate", {
      target_url: "https://example.com/a",
      test_variants: [
        { url: "https://example.com/a", weight: 1 },
        { url: "https://example.com/b", weight: 1 }
      ]
    })
    expect(unsaved.data).toMatchObject({ matched: { kind: "variant" } })

    const stale = await call(client, "sharing_update", {
      slug: "mcp-launch",
      changes: { title: "Late" },
      expected_etag: '"stale"'
    })
    expect(stale.data.error?.code).toBe("etag_mismatch")
    const updated = await call(client, "sharing_update", {
      slug: "mcp-launch",
      changes: { target_url: "https://example.com/v2" },
      expected_etag: link.etag
    })
    expect((updated.data as unknown as WithEtag).resource).toMatchObject({
      target_url: "https://example.com/v2"
    })
    expect((updated.data as unknown as WithEtag).etag).not.toBe(link.etag)

    // A visit, recorded, then read back through the analytics tool.
    const visit = await fetch(`${app.origin}/s/mcp-launch`, { redirect: "manual" })
    expect(visit.status).toBe(302)
    await app.run(
      Effect.andThen(
        Effect.flatMap(VisitRecorder, (r) => r.flush),
        Effect.flatMap(ViewCounter, (v) => v.flush)
      )
    )
    const summary = await call(client, "sharing_analytics", { slug: "mcp-launch" })
    expect(summary.isError).toBe(false)
    expect(summary.data).toMatchObject({ slug: "mcp-launch", totals: { views: 1 } })
  })

  it("writes Markdown pages with versions and restores one", async () => {
    const client = await connect(full.key)
    const page = await call(client, "sharing_create", {
      resource: { type: "markdown", slug: "mcp-notes", body_markdown: "# One" }
    })
    expect(page.isError).toBe(false)
    await call(client, "sharing_update", { slug: "mcp-notes", changes: { body_markdown: "# Two" } })
    const versions = await call(client, "sharing_markdown_versions", { action: "list", slug: "mcp-notes" })
    const list = versions.data.versions as Array<{ id: string; number: number }>
    expect(list).toHaveLength(1)
    const first = list[0]?.id ?? ""
    const one = await call(client, "sharing_markdown_versions", {
      action: "get",
      slug: "mcp-notes",
      version_id: first
    })
    expect(one.data.version).toMatchObject({ body_markdown: "# One" })
    const restored = await call(client, "sharing_markdown_versions", {
      action: "restore",
      slug: "mcp-notes",
      version_id: first
    })
    expect((restored.data.restored as WithEtag).resource).toMatchObject({ body_markdown: "# One" })
    expect(restored.data.saved_version).toMatchObject({ number: 2 })
    const missing = await call(client, "sharing_markdown_versions", { action: "get", slug: "mcp-notes" })
    expect(missing.data.error).toMatchObject({ code: "validation_failed" })
  })

  it("builds collections and bio pages", async () => {
    const client = await connect(full.key)
    const upload = new FormData()
    upload.append("file", new Blob([new TextEncoder().encode("hello")], { type: "text/plain" }), "hello.txt")
    const uploaded = await fetch(`${app.origin}/share/api/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${full.key}` },
      body: upload
    })
    expect(uploaded.status).toBe(201)
    const file = (await uploaded.json()) as { slug: string }

    const made = await call(client, "sharing_create", { resource: { type: "collection", slug: "mcp-kit" } })
    const collection = made.data as unknown as WithEtag
    const added = await call(client, "sharing_collection", {
      action: "add",
      slug: "mcp-kit",
      item: { resource: file.slug, caption: "Greeting" },
      expected_etag: collection.collection_etag
    })
    expect(added.isError).toBe(false)
    const item = added.data.added as { id: string; caption: string }
    expect(item.caption).toBe("Greeting")
    const arranged = await call(client, "sharing_collection", {
      action: "arrange",
      slug: "mcp-kit",
      arrangement: { items: [{ id: item.id, display_name: "Hello" }] }
    })
    expect(
      (arranged.data.resource as { items: Array<{ display_name: string }> }).items[0]?.display_name
    ).toBe("Hello")
    const removed = await call(client, "sharing_collection", {
      action: "remove",
      slug: "mcp-kit",
      item_id: item.id
    })
    expect((removed.data.resource as { items: Array<unknown> }).items).toEqual([])

    await call(client, "sharing_create", { resource: { type: "bio", slug: "mcp-me" } })
    const bio = await call(client, "sharing_bio", {
      action: "replace",
      slug: "mcp-me",
      bio: {
        display_name: "Agent",
        pages: [{ slug: "home", title: "Home", blocks: [{ type: "heading", text: "Hi" }] }]
      }
    })
    expect(bio.isError).toBe(false)
    expect((bio.data.bio as WithEtag).resource).toMatchObject({ type: "bio", display_name: "Agent" })
    const submissions = await call(client, "sharing_bio", { action: "submissions", slug: "mcp-me" })
    expect(submissions.data.submissions).toMatchObject({ items: [], total: 0 })
    const gone = await call(client, "sharing_bio", {
      action: "delete_submission",
      slug: "mcp-me",
      submission_id: crypto.randomUUID()
    })
    expect(gone.data.error?.code).toBe("not_found")
  })

  it("archives, pins, labels and deletes", async () => {
    const client = await connect(full.key)
    await call(client, "sharing_create", {
      resource: { type: "link", slug: "mcp-old", target_url: "https://example.com/", labels: ["a"] }
    })
    const archived = await call(client, "sharing_manage", { slug: "mcp-old", action: "archive" })
    expect((archived.data.resource as WithEtag).resource.archived).toBe(true)
    const pinned = await call(client, "sharing_manage", { slug: "mcp-old", action: "pin" })
    expect((pinned.data.resource as WithEtag).resource.pinned).toBe(true)
    const added = await call(client, "sharing_manage", {
      slug: "mcp-old",
      action: "add_labels",
      labels: ["b"]
    })
    expect((added.data.resource as WithEtag).resource.labels).toEqual(["a", "b"])
    const removed = await call(client, "sharing_manage", {
      slug: "mcp-old",
      action: "remove_labels",
      labels: ["a"]
    })
    expect((removed.data.resource as WithEtag).resource.labels).toEqual(["b"])
    const deleted = await call(client, "sharing_manage", { slug: "mcp-old", action: "delete" })
    expect(deleted.data).toEqual({ action: "delete", deleted: true })
    const after = await call(client, "sharing_query", { action: "get", slug: "mcp-old" })
    expect(after.data.error?.code).toBe("not_found")
  })

  it("refuses each tool without its operation's scope, before reading its input", async () => {
    const reader = await clientWith(["read"])
    expectRefused(
      await call(reader, "sharing_create", {
        resource: { type: "link", target_url: "https://example.com/" }
      }),
      "write"
    )
    expectRefused(await call(reader, "sharing_update", { slug: "x", changes: {} }), "write")
    expectRefused(await call(reader, "sharing_manage", { slug: "x", action: "pin" }), "write")
    expectRefused(
      await call(reader, "sharing_collection", { action: "add", slug: "x", item: { resource: "y" } }),
      "write"
    )
    expectRefused(
      await call(reader, "sharing_markdown_versions", {
        action: "restore",
        slug: "x",
        version_id: crypto.randomUUID()
      }),
      "write"
    )
    expectRefused(
      await call(reader, "sharing_bio", {
        action: "delete_submission",
        slug: "x",
        submission_id: crypto.randomUUID()
      }),
      "delete"
    )

    const writer = await clientWith(["write"])
    // Hidden tools still answer in the tool error shape (validators were compiled by the full key).
    expectRefused(await call(writer, "sharing_query", { action: "list" }), "read")
    expectRefused(await call(writer, "sharing_analytics", { slug: "x" }), "read")
    expectRefused(await call(writer, "sharing_link_simulate", { target_url: "https://example.com/" }), "read")
    expectRefused(await call(writer, "sharing_manage", { slug: "x", action: "delete" }), "delete")
    expectRefused(
      await call(writer, "sharing_manage", { slug: "x", action: "add_labels", labels: ["a"] }),
      "read"
    )
    expectRefused(await call(writer, "sharing_bio", { action: "submissions", slug: "x" }), "read")

    const deleter = await clientWith(["delete"])
    expectRefused(
      await call(deleter, "sharing_collection", { action: "arrange", slug: "x", arrangement: { items: [] } }),
      "write"
    )
    // A scope check comes before input validation: bad input still answers insufficient_scope.
    expectRefused(await call(deleter, "sharing_create", { nonsense: true }), "write")
  })

  it("answers bad input with validation_failed naming the unknown key, and another account's resource forbidden", async () => {
    const client = await connect(full.key)
    const bad = await call(client, "sharing_query", { action: "list", colour: "red" })
    expect(bad.data.error).toMatchObject({ code: "validation_failed" })
    expect(bad.data.error?.message).toContain("colour")
    const other = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
    await call(await connect(other.key), "sharing_create", {
      resource: { type: "link", slug: "mcp-theirs", target_url: "https://example.com/" }
    })
    const theirs = await call(client, "sharing_query", { action: "get", slug: "mcp-theirs" })
    expect(theirs.data.error?.code).toBe("forbidden")
  })
})

describe("the sharing MCP endpoint's budget", () => {
  it("charges MCP calls to the same per-key budget as REST, with the same headers and 429", async () => {
    const small = await startApp({ config: { sharingRequestsPerKey: 3 } })
    try {
      const { key } = await newWorkspaceKey(small, ["read"], "sharing")
      const rest = () =>
        fetch(`${small.origin}/share/api/v1/resources`, { headers: { authorization: `Bearer ${key}` } })
      const mcp = () =>
        fetch(`${small.origin}/share/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream"
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
        })
      await freshRateWindow()
      expect((await rest()).status).toBe(200)
      const first = await mcp()
      expect([
        first.status,
        first.headers.get("x-ratelimit-limit"),
        first.headers.get("x-ratelimit-remaining")
      ]).toEqual([200, "3", "1"])
      expect((await rest()).status).toBe(200)
      const over = await mcp()
      expect(over.status).toBe(429)
      expect(over.headers.get("retry-after")).not.toBeNull()
      expect(((await over.json()) as { error_code: string }).error_code).toBe("rate_limited")
    } finally {
      await small.close()
    }
  })
})
