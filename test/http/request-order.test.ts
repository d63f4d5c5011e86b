// What a keyed request hears first, over real HTTP on PGlite and PostgreSQL: the key and its scope
// before anything about the body (401/403 before 400/413), one Authorization header only, no body
// read as `{}`, bytes that are not UTF-8 refused rather than stored with U+FFFD, a malformed id as
// nothing there (sharing), and the budget headers of the budget closest to running out on every
// answer, the OpenAPI document counted in the address's budget.
import { request as httpRequest } from "node:http"
import { FormsApi } from "@folio/adapters-http"
import { keyedEndpointsOf } from "@folio/adapters-http/shared"
import { OPERATION_SCOPES, sharingOperationScopes } from "@folio/domain"
import sharp from "sharp"
import { FORMS_ENDPOINT_OPERATIONS } from "../../packages/adapters-http/src/forms/request-guard.js"
import { SharingApi } from "../../packages/adapters-http/src/sharing/Api.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { openStorage, realStorageName } from "../support/storage.js"
import { freshRateWindow } from "../support/rate-window.js"

const SHARE = "/share/api/v1"
const FORMS = "/forms/api/v1"

/** One raw request: any headers (an array value sends the header once per entry), any body bytes. */
const raw = (
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string | ReadonlyArray<string>>,
  body?: Uint8Array | string
) =>
  new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    json: Record<string, unknown>
  }>((done, fail) => {
    const outgoing = httpRequest(`${origin}${path}`, { method }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (c: Buffer) => chunks.push(c))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let json: Record<string, unknown> = {}
        try {
          json = text === "" ? {} : JSON.parse(text)
        } catch {}
        done({ status: response.statusCode ?? 0, headers: response.headers, json })
      })
    })
    outgoing.on("error", fail)
    for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value as string | string[])
    outgoing.end(body)
  })

const json = (value: unknown) => ({ "content-type": "application/json", body: JSON.stringify(value) })

