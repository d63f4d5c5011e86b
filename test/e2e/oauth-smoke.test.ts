import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { workspaceWithOwner } from "../support/console.js"
import { authorizeCode, pkcePair, REDIRECT_URI, register, resourceOf, tokenRequest } from "./oauth-flow.js"

let app: RunningApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app?.close())

it("flow", async () => {
  const { tenant, owner } = await workspaceWithOwner(app, "Acme")
  const reg = await register(app)
  console.log(reg)
  const clientId = String(reg.body.client_id)
  const { verifier, challenge } = pkcePair()
  const code = await authorizeCode(
    owner.client,
    app,
    { clientId, challenge },
    { workspace: tenant.id, scopes: ["read", "write"] }
  )
  const token = await tokenRequest(app, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
    resource: resourceOf(app)
  })
  console.log(token)
  const client = new Client({ name: "t", version: "1" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.origin}/share/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token.body.access_token}` } }
    })
  )
  const ctx = await client.readResource({ uri: "svc://account/context" })
  console.log(JSON.stringify(ctx).slice(0, 600))
  expect(token.status).toBe(200)
})
