// The sharing API's served OpenAPI document passes Redocly's recommended lint without a warning,
// names every resource route relative to its server URL, and says what the lint cannot check: the
// artifact bodies of both modes (metadata described by the domain's schemas, file parts under names
// the client chooses), both QR formats, the budget headers and this document's own route. (That
// real answers match it is checked on every API answer of every suite: support/api-responses.ts.)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { type Json, type OpenApiDocument, redoclyLint } from "../support/openapi.js"

const dir = mkdtempSync(join(tmpdir(), "folio-sharing-openapi-"))
let app: RunningApp
let document = ""
let documentFile = ""
let doc: OpenApiDocument & { servers: ReadonlyArray<{ url: string }> }

beforeAll(async () => {
  app = await startApp()
  document = await (await fetch(`${app.origin}/share/api/v1/openapi.yaml`)).text()
  documentFile = join(dir, "openapi.yaml")
  writeFileSync(documentFile, document)
  doc = parse(document)
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

type Response = OpenApiDocument["paths"][string][string]["responses"][string] & {
  headers?: Record<string, { required?: boolean }>
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op }))
  )

/** Whether `value` is a valid request body of `path`'s POST, by its multipart schema. */
const validBody = (path: string, value: unknown) => {
  const schema = doc.paths[path]?.post?.requestBody?.content["multipart/form-data"]?.schema ?? {}
  return makeAjv2020().compile({ ...schema, components: doc.components })(value)
}

describe("the sharing OpenAPI document", () => {
  it("lists the resource routes relative to its server URL", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/share/api/v1" })])
    const paths = Object.keys(doc.paths)
    for (const path of [
      "/openapi.yaml",
      "/me",
      "/resources",
      "/resources/{slug}",
      "/resources/{slug}/qr",
      "/resources/{slug}/markdown/versions",
      "/resources/{slug}/markdown/versions/{versionId}",
      "/resources/{slug}/markdown/versions/{versionId}/restore",
      "/links/simulate",
      "/resources/{slug}/link/simulate"
    ])
      expect(paths).toContain(path)
    expect(paths.filter((p) => p.startsWith("/share/"))).toEqual([])
  })

  it("describes both artifact modes, the metadata by the domain's ArtifactMetadata and DeploymentMetadata", () => {
    for (const [path, component] of [
      ["/artifacts", "ArtifactMetadata"],
      ["/resources/{slug}/artifact/deployments", "DeploymentMetadata"]
    ] as const) {
      const schema = doc.paths[path]?.post?.requestBody?.content["multipart/form-data"]?.schema as Json
      expect((schema.properties as Json).metadata).toMatchObject({
        type: "string",
        contentMediaType: "application/json",
        contentSchema: { $ref: `#/components/schemas/${component}` }
      })
      expect(doc.components.schemas[component]?.properties).toHaveProperty("files")
      expect(validBody(path, { metadata: "{}", archive: "zip bytes" })).toBe(true)
      // Separate files: one part per metadata.files entry, under the part name the client chose.
      expect(validBody(path, { metadata: "{}", home: "<h1>", "about-page": "<h2>" })).toBe(true)
      expect(validBody(path, { home: "<h1>" })).toBe(false)
    }
    expect(doc.components.schemas.DeploymentMetadata?.properties).toHaveProperty("delete_paths")
  })

  it("declares both QR formats", () => {
    expect(
      Object.keys(doc.paths["/resources/{slug}/qr"]?.get?.responses["200"]?.content ?? {}).sort()
    ).toEqual(["image/png", "image/svg+xml"])
  })

  it("declares the budget headers on every keyed answer, and Retry-After on every 429", () => {
    const keyed = operations().filter(({ op }) => (op.security ?? []).length > 0)
    expect(keyed.length).toBeGreaterThan(50)
    for (const { path, method, op } of keyed) {
      for (const [status, response] of Object.entries(op.responses) as Array<[string, Response]>) {
        // Node's 431 is answered before any key is read: it reports no budget.
        if (status === "431") continue
        expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toEqual(
          expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"])
        )
      }
    }
    for (const { path, method, op } of operations()) {
      const tooMany = op.responses["429"] as Response | undefined
      expect(tooMany?.headers?.["Retry-After"]?.required, `${method} ${path}`).toBe(true)
    }
  })

  it("lists itself, public", () => {
    const self = doc.paths["/openapi.yaml"]?.get
    expect(self?.security).toEqual([])
    expect(Object.keys(self?.responses["200"]?.content ?? {})).toEqual(["application/yaml"])
  })

  it("passes redocly lint with the recommended rules, without a warning", async () => {
    const output = await redoclyLint(documentFile, dir)
    expect(output).toMatch(/valid|validated/i)
    expect(output).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s|You have \d+ warning/m)
  }, 120_000)
})
