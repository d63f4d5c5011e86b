// Cross-site request forgery over real HTTP: every state-changing console post needs our Origin (or,
// without one, Sec-Fetch-Site: same-origin) and the session's token; signed-out forms need the token
// bound to the pre-session cookie. A refused post answers 403 and changes nothing.
import { ApiKeyRepository, TenantRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { clientFor, PASSWORD, type Person, signIn, workspaceWithOwner } from "../support/console.js"

describe("console CSRF", () => {
  let app: RunningApp
  let owner: Person
  let tenantId: string
  const keyCount = () =>
    app.run(Effect.flatMap(Effect.service(ApiKeyRepository), (keys) => keys.list(tenantId)))
  const tenantName = () =>
    app.run(
      Effect.flatMap(Effect.service(TenantRepository), (tenants) =>
        Effect.map(tenants.get(tenantId), (t) => Option.getOrThrow(t).name)
      )
    )

  beforeAll(async () => {
    app = await startApp()
    const made = await workspaceWithOwner(app, "Csrf")
    owner = made.owner
    tenantId = made.tenant.id
  })
  afterAll(() => app.close())

  const createFields = (csrf: string) => ({
    csrf,
    name: "ci",
    service: "sharing",
    scopes: ["read"]
  })

  it("refuses a post from another origin, even with the right token", async () => {
    const before = (await keyCount()).length
    const { csrf } = await owner.client.page("/console/keys")
    const answer = await owner.client.post("/console/keys", createFields(csrf), {
      origin: "https://evil.test"
    })
    expect(answer.status).toBe(403)
    expect(await answer.text()).toContain("This form has expired")
    expect((await keyCount()).length).toBe(before)
  })

  it("refuses a post without the token, or with another session's", async () => {
    const before = (await keyCount()).length
    expect((await owner.client.post("/console/keys", createFields(""))).status).toBe(403)
    const other = await signIn(app, owner.email, PASSWORD)
    const { csrf: othersToken } = await other.client.page("/console/keys")
    expect((await owner.client.post("/console/keys", createFields(othersToken))).status).toBe(403)
    expect((await keyCount()).length).toBe(before)
    // Renaming, a one-field form, is refused the same way.
    const name = await tenantName()
    expect((await owner.client.post("/console/settings/name", { csrf: "", name: "Pwned" })).status).toBe(403)
    expect(await tenantName()).toBe(name)
  })

  it("without Origin, needs Sec-Fetch-Site: same-origin", async () => {
    const before = (await keyCount()).length
    const { csrf } = await owner.client.page("/console/keys")
    const crossSite = await owner.client.post("/console/keys", createFields(csrf), {
      origin: null,
      headers: { "sec-fetch-site": "cross-site" }
    })
    expect(crossSite.status).toBe(403)
    const bare = await owner.client.post("/console/keys", createFields(csrf), { origin: null })
    expect(bare.status).toBe(403)
    expect((await keyCount()).length).toBe(before)
    const sameOrigin = await owner.client.post("/console/keys", createFields(csrf), {
      origin: null,
      headers: { "sec-fetch-site": "same-origin" }
    })
    expect(sameOrigin.status).toBe(201)
    expect((await keyCount()).length).toBe(before + 1)
  })

  it("refuses a signed-out sign-in post without the pre-session token (login CSRF)", async () => {
    const client = clientFor(app)
    const noToken = await client.post("/sign-in", { email: owner.email, password: PASSWORD })
    expect(noToken.status).toBe(403)
    expect(client.session()).toBeUndefined()
    // A token read by another browser does not fit this one's pre-session cookie.
    const attacker = clientFor(app)
    const { csrf } = await attacker.page("/sign-in")
    const victim = clientFor(app)
    await victim.page("/sign-in")
    const forged = await victim.post("/sign-in", { csrf, email: owner.email, password: PASSWORD })
    expect(forged.status).toBe(403)
    expect(victim.session()).toBeUndefined()
    const crossOrigin = await attacker.post(
      "/sign-in",
      { csrf, email: owner.email, password: PASSWORD },
      { origin: "https://evil.test" }
    )
    expect(crossOrigin.status).toBe(403)
    expect(attacker.session()).toBeUndefined()
  })

  it("refuses the JSON passkey endpoints without the header token", async () => {
    const { csrf } = await owner.client.page("/console/account")
    const missing = await owner.client.postJson("/console/account/passkeys/options", {}, "")
    expect(missing.status).toBe(403)
    const foreign = await owner.client.postJson("/console/account/passkeys/options", {}, csrf, {
      origin: "https://evil.test"
    })
    expect(foreign.status).toBe(403)
    const ok = await owner.client.postJson("/console/account/passkeys/options", {}, csrf)
    expect(ok.status).toBe(200)
    const begun = (await ok.json()) as { flowId: string; options: { challenge: string; rp: { id: string } } }
    expect(begun.flowId.length).toBeGreaterThan(20)
    expect(begun.options.rp.id).toBe("127.0.0.1")
    // Signed out, the sign-in options need the pre-session token.
    const anonymous = clientFor(app)
    expect((await anonymous.postJson("/sign-in/passkey/options", {}, "")).status).toBe(403)
    const { csrf: pre } = await anonymous.page("/sign-in")
    expect((await anonymous.postJson("/sign-in/passkey/options", {}, pre)).status).toBe(200)
  })

  it("refuses a sign-out from another origin (the session stays)", async () => {
    const { client } = await signIn(app, owner.email, PASSWORD)
    const { csrf } = await client.page("/console/keys")
    const answer = await client.post("/sign-out", { csrf }, { origin: "https://evil.test" })
    expect(answer.status).toBe(403)
    expect((await client.get("/console/keys")).status).toBe(200)
  })
})
