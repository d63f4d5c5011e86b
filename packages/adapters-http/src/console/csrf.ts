// Cross-site request forgery checks for every state-changing console request: the Origin header must
// be PUBLIC_ORIGIN's (a browser without one must say Sec-Fetch-Site: same-origin), and the request
// must echo a token a cross-site page cannot read: the session's own token when signed in, else an
// HMAC of the pre-session cookie (so no one can sign a victim into the attacker's account).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { HttpServerRequest } from "effect/http"

/** The request comes from a page of the console's own origin. */
export const sameOrigin = (request: HttpServerRequest.HttpServerRequest, publicOrigin: string): boolean => {
  const origin = request.headers.origin
  if (origin !== undefined) return origin === new URL(publicOrigin).origin
  return request.headers["sec-fetch-site"] === "same-origin"
}

/** Constant-time equality of two tokens (different lengths are simply unequal). */
export const tokensEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

export const newRandomToken = (): string => randomBytes(32).toString("base64url")

/** The signed-out forms' CSRF token: bound to the pre-session cookie by a server-side key. */
export const preSessionToken = (key: string, pre: string): string =>
  createHmac("sha256", key).update(`console-pre-session:${pre}`).digest("base64url")
