// Clients generated from the served OpenAPI documents work as generated: the committed client types
// are what openapi-typescript generates from each document today, and a client built from them
// (openapi-fetch), with its base URL taken from the document's `servers` as any generator takes it,
// drives a flow against the running app. (The forms document also passes Redocly's lint here; the
// sharing one in sharing-openapi-lint.test.ts.)
// Regenerate the committed types: UPDATE_GENERATED=1 npm test -- test/http/openapi-client.test.ts
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { FORMS_SCOPES, SHARING_SCOPES } from "@folio/domain"
import createClient from "openapi-fetch"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { redoclyLint, repositoryRoot } from "../support/openapi.js"
import { SHARING_FILE_TARGETS, startSharingApp } from "../support/sharing-app.js"
import type { paths as FormsPaths } from "./generated/forms-api.js"
import type { paths as SharingPaths } from "./generated/sharing-api.js"

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), "folio-openapi-"))
let app: RunningApp

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 10_000 } })
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Fetches a served document into a file of `name`; answers the file and the document's text. */
const served = async (path: string, name: string) => {
  const text = await (await fetch(`${app.origin}${path}`)).text()
  const file = join(dir, name)
  writeFileSync(file, text)
  return { file, text }
}

/** The document's base URL, as a client generator reads it: its first server, against the origin. */
const baseUrlOf = (document: { servers?: ReadonlyArray<{ url: string }> }, origin: string) =>
  new URL(document.servers?.[0]?.url ?? "/", origin).href

/**
 * Runs openapi-typescript's CLI on `documentFile` and compares its output with the committed file
 * `generated` (or, with UPDATE_GENERATED=1, writes it there).
 */
const expectCommittedTypes = async (documentFile: string, generated: string) => {
  const out = join(dir, generated)
  await run(
    process.execPath,
    [`${repositoryRoot}node_modules/openapi-typescript/bin/cli.js`, documentFile, "-o", out],
    { timeout: 60_000 }
  )
  const committed = `${repositoryRoot}test/http/generated/${generated}`
  if (process.env.UPDATE_GENERATED === "1") writeFileSync(committed, readFileSync(out))
  expect(readFileSync(out, "utf8"), `${generated} is stale: regenerate (see this file's header)`).toBe(
    readFileSync(committed, "utf8")
  )
}

/**
 * A multipart body of a generated type as FormData: the parts named in `fileParts` as files (their
 * generated type is a string, `format: binary`: here, the file's text), the others as text parts.
 */
const multipart =
  (fileParts: ReadonlyArray<string>) =>
  (body: Record<string, unknown>): FormData => {
    const form = new FormData()
    for (const [name, value] of Object.entries(body)) {
      if (value === undefined) continue
      if (fileParts.includes(name))
        form.append(name, new File([String(value)], `${name}.html`, { type: "text/html" }))
      else form.append(name, String(value))
    }
    return form
  }

describe("the forms OpenAPI document", () => {
  let document: { file: string; text: string }
  beforeAll(async () => {
    document = await served("/forms/api/v1/openapi.json", "forms-openapi.json")
  })

  it("passes redocly lint with the recommended rules, without a warning", async () => {
    const output = await redoclyLint(document.file, dir)
    expect(output).toMatch(/valid|validated/i)
    // Clean means clean: a warning (such as a redirect-only route without a 2XX) fails the test.
    // (Matched on the problem lines, not on Redocly's Node-version banner.)
    expect(output).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s|You have \d+ warning/m)
  }, 120_000)

  it("generates exactly the committed client types", async () => {
    await expectCommittedTypes(document.file, "forms-api.ts")
  }, 60_000)

  it("gives a client that drives the authoring flow from the document's server URL", async () => {
    const { key } = await newWorkspaceKey(app, [...FORMS_SCOPES])
    const client = createClient<FormsPaths>({
      baseUrl: baseUrlOf(JSON.parse(document.text), app.origin),
      headers: { authorization: `Bearer ${key}` }
    })

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

describe("the sharing OpenAPI document", () => {
  let document: { file: string; text: string }
  beforeAll(async () => {
    document = await served("/share/api/v1/openapi.yaml", "sharing-openapi.yaml")
  })

  it("generates exactly the committed client types", async () => {
    await expectCommittedTypes(document.file, "sharing-api.ts")
  }, 60_000)

  describe.each(SHARING_FILE_TARGETS)("a client generated from it [$db, $blob]", (target) => {
    let sharing: Awaited<ReturnType<typeof startSharingApp>>
    beforeAll(async () => {
      sharing = await startSharingApp(target)
    })
    afterAll(async () => {
      await sharing?.close()
    })

    it("reads the account, creates a link, uploads a file and deploys a site of separate files", async () => {
      const { key } = await newWorkspaceKey(sharing.app, [...SHARING_SCOPES], "sharing")
      const client = createClient<SharingPaths>({
        baseUrl: baseUrlOf(parse(document.text), sharing.app.origin),
        headers: { authorization: `Bearer ${key}` }
      })

      const me = await client.GET("/me")
      expect(me.response.status).toBe(200)
      expect([...(me.data?.key.scopes ?? [])].sort()).toEqual(["delete", "read", "write"])

      const link = await client.POST("/resources", {
        body: { type: "link", slug: "typed-link", target_url: "https://example.com/typed" }
      })
      expect(link.response.status).toBe(201)
      expect(link.data).toMatchObject({ type: "link", slug: "typed-link" })

      const svg = await client.GET("/resources/{slug}/qr", {
        params: { path: { slug: "typed-link" }, query: { format: "svg" } },
        parseAs: "text"
      })
      expect(svg.response.headers.get("content-type")).toMatch(/^image\/svg\+xml/)

      const uploaded = await client.POST("/uploads", {
        body: { file: "<p>typed upload</p>", title: "Typed upload", slug: "typed-upload" },
        bodySerializer: multipart(["file"])
      })
      expect(uploaded.response.status).toBe(201)
      expect(uploaded.data).toMatchObject({ type: "file", slug: "typed-upload", title: "Typed upload" })

      const site = await client.POST("/artifacts", {
        body: {
          metadata: JSON.stringify({
            slug: "typed-site",
            files: [
              { part: "home", path: "index.html" },
              { part: "about", path: "about/index.html" }
            ]
          }),
          home: "<h1>Home</h1>",
          about: "<h1>About</h1>"
        },
        bodySerializer: multipart(["home", "about"])
      })
      expect(site.response.status).toBe(201)
      const files = await client.GET("/resources/{slug}/artifact/files", {
        params: { path: { slug: "typed-site" } }
      })
      expect(files.data?.items.map((f) => f.path).sort()).toEqual(["about/index.html", "index.html"])
    })
  })
})
