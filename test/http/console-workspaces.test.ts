// Cross-workspace isolation over real HTTP: a person of workspace A never sees B's keys, members or
// audit log, and cannot act on them by naming B's ids (switching to B, revoking B's key, removing
// B's member); a person of both sees each only while it is chosen.
import { ApiKeyRepository, inviteAsOperator } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { invitedPerson, type Person, workspaceWithOwner } from "../support/console.js"

describe("console workspace isolation", () => {
  let app: RunningApp
  let a: { tenantId: string; owner: Person }
  let b: { tenantId: string; owner: Person; keyId: string; keyPrefix: string; ownerId: string }

  beforeAll(async () => {
    app = await startApp()
    const first = await workspaceWithOwner(app, "Alpha Works")
    const second = await workspaceWithOwner(app, "Beta Works")
    a = { tenantId: first.tenant.id, owner: first.owner }
    const { csrf } = await second.owner.client.page("/console/keys")
    const created = await second.owner.client.post("/console/keys", {
      csrf,
      name: "beta secret key",
      service: "sharing",
      scopes: ["read"]
    })
    expect(created.status).toBe(201)
    const keys = await app.run(
      Effect.flatMap(Effect.service(ApiKeyRepository), (r) => r.list(second.tenant.id))
    )
    const key = keys.find((k) => k.name === "beta secret key")
    if (key === undefined) throw new Error("no key")
    const members = await second.owner.client.page("/console/members")
    const ownerId = /\/console\/members\/([^/]+)\/remove/.exec(members.html)?.[1] ?? "none-shown"
    b = { tenantId: second.tenant.id, owner: second.owner, keyId: key.id, keyPrefix: key.prefix, ownerId }
  })
  afterAll(() => app.close())

  it("shows A's person nothing of B on any page", async () => {
    for (const path of ["/console/keys", "/console/members", "/console/settings", "/console/audit"]) {
      const { status, html } = await a.owner.client.page(path)
      expect(status).toBe(200)
      expect(html).not.toContain("Beta Works")
      expect(html).not.toContain("beta secret key")
      expect(html).not.toContain(b.keyPrefix)
      expect(html).not.toContain(b.owner.email)
    }
  })

  it("refuses switching to B by its id, and the session stays in A", async () => {
    const { csrf } = await a.owner.client.page("/console/keys")
    const answer = await a.owner.client.post("/console/workspace", { csrf, tenantId: b.tenantId })
    expect(answer.status).toBe(404)
    expect(await answer.text()).not.toContain("Beta Works")
    const { html } = await a.owner.client.page("/console/settings")
    expect(html).toContain('value="Alpha Works"')
  })

  it("refuses acting on B's key or member by id", async () => {
    const { csrf } = await a.owner.client.page("/console/keys")
    const revoke = await a.owner.client.post(`/console/keys/${b.keyId}/revoke`, { csrf })
    expect(revoke.status).toBe(404)
    const keys = await app.run(Effect.flatMap(Effect.service(ApiKeyRepository), (r) => r.list(b.tenantId)))
    expect(keys.find((k) => k.id === b.keyId)?.revokedAt).toBeNull()
    const members = await a.owner.client.page("/console/members")
    const remove = await a.owner.client.post(`/console/members/${encodeURIComponent(b.ownerId)}/remove`, {
      csrf: members.csrf
    })
    expect([403, 404]).toContain(remove.status)
    expect((await b.owner.client.page("/console/members")).html).toContain(b.owner.email)
  })

  it("lets a person of both see each only while it is chosen", async () => {
    const both = await invitedPerson(app, a.tenantId, "member", "both@example.test")
    // Invited to B too, and accepted while signed in: the same account joins.
    const { url } = await app.run(
      inviteAsOperator({ tenantId: b.tenantId, email: "both@example.test", role: "admin" })
    )
    const path = new URL(url).pathname
    const invitation = await both.client.page(path)
    expect(invitation.html).toContain("Accept invitation")
    expect((await both.client.post(path, { csrf: invitation.csrf })).status).toBe(303)
    const inAlpha = await both.client.page("/console/keys")
    expect(inAlpha.html).toContain("Alpha Works (member)")
    expect(inAlpha.html).not.toContain("beta secret key")
    const switched = await both.client.post("/console/workspace", {
      csrf: inAlpha.csrf,
      tenantId: b.tenantId
    })
    expect(switched.status).toBe(303)
    const inBeta = await both.client.page("/console/keys")
    expect(inBeta.html).toContain("beta secret key")
    const members = await both.client.page("/console/members")
    expect(members.html).toContain(b.owner.email)
    expect(members.html).not.toContain(a.owner.email)
  })
})