/** `{"type":"link","target_url":"https://example.com/<0xff>"}`: JSON in shape, not UTF-8. */
const notUtf8 = Buffer.concat([
  Buffer.from('{"type":"link","slug":"bad-bytes","target_url":"https://example.com/'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('"}')
])

for (const db of [...new Set(["pglite", realStorageName] as const)]) {
  describe(`keyed requests: what is heard first [${db}]`, () => {
    let app: RunningApp
    let drop = async () => {}
    let owner: { key: string; workspaceId: string }
    let reader: { key: string; workspaceId: string }
    let formsKey: { key: string; workspaceId: string }
    const call = (
      method: string,
      path: string,
      key: string | undefined,
      init: { body?: string | Uint8Array; headers?: Record<string, string> } = {}
    ) =>
      fetch(`${app.origin}${path}`, {
        method,
        headers: { ...(key === undefined ? {} : bearer(key)), ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body })
      })

    beforeAll(async () => {
      const storage = await openStorage(db)
      drop = storage.drop
      app = await startApp({ storage: storage.storage, config: { sharingRequestsPerKey: 100_000 } })
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      reader = await newWorkspaceKey(app, ["read"], "sharing")
      formsKey = await newWorkspaceKey(app, ["forms:read", "forms:write", "forms:publish"])
    }, 60_000)
    afterAll(async () => {
      await app.close()
      await drop()
    })

    it("answers 401 to a request without a key whatever its body, before reading it", async () => {
      const { body, ...type } = json({})
      const malformed = await call("POST", `${SHARE}/resources`, undefined, {
        headers: { "content-type": type["content-type"] },
        body: "{not json"
      })
      expect(malformed.status).toBe(401)
      expect(await malformed.json()).toMatchObject({ error_code: "invalid_api_key" })
      // Two MiB announced: over the 1 MiB cap, still a 401 first.
      const oversized = await raw(
        app.origin,
        "POST",
        `${SHARE}/resources`,
        { "content-type": "application/json" },
        "x".repeat(2 * 1024 * 1024)
      )
      expect(oversized.status).toBe(401)
      expect(oversized.json).toMatchObject({ error_code: "invalid_api_key" })
      const bad = await call("POST", `${SHARE}/resources`, "folio_nope", { body, headers: type })
      expect(bad.status).toBe(401)
      // The forms API keeps the same order in its own envelope.
      const forms = await call("POST", `${FORMS}/forms`, undefined, { headers: type, body: "{not json" })
      expect(forms.status).toBe(401)
      expect(await forms.json()).toMatchObject({ ok: false, error: { code: "unauthorized" } })
    })

    it("answers 403 insufficient_scope to a key without the route's scope, before reading the body", async () => {
      const malformed = await call("POST", `${SHARE}/resources`, reader.key, {
        headers: { "content-type": "application/json" },
        body: "{not json"
      })
      expect(malformed.status, "malformed").toBe(403)
      expect(await malformed.json()).toMatchObject({ error_code: "insufficient_scope" })
      const oversized = await raw(
        app.origin,
        "POST",
        `${SHARE}/resources`,
        { ...bearer(reader.key), "content-type": "application/json" },
        "x".repeat(2 * 1024 * 1024)
      )
      expect(oversized.status, "oversized").toBe(403)
      const deleting = await call("DELETE", `${SHARE}/resources/anything`, reader.key)
      expect(deleting.status, "delete").toBe(403)
      // With the scope, the body is judged as before.
      const judged = await call("POST", `${SHARE}/resources`, owner.key, {
        headers: { "content-type": "application/json" },
        body: "{not json"
      })
      expect(judged.status).toBe(400)
      expect(await judged.json()).toMatchObject({ error_code: "request_body_invalid" })
      const tooLarge = await raw(
        app.origin,
        "POST",
        `${SHARE}/resources`,
        { ...bearer(owner.key), "content-type": "application/json" },
        "x".repeat(2 * 1024 * 1024)
      )
      expect(tooLarge.status).toBe(413)
      const formsReader = await newWorkspaceKey(app, ["forms:read"])
      const forms = await call("POST", `${FORMS}/forms`, formsReader.key, {
        headers: { "content-type": "application/json" },
        body: "{not json"
      })
      expect(forms.status, "forms").toBe(403)
      expect(await forms.json()).toMatchObject({ ok: false, error: { code: "forbidden" } })
    })

    it("refuses two Authorization headers with 400, whichever key comes first", async () => {
      for (const keys of [
        [owner.key, "folio_nope"],
        ["folio_nope", owner.key],
        [owner.key, owner.key]
      ]) {
        const twice = await raw(app.origin, "GET", `${SHARE}/me`, {
          authorization: keys.map((k) => `Bearer ${k}`)
        })
        expect(twice.status).toBe(400)
        expect(twice.json).toMatchObject({ error_code: "validation_failed", field: "authorization" })
      }
      const forms = await raw(app.origin, "GET", `${FORMS}/capabilities`, {
        authorization: [`Bearer ${formsKey.key}`, `Bearer ${formsKey.key}`]
      })
      expect(forms.status).toBe(400)
      expect(forms.json).toMatchObject({ ok: false, error: { code: "invalid" } })
      expect((await raw(app.origin, "GET", `${SHARE}/me`, bearer(owner.key))).status).toBe(200)
    })

    it("answers a request Node refuses on a sharing path in the sharing envelope", async () => {
      const long = await fetch(`${app.origin}${SHARE}/resources?q=${"a".repeat(100_000)}`, {
        headers: bearer(owner.key)
      })
      expect(long.status).toBe(431)
      expect(await long.json()).toEqual({ error: expect.any(String), error_code: "validation_failed" })
      const forms = await fetch(`${app.origin}${FORMS}/forms?q=${"a".repeat(100_000)}`, {
        headers: bearer(formsKey.key)
      })
      expect(forms.status).toBe(431)
      expect(await forms.json()).toMatchObject({ ok: false, error: { code: "invalid" } })
    })

    it("reads no body as {}: a bare POST works where every field is optional", async () => {
      const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#c33" } })
        .jpeg({ quality: 100 })
        .toBuffer()
      const form = new FormData()
      form.set("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "red.jpg")
      const uploaded = await call("POST", `${SHARE}/uploads`, owner.key, { body: form as never })
      expect(uploaded.status).toBe(201)
      const { slug } = (await uploaded.json()) as { slug: string }
      // As `curl -X POST` sends it: no body, no content type.
      const queued = await raw(
        app.origin,
        "POST",
        `${SHARE}/resources/${slug}/file/optimize-original`,
        bearer(owner.key)
      )
      expect(queued.status).toBe(202)
      expect(queued.json).toMatchObject({ job_id: expect.any(String), status: expect.any(String) })
      // A route with required fields answers as it does to `{}`, not with an unreadable body.
      const create = await raw(app.origin, "POST", `${SHARE}/resources`, bearer(owner.key))
      expect(create.status).toBe(400)
      const empty = await call("POST", `${SHARE}/resources`, owner.key, {
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      expect(create.json).toEqual(await empty.json())
      expect(create.json).toMatchObject({ error_code: "validation_failed" })
      const forms = await raw(app.origin, "POST", `${FORMS}/forms`, bearer(formsKey.key))
      expect(forms.status).toBe(400)
      expect(forms.json).toMatchObject({
        ok: false,
        error: { code: "invalid", details: { issues: [expect.objectContaining({ path: ["title"] })] } }
      })
    })

    it("refuses a JSON body that is not UTF-8 instead of storing U+FFFD", async () => {
      const sharing = await call("POST", `${SHARE}/resources`, owner.key, {
        headers: { "content-type": "application/json" },
        body: notUtf8
      })
      expect(sharing.status).toBe(400)
      expect(await sharing.json()).toMatchObject({ error_code: "request_body_invalid" })
      expect((await call("GET", `${SHARE}/resources/bad-bytes`, owner.key)).status).toBe(404)
      const forms = await call("POST", `${FORMS}/forms`, formsKey.key, {
        headers: { "content-type": "application/json" },
        body: Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])
      })
      expect(forms.status).toBe(400)
      expect(await forms.json()).toMatchObject({ ok: false, error: { code: "invalid" } })
      const listed = (await (await call("GET", `${FORMS}/forms`, formsKey.key)).json()) as {
        data: { items: ReadonlyArray<unknown> }
      }
      expect(listed.data.items).toHaveLength(0)
    })

    it("answers a malformed id in a sharing path 404 not_found, with no field", async () => {
      const made = await call("POST", `${SHARE}/resources`, owner.key, {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "markdown", body_markdown: "# Hi" })
      })
      const { slug } = (await made.json()) as { slug: string }
      const collection = await call("POST", `${SHARE}/resources`, owner.key, {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "collection" })
      })
      const { slug: collectionSlug } = (await collection.json()) as { slug: string }
      for (const [method, path] of [
        ["GET", `/resources/${slug}/markdown/versions/not-a-uuid`],
        ["POST", `/resources/${slug}/markdown/versions/not-a-uuid/restore`],
        ["GET", "/upload-requests/not-a-uuid"],
        ["GET", "/upload-requests/not-a-uuid/submissions/also-not"],
        ["DELETE", `/resources/${collectionSlug}/collection/items/not-a-uuid`],
        ["GET", "/jobs/not-a-uuid"]
      ] as const) {
        const answer = await call(method, `${SHARE}${path}`, owner.key)
        expect(answer.status, `${method} ${path}`).toBe(404)
        expect(await answer.json(), `${method} ${path}`).toEqual({
          error: expect.any(String),
          error_code: "not_found"
        })
      }
    })
  })

  describe(`budget headers tell the truth [${db}]`, () => {
    it("report the budget closest to running out on every answer, 401 and 429 included, and the document counts", async () => {
      const storage = await openStorage(db)
      const limited = await startApp({
        storage: storage.storage,
        config: { sharingRequestsPerKey: 4, sharingRequestsPerIp: 5 }
      })
      try {
        const one = await newWorkspaceKey(limited, ["read"], "sharing")
        const two = await newWorkspaceKey(limited, ["read"], "sharing")
        const me = (key?: string) =>
          fetch(`${limited.origin}${SHARE}/me`, { headers: key === undefined ? {} : bearer(key) })
        const budget = (r: Response) => [
          r.headers.get("x-ratelimit-limit"),
          r.headers.get("x-ratelimit-remaining")
        ]
        await freshRateWindow()
        // Key one: its own budget (3 then 2 left of 4) is tighter than the address's (4 then 3 of 5).
        expect(budget(await me(one.key))).toEqual(["4", "3"])
        expect(budget(await me(one.key))).toEqual(["4", "2"])
        // Key two, same address: two left of the address's five is tighter than its own three.
        const second = await me(two.key)
        expect(second.status).toBe(200)
        expect(budget(second)).toEqual(["5", "2"])
        // The OpenAPI document needs no key but counts toward the address.
        const doc = await fetch(`${limited.origin}${SHARE}/openapi.yaml`)
        expect(doc.status).toBe(200)
        expect(budget(doc)).toEqual(["5", "1"])
        // A request without a key spends an attempt and says so.
        const anonymous = await me()
        expect(anonymous.status).toBe(401)
        expect(budget(anonymous)).toEqual(["5", "0"])
        expect(anonymous.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/)
        // The address is spent: the 429 carries the address's headers and Retry-After.
        const over = await me(two.key)
        expect(over.status).toBe(429)
        expect(await over.json()).toMatchObject({ error_code: "rate_limited" })
        expect(budget(over)).toEqual(["5", "0"])
        expect(over.headers.get("retry-after")).toMatch(/^\d+$/)
        const overAnonymous = await me()
        expect(overAnonymous.status).toBe(429)
        expect(budget(overAnonymous)).toEqual(["5", "0"])
        // ...and so is the document, from the same address.
        const docOver = await fetch(`${limited.origin}${SHARE}/openapi.yaml`)
        expect(docOver.status).toBe(429)
        expect(budget(docOver)).toEqual(["5", "0"])
        expect(docOver.headers.get("retry-after")).toMatch(/^\d+$/)
      } finally {
        await limited.close()
        await storage.drop()
      }
    })
  })
}

describe("the scope tables", () => {
  it("name the scopes of every keyed endpoint of both APIs, so the guard checks each before its body", () => {
    const sharing = keyedEndpointsOf(SharingApi, (group, endpoint) =>
      sharingOperationScopes(`${group}.${endpoint}`)
    )
    const forms = keyedEndpointsOf(FormsApi, (group, endpoint) => {
      const operation = FORMS_ENDPOINT_OPERATIONS[`${group}.${endpoint}`]
      return operation === undefined ? undefined : OPERATION_SCOPES[operation]
    })
    expect(sharing.length).toBeGreaterThan(60)
    expect(forms.length).toBeGreaterThan(20)
    for (const e of [...sharing, ...forms]) expect(e.scopes, `${e.group}.${e.name}`).toBeDefined()
    // The spec's rule for sharing: reads and the two simulations need read, deletes need delete.
    for (const e of sharing) {
      const expected =
        e.method === "GET" || e.name.startsWith("simulate")
          ? ["read"]
          : e.method === "DELETE" || e.name === "revoke" || e.name.startsWith("remove")
            ? ["delete"]
            : ["write"]
      expect(e.scopes, `${e.group}.${e.name}`).toEqual(expected)
    }
  })
})
