// Contract of UserRepository: accounts by id and e-mail, one account per e-mail even when two
// sign-ups race. Run by register-contracts.ts against every storage target.
import { UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { uuid } from "./fixtures.js"
import { email, user } from "./people-fixtures.js"

export const registerUserContracts = ({ target, run }: StorageHarness) => {
  const users = <A, E>(f: (r: UserRepository["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(UserRepository, f))

  describe(`UserRepository [${target}]`, () => {
    it("creates an account, finds it by id and e-mail, and counts it", async () => {
      const before = await users((r) => r.count)
      const ada = user()
      expect(await users((r) => r.create(ada))).toBe(true)
      expect(Option.getOrThrow(await users((r) => r.get(ada.id)))).toEqual(ada)
      expect(Option.getOrThrow(await users((r) => r.findByEmail(ada.email)))).toEqual(ada)
      expect(Option.isNone(await users((r) => r.get(uuid())))).toBe(true)
      expect(Option.isNone(await users((r) => r.findByEmail(email("nobody"))))).toBe(true)
      expect(await users((r) => r.count)).toBe(before + 1)
    })

    it("refuses a second account with a taken e-mail and writes nothing", async () => {
      const first = user()
      expect(await users((r) => r.create(first))).toBe(true)
      const second = user({ email: first.email, displayName: "Someone else" })
      expect(await users((r) => r.create(second))).toBe(false)
      expect(Option.isNone(await users((r) => r.get(second.id)))).toBe(true)
      expect(Option.getOrThrow(await users((r) => r.findByEmail(first.email))).id).toBe(first.id)
    })

    it("of two concurrent sign-ups with one e-mail, exactly one creates the account", async () => {
      for (let round = 0; round < 5; round++) {
        const address = email("race")
        const a = user({ email: address })
        const b = user({ email: address })
        const results = await Promise.all([users((r) => r.create(a)), users((r) => r.create(b))])
        expect([...results].sort()).toEqual([false, true])
        const winner = results[0] ? a : b
        expect(Option.getOrThrow(await users((r) => r.findByEmail(address))).id).toBe(winner.id)
      }
    })

    it("changes the display name and the password hash (null once passkeys only)", async () => {
      const ada = user()
      await users((r) => r.create(ada))
      expect(await users((r) => r.setDisplayName(ada.id, "Ada King"))).toBe(true)
      expect(await users((r) => r.setPasswordHash(ada.id, "$argon2id$v=19$m=19456,t=2,p=1$bmV3$bmV3"))).toBe(
        true
      )
      let stored = Option.getOrThrow(await users((r) => r.get(ada.id)))
      expect(stored.displayName).toBe("Ada King")
      expect(stored.passwordHash).toBe("$argon2id$v=19$m=19456,t=2,p=1$bmV3$bmV3")
      expect(await users((r) => r.setPasswordHash(ada.id, null))).toBe(true)
      stored = Option.getOrThrow(await users((r) => r.get(ada.id)))
      expect(stored.passwordHash).toBeNull()
      expect(stored.email).toBe(ada.email)
      expect(await users((r) => r.setDisplayName(uuid(), "Nobody"))).toBe(false)
      expect(await users((r) => r.setPasswordHash(uuid(), null))).toBe(false)
    })
  })
}
