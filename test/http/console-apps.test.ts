// Connected apps in the console over real HTTP (memory, PGlite, and PostgreSQL when configured):
// owners see every app of the workspace with who connected it, members only their own; revoking
// removes the grant and its tokens from the store, a member cannot revoke another's app, another
// workspace's grant is a 404; the audit page says which app was revoked.
import { MembershipRepository, OAuthStore } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { invitedPerson, type Person, workspaceWithOwner } from "../support/console.js"
import { clientRecord, grantRecords } from "../support/oauth-grants.js"
import { openStorage, storageTargets } from "../support/storage.js"

describe.each(storageTargets())("console connected apps on $name", ({ name, skip }) => {
  let app: RunningApp
  let owner: Person
  let member: Person
  let tenantId: string
  let otherTenantId: string
  let drop = async () => {}

  const userIdOf = async (email: string) => {
    const members = await app.run(
      Effect.flatMap(Effect.service(MembershipRepository), (m) => m.listByTenant(tenantId))
    )
    const found = members.find((m) => m.email === email)
    if (found === undefined) throw new Error(`no member ${email}`)
    return found.userId
  }

  const seed = (records: ReturnType<typeof grantRecords>) =>
    app.run(
      Effect.flatMap(Effect.service(OAuthStore), (store) =>
        Effect.forEach(records, (r) => store.upsert(r, new Date()), { discard: true })
      )
    )

  const grantExists = (grantId: string) =>
    app.run(
      Effect.map(
        Effect.flatMap(Effect.service(OAuthStore), (store) => store.find("Grant", grantId, new Date())),
        Option.isSome
      )
    )

  const tokenExists = (grantId: string) =>
    app.run(
      Effect.map(
        Effect.flatMap(Effect.service(OAuthStore), (store) =>
          store.find("AccessToken", `at-${grantId}`, new Date())
        ),
        Option.isSome
      )
    )

  beforeAll(async () => {
    if (skip) return
    const opened = await openStorage(name)
    drop = opened.drop
    app = await startApp({ storage: opened.storage })
    const made = await workspaceWithOwner(app, "Apps")
    owner = made.owner
    tenantId = made.tenant.id
    member = await invitedPerson(app, tenantId, "member")
    const other = await workspaceWithOwner(app, "Elsewhere")
    otherTenantId = other.tenant.id
    await app.run(
      Effect.flatMap(Effect.service(OAuthStore), (store) =>
        store.upsert(clientRecord("client-desktop", "Desktop Assistant"), new Date())
      )
    )
    const ownerId = await userIdOf(owner.email)
    const memberId = await userIdOf(member.email)
    await seed(
      grantRecords({
        grantId: "grant-owner",
        tenantId,
        userId: ownerId,
        clientId: "client-desktop",
        scopes: "read write delete"
      })
    )
    await seed(
      grantRecords({
        grantId: "grant-member",
        tenantId,
        userId: memberId,
        clientId: "https://agent.example.test/client.json",
        scopes: "read"
      })
    )
    await seed(
      grantRecords({
        grantId: "grant-elsewhere",
        tenantId: otherTenantId,
        userId: ownerId,
        clientId: "client-desktop",
        scopes: "read"
      })
    )
  })
  afterAll(async () => {
    if (skip) return
    await app.close()
    await drop()
  })

  it.skipIf(skip)(
    "shows an owner every app of the workspace with who connected it, and the nav link",
    async () => {
      const { html, status } = await owner.client.page("/console/apps")
      expect(status).toBe(200)
      expect(html).toContain('href="/console/apps" aria-current="page"')
      expect(html).toContain("Desktop Assistant")
      expect(html).toContain("read, write, delete")
      expect(html).toContain("https://agent.example.test/client.json")
      expect(html).toContain(member.email)
      expect(html).toContain(owner.email)
      expect(html).toContain('action="/console/apps/grant-member/revoke"')
      // Another workspace's grant is not listed.
      expect(html).not.toContain("grant-elsewhere")
    }
  )

  it.skipIf(skip)("shows a member only the apps they connected", async () => {
    const { html, status } = await member.client.page("/console/apps")
    expect(status).toBe(200)
    expect(html).toContain("https://agent.example.test/client.json")
    expect(html).not.toContain("Desktop Assistant")
    expect(html).not.toContain("grant-owner")
  })

  it.skipIf(skip)(
    "refuses a member another person's app (403) and an owner another workspace's (404)",
    async () => {
      const { csrf } = await member.client.page("/console/apps")
      const refused = await member.client.post("/console/apps/grant-owner/revoke", { csrf })
      expect(refused.status).toBe(403)
      expect(await grantExists("grant-owner")).toBe(true)
      const page = await owner.client.page("/console/apps")
      const elsewhere = await owner.client.post("/console/apps/grant-elsewhere/revoke", { csrf: page.csrf })
      expect(elsewhere.status).toBe(404)
      expect(await elsewhere.text()).toContain("no such connected app")
      expect(
        await app.run(
          Effect.map(
            Effect.flatMap(Effect.service(OAuthStore), (store) =>
              store.grantsOfTenant(otherTenantId, new Date())
            ),
            (grants) => grants.map((g) => g.grantId)
          )
        )
      ).toEqual(["grant-elsewhere"])
    }
  )

  it.skipIf(skip)(
    "lets a member revoke their own app: gone from the page and the store, with its tokens",
    async () => {
      const { csrf } = await member.client.page("/console/apps")
      const revoked = await member.client.post("/console/apps/grant-member/revoke", { csrf })
      expect(revoked.status).toBe(303)
      expect(revoked.headers.get("location")).toBe("/console/apps?notice=app-revoked")
      const after = await member.client.page("/console/apps?notice=app-revoked")
      expect(after.html).toContain("The app is disconnected")
      expect(after.html).toContain("No connected apps.")
      expect(await grantExists("grant-member")).toBe(false)
      expect(await tokenExists("grant-member")).toBe(false)
      expect(await grantExists("grant-owner")).toBe(true)
      expect(await tokenExists("grant-owner")).toBe(true)
    }
  )

  it.skipIf(skip)("records the revocation in the audit log, naming the app and its scopes", async () => {
    const { csrf } = await owner.client.page("/console/apps")
    expect((await owner.client.post("/console/apps/grant-owner/revoke", { csrf })).status).toBe(303)
    const { html } = await owner.client.page("/console/audit")
    expect(html).toContain("app.revoked")
    expect(html).toContain("app: Desktop Assistant, client id: client-desktop, scopes: read write delete")
    expect(html).toContain(
      `app: https://agent.example.test/client.json, scopes: read, service: sharing, connectedBy: ${member.email}`
    )
    expect(html).not.toContain("at-grant-owner")
  })
})
