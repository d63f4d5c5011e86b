// Short-lived tokens the public pages hand out and take back (a password unlock, a download grant,
// a form's time token): `<exp>.<HMAC-SHA256 of label, subject and exp>`, checked in constant time.
import { createHmac, timingSafeEqual } from "node:crypto"

const signature = (secret: string, label: string, subject: string, exp: number) =>
  createHmac("sha256", secret).update(`${label}\n${subject}\n${exp}`).digest("base64url")

/** Tokens of one purpose (`label`): made for a subject until an expiry, and checked. */
export const expiringTokens = (label: string) => ({
  /** A token for `subject` that stops working at `exp` (seconds). */
  make: (secret: string, subject: string, exp: number) => `${exp}.${signature(secret, label, subject, exp)}`,
  /** The expiry of a genuine token for `subject` still live at `nowSeconds`; undefined otherwise. */
  check: (
    secret: string,
    subject: string,
    token: string | undefined,
    nowSeconds: number
  ): number | undefined => {
    if (token === undefined) return undefined
    const dot = token.indexOf(".")
    const exp = Number(token.slice(0, dot))
    if (dot < 1 || !Number.isSafeInteger(exp) || exp <= nowSeconds) return undefined
    const given = Buffer.from(token.slice(dot + 1), "utf8")
    const wanted = Buffer.from(signature(secret, label, subject, exp), "utf8")
    return given.length === wanted.length && timingSafeEqual(given, wanted) ? exp : undefined
  }
})
