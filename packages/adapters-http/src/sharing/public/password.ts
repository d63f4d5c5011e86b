// The signed cookie that remembers a password unlock for one resource (the password itself is
// checked by the PasswordHasher port, whose scrypt adapter wrote the stored hash).
import { expiringTokens } from "./signed-token.js"

export const UNLOCK_COOKIE = "svc_unlock"
/** An unlock lasts this long; a password change ends it at once (the hash is signed in). */
export const UNLOCK_TTL_SECONDS = 24 * 60 * 60

const unlocks = expiringTokens("sharing-unlock")

/** The unlocks' own key, derived from the app's signing secret: an unlock is no download signature. */
export const unlockSecretOf = (signingSecret: string) => `sharing-unlock:${signingSecret}`

/** The cookie value that unlocks one resource until `nowSeconds + UNLOCK_TTL_SECONDS`. */
export const unlockToken = (secret: string, resourceId: string, passwordHash: string, nowSeconds: number) =>
  unlocks.make(secret, `${resourceId}\n${passwordHash}`, nowSeconds + UNLOCK_TTL_SECONDS)

/** Whether a cookie value unlocks this resource with this password hash now. */
export const isUnlocked = (
  secret: string,
  resourceId: string,
  passwordHash: string,
  token: string | undefined,
  nowSeconds: number
): boolean => unlocks.check(secret, `${resourceId}\n${passwordHash}`, token, nowSeconds) !== undefined
