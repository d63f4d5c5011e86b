// The first owner's setup link: every start prints a fresh one while nobody has an account, so
// once one of them has made the workspace's owner every other is dead, for describing and for
// accepting; another workspace's setup link still works.
import { Argon2PasswordHashingLive, IdGenLive, MemoryStorageLive } from "@folio/adapters-storage"
import { acceptInvitation, createSetupLink, createTenant, describeLink } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { describe, expect } from "vitest"

const ports = Layer.mergeAll(MemoryStorageLive, IdGenLive, Argon2PasswordHashingLive)
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1)

describe("setup links", () => {
  it.effect("two printed links both open until one makes the owner; then the other is invalid", () =>
    Effect.gen(function* () {
      const tenant = yield* createTenant("Default workspace")
      const first = tokenOf((yield* createSetupLink(tenant.id)).url)
      const second = tokenOf((yield* createSetupLink(tenant.id)).url)
      for (const token of [first, second])
        expect(yield* describeLink(token)).toMatchObject({ kind: "setup", role: "owner", email: null })
      const accepted = yield* acceptInvitation({
        token: second,
        signedIn: null,
        email: "owner@example.com",
        displayName: "Owner",
        password: "correct horse battery",
        ip: null,
        userAgent: null
      })
      expect(accepted.user.email).toBe("owner@example.com")
      expect((yield* Effect.flip(describeLink(first)))._tag).toBe("LinkInvalid")
      const late = yield* Effect.flip(
        acceptInvitation({
          token: first,
          signedIn: null,
          email: "intruder@example.com",
          displayName: "Intruder",
          password: "correct horse battery",
          ip: null,
          userAgent: null
        })
      )
      expect(late._tag).toBe("LinkInvalid")
      const other = yield* createTenant("Other")
      const theirs = tokenOf((yield* createSetupLink(other.id)).url)
      expect(yield* describeLink(theirs)).toMatchObject({ kind: "setup", workspaceName: "Other" })
    }).pipe(Effect.provide(ports))
  )
})
