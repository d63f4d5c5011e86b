// What every console route reads from a request: the client (address, user agent), a form post's
// fields, a JSON body, the signed-in session, and whether a post passes the CSRF checks; and the
// answers they share (HTML with the console's CSP, redirects, JSON).
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { Cookies, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Html } from "../shared/html.js"
import { clientIp } from "../shared/index.js"
import { consoleContentSecurityPolicy } from "./layout.js"

export const newNonce = () => randomBytes(18).toString("base64")

export const clientOf = (request: HttpServerRequest.HttpServerRequest) => ({
  ip: clientIp(request),
  userAgent: (request.headers["user-agent"] ?? "").slice(0, 200) || null
})

/** A form post's fields (urlencoded); anything else reads as no fields. */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(
    Effect.orElseSucceed(request.text, () => ""),
    (text) =>
      (request.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")
        ? new URLSearchParams(text)
        : new URLSearchParams()
  )

/** A JSON object body; an empty object when absent or not an object. */
export const jsonOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(
    Effect.orElseSucceed(request.text, () => ""),
    (text): Record<string, unknown> => {
      try {
        const value: unknown = JSON.parse(text)
        return typeof value === "object" && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : {}
      } catch {
        return {}
      }
    }
  )

export const field = (form: URLSearchParams, name: string): string => (form.get(name) ?? "").slice(0, 10_000)

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin"
}

export const htmlPage = (
  body: Html,
  nonce: string,
  status = 200,
  extra: {
    readonly headers?: Readonly<Record<string, string>>
    readonly cookies?: ReadonlyArray<Cookies.Cookie>
  } = {}
) =>
  HttpServerResponse.text(body.text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      ...SECURITY_HEADERS,
      "content-security-policy": consoleContentSecurityPolicy(nonce),
      ...extra.headers
    },
    ...(extra.cookies === undefined || extra.cookies.length === 0
      ? {}
      : { cookies: Cookies.fromIterable(extra.cookies) })
  })

/** 303 See Other: what a post answers once done. */
export const seeOther = (location: string, cookies: ReadonlyArray<Cookies.Cookie> = []) =>
  HttpServerResponse.empty({
    status: 303,
    headers: { location, "cache-control": "no-store" },
    ...(cookies.length === 0 ? {} : { cookies: Cookies.fromIterable(cookies) })
  })

export const jsonAnswer = (
  body: unknown,
  status = 200,
  cookies: ReadonlyArray<Cookies.Cookie> = [],
  headers: Readonly<Record<string, string>> = {}
) =>
  HttpServerResponse.text(JSON.stringify(body), {
    status,
    contentType: "application/json",
    headers: { ...SECURITY_HEADERS, ...headers },
    ...(cookies.length === 0 ? {} : { cookies: Cookies.fromIterable(cookies) })
  })

/**
 * Where to go after signing in: a path of this origin only (no scheme, no `//host`, no backslash
 * tricks), else the keys page.
 */
export const safeNext = (next: string | null | undefined): string | undefined =>
  next !== null && next !== undefined && next.length <= 500 && /^\/(?![/\\])[^\s\\]*$/.test(next)
    ? next
    : undefined

export const pathOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://local")
