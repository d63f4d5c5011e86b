// Webhooks over real HTTP, delivered to a local HTTPS receiver that checks each signature: the
// eight routes and the two extensions (read one, delete), resource events in order, link.clicked and
// resource.expired, events held while paused and delivered in order on enable, a failure then the
// recovery, auto-disable and enable, the test event, URLs refused however their address is written,
// and each event delivered once by two instances.
import { PgStorageLive } from "@folio/adapters-storage"
import { verifyWebhookSignature } from "@folio/domain"
import { Option } from "effect"
import { parse } from "yaml"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { startHttpsReceiver } from "../support/https-receiver.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS, startSharingApp } from "../support/sharing-app.js"
import { sharingSuite } from "../support/sharing-suite.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"

type Receiver = Awaited<ReturnType<typeof startHttpsReceiver>>

const webhookConfig = (receiver: Receiver) => ({
  webhookAllowLoopback: true,
  webhookCaFile: Option.some(receiver.caFile),
  webhookRetryDelaysMs: [50, 50, 50, 50, 50, 50],
  webhookDisableAfterFailures: 4,
  jobsScheduleMs: 100,
  jobsPollMs: 50
})

const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 15_000): Promise<A> => {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > end) throw new Error(`timed out waiting: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The events the receiver got for one endpoint's secret, verified, in arrival order. */
const verifiedEvents = (receiver: Receiver, secret: string) =>
  receiver.received
    .filter((r) =>
      verifyWebhookSignature({
        secret,
        timestamp: r.headers["x-svc-webhook-timestamp"] as string,
        signature: r.headers["x-svc-webhook-signature"] as string,
        body: r.body,
        nowSeconds: Math.floor(Date.now() / 1000)
      })
    )
    .map((r) => JSON.parse(r.body) as Json)

for (const target of SHARING_FILE_TARGETS) {
  describe(`webhooks [${target.db}, ${target.blob}]`, () => {
    let app: RunningApp
    let receiver: Receiver
    let owner: { key: string; workspaceId: string }
    let close: () => Promise<void> = async () => {}
    const call = (method: string, path: string, body?: unknown, key = owner.key) =>
      sharingClientOf(app.origin).call(method, path, { key, ...(body === undefined ? {} : { body }) })
    const createHook = async (events: ReadonlyArray<string>, name = "hook") => {
      const created = await call("POST", "/webhooks", { name, url: receiver.url, events })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      return created.body
    }

    beforeAll(async () => {
      receiver = await startHttpsReceiver()
      const started = await startSharingApp(target, webhookConfig(receiver))
      app = started.app
      close = async () => {
        await started.close()
        await receiver.close()
      }
    }, 60_000)
    afterAll(() => close())

    it("manages endpoints: the secret shown at creation and rotation only, HTTPS and public hosts only", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["resource.created"], "Orders")
      expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
      expect(hook).toMatchObject({
        name: "Orders",
        enabled: true,
        failure_count: 0,
        events: ["resource.created"]
      })
      const list = await call("GET", "/webhooks")
      expect((list.body.items as Array<Json>).map((w) => w.id)).toEqual([hook.id])
      expect(JSON.stringify(list.body)).not.toContain(hook.signing_secret as string)

      for (const [body, field] of [
        [{ name: "x", url: "http://example.com/in", events: ["resource.created"] }, "url"],
        [{ name: "x", url: "https://192.168.1.10/in", events: ["resource.created"] }, "url"],
        [{ name: "x", url: "https://hooks.example.com/in", events: [] }, "events"],
        [{ name: "x", url: "https://hooks.example.com/in", events: ["resource.exploded"] }, "events.0"]
      ] as const) {
        const refused = await call("POST", "/webhooks", body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body.field).toBe(field)
      }

      const patched = await call("PATCH", `/webhooks/${hook.id}`, {
        name: "Orders v2",
        events: ["resource.updated"]
      })
      expect(patched.body).toMatchObject({ name: "Orders v2", events: ["resource.updated"] })
      expect(patched.body.signing_secret).toBeUndefined()
      const rotated = await call("POST", `/webhooks/${hook.id}/rotate-secret`)
      expect(rotated.body.signing_secret).not.toBe(hook.signing_secret)
      expect((await call("POST", `/webhooks/${hook.id}/disable`)).body.enabled).toBe(false)
      expect((await call("POST", `/webhooks/${hook.id}/enable`)).body.enabled).toBe(true)

      const other = await newWorkspaceKey(app, ["read", "write"], "sharing")
      expect((await call("GET", `/webhooks/${hook.id}/deliveries`, undefined, other.key)).status).toBe(404)
      expect((await call("PATCH", `/webhooks/${hook.id}`, { name: "mine" }, other.key)).status).toBe(404)
      const readOnly = await newWorkspaceKey(app, ["read"], "sharing")
      expect(
        (
          await call(
            "POST",
            "/webhooks",
            { name: "x", url: receiver.url, events: ["resource.created"] },
            readOnly.key
          )
        ).body.error_code
      ).toBe("insufficient_scope")
      // The test event: sent now, signed with the current secret, listed among the attempts.
      const test = await call("POST", `/webhooks/${hook.id}/test`)
      expect(test.body).toMatchObject({ ok: true, status_code: 200, event_type: "webhook.test", error: null })
      expect(verifiedEvents(receiver, rotated.body.signing_secret as string).map((e) => e.type)).toContain(
        "webhook.test"
      )
      const attempts = await call("GET", `/webhooks/${hook.id}/deliveries`)
      expect((attempts.body.items as Array<Json>)[0]).toMatchObject({ event_type: "webhook.test", ok: true })
    })

    it("refuses, on create and on patch, URLs that reach local or private addresses in any spelling", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["resource.created"])
      // The server allows loopback (for this suite's receiver): 127/8 and ::1 only, never a
      // private address wrapped in IPv6 nor loopback behind a translator's prefix.
      for (const url of [
        "https://[::ffff:a00:1]:5432/",
        "https://[::ffff:a9fe:a9fe]/latest/meta-data",
        "https://[::ffff:c0a8:101]:5432/",
        "https://[0:0:0:0:0:ffff:10.1.2.3]/",
        "https://[::127.0.0.1]/",
        "https://[2002:7f00:1::]/",
        "https://[64:ff9b::a00:1]/",
        "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
        "https://192.88.99.1/",
        "https://0xa9.254.169.254/",
        "https://[fd00::1]/",
        "https://[FE80::1]/"
      ]) {
        const created = await call("POST", "/webhooks", { name: "x", url, events: ["resource.created"] })
        expect([created.status, created.body.error_code, created.body.field], `POST ${url}`).toEqual([
          400,
          "validation_failed",
          "url"
        ])
        const patched = await call("PATCH", `/webhooks/${hook.id}`, { url })
        expect([patched.status, patched.body.error_code, patched.body.field], `PATCH ${url}`).toEqual([
          400,
          "validation_failed",
          "url"
        ])
      }
      const listed = (await call("GET", "/webhooks")).body.items as Array<Json>
      expect(listed.map((w) => w.url)).toEqual([receiver.url])
    })

    it("delivers a resource's created, updated and deleted events in order, signed, each with its own id", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["resource.created", "resource.updated", "resource.deleted"])
      const secret = hook.signing_secret as string
      const link = await call("POST", "/resources", {
        type: "link",
        target_url: "https://example.com/a",
        slug: `ordered-${target.blob}`
      })
      await call("PATCH", `/resources/${link.body.slug}`, { title: "Renamed" })
      await call("DELETE", `/resources/${link.body.slug}`)
      const events = await until(
        async () => verifiedEvents(receiver, secret),
        (e) => e.length >= 3
      )
      expect(events.map((e) => e.type)).toEqual(["resource.created", "resource.updated", "resource.deleted"])
      expect(new Set(events.map((e) => e.id)).size).toBe(3)
      expect(events[1]?.data).toMatchObject({
        resource: { id: link.body.id, slug: `ordered-${target.blob}`, title: "Renamed" }
      })
      const request = receiver.received.find(
        (r) => r.body.includes('"resource.created"') && r.body.includes(link.body.id as string)
      )
      expect(request?.headers["x-svc-webhook-id"]).toBe(events[0]?.id)
    })

    it("sends link.clicked for links that ask for it, and resource.expired once a resource expires", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["link.clicked", "resource.expired"])
      const secret = hook.signing_secret as string
      const clicked = await call("POST", "/resources", {
        type: "link",
        target_url: "https://example.com/clicked",
        webhook_clicks: true
      })
      const quiet = await call("POST", "/resources", {
        type: "link",
        target_url: "https://example.com/quiet"
      })
      for (const slug of [clicked.body.slug, quiet.body.slug])
        expect((await fetch(`${app.origin}/s/${slug}`, { redirect: "manual" })).status).toBe(302)
      const soon = new Date(Date.now() + 1500).toISOString()
      const expiring = await call("POST", "/resources", {
        type: "link",
        target_url: "https://example.com/e",
        expires_at: soon
      })
      const events = await until(
        async () => verifiedEvents(receiver, secret),
        (e) => e.some((x) => x.type === "resource.expired") && e.some((x) => x.type === "link.clicked"),
        20_000
      )
      const clicks = events.filter((e) => e.type === "link.clicked")
      expect(clicks.length).toBe(1)
      expect(clicks[0]?.data).toMatchObject({
        resource: { id: clicked.body.id },
        destination: "https://example.com/clicked"
      })
      const expired = events.filter((e) => e.type === "resource.expired")
      expect(expired.map((e) => (e.data as { resource: Json }).resource.id)).toEqual([expiring.body.id])
    })

    it("sends upload_request.submitted and upload_request.reviewed for a sender's files and their review", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["upload_request.submitted", "upload_request.reviewed"])
      const secret = hook.signing_secret as string
      const request = await call("POST", "/upload-requests", { title: "Send your CV" })
      const body = new FormData()
      body.append("name", "Ada")
      body.append("files", new Blob([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")]), "cv.pdf")
      const sent = await fetch(`${app.origin}/u/${request.body.token}`, {
        method: "POST",
        body,
        redirect: "manual"
      })
      expect(sent.status).toBe(303)
      const list = await call("GET", `/upload-requests/${request.body.id}/submissions`)
      const submission = (list.body.items as Array<Json>)[0] as Json
      await call("PATCH", `/upload-requests/${request.body.id}/submissions/${submission.id}`, {
        review: "accepted"
      })
      const events = await until(
        async () => verifiedEvents(receiver, secret),
        (e) => e.length >= 2
      )
      expect(events.map((e) => e.type)).toEqual(["upload_request.submitted", "upload_request.reviewed"])
      expect(JSON.stringify(events)).toContain(submission.id as string)
    })

    it("holds the events of a paused endpoint and delivers them in order when it is enabled again", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      receiver.answerWith(() => 200)
      const hook = await createHook(["resource.created", "resource.updated"])
      const secret = hook.signing_secret as string
      expect((await call("POST", `/webhooks/${hook.id}/disable`)).body.enabled).toBe(false)
      const first = await call("POST", "/resources", { type: "link", target_url: "https://example.com/p1" })
      await call("PATCH", `/resources/${first.body.slug}`, { title: "Paused" })
      // Paused through PATCH as well: still held.
      expect((await call("PATCH", `/webhooks/${hook.id}`, { enabled: false })).body.enabled).toBe(false)
      const second = await call("POST", "/resources", { type: "link", target_url: "https://example.com/p2" })
      // Several sweeps pass (JOBS_SCHEDULE_MS is 100 here): nothing goes out while paused.
      await new Promise((r) => setTimeout(r, 600))
      expect(verifiedEvents(receiver, secret)).toEqual([])
      expect((await call("GET", `/webhooks/${hook.id}/deliveries`)).body.items).toEqual([])

      expect((await call("POST", `/webhooks/${hook.id}/enable`)).body.enabled).toBe(true)
      const events = await until(
        async () => verifiedEvents(receiver, secret),
        (e) => e.length >= 3
      )
      expect(events.map((e) => [e.type, (e.data as { resource: Json }).resource.id])).toEqual([
        ["resource.created", first.body.id],
        ["resource.updated", first.body.id],
        ["resource.created", second.body.id]
      ])
      await new Promise((r) => setTimeout(r, 300))
      expect(verifiedEvents(receiver, secret).length).toBe(3)
    })

    it("reads and deletes one endpoint (extensions): 204, then 404; another account's is 404; a slot is freed", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["resource.created"], "One")
      const one = await call("GET", `/webhooks/${hook.id}`)
      expect(one.status).toBe(200)
      expect(one.body).toMatchObject({ id: hook.id, name: "One", url: receiver.url, enabled: true })
      expect(one.body.signing_secret).toBeUndefined()

      const other = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      expect((await call("GET", `/webhooks/${hook.id}`, undefined, other.key)).status).toBe(404)
      expect((await call("DELETE", `/webhooks/${hook.id}`, undefined, other.key)).status).toBe(404)
      const writer = await newWorkspaceKey(app, ["read", "write"], "sharing")
      const noScope = await call("DELETE", `/webhooks/${hook.id}`, undefined, writer.key)
      expect([noScope.status, noScope.body.error_code]).toEqual([403, "insufficient_scope"])

      // Deleted while its events are being written: every write succeeds, and its held delivery goes.
      const writes = Array.from({ length: 12 }, (_, i) =>
        call("POST", "/resources", { type: "link", target_url: `https://example.com/del-${i}` })
      )
      const deleted = await call("DELETE", `/webhooks/${hook.id}`)
      expect(deleted.status).toBe(204)
      expect((await Promise.all(writes)).map((w) => w.status)).toEqual(Array(12).fill(201))
      expect((await call("GET", `/webhooks/${hook.id}`)).status).toBe(404)
      expect((await call("GET", `/webhooks/${hook.id}/deliveries`)).status).toBe(404)
      expect((await call("POST", `/webhooks/${hook.id}/enable`)).status).toBe(404)
      expect((await call("DELETE", `/webhooks/${hook.id}`)).status).toBe(404)
      expect((await call("GET", "/webhooks")).body.items).toEqual([])
      expect((await call("DELETE", "/webhooks/not-a-uuid")).status).toBe(404)

      // The limit of 20 counts what exists: deleting one makes room for another.
      const hooks = []
      for (let i = 0; i < 20; i++) hooks.push(await createHook(["resource.created"], `h${i}`))
      const full = await call("POST", "/webhooks", {
        name: "21",
        url: receiver.url,
        events: ["resource.created"]
      })
      expect([full.status, full.body.field]).toEqual([400, "url"])
      const both = await Promise.all([
        call("DELETE", `/webhooks/${hooks[0]?.id}`),
        call("DELETE", `/webhooks/${hooks[0]?.id}`)
      ])
      expect(both.map((r) => r.status).sort()).toEqual([204, 404])
      expect(
        (await call("POST", "/webhooks", { name: "21", url: receiver.url, events: ["resource.created"] }))
          .status
      ).toBe(201)

      // The OpenAPI document names both routes as extensions of the spec, with their scopes.
      const document = parse(await (await fetch(`${app.origin}/share/api/v1/openapi.yaml`)).text()) as {
        paths: Record<string, Record<string, { summary?: string; description?: string }>>
      }
      const item = document.paths["/webhooks/{id}"]
      expect(item?.get?.description).toMatch(/extension of the spec/)
      expect(item?.delete?.description).toMatch(/extension of the spec/)
      expect(item?.delete?.summary).toMatch(/scope delete/)
    })

    it("retries a failing receiver until it recovers, and disables an endpoint that keeps failing", async () => {
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const hook = await createHook(["resource.created"])
      const secret = hook.signing_secret as string
      let failures = 2
      receiver.answerWith(() => (failures-- > 0 ? 500 : 200))
      const link = await call("POST", "/resources", { type: "link", target_url: "https://example.com/r" })
      await until(
        async () => verifiedEvents(receiver, secret).filter((e) => e.type === "resource.created"),
        (e) => e.length >= 3
      )
      const attempts = await until(
        async () => (await call("GET", `/webhooks/${hook.id}/deliveries`)).body.items as Array<Json>,
        (items) => items.some((a) => a.ok === true)
      )
      expect(attempts.map((a) => [a.ok, a.status_code])).toEqual([
        [true, 200],
        [false, 500],
        [false, 500]
      ])
      expect(attempts[1]?.error).toBe("status 500")
      expect(new Set(attempts.map((a) => a.event_id))).toEqual(new Set([attempts[0]?.event_id]))
      expect((await call("GET", "/webhooks")).body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: hook.id, failure_count: 0, enabled: true })])
      )
      expect(link.status).toBe(201)

      // Failing on: after four failures in a row the endpoint is turned off, with the reason.
      receiver.answerWith(() => 500)
      const down = await call("POST", "/resources", { type: "link", target_url: "https://example.com/down" })
      const off = await until(
        async () =>
          ((await call("GET", "/webhooks")).body.items as Array<Json>).find((w) => w.id === hook.id) as Json,
        (w) => w.enabled === false
      )
      expect(off).toMatchObject({
        failure_count: 4,
        disabled_reason: "disabled after 4 failed deliveries in a row"
      })
      // An event while it is off is held, behind the one that was failing.
      const held = await call("POST", "/resources", { type: "link", target_url: "https://example.com/held" })
      // Turned back on, with the receiver fixed: the waiting event, then the held one, are delivered.
      receiver.answerWith(() => 200)
      const on = await call("POST", `/webhooks/${hook.id}/enable`)
      expect(on.body).toMatchObject({ enabled: true, failure_count: 0, disabled_reason: null })
      const delivered = await until(
        async () =>
          ((await call("GET", `/webhooks/${hook.id}/deliveries`)).body.items as Array<Json>).filter(
            (a) => a.ok === true
          ),
        (ok) => ok.length >= 3
      )
      const resourceOf = (eventId: unknown) =>
        (
          verifiedEvents(receiver, secret).find((e) => e.id === eventId)?.data as
            | { resource: Json }
            | undefined
        )?.resource.id
      // Newest first: the held event after the one that had been failing.
      expect(delivered.slice(0, 2).map((a) => resourceOf(a.event_id))).toEqual([held.body.id, down.body.id])
    })
  })
}

