// The served OpenAPI document describes what the server sends: every schema in it compiles with Ajv
// (as validating proxies such as Prism compile them), real error bodies validate against the schema
// advertised for their status, the public /f routes list only statuses they can send, the error
// table names every code, and the document lists itself and the duplicate route's optional body.
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import type { Json, OpenApiDocument as Document } from "../support/openapi.js"

let app: RunningApp
let doc: Document
let key: string

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 10_000 } })
  doc = (await (await fetch(`${app.origin}/forms/api/v1/openapi.json`)).json()) as Document
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
})
afterAll(async () => {
  await app.close()
})

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op }))
  )

/** Compiles one schema of the document, its `#/components/...` references resolved, with a fresh Ajv. */
const compile = (schema: Json) => makeAjv2020().compile({ ...schema, components: doc.components })

/** Every request and response body schema of every operation, named by where it sits. */
const bodySchemas = () =>
  operations().flatMap(({ path, method, op }) => [
    ...Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({
      where: `${method} ${path} request ${type}`,
      schema: media.schema
    })),
    ...Object.entries(op.responses).flatMap(([status, response]) =>
      Object.entries(response.content ?? {}).map(([type, media]) => ({
        where: `${method} ${path} ${status} ${type}`,
        schema: media.schema
      }))
    )
  ])

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as Json }
}

/** Asserts that `body` validates against what the document advertises for (operation, status). */
const expectDocumented = (operationId: string, status: number, body: unknown) => {
  const found = operations().find((o) => o.op.operationId === operationId)
  expect(found, operationId).toBeDefined()
  const schema = found?.op.responses[String(status)]?.content?.["application/json"]?.schema
  expect(schema, `${operationId} ${status}`).toBeDefined()
  const validate = compile(schema ?? {})
  if (!validate(body)) throw new Error(`${operationId} ${status}: ${JSON.stringify(validate.errors)}`)
}

