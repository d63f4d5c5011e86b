// What the public routes that start a response know of the browser, and what they tell it back: the
// continuity cookie (one random token, hashed per form on the server, see docs/decisions/0023-responses.md)
// and the client fingerprint. Shared by the JSON start route and the form page's JavaScript-off post, so both
// recognise the same browser.
import type { RespondentClient } from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { PublicOrigin, secureCookiesFor } from "../../public-origin.js"

/** The browser continuity cookie. */
export const CONTINUITY_COOKIE = "folio_rt"
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/** The browser sent a continuity cookie: it may have a response to resume. */
export const hasContinuityCookie = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.cookies[CONTINUITY_COOKIE] !== undefined

/** The browser as the start use case sees it: its continuity cookie and its address and user agent. */
export const respondentClient = (
  request: HttpServerRequest.HttpServerRequest,
  confirmRepeat?: boolean | undefined
): RespondentClient => ({
  continuityToken: request.cookies[CONTINUITY_COOKIE],
  fingerprint: `${Option.getOrElse(request.remoteAddress, () => "")}\n${request.headers["user-agent"] ?? ""}`,
  confirmRepeat
})

/** The Set-Cookie value for a continuity token: the whole /f/ tree, a year, HttpOnly, Lax. */
export const continuityCookie = (continuityToken: string, publicOrigin: string): string => {
  const secure = secureCookiesFor(publicOrigin) ? "; Secure" : ""
  return `${CONTINUITY_COOKIE}=${continuityToken}; Path=/f/; Max-Age=${ONE_YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure}`
}

/** Sets the continuity cookie on the answer to the current request, whatever the route answers. */
export const setContinuityCookie = (continuityToken: string) =>
  Effect.flatMap(Effect.service(PublicOrigin), (origin) => {
    const cookie = continuityCookie(continuityToken, origin)
    return HttpEffect.appendPreResponseHandler((_req, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "set-cookie", cookie))
    )
  })

/** The first language the browser accepts (an interview picks among its own locales). */
export const acceptedLanguage = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const first = (request.headers["accept-language"] ?? "").split(",")[0]?.split(";")[0]?.trim()
  return first === undefined || first === "" || first === "*" ? undefined : first
}

/** The language a page asks for: its `?locale=`, else the browser's first accepted one. */
export const requestedLocale = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  new URL(request.url, "http://local").searchParams.get("locale") ?? acceptedLanguage(request)
