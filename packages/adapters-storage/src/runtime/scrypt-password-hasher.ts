// PasswordHasher over scrypt (node:crypto): memory-hard, built into Node, no native add-on to build
// (argon2 would need one). Parameters N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt
// settings (32 MiB per hash). The hash names its parameters, `scrypt$N$r$p$salt$digest` (salt and
// digest base64url), so they can be raised later without breaking stored hashes.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { PasswordHasher } from "@folio/domain"
import { Effect, Layer } from "effect"

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly N: number
  /** Block size. */
  readonly r: number
  /** Parallelization. */
  readonly p: number
}

/** OWASP Password Storage Cheat Sheet: scrypt N=2^15, r=8, p=3 (32 MiB; ~0.4 s of a core here). */
export const OWASP_SCRYPT: ScryptParameters = { N: 2 ** 15, r: 8, p: 3 }

const KEY_LENGTH = 32
const SALT_LENGTH = 16

const derive = (password: string, salt: Buffer, n: number, r: number, p: number): Effect.Effect<Buffer> =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    )
  })

const hashWith =
  ({ N, r, p }: ScryptParameters) =>
  (password: string): Effect.Effect<string> =>
    Effect.suspend(() => {
      const salt = randomBytes(SALT_LENGTH)
      return Effect.map(
        derive(password, salt, N, r, p),
        (key) => `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`
      )
    })

const verify = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.suspend(() => {
    const [scheme, n, r, p, salt, digest] = stored.split("$")
    const params = [Number(n), Number(r), Number(p)] as const
    if (scheme !== "scrypt" || salt === undefined || digest === undefined) return Effect.succeed(false)
    if (!params.every((v) => Number.isInteger(v) && v > 0) || params[0] > 2 ** 20)
      return Effect.succeed(false)
    const expected = Buffer.from(digest, "base64url")
    if (expected.length !== KEY_LENGTH) return Effect.succeed(false)
    return Effect.map(derive(password, Buffer.from(salt, "base64url"), ...params), (key) =>
      timingSafeEqual(key, expected)
    )
  })

/**
 * scrypt with the given parameters for new hashes (tests may pass cheap ones; deployments use
 * OWASP's); a stored hash is verified with the parameters it names.
 */
export const ScryptPasswordHasher = (parameters: ScryptParameters) =>
  Layer.succeed(PasswordHasher, PasswordHasher.of({ hash: hashWith(parameters), verify }))

export const ScryptPasswordHasherLive = ScryptPasswordHasher(OWASP_SCRYPT)
