// The sharing MCP operations tools through the real /share/mcp endpoint with the SDK's Client and
// sharing keys: a small file uploaded inline and the same resource over REST, the inline size limit
// and the upload request link offered instead, upload requests and a sender's submission reviewed,
// a job read and retried, webhooks read, tested and their deliveries; scope refusals and errors
// answered with the sharing error table's codes. Every structuredContent meets its outputSchema.
import { randomBytes } from "node:crypto"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { mcpClient } from "../support/mcp-client.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Option } from "effect"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { startHttpsReceiver } from "../support/https-receiver.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"
import { realStorageName } from "../support/storage.js"

type Structured = Json & { error?: { code: string; message: string; details?: Json } }

const INLINE_LIMIT = 512 * 1024
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n")
const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0])
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>
beforeAll(async () => {
  receiver = await startHttpsReceiver()
})
afterAll(() => receiver.close())

describe("the sharing MCP operations tools", () => {
  const { app, owner, reader, other } = sharingSuite(
    // PostgreSQL when TEST_DATABASE_URL names a server, else PGlite.
    { db: realStorageName, blob: "fs" },
    { owner: ALL_SHARING_SCOPES, reader: ["read"], other: ALL_SHARING_SCOPES },
    () => ({
      webhookAllowLoopback: true,
      webhookCaFile: Option.some(receiver.caFile),
      jobsScheduleMs: 100,
      jobsPollMs: 50
    })
  )
  const ajv = makeAjv2020()
  const validators = new Map<string, ReturnType<typeof ajv.compile>>()
  const clients: Array<Client> = []
  afterAll(async () => {
    for (const c of clients) await c.close()
  })

  const connect = async (key: string) => {
    const client = mcpClient("folio-test")
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.origin}/share/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } }
      })
    )
    clients.push(client)
    const { tools } = await client.listTools()
    for (const tool of tools)
      if (!validators.has(tool.name)) validators.set(tool.name, ajv.compile(tool.outputSchema ?? {}))
    return client
  }

  const call = async (client: Client, name: string, args: Json) => {
    const result = await client.callTool({ name, arguments: args })
    const data = result.structuredContent as Structured
    const validate = validators.get(name)
    if (validate === undefined) throw new Error(`${name} is not listed`)
    if (!validate(data)) throw new Error(`${name}: ${JSON.stringify(validate.errors)}`)
    return { isError: result.isError === true, data }
  }
  /** A call that must succeed: its structuredContent. */
  const ok = async (client: Client, name: string, args: Json) => {
    const { isError, data } = await call(client, name, args)
    if (isError) throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)}: ${JSON.stringify(data)}`)
    return data
  }
  /** A call that must fail: its tool error. */
  const refused = async (client: Client, name: string, args: Json) => {
    const { isError, data } = await call(client, name, args)
    expect(isError, JSON.stringify(data)).toBe(true)
    return data.error as NonNullable<Structured["error"]>
  }
  const rest = (method: string, path: string, body?: unknown) =>
    sharingClientOf(app.origin).call(method, path, {
      key: owner.key,
      ...(body === undefined ? {} : { body })
    })

  it("lists the operations tools to a read-only key too, and states the inline limit", async () => {
    const client = await connect(reader.key)
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name)
    for (const name of [
      "sharing_files",
      "sharing_upload_requests",
      "sharing_upload_submissions",
      "sharing_jobs",
      "sharing_webhooks"
    ])
      expect(names).toContain(name)
    const files = tools.find((t) => t.name === "sharing_files")
    expect(files?.description).toContain(String(INLINE_LIMIT))
    const context = await client.readResource({ uri: "svc://account/context" })
    const text = (context.contents[0] as { text: string }).text
    expect((JSON.parse(text) as { limits: Json }).limits.inline_file_max_bytes).toBe(INLINE_LIMIT)
  })

  it("uploads a small file inline as the same resource REST reads, and previews it", async () => {
    const client = await connect(owner.key)
    const made = await ok(client, "sharing_files", {
      action: "upload",
      content_base64: base64(PDF),
      file_name: "report.pdf",
      slug: "mcp-report",
      title: "Quarterly report",
      labels: ["finance", "q3"],
      max_views: 3,
      pinned: true
    })
    expect(made.resource).toMatchObject({
      slug: "mcp-report",
      type: "file",
      title: "Quarterly report",
      labels: ["finance", "q3"],
      max_views: 3,
      pinned: true,
      content_type: "application/pdf",
      size: PDF.byteLength
    })
    const read = await rest("GET", "/resources/mcp-report")
    expect(read.status).toBe(200)
    expect(read.body).toEqual(made.resource)
    expect(read.headers.get("x-resource-etag")).toBe(made.etag)

    const preview = await ok(client, "sharing_files", { action: "preview", id: "mcp-report" })
    const webp = Buffer.from((preview.preview as { content_base64: string }).content_base64, "base64")
    expect((preview.preview as Json).content_type).toBe("image/webp")
    expect(webp.subarray(0, 4).toString()).toBe("RIFF")
    expect(webp.subarray(8, 12).toString()).toBe("WEBP")
  })

  it("refuses a file over the inline limit and offers an upload request link for it instead", async () => {
    const client = await connect(owner.key)
    const before = (await rest("GET", "/me")).body.storage as Json
    const over = await refused(client, "sharing_files", {
      action: "upload",
      content_base64: base64(randomBytes(INLINE_LIMIT + 1))
    })
    expect(over.code).toBe("payload_too_large")
    expect(over.message).toContain("request_upload")
    // Exactly at the limit is taken to the upload (which refuses these bytes for their type instead).
    const atLimit = new Uint8Array(INLINE_LIMIT)
    atLimit.set(ELF)
    const taken = await refused(client, "sharing_files", {
      action: "upload",
      content_base64: base64(atLimit)
    })
    expect(taken.code).toBe("unsupported_media")
    expect(((await rest("GET", "/me")).body.storage as Json).used_bytes).toBe(before.used_bytes)
    const notBase64 = await refused(client, "sharing_files", { action: "upload", content_base64: "%%%=" })
    expect(notBase64.code).toBe("validation_failed")

    const link = await ok(client, "sharing_files", { action: "request_upload", title: "The raw footage" })
    const request = link.upload_request as Json
    expect(request.url).toBe(`${app.origin}/u/${request.token}`)
    expect(request).toMatchObject({ title: "The raw footage", status: "open", accepting: true })
    expect((await fetch(request.url as string)).status).toBe(200)
    expect((await rest("GET", `/upload-requests/${request.id}`)).body.title).toBe("The raw footage")
  })

  it("answers the upload use case's refusals with the sharing error codes", async () => {
    const client = await connect(owner.key)
    const elf = await refused(client, "sharing_files", { action: "upload", content_base64: base64(ELF) })
    expect(elf).toMatchObject({ code: "unsupported_media" })
    expect(JSON.stringify(elf)).toContain("file")
    await ok(client, "sharing_files", { action: "upload", content_base64: base64(PDF), slug: "taken-slug" })
    const taken = await refused(client, "sharing_files", {
      action: "upload",
      content_base64: base64(PDF),
      slug: "taken-slug"
    })
    expect(taken.code).toBe("slug_taken")
    const missing = await refused(client, "sharing_files", { action: "upload" })
    expect(missing.code).toBe("validation_failed")
    expect(missing.message).toContain("content_base64")
  })

  it("manages an upload request and reviews a sender's submission", async () => {
    const client = await connect(owner.key)
    const made = (
      await ok(client, "sharing_upload_requests", {
        action: "create",
        title: "Send your CV",
        description: "PDF please"
      })
    ).upload_request as Json
    expect(made.token).toEqual(expect.any(String))
    const id = made.id as string
    const listed = await ok(client, "sharing_upload_requests", { action: "list" })
    expect((listed.upload_requests as { items: Array<Json> }).items.map((r) => r.id)).toContain(id)
    expect(JSON.stringify(listed)).not.toContain(made.token as string)
    const patched = await ok(client, "sharing_upload_requests", {
      action: "patch",
      id,
      title: "Send your CV now"
    })
    expect(patched.upload_request).toMatchObject({ id, title: "Send your CV now", description: "PDF please" })
    const paused = await ok(client, "sharing_upload_requests", { action: "status", id, status: "paused" })
    expect(paused.upload_request).toMatchObject({ status: "paused", accepting: false })
    await ok(client, "sharing_upload_requests", { action: "status", id, status: "open" })
    const rotated = (await ok(client, "sharing_upload_requests", { action: "rotate_token", id }))
      .upload_request as Json
    expect(rotated.token).not.toBe(made.token)
    expect((await fetch(made.url as string)).status).toBe(404)

    const body = new FormData()
    body.append("name", "Ada")
    body.append("message", "Attached")
    body.append("files", new Blob([PDF as Uint8Array<ArrayBuffer>]), "cv.pdf")
    const sent = await fetch(rotated.url as string, { method: "POST", body, redirect: "manual" })
    expect(sent.status).toBe(303)

    const page = (await ok(client, "sharing_upload_submissions", { action: "list", id })).submissions as Json
    expect(page).toMatchObject({ total: 1, limit: 50, offset: 0 })
    const submission = (page.items as Array<Json>)[0] as Json
    expect(submission).toMatchObject({ submitter_name: "Ada", message: "Attached", review: "unreviewed" })
    const detail = (
      await ok(client, "sharing_upload_submissions", { action: "get", id, submission_id: submission.id })
    ).submission as Json
    expect(detail.files).toEqual([expect.objectContaining({ type: "file", content_type: "application/pdf" })])
    const rest_ = await rest("GET", `/upload-requests/${id}/submissions/${submission.id}`)
    expect(rest_.body).toEqual(detail)
    const reviewed = await ok(client, "sharing_upload_submissions", {
      action: "review",
      id,
      submission_id: submission.id,
      review: "accepted"
    })
    expect(reviewed.submission).toMatchObject({ id: submission.id, review: "accepted" })
    expect((reviewed.submission as Json).reviewed_at).toEqual(expect.any(String))

    const revoked = await ok(client, "sharing_upload_requests", { action: "revoke", id })
    expect(revoked.upload_request).toMatchObject({ revoked: true, accepting: false })
    expect((await ok(client, "sharing_upload_requests", { action: "get", id })).upload_request).toEqual(
      revoked.upload_request
    )
    // Another account's request is not found; an action without its id is named.
    const foreign = await refused(await connect(other.key), "sharing_upload_requests", { action: "get", id })
    expect(foreign.code).toBe("not_found")
    const noId = await refused(client, "sharing_upload_requests", { action: "revoke" })
    expect(noId).toMatchObject({ code: "validation_failed" })
    expect(noId.message).toContain("id")
  })

  it("reads a job to its end and retries it as a new job", async () => {
    const client = await connect(owner.key)
    const jpeg = new Uint8Array(
      await sharp(randomBytes(200 * 150 * 3), { raw: { width: 200, height: 150, channels: 3 } })
        .blur(1.2)
        .jpeg({ quality: 40 })
        .toBuffer()
    )
    await ok(client, "sharing_files", { action: "upload", content_base64: base64(jpeg), slug: "mcp-photo" })
    const queued = await rest("POST", "/resources/mcp-photo/file/optimize-original", {})
    expect(queued.status).toBe(202)
    const jobId = queued.body.job_id as string
    let job: Json = {}
    for (let i = 0; i < 200; i++) {
      job = (await ok(client, "sharing_jobs", { action: "get", id: jobId })).job as Json
      if (["succeeded", "failed", "skipped"].includes(job.status as string)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(job).toMatchObject({ job_id: jobId, type: "optimize_original", status: "skipped" })
    expect(job.poll_url).toBe(`${app.origin}/share/api/v1/jobs/${jobId}`)
    expect((await rest("GET", `/jobs/${jobId}`)).body).toEqual(job)

    const list = (await ok(client, "sharing_jobs", { action: "list", status: "skipped", limit: 10 }))
      .jobs as Json
    expect((list.items as Array<Json>).map((j) => j.job_id)).toContain(jobId)
    expect(list).toHaveProperty("next_cursor")
    const retried = (await ok(client, "sharing_jobs", { action: "retry", id: jobId })).accepted as Json
    expect(retried.job_id).not.toBe(jobId)
    expect(retried).toMatchObject({
      type: "optimize_original",
      poll_url: `${app.origin}/share/api/v1/jobs/${retried.job_id}`
    })
    const again = (await ok(client, "sharing_jobs", { action: "get", id: retried.job_id })).job as Json
    expect(again.retry_of).toBe(jobId)

    const unknown = await refused(client, "sharing_jobs", {
      action: "get",
      id: "0190f0f0-0000-7000-8000-000000000000"
    })
    expect(unknown.code).toBe("not_found")
  })

  it("reads webhooks, sends a test event and lists the delivery attempts", async () => {
    const created = await rest("POST", "/webhooks", {
      name: "Orders",
      url: receiver.url,
      events: ["resource.created"]
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    const client = await connect(owner.key)
    const list = (await ok(client, "sharing_webhooks", { action: "list" })).webhooks as Json
    expect((list.items as Array<Json>).map((w) => w.id)).toEqual([id])
    expect(JSON.stringify(list)).not.toContain(created.body.signing_secret as string)
    const one = await ok(client, "sharing_webhooks", { action: "get", id })
    expect(one.webhook).toEqual((await rest("GET", `/webhooks/${id}`)).body)
    const test = await ok(client, "sharing_webhooks", { action: "test", id })
    expect(test.attempt).toMatchObject({
      ok: true,
      status_code: 200,
      event_type: "webhook.test",
      error: null
    })
    const deliveries = (await ok(client, "sharing_webhooks", { action: "deliveries", id, limit: 5 }))
      .deliveries as Json
    expect((deliveries.items as Array<Json>)[0]).toMatchObject({ event_type: "webhook.test", ok: true })
    expect(deliveries).toEqual((await rest("GET", `/webhooks/${id}/deliveries?limit=5`)).body)

    const foreign = await refused(await connect(other.key), "sharing_webhooks", { action: "test", id })
    expect(foreign.code).toBe("not_found")
  })

  it("refuses a read-only key each write action, insufficient_scope, and lets it read", async () => {
    const client = await connect(reader.key)
    for (const [tool, args] of [
      ["sharing_files", { action: "upload", content_base64: base64(PDF) }],
      ["sharing_files", { action: "request_upload", title: "x" }],
      ["sharing_upload_requests", { action: "create", title: "x" }],
      ["sharing_upload_requests", { action: "revoke", id: "x" }],
      ["sharing_upload_submissions", { action: "review", id: "x", submission_id: "y", review: "accepted" }],
      ["sharing_jobs", { action: "retry", id: "x" }],
      ["sharing_webhooks", { action: "test", id: "x" }]
    ] as const) {
      const error = await refused(client, tool, args)
      expect([tool, args.action, error.code]).toEqual([tool, args.action, "insufficient_scope"])
    }
    expect((await ok(client, "sharing_upload_requests", { action: "list" })).upload_requests).toEqual({
      items: []
    })
    expect((await ok(client, "sharing_webhooks", { action: "list" })).webhooks).toEqual({ items: [] })
    expect((await ok(client, "sharing_jobs", { action: "list" })).jobs).toEqual({
      items: [],
      next_cursor: null
    })
  })
})
