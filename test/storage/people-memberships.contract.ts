// Contract of MembershipRepository: members of a workspace (owners first), a person's workspaces,
// and role changes and removals that never take a workspace's last owner away, even when two
// owners demote or remove each other at once. Run by register-contracts.ts against every target.
import { MembershipRepository, type Role, TenantRepository, UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"
import { email, user } from "./people-fixtures.js"

export const registerMembershipContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const members = <A, E>(f: (r: MembershipRepository["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(MembershipRepository, f))
  const newUser = async (local = "person") => {
    const u = user({ email: email(local) })
    await run(Effect.flatMap(UserRepository, (r) => r.create(u)))
    return u
  }
  const join = (tenantId: string, userId: string, role: Role) =>
    members((r) => r.add({ tenantId, userId, role, createdAt: at("2026-03-02T10:00:00.000Z") }))
  const owners = async (tenantId: string) =>
    (await members((r) => r.listByTenant(tenantId))).filter((m) => m.role === "owner").map((m) => m.userId)

  describe(`MembershipRepository [${target}]`, () => {
    it("creates an account with its first membership in one write, or neither when the e-mail is taken", async () => {
      const ws = await newWorkspace()
      const ada = user()
      const membership = { tenantId: ws.id, userId: ada.id, role: "owner" as const, createdAt: ada.createdAt }
      expect(await members((r) => r.addWithNewUser(ada, membership))).toBe(true)
      expect(Option.getOrThrow(await members((r) => r.get(ws.id, ada.id)))).toEqual(membership)
      expect(Option.getOrThrow(await run(Effect.flatMap(UserRepository, (r) => r.get(ada.id))))).toEqual(ada)
      const rival = user({ email: ada.email })
      expect(
        await members((r) => r.addWithNewUser(rival, { ...membership, userId: rival.id, role: "member" }))
      ).toBe(false)
      expect(Option.isNone(await members((r) => r.get(ws.id, rival.id)))).toBe(true)
      expect(Option.isNone(await run(Effect.flatMap(UserRepository, (r) => r.get(rival.id))))).toBe(true)
    })

    it("adds a member once and gets the membership", async () => {
      const ws = await newWorkspace()
      const ada = await newUser()
      expect(await join(ws.id, ada.id, "admin")).toBe(true)
      expect(await join(ws.id, ada.id, "member")).toBe(false)
      expect(Option.getOrThrow(await members((r) => r.get(ws.id, ada.id)))).toEqual({
        tenantId: ws.id,
        userId: ada.id,
        role: "admin",
        createdAt: at("2026-03-02T10:00:00.000Z")
      })
      expect(Option.isNone(await members((r) => r.get(ws.id, uuid())))).toBe(true)
      const other = await newWorkspace()
      expect(Option.isNone(await members((r) => r.get(other.id, ada.id)))).toBe(true)
    })

    it("lists a workspace's members with name and e-mail, owners first, then by e-mail", async () => {
      const ws = await newWorkspace()
      const carol = await newUser("carol")
      const bob = await newUser("bob")
      const alice = await newUser("alice")
      const dave = await newUser("dave")
      await join(ws.id, carol.id, "member")
      await join(ws.id, dave.id, "owner")
      await join(ws.id, alice.id, "admin")
      await join(ws.id, bob.id, "owner")
      const listed = await members((r) => r.listByTenant(ws.id))
      expect(listed.map((m) => [m.email, m.role])).toEqual([
        [bob.email, "owner"],
        [dave.email, "owner"],
        [alice.email, "admin"],
        [carol.email, "member"]
      ])
      expect(listed[0]).toEqual({
        tenantId: ws.id,
        userId: bob.id,
        role: "owner",
        createdAt: at("2026-03-02T10:00:00.000Z"),
        email: bob.email,
        displayName: bob.displayName
      })
      // Another workspace's members are not listed.
      const empty = await newWorkspace()
      expect(await members((r) => r.listByTenant(empty.id))).toEqual([])
    })

    it("lists a person's workspaces by name, with whether each is disabled", async () => {
      const zeta = await newWorkspace()
      const alpha = await newWorkspace()
      await run(Effect.flatMap(TenantRepository, (r) => r.rename(zeta.id, "Zeta works")))
      await run(Effect.flatMap(TenantRepository, (r) => r.rename(alpha.id, "Alpha lab")))
      await run(
        Effect.flatMap(TenantRepository, (r) => r.setDisabled(zeta.id, at("2026-03-03T00:00:00.000Z")))
      )
      const ada = await newUser()
      await join(zeta.id, ada.id, "member")
      await join(alpha.id, ada.id, "owner")
      expect(await members((r) => r.listByUser(ada.id))).toEqual([
        {
          tenantId: alpha.id,
          userId: ada.id,
          role: "owner",
          createdAt: at("2026-03-02T10:00:00.000Z"),
          tenantName: "Alpha lab",
          tenantDisabled: false
        },
        {
          tenantId: zeta.id,
          userId: ada.id,
          role: "member",
          createdAt: at("2026-03-02T10:00:00.000Z"),
          tenantName: "Zeta works",
          tenantDisabled: true
        }
      ])
      expect(await members((r) => r.listByUser(uuid()))).toEqual([])
    })

    it("changes a role unless that demotes the last owner", async () => {
      const ws = await newWorkspace()
      const owner = await newUser()
      const admin = await newUser()
      await join(ws.id, owner.id, "owner")
      await join(ws.id, admin.id, "admin")
      expect(await members((r) => r.setRole(ws.id, owner.id, "admin"))).toBe("last_owner")
      expect(await members((r) => r.setRole(ws.id, owner.id, "member"))).toBe("last_owner")
      // Keeping the owner role is no loss.
      expect(await members((r) => r.setRole(ws.id, owner.id, "owner"))).toBe("changed")
      expect(await members((r) => r.setRole(ws.id, admin.id, "member"))).toBe("changed")
      expect(Option.getOrThrow(await members((r) => r.get(ws.id, admin.id))).role).toBe("member")
      expect(await members((r) => r.setRole(ws.id, uuid(), "member"))).toBe("not_found")
      const elsewhere = await newWorkspace()
      expect(await members((r) => r.setRole(elsewhere.id, admin.id, "member"))).toBe("not_found")
      // With a second owner, the first may step down.
      expect(await members((r) => r.setRole(ws.id, admin.id, "owner"))).toBe("changed")
      expect(await members((r) => r.setRole(ws.id, owner.id, "admin"))).toBe("changed")
      expect(await owners(ws.id)).toEqual([admin.id])
    })

    it("removes a member unless it is the last owner", async () => {
      const ws = await newWorkspace()
      const owner = await newUser()
      const member = await newUser()
      await join(ws.id, owner.id, "owner")
      await join(ws.id, member.id, "member")
      expect(await members((r) => r.remove(ws.id, owner.id))).toBe("last_owner")
      expect(await members((r) => r.remove(ws.id, member.id))).toBe("changed")
      expect(await members((r) => r.remove(ws.id, member.id))).toBe("not_found")
      expect(Option.isNone(await members((r) => r.get(ws.id, member.id)))).toBe(true)
      expect(Option.isSome(await members((r) => r.get(ws.id, owner.id)))).toBe(true)
    })

    it("of two owners demoting each other at once, one stays owner", async () => {
      for (let round = 0; round < 5; round++) {
        const ws = await newWorkspace()
        const a = await newUser()
        const b = await newUser()
        await join(ws.id, a.id, "owner")
        await join(ws.id, b.id, "owner")
        const results = await Promise.all([
          members((r) => r.setRole(ws.id, a.id, "admin")),
          members((r) => r.setRole(ws.id, b.id, "member"))
        ])
        expect([...results].sort()).toEqual(["changed", "last_owner"])
        expect(await owners(ws.id)).toHaveLength(1)
      }
    })

    it("of an owner removed while the other is demoted, one stays owner", async () => {
      for (let round = 0; round < 5; round++) {
        const ws = await newWorkspace()
        const a = await newUser()
        const b = await newUser()
        await join(ws.id, a.id, "owner")
        await join(ws.id, b.id, "owner")
        const results = await Promise.all([
          members((r) => r.remove(ws.id, a.id)),
          members((r) => r.setRole(ws.id, b.id, "admin"))
        ])
        expect([...results].sort()).toEqual(["changed", "last_owner"])
        expect(await owners(ws.id)).toHaveLength(1)
        expect(await members((r) => r.listByTenant(ws.id))).toHaveLength(results[0] === "changed" ? 1 : 2)
      }
    })
  })
}
