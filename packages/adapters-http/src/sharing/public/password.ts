// The password side of public serving: checking a posted password against the stored slow hash,
// and the signed cookie that remembers an unlock for one resource.
//
// Stored hash format (written by the resource routes' hasher, read here):
//   scrypt$<N>$<r>$<p>$<salt, base64url>$<derived key, base64url>
// node:crypto scrypt with those parameters over the UTF-8 password; the key length is the decoded
// key's. Any other format never matches.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

const SCRYPT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{8,128})\$([A-Za-z0-9_-]{16,256})$/
/** Bounds on parameters read from storage, so a bad row cannot ask for gigabytes. */
const MAX_N = 2 ** 20
const MAX_R = 32
const MAX_P = 16

/** Whether `password` matches `stored` (false for any malformed hash). Runs on libuv's pool. */
export const verifyPassword = (stored: string, password: string): Effect.Effect<boolean> => {
  const m = SCRYPT.exec(stored)
  if (m === null) return Effect.succeed(false)
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const salt = Buffer.from(m[4] ?? "", "base64url")
  const expected = Buffer.from(m[5] ?? "", "base64url")
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > MAX_R || p < 1 || p > MAX_P)
    return Effect.succeed(false)
  return Effect.callback<boolean>((resume) => {
    scrypt(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
      resume(
        Effect.succeed(error === null && key.length === expected.length && timingSafeEqual(key, expected))
      )
    )
  })
}

/** A hash in the format above (N=2^15, r=8, p=1, 16-byte salt, 32-byte key); for tests and tools. */
export const hashPassword = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(16)
  const [N, r, p] = [2 ** 15, 8, 1]
  return Effect.callback<string>((resume) => {
    scrypt(password, salt, 32, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      resume(
        error === null
          ? Effect.succeed(`scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`)
          : Effect.die(error)
      )
    )
  })
}

export const UNLOCK_COOKIE = "svc_unlock"
/** An unlock lasts this long; a password change ends it at once (the hash is signed in). */
export const UNLOCK_TTL_SECONDS = 24 * 60 * 60

const unlockSignature = (secret: string, resourceId: string, passwordHash: string, exp: number) =>
  createHmac("sha256", secret)
    .update(`sharing-unlock\n${resourceId}\n${passwordHash}\n${exp}`)
    .digest("base64url")

/** The cookie value that unlocks one resource until `nowSeconds + UNLOCK_TTL_SECONDS`. */
export const unlockToken = (secret: string, resourceId: string, passwordHash: string, nowSeconds: number) => {
  const exp = nowSeconds + UNLOCK_TTL_SECONDS
  return `${exp}.${unlockSignature(secret, resourceId, passwordHash, exp)}`
}

/** Whether a cookie value unlocks this resource with this password hash now. */
export const isUnlocked = (
  secret: string,
  resourceId: string,
  passwordHash: string,
  token: string | undefined,
  nowSeconds: number
): boolean => {
  if (token === undefined) return false
  const dot = token.indexOf(".")
  const exp = Number(token.slice(0, dot))
  if (dot < 1 || !Number.isSafeInteger(exp) || exp <= nowSeconds) return false
  const given = Buffer.from(token.slice(dot + 1), "utf8")
  const wanted = Buffer.from(unlockSignature(secret, resourceId, passwordHash, exp), "utf8")
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}
