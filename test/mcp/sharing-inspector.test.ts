// A second, independent client against the sharing MCP endpoint: the official MCP Inspector in CLI
// mode lists the tools and reads a resource with a sharing API key, over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { inspectorCli } from "../support/inspector.js"
import { newWorkspaceKey } from "../support/keys.js"

let app: RunningApp
let key: string

beforeAll(async () => {
  app = await startApp({ config: { sharingRequestsPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")).key
}, 60_000)
afterAll(() => app.close())

const cli = (args: ReadonlyArray<string>) => inspectorCli(`${app.origin}/share/mcp`, key, args)

describe("the MCP Inspector CLI on /share/mcp", () => {
  it("lists the sharing tools and calls sharing_query with a sharing key", async () => {
    const listed = (await cli(["--method", "tools/list"])) as { tools: Array<{ name: string }> }
    const names = listed.tools.map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining([
        "sharing_query",
        "sharing_analytics",
        "sharing_create",
        "sharing_update",
        "sharing_link_simulate",
        "sharing_markdown_versions",
        "sharing_collection",
        "sharing_bio",
        "sharing_manage"
      ])
    )
    const called = (await cli([
      "--method",
      "tools/call",
      "--tool-name",
      "sharing_query",
      "--tool-arg",
      "action=list"
    ])) as { structuredContent: { action: string; items: Array<unknown> }; isError?: boolean }
    expect(called.isError ?? false).toBe(false)
    expect(called.structuredContent).toMatchObject({ action: "list", items: [] })
  }, 120_000)
})
