// The protected links' scrypt adapter: OWASP's parameters in what it stores, a hash verified with
// the parameters it names (so a cheaper or a stronger one made earlier still verifies), and a
// malformed or out-of-range one simply not valid.
import { OWASP_SCRYPT, ScryptPasswordHasher, ScryptPasswordHasherLive } from "@folio/adapters-storage"
import { PasswordHasher } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"

const hashWith = (password: string) => Effect.flatMap(Effect.service(PasswordHasher), (h) => h.hash(password))

describe("ScryptPasswordHasherLive", () => {
  it.live("hashes with scrypt N=2^15, r=8, p=3 and verifies a hash by the parameters it names", () =>
    Effect.gen(function* () {
      const hasher = yield* PasswordHasher
      expect(OWASP_SCRYPT).toEqual({ N: 32_768, r: 8, p: 3 })
      const stored = yield* hasher.hash("open sesame")
      expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
      expect(yield* hasher.verify("open sesame", stored)).toBe(true)
      expect(yield* hasher.verify("open sesame!", stored)).toBe(false)
      // A salt of its own each time.
      expect(yield* hasher.hash("open sesame")).not.toBe(stored)

      const cheap = yield* Effect.provide(
        hashWith("open sesame"),
        ScryptPasswordHasher({ N: 1024, r: 8, p: 1 })
      )
      expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/)
      expect(yield* hasher.verify("open sesame", cheap)).toBe(true)
      expect(yield* hasher.verify("nope", cheap)).toBe(false)

      const [, , , , salt, digest] = cheap.split("$")
      for (const broken of [
        "not a hash",
        `bcrypt$1024$8$1$${salt}$${digest}`,
        `scrypt$1024$8$1$${salt}`,
        `scrypt$2097152$8$1$${salt}$${digest}`, // N past 2^20
        `scrypt$1024$0$1$${salt}$${digest}`,
        `scrypt$1024$8$1$${salt}$${digest?.slice(4)}` // a digest of another length
      ])
        expect(yield* hasher.verify("open sesame", broken)).toBe(false)
    }).pipe(Effect.provide(ScryptPasswordHasherLive))
  )
})
