// Every console use case refused over real HTTP for each role the one table (CONSOLE_OPERATIONS)
// does not give it: 403, and nothing changed. The requests are keyed by operation, and a test fails
// when the table gains a row this file has no request for, so a new use case cannot go untested.
import {
  CONSOLE_OPERATION_NAMES,
  CONSOLE_OPERATIONS,
  type ConsoleOperation,
  MembershipRepository,
  OneTimeTokenRepository,
  ROLES,
  type Role,
  TenantRepository
} from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { invitedPerson, type Person, workspaceWithOwner } from "../support/console.js"

interface World {
  readonly tenantId: string
  readonly people: Readonly<Record<Role, Person & { readonly userId: string }>>
  readonly invitationId: string
  readonly ownersKeyId: string
}

interface Attempt {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly fields?: Readonly<Record<string, string | ReadonlyArray<string>>>
}

/** The request that runs each operation in the console. */
const REQUESTS: Readonly<Record<ConsoleOperation, (world: World) => Attempt>> = {
  viewWorkspace: () => ({ method: "GET", path: "/console/keys" }),
  listKeys: () => ({ method: "GET", path: "/console/keys" }),
  createKey: () => ({
    method: "POST",
    path: "/console/keys",
    fields: { name: "attempt", service: "sharing", scopes: ["read"] }
  }),
  revokeKey: (w) => ({ method: "POST", path: `/console/keys/${w.ownersKeyId}/revoke` }),
  listMembers: () => ({ method: "GET", path: "/console/members" }),
  inviteMember: () => ({
    method: "POST",
    path: "/console/members/invite",
    fields: { email: "refused-invite@example.test", role: "member" }
  }),
  revokeInvitation: (w) => ({ method: "POST", path: `/console/invitations/${w.invitationId}/revoke` }),
  changeRole: (w) => ({
    method: "POST",
    path: `/console/members/${w.people.admin.userId}/role`,
    fields: { role: "member" }
  }),
  removeMember: (w) => ({ method: "POST", path: `/console/members/${w.people.admin.userId}/remove` }),
  leaveWorkspace: () => ({ method: "POST", path: "/console/leave" }),
  viewSettings: () => ({ method: "GET", path: "/console/settings" }),
  renameWorkspace: () => ({ method: "POST", path: "/console/settings/name", fields: { name: "Renamed" } }),
  changeFeatures: () => ({ method: "POST", path: "/console/settings/features", fields: {} }),
  changeMemberKeyScopes: () => ({
    method: "POST",
    path: "/console/settings/member-scopes",
    fields: { forms: ["forms:read", "forms:write"], sharing: ["read", "write", "delete"] }
  }),
  disableWorkspace: () => ({ method: "POST", path: "/console/settings/disable" }),
  viewAudit: () => ({ method: "GET", path: "/console/audit" }),
  listConnectedApps: () => ({ method: "GET", path: "/console/apps" }),
  revokeConnectedApp: () => ({ method: "POST", path: "/console/apps/owners-grant/revoke" }),
  // The consent page's post (approve); every role may consent, within what its role may grant.
  authorizeApp: () => ({
    method: "POST",
    path: "/oauth/interaction/attempt",
    fields: { decision: "approve" }
  })
}

