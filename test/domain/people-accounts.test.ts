// A person's own account on the memory store: changing the password needs the current one and signs
// other sessions out; the password may go only once a passkey exists, and the last passkey stays
// while there is no password.
import {
  beginPasskeyRegistration,
  changePassword,
  finishPasskeyRegistration,
  listPasskeys,
  removePasskey,
  removePassword,
  resolveSession,
  setDisplayName,
  signInWithPassword,
  UserRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer, Option, Result } from "effect"
import { describe, expect } from "vitest"
import { FakeCeremonyLive, PASSWORD, PeopleTestLive, workspaceWithOwner } from "../support/people.js"

const tagOf = (r: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(r) ? r.failure._tag : "ok"

describe("accounts", () => {
  it.effect("change the password with the current one, signing the other sessions out", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const sign = signInWithPassword({ email: owner.email, password: PASSWORD, ip: null, userAgent: null })
      const [here, there] = [yield* sign, yield* sign]
      const change = (current: string | null, next: string) =>
        Effect.result(changePassword(owner.id, { current, next }, here.session.id))
      expect(tagOf(yield* change(null, "a brand new password"))).toBe("CurrentPasswordWrong")
      expect(tagOf(yield* change("wrong wrong wrong", "a brand new password"))).toBe("CurrentPasswordWrong")
      expect(tagOf(yield* change(PASSWORD, "short"))).toBe("WeakPassword")
      expect(tagOf(yield* change(PASSWORD, "a brand new password"))).toBe("ok")
      expect(Option.isSome(yield* resolveSession(here.token))).toBe(true)
      expect(Option.isNone(yield* resolveSession(there.token))).toBe(true)
      expect(tagOf(yield* Effect.result(setDisplayName(owner.id, "   ")))).toBe("InvalidDisplayName")
      yield* setDisplayName(owner.id, "  Ada  ")
      expect(Option.getOrThrow(yield* (yield* UserRepository).get(owner.id)).displayName).toBe("Ada")
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("keep one way to sign in: a password or a passkey", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      expect(tagOf(yield* Effect.result(removePassword(owner.id)))).toBe("LastSignInMethod")
      const register = (credentialId: string) =>
        Effect.gen(function* () {
          const flow = yield* beginPasskeyRegistration(owner.id)
          const challenge = (flow.options as { challenge: string }).challenge
          return yield* finishPasskeyRegistration(owner.id, {
            flowId: flow.flowId,
            response: { credentialId, challenge },
            name: credentialId
          })
        })
      const first = yield* register("cred-a")
      // The same authenticator twice is refused.
      expect(tagOf(yield* Effect.result(register("cred-a")))).toBe("PasskeyRejected")
      yield* removePassword(owner.id)
      expect(Option.getOrThrow(yield* (yield* UserRepository).get(owner.id)).passwordHash).toBeNull()
      expect(tagOf(yield* Effect.result(removePasskey(owner.id, first.id)))).toBe("LastSignInMethod")
      const second = yield* register("cred-b")
      yield* removePasskey(owner.id, first.id)
      expect((yield* listPasskeys(owner.id)).map((p) => p.id)).toEqual([second.id])
      expect(tagOf(yield* Effect.result(removePasskey(owner.id, first.id)))).toBe("PasskeyNotFound")
      // Passkey-only accounts set a password without a current one.
      yield* changePassword(owner.id, { current: null, next: "a brand new password" }, null)
      yield* removePasskey(owner.id, second.id)
    }).pipe(Effect.provide(Layer.merge(PeopleTestLive, FakeCeremonyLive)))
  )
})
