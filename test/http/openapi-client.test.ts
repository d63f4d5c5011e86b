// Regenerate: node node_modules/openapi-typescript/bin/cli.js <served openapi.json> -o test/http/generated/forms-api.ts
// The served OpenAPI document passes Redocly's recommended lint, the committed client types are what
// openapi-typescript generates from it today, and a client built from those types (openapi-fetch)
// drives the authoring flow against the running app.
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { FORMS_SCOPES } from "@folio/domain"
import createClient from "openapi-fetch"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { redoclyLint, repositoryRoot } from "../support/openapi.js"
import { newWorkspaceKey } from "../support/keys.js"
import type { paths } from "./generated/forms-api.js"

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), "folio-openapi-"))
let app: RunningApp
let documentFile = ""

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 10_000 } })
  const document = await (await fetch(`${app.origin}/forms/api/v1/openapi.json`)).text()
  documentFile = join(dir, "openapi.json")
  writeFileSync(documentFile, document)
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("the OpenAPI document", () => {
  it("passes redocly lint with the recommended rules, without a warning", async () => {
    const output = await redoclyLint(documentFile, dir)
    expect(output).toMatch(/valid|validated/i)
    // Clean means clean: a warning (such as a redirect-only route without a 2XX) fails the test.
    // (Matched on the problem lines, not on Redocly's Node-version banner.)
    expect(output).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s|You have \d+ warning/m)
  }, 120_000)

  it("generates exactly the committed client types (regenerate with the command in this file's header if it changed)", async () => {
    const out = join(dir, "forms-api.ts")
    await run(
      process.execPath,
      [`${repositoryRoot}node_modules/openapi-typescript/bin/cli.js`, documentFile, "-o", out],
      { timeout: 60_000 }
    )
    expect(readFileSync(out, "utf8")).toBe(
      readFileSync(`${repositoryRoot}test/http/generated/forms-api.ts`, "utf8")
    )
  }, 60_000)
})

describe("a client generated from the document", () => {
  it("drives the authoring flow", async () => {
    const { key } = await newWorkspaceKey(app, [...FORMS_SCOPES])
    const client = createClient<paths>({ baseUrl: app.origin, headers: { authorization: `Bearer ${key}` } })

    const created = await client.POST("/forms/api/v1/forms", { body: { title: "Typed client" } })
    expect(created.response.status).toBe(201)
    const form = created.data?.data
    if (form === undefined) throw new Error("no form")

    const patched = await client.PATCH("/forms/api/v1/forms/{id}", {
      params: { path: { id: form.id } },
      body: {
        definition: { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "email", label: "Email" }] },
        expectedDraftRevision: form.draftRevision
      }
    })
    expect(patched.data?.data.draftRevision).toBe(2)

    const stale = await client.PATCH("/forms/api/v1/forms/{id}", {
      params: { path: { id: form.id } },
      body: { definition: { schemaVersion: 1, blocks: [] }, expectedDraftRevision: 1 }
    })
    expect(stale.response.status).toBe(409)
    expect(stale.error).toMatchObject({
      ok: false,
      error: { code: "conflict", details: { draftRevision: 2 } }
    })

    const published = await client.POST("/forms/api/v1/forms/{id}/publish", {
      params: { path: { id: form.id } },
      body: { expectedDraftRevision: 2 }
    })
    expect(published.data?.data.status).toBe("published")

    const versions = await client.GET("/forms/api/v1/forms/{id}/versions", {
      params: { path: { id: form.id }, query: { limit: "10" } }
    })
    expect(versions.data?.data.items.map((v) => v.version)).toEqual([1])

    const listed = await client.GET("/forms/api/v1/forms", { params: { query: { search: "Typed" } } })
    expect(listed.data?.data.items.map((f) => f.id)).toContain(form.id)

    const removed = await client.DELETE("/forms/api/v1/forms/{id}", { params: { path: { id: form.id } } })
    expect(removed.response.status).toBe(204)
  })
})
