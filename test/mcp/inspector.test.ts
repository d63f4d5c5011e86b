// A second, independent client: the official MCP Inspector in CLI mode lists the tools and calls
// forms_query against the running app over Streamable HTTP with the Bearer key.
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { inspectorCli } from "../support/inspector.js"
import { newWorkspaceKey } from "../support/keys.js"

let app: RunningApp
let key: string

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
}, 60_000)
afterAll(() => app.close())

const cli = (args: ReadonlyArray<string>) => inspectorCli(`${app.origin}/forms/mcp`, key, args)

describe("the MCP Inspector CLI", () => {
  it("lists the tools and calls forms_query", async () => {
    const listed = (await cli(["--method", "tools/list"])) as { tools: Array<{ name: string }> }
    expect(listed.tools.map((t) => t.name).sort()).toEqual([
      "forms_create",
      "forms_publication",
      "forms_query",
      "forms_update",
      "responses_query"
    ])
    const called = (await cli([
      "--method",
      "tools/call",
      "--tool-name",
      "forms_query",
      "--tool-arg",
      "action=search"
    ])) as {
      structuredContent: { action: string; forms: Array<unknown> }
      isError?: boolean
    }
    expect(called.isError ?? false).toBe(false)
    expect(called.structuredContent).toMatchObject({ action: "search", forms: [] })
  }, 120_000)
})
