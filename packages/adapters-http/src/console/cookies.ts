// The console's two cookies: the session (its random token, the server keeps only the hash) and the
// pre-session cookie that signed-out forms' CSRF token is derived from. `__Host-` and Secure whenever
// PUBLIC_ORIGIN is https; HttpOnly, SameSite=Lax, Path=/ always; no Max-Age (the server enforces lifetimes).
import { Cookies, type HttpServerRequest } from "effect/http"

export interface ConsoleCookieNames {
  readonly session: string
  readonly pre: string
  readonly secure: boolean
}

export const consoleCookieNames = (publicOrigin: string): ConsoleCookieNames => {
  const secure = publicOrigin.startsWith("https:")
  const prefix = secure ? "__Host-" : ""
  return { session: `${prefix}folio_session`, pre: `${prefix}folio_pre`, secure }
}

const cookie = (names: ConsoleCookieNames, name: string, value: string, clear = false) =>
  Cookies.makeCookieUnsafe(name, value, {
    path: "/",
    httpOnly: true,
    secure: names.secure,
    sameSite: "lax",
    ...(clear ? { expires: new Date(0) } : {})
  })

export const sessionCookie = (names: ConsoleCookieNames, token: string) => cookie(names, names.session, token)
export const clearedSessionCookie = (names: ConsoleCookieNames) => cookie(names, names.session, "", true)
export const preSessionCookie = (names: ConsoleCookieNames, value: string) => cookie(names, names.pre, value)

/** The Set-Cookie value of a session cookie, as the routes write it. */
export const sessionSetCookie = (publicOrigin: string, token: string): string =>
  Cookies.serializeCookie(sessionCookie(consoleCookieNames(publicOrigin), token))

/** A cookie's value as sent; undefined when absent or not the shape we write (base64url, bounded). */
export const cookieValue = (
  request: HttpServerRequest.HttpServerRequest,
  name: string
): string | undefined => {
  const value = request.cookies[name]
  return value !== undefined && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined
}