/** The audit's URLs: loopback, the metadata address, private ranges, in spellings that slipped by. */
const AUDIT_URLS = [
  "https://[::ffff:7f00:1]:5432/",
  "https://[0:0:0:0:0:ffff:127.0.0.1]:5432/",
  "https://[::ffff:a9fe:a9fe]/latest/meta-data",
  "https://[::ffff:a00:5]/",
  "https://[::ffff:c0a8:1]/",
  "https://[::127.0.0.1]/",
  "https://[2002:7f00:1::]/",
  "https://[64:ff9b::7f00:1]/",
  "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
  "https://192.88.99.1/",
  "https://2130706433/",
  "https://localhost./"
]

for (const target of SHARING_FILE_TARGETS) {
  describe(`webhook URLs on a server without loopback receivers [${target.db}, ${target.blob}]`, () => {
    const { app } = sharingSuite(target, {})
    it("refuses the audit's URLs with 400 validation_failed on url, on POST and on PATCH", async () => {
      const { key } = await newWorkspaceKey(app, ["read", "write"], "sharing")
      const api = sharingClientOf(app.origin)
      const hook = await api.call("POST", "/webhooks", {
        key,
        body: { name: "public", url: "https://hooks.example.com/in", events: ["resource.created"] }
      })
      expect(hook.status).toBe(201)
      for (const url of AUDIT_URLS) {
        const created = await api.call("POST", "/webhooks", {
          key,
          body: { name: "x", url, events: ["resource.created"] }
        })
        expect([created.status, created.body.error_code, created.body.field], `POST ${url}`).toEqual([
          400,
          "validation_failed",
          "url"
        ])
        const patched = await api.call("PATCH", `/webhooks/${hook.body.id}`, { key, body: { url } })
        expect([patched.status, patched.body.error_code, patched.body.field], `PATCH ${url}`).toEqual([
          400,
          "validation_failed",
          "url"
        ])
      }
      const listed = await api.call("GET", "/webhooks", { key })
      expect((listed.body.items as Array<Json>).map((w) => w.url)).toEqual(["https://hooks.example.com/in"])
    })
  })
}

