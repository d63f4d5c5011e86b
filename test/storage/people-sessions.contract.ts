// Contract of SessionRepository: console sessions by token hash, a forward-only idle clock, a
// person's sessions listed and signed out, and the sweep of expired and idle ones. Run by
// register-contracts.ts against every storage target.
import { SessionRepository, UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"
import { session, tokenHash, user } from "./people-fixtures.js"

export const registerSessionContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const sessions = <A, E>(f: (r: SessionRepository["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(SessionRepository, f))
  const newUser = async () => {
    const u = user()
    await run(Effect.flatMap(UserRepository, (r) => r.create(u)))
    return u
  }
  const find = async (hash: string) => Option.getOrUndefined(await sessions((r) => r.findByTokenHash(hash)))

  describe(`SessionRepository [${target}]`, () => {
    it("finds a session by its token hash only", async () => {
      const ada = await newUser()
      const ws = await newWorkspace()
      const s = session(ada.id, { tenantId: ws.id })
      await sessions((r) => r.create(s))
      expect(await find(s.tokenHash)).toEqual(s)
      expect(await find(tokenHash())).toBeUndefined()
      // A session without a workspace, address or user agent.
      const bare = session(ada.id, { ip: null, userAgent: null })
      await sessions((r) => r.create(bare))
      expect(await find(bare.tokenHash)).toEqual(bare)
    })

    it("moves lastSeenAt forward, never back", async () => {
      const ada = await newUser()
      const s = session(ada.id)
      await sessions((r) => r.create(s))
      await sessions((r) => r.touch(s.id, at("2026-03-01T10:00:00.000Z")))
      expect((await find(s.tokenHash))?.lastSeenAt).toEqual(at("2026-03-01T10:00:00.000Z"))
      await sessions((r) => r.touch(s.id, at("2026-03-01T09:30:00.000Z")))
      expect((await find(s.tokenHash))?.lastSeenAt).toEqual(at("2026-03-01T10:00:00.000Z"))
      // Nothing else changes.
      expect(await find(s.tokenHash)).toEqual({ ...s, lastSeenAt: at("2026-03-01T10:00:00.000Z") })
    })

    it("switches and clears the session's workspace", async () => {
      const ada = await newUser()
      const ws = await newWorkspace()
      const s = session(ada.id)
      await sessions((r) => r.create(s))
      await sessions((r) => r.setTenant(s.id, ws.id))
      expect((await find(s.tokenHash))?.tenantId).toBe(ws.id)
      await sessions((r) => r.setTenant(s.id, null))
      expect((await find(s.tokenHash))?.tenantId).toBeNull()
    })

    it("lists a person's sessions newest first and deletes one only for its owner", async () => {
      const ada = await newUser()
      const bob = await newUser()
      const older = session(ada.id, { createdAt: at("2026-03-01T08:00:00.000Z") })
      const newer = session(ada.id, { createdAt: at("2026-03-01T11:00:00.000Z") })
      const bobs = session(bob.id)
      for (const s of [older, newer, bobs]) await sessions((r) => r.create(s))
      expect(await sessions((r) => r.listByUser(ada.id))).toEqual([newer, older])
      expect(await sessions((r) => r.listByUser(uuid()))).toEqual([])
      // Bob cannot delete Ada's session.
      expect(await sessions((r) => r.delete(bob.id, older.id))).toBe(false)
      expect(await sessions((r) => r.delete(ada.id, older.id))).toBe(true)
      expect(await sessions((r) => r.delete(ada.id, older.id))).toBe(false)
      expect(await find(older.tokenHash)).toBeUndefined()
      expect(await sessions((r) => r.listByUser(ada.id))).toEqual([newer])
      expect(await find(bobs.tokenHash)).toEqual(bobs)
    })

    it("signs a person out everywhere, but for the session kept", async () => {
      const ada = await newUser()
      const bob = await newUser()
      const kept = session(ada.id)
      const others = [session(ada.id), session(ada.id)]
      const bobs = session(bob.id)
      for (const s of [kept, ...others, bobs]) await sessions((r) => r.create(s))
      expect(await sessions((r) => r.deleteAllOfUser(ada.id, kept.id))).toBe(2)
      expect((await sessions((r) => r.listByUser(ada.id))).map((s) => s.id)).toEqual([kept.id])
      expect(await sessions((r) => r.deleteAllOfUser(ada.id, null))).toBe(1)
      expect(await sessions((r) => r.listByUser(ada.id))).toEqual([])
      expect(await sessions((r) => r.deleteAllOfUser(ada.id, null))).toBe(0)
      expect(await find(bobs.tokenHash)).toEqual(bobs)
    })

    it("deletes sessions past their absolute lifetime or idle too long, and only those", async () => {
      // In 2001, before every other test's sessions: the sweep counts only these.
      const ada = await newUser()
      const now = at("2001-06-01T12:00:00.000Z")
      const idleBefore = at("2001-06-01T00:00:00.000Z")
      const live = session(ada.id, {
        lastSeenAt: at("2001-06-01T11:00:00.000Z"),
        expiresAt: at("2001-06-05T00:00:00.000Z")
      })
      const pastLifetime = session(ada.id, {
        lastSeenAt: at("2001-06-01T11:59:00.000Z"),
        expiresAt: at("2001-06-01T11:59:59.000Z")
      })
      const endsNow = session(ada.id, { lastSeenAt: at("2001-06-01T11:00:00.000Z"), expiresAt: now })
      const idle = session(ada.id, {
        lastSeenAt: at("2001-05-31T23:59:59.000Z"),
        expiresAt: at("2001-06-05T00:00:00.000Z")
      })
      const justActive = session(ada.id, {
        lastSeenAt: idleBefore,
        expiresAt: at("2001-06-05T00:00:00.000Z")
      })
      for (const s of [live, pastLifetime, endsNow, idle, justActive]) await sessions((r) => r.create(s))
      expect(await sessions((r) => r.deleteExpired(now, idleBefore))).toBe(3)
      expect((await sessions((r) => r.listByUser(ada.id))).map((s) => s.id).sort()).toEqual(
        [live.id, justActive.id].sort()
      )
      expect(await sessions((r) => r.deleteExpired(now, idleBefore))).toBe(0)
    })
  })
}
