// The argon2id adapter with OWASP's parameters: the PHC string names them, a hash made with others
// verifies but asks for a rehash, a malformed hash is simply not valid, and burn costs a real check.
import { Argon2PasswordHashingLive, OWASP_ARGON2ID } from "@folio/adapters-storage"
import { PasswordHashing } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { CheapHashingLive } from "../support/people.js"

describe("Argon2PasswordHashingLive", () => {
  it.live("hashes with argon2id m=19456, t=2, p=1 and reports hashes made otherwise for a rehash", () =>
    Effect.gen(function* () {
      const hashing = yield* PasswordHashing
      const stored = yield* hashing.hash("correct horse battery")
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
      expect(OWASP_ARGON2ID).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 })
      expect(yield* hashing.verify(stored, "correct horse battery")).toEqual({
        valid: true,
        needsRehash: false
      })
      expect(yield* hashing.verify(stored, "wrong")).toEqual({ valid: false, needsRehash: false })
      const cheap = yield* Effect.provide(
        Effect.flatMap(Effect.service(PasswordHashing), (h) => h.hash("correct horse battery")),
        CheapHashingLive
      )
      expect(yield* hashing.verify(cheap, "correct horse battery")).toEqual({
        valid: true,
        needsRehash: true
      })
      expect(yield* hashing.verify("not a hash", "x")).toEqual({ valid: false, needsRehash: false })
      const started = Date.now()
      yield* hashing.burn("anything")
      expect(Date.now() - started).toBeGreaterThan(1)
    }).pipe(Effect.provide(Argon2PasswordHashingLive))
  )
})
