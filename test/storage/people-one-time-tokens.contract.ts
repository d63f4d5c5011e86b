// Contract of OneTimeTokenRepository: links peeked without use, used once (of two concurrent uses
// exactly one wins), invitations listed and revoked per workspace, resets replaced, spent links
// swept. Run by register-contracts.ts against every storage target.
import { OneTimeTokenRepository, UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"
import { oneTimeToken, tokenHash, user } from "./people-fixtures.js"

export const registerOneTimeTokenContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const tokens = <A, E>(f: (r: OneTimeTokenRepository["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(OneTimeTokenRepository, f))
  const newUser = async () => {
    const u = user()
    await run(Effect.flatMap(UserRepository, (r) => r.create(u)))
    return u
  }
  const now = at("2026-03-02T09:00:00.000Z")

  describe(`OneTimeTokenRepository [${target}]`, () => {
    it("peeks at an unused, unexpired link of its kind without using it", async () => {
      const ws = await newWorkspace()
      const inviter = await newUser()
      const invitation = oneTimeToken({
        tenantId: ws.id,
        email: "new.person@example.test",
        role: "admin",
        userId: inviter.id
      })
      await tokens((r) => r.create(invitation))
      expect(Option.getOrThrow(await tokens((r) => r.peek("invitation", invitation.tokenHash, now)))).toEqual(
        invitation
      )
      // Peeking twice still finds it: nothing was used.
      expect(Option.isSome(await tokens((r) => r.peek("invitation", invitation.tokenHash, now)))).toBe(true)
      // Another kind, an unknown hash, or past its expiry: none.
      expect(Option.isNone(await tokens((r) => r.peek("password_reset", invitation.tokenHash, now)))).toBe(
        true
      )
      expect(Option.isNone(await tokens((r) => r.peek("invitation", tokenHash(), now)))).toBe(true)
      expect(
        Option.isNone(await tokens((r) => r.peek("invitation", invitation.tokenHash, invitation.expiresAt)))
      ).toBe(true)
    })

    it("uses a link once; an unknown, used, expired or other-kind link is none", async () => {
      const ws = await newWorkspace()
      const setup = oneTimeToken({ kind: "setup", tenantId: ws.id, role: "owner" })
      await tokens((r) => r.create(setup))
      expect(Option.isNone(await tokens((r) => r.consume("invitation", setup.tokenHash, now)))).toBe(true)
      expect(Option.getOrThrow(await tokens((r) => r.consume("setup", setup.tokenHash, now)))).toEqual({
        ...setup,
        usedAt: now
      })
      expect(Option.isNone(await tokens((r) => r.consume("setup", setup.tokenHash, now)))).toBe(true)
      expect(Option.isNone(await tokens((r) => r.peek("setup", setup.tokenHash, now)))).toBe(true)
      expect(Option.isNone(await tokens((r) => r.consume("setup", tokenHash(), now)))).toBe(true)
      const expired = oneTimeToken({ kind: "setup", tenantId: ws.id, role: "owner", expiresAt: now })
      await tokens((r) => r.create(expired))
      expect(Option.isNone(await tokens((r) => r.consume("setup", expired.tokenHash, now)))).toBe(true)
    })

    it("keeps a passkey challenge's data", async () => {
      const challenge = oneTimeToken({
        kind: "passkey_challenge",
        data: { challenge: "c2lnbi1pbi1jaGFsbGVuZ2U", purpose: "signin" },
        expiresAt: at("2026-03-02T09:05:00.000Z")
      })
      await tokens((r) => r.create(challenge))
      expect(
        Option.getOrThrow(await tokens((r) => r.consume("passkey_challenge", challenge.tokenHash, now))).data
      ).toEqual({ challenge: "c2lnbi1pbi1jaGFsbGVuZ2U", purpose: "signin" })
    })

    it("of two concurrent uses of one link, exactly one gets it", async () => {
      const ws = await newWorkspace()
      for (let round = 0; round < 5; round++) {
        const invitation = oneTimeToken({ tenantId: ws.id, email: "race@example.test", role: "member" })
        await tokens((r) => r.create(invitation))
        const results = await Promise.all([
          tokens((r) => r.consume("invitation", invitation.tokenHash, now)),
          tokens((r) => r.consume("invitation", invitation.tokenHash, now)),
          tokens((r) => r.consume("invitation", invitation.tokenHash, now))
        ])
        expect(results.filter(Option.isSome)).toHaveLength(1)
      }
    })

    it("lists a workspace's open invitations newest first and revokes one", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const older = oneTimeToken({ tenantId: ws.id, email: "a@example.test", role: "member" })
      const newer = oneTimeToken({
        tenantId: ws.id,
        email: "b@example.test",
        role: "admin",
        createdAt: at("2026-03-01T10:00:00.000Z")
      })
      const used = oneTimeToken({ tenantId: ws.id, email: "c@example.test", role: "member" })
      const expired = oneTimeToken({
        tenantId: ws.id,
        email: "d@example.test",
        role: "member",
        expiresAt: at("2026-03-02T08:00:00.000Z")
      })
      const elsewhere = oneTimeToken({ tenantId: other.id, email: "e@example.test", role: "member" })
      const setup = oneTimeToken({ kind: "setup", tenantId: ws.id, role: "owner" })
      for (const t of [older, newer, used, expired, elsewhere, setup]) await tokens((r) => r.create(t))
      await tokens((r) => r.consume("invitation", used.tokenHash, now))
      expect(await tokens((r) => r.listInvitations(ws.id, now))).toEqual([newer, older])

      // Another workspace cannot revoke it; a setup link is no invitation.
      expect(await tokens((r) => r.revokeInvitation(other.id, older.id, now))).toBe(false)
      expect(await tokens((r) => r.revokeInvitation(ws.id, setup.id, now))).toBe(false)
      expect(await tokens((r) => r.revokeInvitation(ws.id, older.id, now))).toBe(true)
      expect(await tokens((r) => r.revokeInvitation(ws.id, older.id, now))).toBe(false)
      expect(await tokens((r) => r.revokeInvitation(ws.id, used.id, now))).toBe(false)
      expect(await tokens((r) => r.revokeInvitation(ws.id, uuid(), now))).toBe(false)
      expect(await tokens((r) => r.listInvitations(ws.id, now))).toEqual([newer])
      expect(Option.isNone(await tokens((r) => r.consume("invitation", older.tokenHash, now)))).toBe(true)
      expect(Option.isSome(await tokens((r) => r.peek("setup", setup.tokenHash, now)))).toBe(true)
    })

    it("revokes every open password reset of an account, and no one else's", async () => {
      const ada = await newUser()
      const bob = await newUser()
      const first = oneTimeToken({ kind: "password_reset", email: ada.email, userId: ada.id })
      const second = oneTimeToken({ kind: "password_reset", email: ada.email, userId: ada.id })
      const bobs = oneTimeToken({ kind: "password_reset", email: bob.email, userId: bob.id })
      const challenge = oneTimeToken({
        kind: "passkey_challenge",
        userId: ada.id,
        data: { challenge: "x", purpose: "register" }
      })
      for (const t of [first, second, bobs, challenge]) await tokens((r) => r.create(t))
      await tokens((r) => r.revokeResets(ada.id, now))
      expect(Option.isNone(await tokens((r) => r.consume("password_reset", first.tokenHash, now)))).toBe(true)
      expect(Option.isNone(await tokens((r) => r.consume("password_reset", second.tokenHash, now)))).toBe(
        true
      )
      expect(Option.isSome(await tokens((r) => r.peek("password_reset", bobs.tokenHash, now)))).toBe(true)
      expect(Option.isSome(await tokens((r) => r.peek("passkey_challenge", challenge.tokenHash, now)))).toBe(
        true
      )
    })

    it("deletes links that expired or were used before a time, and only those", async () => {
      // In 2001, before every other test's links: the sweep counts only these.
      const before = at("2001-06-01T00:00:00.000Z")
      const expired = oneTimeToken({
        kind: "setup",
        createdAt: at("2001-05-01T00:00:00.000Z"),
        expiresAt: at("2001-05-31T23:59:59.000Z")
      })
      const usedLongAgo = oneTimeToken({
        kind: "setup",
        createdAt: at("2001-05-01T00:00:00.000Z"),
        expiresAt: at("2001-07-01T00:00:00.000Z")
      })
      const usedLately = oneTimeToken({
        kind: "setup",
        createdAt: at("2001-05-01T00:00:00.000Z"),
        expiresAt: at("2001-07-01T00:00:00.000Z")
      })
      const open = oneTimeToken({
        kind: "setup",
        createdAt: at("2001-05-01T00:00:00.000Z"),
        expiresAt: at("2001-07-01T00:00:00.000Z")
      })
      for (const t of [expired, usedLongAgo, usedLately, open]) await tokens((r) => r.create(t))
      await tokens((r) => r.consume("setup", usedLongAgo.tokenHash, at("2001-05-15T00:00:00.000Z")))
      await tokens((r) => r.consume("setup", usedLately.tokenHash, at("2001-06-01T00:00:00.000Z")))
      expect(await tokens((r) => r.deleteSpent(before))).toBe(2)
      expect(await tokens((r) => r.deleteSpent(before))).toBe(0)
      expect(
        Option.isSome(await tokens((r) => r.peek("setup", open.tokenHash, at("2001-06-02T00:00:00.000Z"))))
      ).toBe(true)
    })
  })
}
