// Every bad input is a 4xx with the envelope, never a 500, on a real PostgreSQL-family store (NUL
// bytes and lone surrogates only fail there): malformed bodies, NUL and unpaired surrogates anywhere,
// tampered cursors, chunked bodies over the limit, an overlong request line, unknown keys, and
// issues that say what was expected.
import { request as httpRequest } from "node:http"
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openStorage, realStorageName } from "../support/storage.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"

type Json = Record<string, unknown>
interface Answer {
  readonly status: number
  readonly body: Json & { data: Json & { items: Array<Json> }; error: Json & { details: Json } }
}

const definition = { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Name" }] }
const cursorOf = (position: unknown) => Buffer.from(JSON.stringify(position)).toString("base64url")

let app: RunningApp
let key: string
let cleanup: () => Promise<void> = async () => {}

/** Sends a raw body (a string, not JSON-encoded) and reads the answer as JSON. */
const send = async (
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {}
): Promise<Answer> => {
  const response = await fetch(`${app.origin}${path}`, {
    method,
    headers: { ...bearer(key), "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000)
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) }
}
const api = (method: string, path: string, body?: unknown) =>
  send(method, `/forms/api/v1${path}`, body === undefined ? undefined : JSON.stringify(body))

const formCount = async () => {
  let count = 0
  let cursor: string | null = null
  do {
    const page: Answer = await api("GET", `/forms?limit=100${cursor === null ? "" : `&cursor=${cursor}`}`)
    count += page.body.data.items.length
    cursor = page.body.data.nextCursor as string | null
  } while (cursor !== null)
  return count
}

const publish = async () => {
  const form = (await api("POST", "/forms", { title: "Bad input" })).body.data
  await api("PATCH", `/forms/${form.id}`, { definition, expectedDraftRevision: 1 })
  const published = await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 2 })
  expect(published.status).toBe(200)
  return published.body.data as unknown as { id: string; slug: string; settingsSignature: string }
}

const expectInvalid = (answer: Answer, issues?: ReadonlyArray<Json>) => {
  expect(answer.status).toBe(400)
  expect(answer.body).toMatchObject({ ok: false, error: { code: "invalid" } })
  if (issues !== undefined) expect(answer.body.error.details.issues).toEqual(issues)
}