describe("the served OpenAPI document", () => {
  it("has no schema a validator refuses: every request and response body schema compiles with Ajv", () => {
    const schemas = bodySchemas()
    expect(schemas.length).toBeGreaterThan(200)
    // Identical schemas (the shared error references) are compiled once.
    const distinct = [...new Map(schemas.map((s) => [JSON.stringify(s.schema), s])).values()]
    const refused = distinct.flatMap(({ where, schema }) => {
      try {
        compile(schema)
        return []
      } catch (e) {
        return [`${where}: ${(e as Error).message}`]
      }
    })
    expect(refused).toEqual([])
    // Every component schema compiles on its own too.
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => compile(schema), name).not.toThrow()
    }
    expect(JSON.stringify(doc)).not.toContain('"$id"')
  })

  it("advertises for 400 the envelope the server sends, never HttpApiDecodeError", async () => {
    expect(JSON.stringify(doc)).not.toContain("HttpApiDecodeError")
    const bad = await call("POST", "/forms", { title: 5 })
    expect(bad.status).toBe(400)
    expectDocumented("forms.create", 400, bad.body)
    const badParam = await call("GET", "/forms/not-a-uuid")
    expect(badParam.status).toBe(400)
    expectDocumented("forms.get", 400, badParam.body)
    for (const { op } of operations()) {
      const schema = op.responses["400"]?.content?.["application/json"]?.schema
      if (schema !== undefined)
        expect(schema, op.operationId).toEqual({ $ref: "#/components/schemas/InvalidError" })
    }
  })

  it("documents 409 as conflict where a conflict is sent and unsupported_kind where a kind is refused", async () => {
    const created = await call("POST", "/forms", { title: "Doc check", kind: "interview" })
    const form = created.body.data as { id: string; draftRevision: number }
    const stale = await call("PATCH", `/forms/${form.id}`, {
      definition: { schemaVersion: 2 },
      expectedDraftRevision: form.draftRevision + 5
    })
    expect(stale.status).toBe(409)
    expectDocumented("forms.patchDefinition", 409, stale.body)
    const wrongKind = await call("GET", `/forms/${form.id}/responses/summary`)
    expect([wrongKind.status, (wrongKind.body.error as Json).code]).toEqual([409, "unsupported_kind"])
    expectDocumented("forms.responseSummary", 409, wrongKind.body)
    const byId = Object.fromEntries(operations().map((o) => [o.op.operationId, o.op]))
    expect(byId["forms.patchDefinition"]?.responses["409"]?.description).toMatch(/conflict/i)
    // A route that never answers 409 does not list it; meta routes never do.
    expect(byId["meta.capabilities"]?.responses["409"]).toBeUndefined()
    expect(byId["forms.get"]?.responses["409"]).toBeUndefined()
    // Conflict-only and kind-only routes advertise the one code they send.
    const codesOf = (id: string) =>
      JSON.stringify(byId[id]?.responses["409"]?.content?.["application/json"]?.schema ?? {})
    expect(codesOf("forms.patchDefinition")).toContain("ConflictError")
    expect(codesOf("forms.patchDefinition")).not.toContain("UnsupportedKindError")
    expect(codesOf("forms.responseSummary")).toContain("UnsupportedKindError")
    expect(codesOf("forms.responseSummary")).not.toContain("ConflictError")
  })

  it("lists no 401 on the public /f routes, and keeps the 403 a wrong response token gets", async () => {
    const publicOps = operations().filter((o) => o.path.startsWith("/f/"))
    expect(publicOps.length).toBe(12)
    for (const { op } of publicOps) {
      expect(op.responses["401"], op.operationId).toBeUndefined()
      expect(op.security ?? [], op.operationId).toEqual([])
    }
    const created = await call("POST", "/forms", {
      title: "Public",
      definition: { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }] }
    })
    const form = created.body.data as { id: string; slug: string }
    await call("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const started = await fetch(`${app.origin}/f/${form.slug}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}"
    })
    const responseId = ((await started.json()) as { data: { responseId: string } }).data.responseId
    const wrongToken = await fetch(`${app.origin}/f/${form.slug}/responses/${responseId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: "not-the-token", answers: {} })
    })
    expect(wrongToken.status).toBe(403)
    expectDocumented("respondent.save", 403, await wrongToken.json())
  })

  it("names every error code with its status in the description's error table, `closed` 410 included", () => {
    const description = doc.info.description ?? ""
    for (const [code, status] of [
      ["unauthorized", 401],
      ["forbidden", 403],
      ["not_found", 404],
      ["invalid", 400],
      ["conflict", 409],
      ["unsupported_kind", 409],
      ["unprocessable", 422],
      ["payload_too_large", 413],
      ["rate_limited", 429],
      ["internal", 500],
      ["closed", 410]
    ] as const) {
      expect(description).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`))
    }
  })

  it("lists GET /openapi.json itself, unauthenticated", async () => {
    const op = doc.paths["/forms/api/v1/openapi.json"]?.get
    expect(op).toBeDefined()
    expect(op?.security).toEqual([])
    expect(Object.keys(op?.responses ?? {})).toContain("200")
  })

  it("documents the duplicate route's optional empty body and accepts both no body and {}", async () => {
    const op = doc.paths["/forms/api/v1/forms/{id}/duplicate"]?.post
    expect(op?.requestBody?.required).toBe(false)
    const schema = op?.requestBody?.content["application/json"]?.schema ?? {}
    const validate = compile(schema)
    expect(validate({})).toBe(true)
    expect(validate({ title: "x" })).toBe(false)
    const created = await call("POST", "/forms", { title: "Original" })
    const id = (created.body.data as { id: string }).id
    const withoutBody = await call("POST", `/forms/${id}/duplicate`)
    const withEmpty = await call("POST", `/forms/${id}/duplicate`, {})
    expect([withoutBody.status, withEmpty.status]).toEqual([201, 201])
    expectDocumented("forms.duplicate", 201, withEmpty.body)
    const withKey = await call("POST", `/forms/${id}/duplicate`, { title: "x" })
    expect(withKey.status).toBe(400)
    expectDocumented("forms.duplicate", 400, withKey.body)
  })

  it("documents the resume route's optional empty body and the 404 it answers without a cookie", async () => {
    const op = doc.paths["/f/{slug}/responses/resume"]?.post
    expect(op?.requestBody?.required).toBe(false)
    expect(op?.requestBody?.content["application/json"]?.schema).toEqual(
      doc.paths["/forms/api/v1/forms/{id}/duplicate"]?.post?.requestBody?.content["application/json"]?.schema
    )
    expect(op?.security ?? []).toEqual([])
    const created = await call("POST", "/forms", {
      title: "Resume",
      definition: { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }] }
    })
    const form = created.body.data as { id: string; slug: string }
    await call("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const started = await fetch(`${app.origin}/f/${form.slug}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}"
    })
    const cookie = (started.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    const resume = (headers: Record<string, string>) =>
      fetch(`${app.origin}/f/${form.slug}/responses/resume`, { method: "POST", headers })
    const resumed = await resume({ cookie })
    expect(resumed.status).toBe(200)
    expectDocumented("respondent.resume", 200, await resumed.json())
    const nothing = await resume({})
    expect(nothing.status).toBe(404)
    expectDocumented("respondent.resume", 404, await nothing.json())
  })
})
