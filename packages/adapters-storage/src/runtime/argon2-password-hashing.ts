// PasswordHashing over argon2id (@node-rs/argon2) with OWASP's current parameters: 19 MiB of memory,
// two passes, one lane. The PHC string names its parameters, so a stored hash made with others is
// reported for a rehash at the next successful sign-in.
import { type Algorithm, hash, parseOptions, verify } from "@node-rs/argon2"
import { PasswordHashing } from "@folio/domain"
import { Effect, Layer } from "effect"

export interface Argon2Parameters {
  /** KiB of memory per hash. */
  readonly memoryCost: number
  /** Passes over the memory. */
  readonly timeCost: number
  /** Lanes. */
  readonly parallelism: number
}

/** OWASP Password Storage Cheat Sheet: argon2id, m=19456 (19 MiB), t=2, p=1. */
export const OWASP_ARGON2ID: Argon2Parameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

// The binding's `ARGON2ID` is an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2 as Algorithm

const verifies = (stored: string, password: string): Effect.Effect<boolean> =>
  // A malformed stored hash makes the binding throw: simply not valid.
  Effect.promise(() => verify(stored, password).catch(() => false))

const madeWith = (stored: string, parameters: Argon2Parameters): boolean => {
  try {
    const used = parseOptions(stored)
    return (
      used.algorithm === ARGON2ID &&
      used.memoryCost === parameters.memoryCost &&
      used.timeCost === parameters.timeCost &&
      used.parallelism === parameters.parallelism
    )
  } catch {
    return false
  }
}

/** argon2id with the given parameters (tests may pass cheap ones; deployments use the OWASP ones). */
export const Argon2PasswordHashing = (parameters: Argon2Parameters) =>
  Layer.effect(
    PasswordHashing,
    Effect.gen(function* () {
      const options = { algorithm: ARGON2ID, ...parameters }
      const hashWith = (password: string) => Effect.promise(() => hash(password, options))
      // Made once, of a password nobody holds: what `burn` verifies against for unknown accounts,
      // with today's parameters so it costs what a real verification costs.
      const dummy = yield* hashWith("folio: no account has this password")
      return PasswordHashing.of({
        hash: hashWith,
        verify: (stored, password) =>
          Effect.map(verifies(stored, password), (valid) => ({
            valid,
            needsRehash: valid && !madeWith(stored, parameters)
          })),
        burn: (password) => Effect.asVoid(verifies(dummy, password))
      })
    })
  )

export const Argon2PasswordHashingLive = Argon2PasswordHashing(OWASP_ARGON2ID)
