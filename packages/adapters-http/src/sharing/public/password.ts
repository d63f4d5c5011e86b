// The signed cookie that remembers a password unlock for one resource (the password itself is
// checked by the PasswordHasher port, whose scrypt adapter wrote the stored hash).
import { createHmac, timingSafeEqual } from "node:crypto"

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