describe("console role refusals", () => {
  let app: RunningApp
  let world: World

  /** What any refused operation could have changed: the workspace, its members and invitations. */
  const snapshot = () =>
    app.run(
      Effect.gen(function* () {
        const tenant = Option.getOrThrow(yield* (yield* TenantRepository).get(world.tenantId))
        const members = yield* (yield* MembershipRepository).listByTenant(world.tenantId)
        const tokens = yield* OneTimeTokenRepository
        const invitations = yield* tokens.listInvitations(world.tenantId, new Date())
        return JSON.stringify({
          name: tenant.name,
          disabled: tenant.disabledAt,
          features: tenant.features,
          scopes: tenant.memberKeyScopes,
          members: members.map((m) => [m.userId, m.role]).sort(),
          invitations: invitations.map((i) => i.id).sort()
        })
      })
    )

  beforeAll(async () => {
    app = await startApp()
    const { tenant, owner } = await workspaceWithOwner(app, "Roles")
    const admin = await invitedPerson(app, tenant.id, "admin")
    const member = await invitedPerson(app, tenant.id, "member")
    const ids = await app.run(
      Effect.map(
        Effect.flatMap(Effect.service(MembershipRepository), (m) => m.listByTenant(tenant.id)),
        (members) => members
      )
    )
    const idOf = (email: string) => {
      const found = ids.find((m) => m.email === email)
      if (found === undefined) throw new Error(`no member ${email}`)
      return found.userId
    }
    // A pending invitation and an owner's key for the refusals to aim at.
    const { csrf } = await owner.client.page("/console/members")
    expect(
      (
        await owner.client.post("/console/members/invite", {
          csrf,
          email: "pending@example.test",
          role: "member"
        })
      ).status
    ).toBe(200)
    const members = await owner.client.page("/console/members")
    const invitationId = /\/console\/invitations\/([^/]+)\/revoke/.exec(members.html)?.[1] ?? ""
    const created = await owner.client.post("/console/keys", {
      csrf,
      name: "owner's",
      service: "sharing",
      scopes: ["read"]
    })
    expect(created.status).toBe(201)
    const keys = await owner.client.page("/console/keys")
    const ownersKeyId = /\/console\/keys\/([^/]+)\/revoke/.exec(keys.html)?.[1] ?? ""
    world = {
      tenantId: tenant.id,
      invitationId,
      ownersKeyId,
      people: {
        owner: { ...owner, userId: idOf(owner.email) },
        admin: { ...admin, userId: idOf(admin.email) },
        member: { ...member, userId: idOf(member.email) }
      }
    }
    expect(invitationId).not.toBe("")
    expect(ownersKeyId).not.toBe("")
  })
  afterAll(() => app.close())

  it("has a request for every operation of the table", () => {
    expect(Object.keys(REQUESTS).sort()).toEqual([...CONSOLE_OPERATION_NAMES].sort())
  })

  for (const operation of CONSOLE_OPERATION_NAMES) {
    const refused = ROLES.filter(
      (role) => !(CONSOLE_OPERATIONS[operation] as ReadonlyArray<Role>).includes(role)
    )
    for (const role of refused) {
      it(`refuses ${operation} to ${role}`, async () => {
        const person = world.people[role]
        const attempt = REQUESTS[operation](world)
        const before = await snapshot()
        const answer =
          attempt.method === "GET"
            ? await person.client.get(attempt.path)
            : await (async () => {
                const { csrf } = await person.client.page("/console/account")
                return person.client.post(attempt.path, { csrf, ...attempt.fields })
              })()
        expect(answer.status).toBe(403)
        expect(await answer.text()).toContain("does not allow")
        expect(await snapshot()).toBe(before)
      })
    }
  }

  it("hides what a member may not do: no invite form, no role selects, no audit link", async () => {
    const { html } = await world.people.member.client.page("/console/members")
    expect(html).not.toContain('action="/console/members/invite"')
    expect(html).not.toContain('/role"')
    expect(html).not.toContain('href="/console/audit"')
    const owner = await world.people.owner.client.page("/console/members")
    expect(owner.html).toContain('action="/console/members/invite"')
    expect(owner.html).toContain('href="/console/audit"')
  })

  it("lets a member revoke only the keys they created", async () => {
    const member = world.people.member.client
    const { csrf } = await member.page("/console/keys")
    const refused = await member.post(`/console/keys/${world.ownersKeyId}/revoke`, { csrf })
    expect(refused.status).toBe(403)
    const created = await member.post("/console/keys", {
      csrf,
      name: "mine",
      service: "sharing",
      scopes: ["read"]
    })
    expect(created.status).toBe(201)
    const html = await created.text()
    const mine =
      /\/console\/keys\/([^/]+)\/revoke" class="inline"><input type="hidden" name="csrf" value="[^"]*"><button type="submit" class="danger" aria-label="Revoke mine"/.exec(
        html
      )?.[1]
    expect(mine).toBeDefined()
    expect((await member.post(`/console/keys/${mine}/revoke`, { csrf })).status).toBe(303)
  })

  it("refuses a member a key scope the workspace does not allow members", async () => {
    const member = world.people.member.client
    const { csrf } = await member.page("/console/keys")
    const answer = await member.post("/console/keys", {
      csrf,
      name: "too much",
      service: "sharing",
      scopes: ["delete"]
    })
    expect(answer.status).toBe(403)
    expect(await answer.text()).not.toContain('id="new-key"')
  })

  it("lets an admin neither grant the owner role nor remove an owner", async () => {
    const admin = world.people.admin.client
    const { csrf } = await admin.page("/console/members")
    const before = await snapshot()
    const grant = await admin.post(`/console/members/${world.people.member.userId}/role`, {
      csrf,
      role: "owner"
    })
    expect(grant.status).toBe(403)
    const remove = await admin.post(`/console/members/${world.people.owner.userId}/remove`, { csrf })
    expect(remove.status).toBe(403)
    expect(await snapshot()).toBe(before)
  })
})
