// The sharing API's served OpenAPI YAML passes Redocly's recommended lint without a warning, as the
// forms document does.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"

const run = promisify(execFile)
const root = fileURLToPath(new URL("../..", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "folio-sharing-openapi-"))
let app: RunningApp
let documentFile = ""

beforeAll(async () => {
  app = await startApp()
  documentFile = join(dir, "openapi.yaml")
  writeFileSync(documentFile, await (await fetch(`${app.origin}/share/api/v1/openapi.yaml`)).text())
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

it("passes redocly lint with the recommended rules, without a warning", async () => {
  const { stdout, stderr } = await run(
    process.execPath,
    [`${root}node_modules/@redocly/cli/bin/cli.js`, "lint", documentFile, "--format=stylish"],
    {
      cwd: dir,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        NO_COLOR: "1"
      },
      timeout: 120_000
    }
  ).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }))
  const out = `${stdout}${stderr}`
  expect(out).toMatch(/valid|validated/i)
  expect(out).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s|You have \d+ warning/m)
}, 120_000)
