// The sharing API's served OpenAPI document passes Redocly's recommended lint without a warning,
// and names every resource route with its schemas (the document is generated from the same HttpApi
// the server decodes with, so a route added there appears here).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { type RunningApp, startApp } from "../support/app.js"
import { redoclyLint } from "../support/openapi.js"

const dir = mkdtempSync(join(tmpdir(), "folio-sharing-openapi-"))
let app: RunningApp
let document = ""
let documentFile = ""

beforeAll(async () => {
  app = await startApp()
  document = await (await fetch(`${app.origin}/share/api/v1/openapi.yaml`)).text()
  documentFile = join(dir, "openapi.yaml")
  writeFileSync(documentFile, document)
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("the sharing OpenAPI document", () => {
  it("lists the resource routes", () => {
    const paths = Object.keys((parse(document) as { paths: Record<string, unknown> }).paths)
    for (const path of [
      "/share/api/v1/resources",
      "/share/api/v1/resources/{slug}",
      "/share/api/v1/resources/{slug}/qr",
      "/share/api/v1/resources/{slug}/markdown/versions",
      "/share/api/v1/resources/{slug}/markdown/versions/{versionId}",
      "/share/api/v1/resources/{slug}/markdown/versions/{versionId}/restore",
      "/share/api/v1/links/simulate",
      "/share/api/v1/resources/{slug}/link/simulate"
    ])
      expect(paths).toContain(path)
  })

  it("passes redocly lint with the recommended rules, without a warning", async () => {
    const output = await redoclyLint(documentFile, dir)
    expect(output).toMatch(/valid|validated/i)
    expect(output).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s|You have \d+ warning/m)
  }, 120_000)
})