beforeAll(async () => {
  const { storage, drop } = await openStorage(realStorageName)
  cleanup = drop
  app = await startApp({ storage, config: { rateLimitPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
}, 120_000)
afterAll(async () => {
  await app?.close()
  await cleanup()
})

describe("bad input", () => {
  it("answers malformed JSON, whitespace-only and broken multipart bodies 400 invalid on every JSON route", async () => {
    const form = await publish()
    const started = (await send("POST", `/f/${form.slug}/responses`, "{}")).body.data
    const routes: ReadonlyArray<readonly [string, string]> = [
      ["POST", "/forms/api/v1/forms"],
      ["PATCH", `/forms/api/v1/forms/${form.id}`],
      ["PATCH", `/forms/api/v1/forms/${form.id}/settings`],
      ["PATCH", `/forms/api/v1/forms/${form.id}/slug`],
      ["POST", `/forms/api/v1/forms/${form.id}/publish`],
      ["POST", `/forms/api/v1/forms/${form.id}/unpublish`],
      ["POST", `/f/${form.slug}/responses`],
      ["PATCH", `/f/${form.slug}/responses/${started.responseId}`],
      ["POST", `/f/${form.slug}/responses/${started.responseId}/complete`],
      ["POST", `/f/${form.slug}/responses/resume`]
    ]
    const before = await formCount()
    for (const [method, path] of routes) {
      for (const body of ["{", "not json", "[1,2", "   ", "\n\t"])
        expectInvalid(await send(method, path, body))
      expectInvalid(
        await send(method, path, "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nbroken", {
          "content-type": "multipart/form-data; boundary=x"
        })
      )
    }
    expect(await formCount()).toBe(before)
  })

  it("rejects NUL bytes and unpaired surrogates anywhere, naming the path, before anything is stored", async () => {
    const form = await publish()
    const before = await formCount()
    expectInvalid(await send("POST", "/forms/api/v1/forms", '{"title":"a\\u0000b"}'), [
      { path: ["title"], rule: "nulCharacter" }
    ])
    expectInvalid(await send("POST", "/forms/api/v1/forms", '{"title":"a\\ud800b"}'), [
      { path: ["title"], rule: "unpairedSurrogate" }
    ])
    expectInvalid(
      await send("POST", "/forms/api/v1/forms", '{"title":"ok","settings":{"locale":"\\udfff"}}'),
      [{ path: ["settings", "locale"], rule: "unpairedSurrogate" }]
    )
    expect(await formCount()).toBe(before)
    const label = JSON.stringify({
      definition: { ...definition, blocks: [{ ...definition.blocks[0], label: "x\u0000" }] },
      expectedDraftRevision: 3
    })
    expectInvalid(await send("PATCH", `/forms/api/v1/forms/${form.id}`, label), [
      { path: ["definition", "blocks", 0, "label"], rule: "nulCharacter" }
    ])
    expectInvalid(await api("GET", "/forms?search=a%00b"), [{ path: ["search"], rule: "nulCharacter" }])
    expectInvalid(await send("GET", "/f/a%00b/form"))
    expectInvalid(await send("GET", `/f/${form.slug}%00/form`))

    const params = await send("POST", `/f/${form.slug}/responses`, '{"params":{"src":"\\u0000"}}')
    expectInvalid(params, [{ path: ["params", "src"], rule: "nulCharacter" }])
    const started = (await send("POST", `/f/${form.slug}/responses`, "{}")).body.data
    const answers = await send(
      "PATCH",
      `/f/${form.slug}/responses/${started.responseId}`,
      `{"token":"${started.token}","answers":{"${blk(1)}":"\\ud800"}}`
    )
    expectInvalid(answers, [{ path: ["answers", blk(1)], rule: "unpairedSurrogate" }])
    const stored = await api("GET", `/forms/${form.id}/responses?status=partial&projection=full`)
    expect(stored.body.data.items).toHaveLength(1)
    expect(stored.body.data.items[0]).toMatchObject({ answers: {} })

    // MCP tool arguments go through the same check.
    const mcp = await send(
      "POST",
      "/forms/mcp",
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"forms_create","arguments":{"title":"\\ud800\\u0000"}}}`,
      { accept: "application/json, text/event-stream" }
    )
    expect(mcp.status).toBe(200)
    const result = (mcp.body as unknown as { result: { isError: boolean; structuredContent: Json } }).result
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toEqual({
      error: {
        code: "invalid",
        message: expect.any(String),
        details: {
          issues: [
            { path: ["title"], rule: "nulCharacter" },
            { path: ["title"], rule: "unpairedSurrogate" }
          ]
        }
      }
    })
    expect(await formCount()).toBe(before)
  })

  it("answers tampered cursors 400 invalid (cursor) on every listing", async () => {
    const form = await publish()
    const cursors = [
      cursorOf(["2020-13-45T99:99:99.999Z", form.id]),
      cursorOf(["2020-02-30T00:00:00.000Z", form.id]),
      cursorOf(["0000-01-01T00:00:00.000Z", form.id]),
      cursorOf([2147483648]),
      cursorOf([1e300]),
      cursorOf([-2147483649])
    ]
    for (const list of ["/forms", `/forms/${form.id}/versions`, `/forms/${form.id}/responses`]) {
      for (const cursor of cursors)
        expectInvalid(await api("GET", `${list}?cursor=${cursor}`), [{ path: ["cursor"], rule: "cursor" }])
    }
  })

  it("answers a chunked body over the limit 413 with the envelope, without resetting the connection", async () => {
    const form = await publish()
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const post = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${app.origin}${path}`, {
          method: "POST",
          headers: { ...bearer(key), "content-type": "application/json" }
        })
        req.on("response", (res) => {
          let body = ""
          res.setEncoding("utf8")
          res.on("data", (d) => {
            body += d
          })
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
          res.on("error", reject)
        })
        req.on("error", reject)
        // 2 MiB in 64 KiB chunks, no Content-Length: the server only learns the size while reading.
        let sent = 0
        const pump = () => {
          while (sent < 32) {
            sent += 1
            if (!req.write(chunk)) return void req.once("drain", pump)
          }
          req.end()
        }
        pump()
      })
    for (const path of ["/forms/api/v1/forms", `/f/${form.slug}/responses`]) {
      const answer = await post(path)
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: "payload_too_large" } })
    }
    // A ReadableStream body through fetch (duplex: "half") meets the same answer.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 32; i++) controller.enqueue(new Uint8Array(chunk))
        controller.close()
      }
    })
    const fetched = await fetch(`${app.origin}/forms/api/v1/forms`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: stream,
      duplex: "half"
    } as RequestInit)
    expect(fetched.status).toBe(413)
    expect(await fetched.json()).toMatchObject({ ok: false, error: { code: "payload_too_large" } })
  })

  it("answers an overlong request line with the envelope instead of a bare 431", async () => {
    const answer = await fetch(`${app.origin}/forms/api/v1/forms?x=${"a".repeat(100_000)}`, {
      headers: bearer(key)
    })
    expect(answer.status).toBe(431)
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await answer.json()).toMatchObject({ ok: false, error: { code: "invalid" } })
  })

  it("rejects unknown top-level keys naming them, on REST and the public routes", async () => {
    const form = await publish()
    const before = await formCount()
    expectInvalid(await api("POST", "/forms", { title: "x", tittle: "y" }), [
      { path: ["tittle"], rule: "unknownKey" }
    ])
    expect(await formCount()).toBe(before)
    const patched = await api("PATCH", `/forms/${form.id}`, { title: "renamed", expectedDraftRevision: 3 })
    expectInvalid(patched)
    expect(patched.body.error.details.issues).toContainEqual({ path: ["title"], rule: "unknownKey" })
    expectInvalid(await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 3, force: true }), [
      { path: ["force"], rule: "unknownKey" }
    ])
    expectInvalid(await send("POST", `/f/${form.slug}/responses`, '{"parms":{}}'), [
      { path: ["parms"], rule: "unknownKey" }
    ])
  })

  it("says what was expected, once per problem, with the domain's rule names", async () => {
    const form = await publish()
    expectInvalid(await api("GET", "/forms?limit=500"), [
      { path: ["limit"], rule: "range", expected: "an integer from 1 to 100" }
    ])
    expectInvalid(await api("GET", "/forms?limit=1.5"), [
      { path: ["limit"], rule: "integer", expected: "an integer from 1 to 100" }
    ])
    expectInvalid(await api("GET", `/forms/${form.id}/responses.csv?values=xx`), [
      { path: ["values"], rule: "enum", expected: 'one of "label", "code"', allowed: ["label", "code"] }
    ])
    expectInvalid(await api("GET", `/forms?search=${"s".repeat(201)}`), [
      { path: ["search"], rule: "maxLength", expected: "a string of at most 200 characters" }
    ])
    // Every issue of a body is reported, not only the first.
    const both = await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 0, extra: 1 })
    expectInvalid(both)
    expect(both.body.error.details.issues).toEqual(
      expect.arrayContaining([
        {
          path: ["expectedDraftRevision"],
          rule: "minimum",
          expected: "an integer greater than or equal to 1"
        },
        { path: ["extra"], rule: "unknownKey" }
      ])
    )
    // The same rule names as the domain's own decoders (maxLength, not "refinement").
    expectInvalid(await api("POST", "/forms", { title: "t".repeat(201) }), [
      { path: ["title"], rule: "maxLength", expected: "a string of 1 to 200 characters" }
    ])
  })
})
