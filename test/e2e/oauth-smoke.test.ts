import { afterAll, beforeAll, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"

let app: RunningApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app?.close())

it("discovery", async () => {
  const d = await (await fetch(`${app.origin}/.well-known/oauth-authorization-server`)).json()
  console.log(JSON.stringify(d, null, 1))
  const p = await (await fetch(`${app.origin}/.well-known/oauth-protected-resource/share/mcp`)).json()
  console.log(p)
  const r = await fetch(`${app.origin}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9999/cb"], grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none", client_name: "Test", scope: "read write delete" })
  })
  console.log(r.status, await r.text())
  expect(d.issuer).toBe(app.origin)
})
