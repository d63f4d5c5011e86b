// Contract of PasskeyRepository: a person's WebAuthn credentials, one account per credential id,
// uses recorded, removal only by the owner. Run by register-contracts.ts against every target.
import { PasskeyRepository, UserRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"
import { passkey, user } from "./people-fixtures.js"

export const registerPasskeyContracts = ({ target, run }: StorageHarness) => {
  const passkeys = <A, E>(f: (r: PasskeyRepository["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(PasskeyRepository, f))
  const newUser = async () => {
    const u = user()
    await run(Effect.flatMap(UserRepository, (r) => r.create(u)))
    return u
  }

  describe(`PasskeyRepository [${target}]`, () => {
    it("registers passkeys, lists a person's and finds one by credential id", async () => {
      const ada = await newUser()
      const laptop = passkey(ada.id, { name: "MacBook", createdAt: at("2026-03-01T09:00:00.000Z") })
      const phone = passkey(ada.id, {
        name: "Phone",
        transports: [],
        createdAt: at("2026-03-02T09:00:00.000Z")
      })
      expect(await passkeys((r) => r.create(phone))).toBe(true)
      expect(await passkeys((r) => r.create(laptop))).toBe(true)
      expect(await passkeys((r) => r.listByUser(ada.id))).toEqual([laptop, phone])
      expect(Option.getOrThrow(await passkeys((r) => r.findByCredentialId(phone.credentialId)))).toEqual(
        phone
      )
      expect(Option.isNone(await passkeys((r) => r.findByCredentialId("bm9uZQ")))).toBe(true)
      expect(await passkeys((r) => r.listByUser(uuid()))).toEqual([])
    })

    it("refuses a credential id registered already, by anyone", async () => {
      const ada = await newUser()
      const bob = await newUser()
      const first = passkey(ada.id)
      expect(await passkeys((r) => r.create(first))).toBe(true)
      expect(await passkeys((r) => r.create(passkey(bob.id, { credentialId: first.credentialId })))).toBe(
        false
      )
      expect(await passkeys((r) => r.listByUser(bob.id))).toEqual([])
    })

    it("never lets the last way to sign in go: the password and the last passkey removed at once, one is refused", async () => {
      for (let round = 0; round < 5; round++) {
        const ada = await newUser()
        const key = passkey(ada.id)
        await passkeys((r) => r.create(key))
        const outcomes = await Promise.all([
          run(Effect.flatMap(UserRepository, (r) => r.removePasswordKeepingSignIn(ada.id))),
          passkeys((r) => r.deleteKeepingSignIn(ada.id, key.id))
        ])
        expect([...outcomes].sort()).toEqual(["changed", "last_method"])
        const left = await run(Effect.flatMap(UserRepository, (r) => r.get(ada.id)))
        const keys = await passkeys((r) => r.listByUser(ada.id))
        expect(Option.getOrThrow(left).passwordHash !== null || keys.length > 0).toBe(true)
      }
      const bob = await newUser()
      expect(await passkeys((r) => r.deleteKeepingSignIn(bob.id, uuid()))).toBe("not_found")
      expect(await run(Effect.flatMap(UserRepository, (r) => r.removePasswordKeepingSignIn(bob.id)))).toBe(
        "last_method"
      )
    })

    it("records a use: the new counter and when", async () => {
      const ada = await newUser()
      const key = passkey(ada.id, { counter: 7 })
      await passkeys((r) => r.create(key))
      // Counters are unsigned 32-bit on the wire: the largest one round-trips.
      await passkeys((r) => r.recordUse(key.id, 4_294_967_295, at("2026-03-05T12:00:00.000Z")))
      expect(Option.getOrThrow(await passkeys((r) => r.findByCredentialId(key.credentialId)))).toEqual({
        ...key,
        counter: 4_294_967_295,
        lastUsedAt: at("2026-03-05T12:00:00.000Z")
      })
    })

    it("removes a passkey only for its owner", async () => {
      const ada = await newUser()
      const bob = await newUser()
      const key = passkey(ada.id)
      await passkeys((r) => r.create(key))
      expect(await passkeys((r) => r.delete(bob.id, key.id))).toBe(false)
      expect(await passkeys((r) => r.delete(ada.id, key.id))).toBe(true)
      expect(await passkeys((r) => r.delete(ada.id, key.id))).toBe(false)
      expect(Option.isNone(await passkeys((r) => r.findByCredentialId(key.credentialId)))).toBe(true)
    })
  })
}
