// Passkeys through the console's JSON endpoints over real HTTP, with a software authenticator: one
// registered from the account page, then a sign-in with it and no password (a new session, the
// redirect the script follows); a response for another challenge is refused.
import { AuditLog } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { clientFor, type Person, workspaceWithOwner } from "../support/console.js"
import { makeSoftAuthenticator } from "../support/soft-authenticator.js"

interface Begun {
  readonly flowId: string
  readonly options: { challenge: string; rp: { id: string }; user: { id: string }; rpId: string }
}

describe("console passkeys", () => {
  let app: RunningApp
  let owner: Person
  const authenticator = () => makeSoftAuthenticator(app.config.publicOrigin)
  let device: ReturnType<typeof makeSoftAuthenticator>

  let tenantId: string

  beforeAll(async () => {
    app = await startApp()
    const made = await workspaceWithOwner(app, "Passkeys")
    owner = made.owner
    tenantId = made.tenant.id
    device = authenticator()
  })
  afterAll(() => app.close())

  it("registers a passkey from the account page", async () => {
    const { csrf } = await owner.client.page("/console/account")
    const begun = (await (
      await owner.client.postJson("/console/account/passkeys/options", {}, csrf)
    ).json()) as Begun
    const response = device.register(begun.options)
    const added = await owner.client.postJson(
      "/console/account/passkeys",
      { flowId: begun.flowId, response, name: "Test laptop" },
      csrf
    )
    expect(added.status).toBe(201)
    const page = await owner.client.page("/console/account")
    expect(page.html).toContain("Test laptop")
    // The audit log says who added it, and from which address, as for every other change.
    const { events } = await app.run(
      Effect.flatMap(AuditLog, (log) => log.list(tenantId, { before: null, limit: 10 }))
    )
    const event = events.find((e) => e.action === "account.passkey_added")
    expect(event?.ip).toBe("127.0.0.1")
    expect(event?.details).toEqual({ name: "Test laptop" })
    // The challenge is single-use: the same response again is refused.
    const again = await owner.client.postJson(
      "/console/account/passkeys",
      { flowId: begun.flowId, response, name: "Twice" },
      csrf
    )
    expect(again.status).toBe(400)
  })

  it("signs in with the passkey alone, into a new session", async () => {
    const client = clientFor(app)
    const { csrf } = await client.page("/sign-in?next=%2Fconsole%2Faccount")
    const begun = (await (await client.postJson("/sign-in/passkey/options", {}, csrf)).json()) as Begun
    const response = device.authenticate(begun.options)
    const done = await client.postJson(
      "/sign-in/passkey",
      { flowId: begun.flowId, response, next: "/console/account" },
      csrf
    )
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ redirect: "/console/account" })
    expect(client.session()).toBeDefined()
    expect(client.session()).not.toBe(owner.client.session())
    expect((await client.get("/console/account")).status).toBe(200)
  })

  it("refuses an assertion made for another ceremony, and an unknown authenticator", async () => {
    const client = clientFor(app)
    const { csrf } = await client.page("/sign-in")
    const first = (await (await client.postJson("/sign-in/passkey/options", {}, csrf)).json()) as Begun
    const second = (await (await client.postJson("/sign-in/passkey/options", {}, csrf)).json()) as Begun
    const forFirst = device.authenticate(first.options)
    const crossed = await client.postJson(
      "/sign-in/passkey",
      { flowId: second.flowId, response: forFirst },
      csrf
    )
    expect(crossed.status).toBe(400)
    const stranger = authenticator()
    stranger.register({ challenge: "x", rp: { id: "127.0.0.1" }, user: { id: "nobody" } })
    const third = (await (await client.postJson("/sign-in/passkey/options", {}, csrf)).json()) as Begun
    const unknown = await client.postJson(
      "/sign-in/passkey",
      { flowId: third.flowId, response: stranger.authenticate(third.options) },
      csrf
    )
    expect(unknown.status).toBe(400)
    expect(client.session()).toBeUndefined()
  })
})