describe.skipIf(TEST_DATABASE_URL === undefined)("webhooks from two instances on one PostgreSQL", () => {
  let a: RunningApp
  let b: RunningApp
  let receiver: Receiver
  let drop: () => Promise<void> = async () => {}

  beforeAll(async () => {
    receiver = await startHttpsReceiver()
    const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    drop = db.drop
    // Two instances: each its own pool on the same database.
    a = await startApp({
      storage: PgStorageLive({ url: db.url }),
      config: { ...webhookConfig(receiver), sharingRequestsPerKey: 100_000 }
    })
    b = await startApp({
      storage: PgStorageLive({ url: db.url }),
      config: { ...webhookConfig(receiver), sharingRequestsPerKey: 100_000 }
    })
  }, 60_000)
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await drop()
    await receiver.close()
  })

  it("delivers each event exactly once", async () => {
    receiver.answerWith(() => 200)
    const owner = await newWorkspaceKey(a, ["read", "write"], "sharing")
    const api = sharingClientOf(a.origin)
    const hook = await api.call("POST", "/webhooks", {
      key: owner.key,
      body: { name: "both", url: receiver.url, events: ["resource.created"] }
    })
    const secret = hook.body.signing_secret as string
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sharingClientOf(i % 2 === 0 ? a.origin : b.origin).call("POST", "/resources", {
          key: owner.key,
          body: { type: "link", target_url: `https://example.com/${i}` }
        })
      )
    )
    // Every other status with its error envelope, so a failure names what answered.
    const notCreated = created
      .filter((c) => c.status !== 201)
      .map((c) => ({ status: c.status, body: c.body }))
    expect(notCreated).toEqual([])
    const events = await until(
      async () => verifiedEvents(receiver, secret),
      (e) => e.length >= 30
    )
    await new Promise((r) => setTimeout(r, 500))
    const again = verifiedEvents(receiver, secret)
    expect(again.length).toBe(30)
    expect(new Set(again.map((e) => (e.data as { resource: Json }).resource.id)).size).toBe(30)
    expect(events.length).toBe(30)
  })
})
