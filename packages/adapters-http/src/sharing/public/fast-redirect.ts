// The warm link redirect on plain node:http, in front of the Effect app. Routing a request through
// HttpRouter, the request guard and a fiber costs more CPU than the whole redirect decision, and the
// redirect is the service's hot path: a GET of `/s/{slug}` whose public link this instance already
// holds (WarmResources), with no password and no preview for this client, is decided and answered
// here with the same decision, headers and view counting as the route. Everything else (a cold slug,
// a page, a password, a state page, a preview bot, HEAD) returns false and goes to the Effect app,
// which also warms the cache for the next request.
import type { IncomingMessage, ServerResponse } from "node:http"
import {
  ArtifactsFeature,
  isResourceSlug,
  resourceServedPublicly,
  SuspendedAccounts,
  ViewCounter,
  VisitRecorder,
  WarmResources
} from "@folio/domain"
import { Effect, Option } from "effect"
import { PublicOrigin } from "../../public-origin.js"
import { redactSecrets, requestIdOf } from "../../shared/index.js"
import { CountryHeader, type RequestLike, visitFromRequest } from "../visit.js"
import {
  destinationOf,
  ownerDestinationOf,
  previewsFor,
  redirectHeaders,
  SEEN_COOKIE,
  VISITOR_COOKIE,
  viewOf,
  visitorFrom
} from "./link-redirect.js"
import { ClientIpHeader, recordVisit } from "./record-visit.js"

/** Answers the request and returns true, or returns false having touched nothing. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean

const PREFIX = "/s/"

/**
 * The two cookies the redirect reads, in one pass over the Cookie header (the first of a name wins;
 * their values' alphabets need no decoding).
 */
const redirectCookies = (header: string | undefined) => {
  let visitor: string | undefined
  let seen: string | undefined
  if (header !== undefined)
    for (const part of header.split(";")) {
      const eq = part.indexOf("=")
      if (eq <= 0) continue
      const name = part.slice(0, eq).trim()
      if (name === VISITOR_COOKIE) visitor ??= part.slice(eq + 1).trim()
      else if (name === SEEN_COOKIE) seen ??= part.slice(eq + 1).trim()
    }
  return { visitor, seen }
}

/** The slug of a `/s/{slug}` target, undefined for anything else (a sub-path, an encoded slug). */
const slugOf = (url: string): string | undefined => {
  if (!url.startsWith(PREFIX)) return undefined
  const end = url.indexOf("?")
  const slug = end < 0 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, end)
  return isResourceSlug(slug) ? slug : undefined
}

/**
 * The fast path over this instance's warm resources and view counter. With `accessLog`, each
 * answer is logged as the HTTP middleware logs one (the same JSON line, less the fiber id).
 */
export const makeFastRedirect = (options: { readonly accessLog: boolean }) =>
  Effect.gen(function* () {
    const warm = yield* WarmResources
    const suspended = yield* SuspendedAccounts
    const views = yield* ViewCounter
    const origin = yield* PublicOrigin
    const countryHeader = yield* CountryHeader
    const recording = { recorder: yield* VisitRecorder, ipHeader: yield* ClientIpHeader, countryHeader }
    const secure = origin.startsWith("https:") ? "; Secure" : ""
    // A request to an artifact deployment's origin is that site's, never the app's redirect.
    const artifactSuffix = `.${(yield* ArtifactsFeature).host}`
    const onArtifactHost = (host: string | undefined) =>
      host?.toLowerCase().replace(/:\d+$/, "").endsWith(artifactSuffix) === true

    const fastPath: FastPath = (request, response) => {
      const url = request.url ?? ""
      if (request.method !== "GET") return false
      const slug = slugOf(url)
      if (slug === undefined || onArtifactHost(request.headers.host)) return false
      const started = Date.now()
      const held = warm.peek(slug, started)
      if (held === undefined || Option.isNone(held)) return false
      const r = held.value
      // Private, or its account suspended: the route answers as for an unknown slug.
      if (r.type !== "link" || !resourceServedPublicly(suspended, r) || r.passwordHash !== null) return false
      const headers = request.headers as RequestLike["headers"]
      if (previewsFor(r.data, headers["user-agent"])) return false
      const cookie = redirectCookies(headers.cookie)
      const visitor = visitorFrom(cookie.visitor, secure)
      const minted = visitor.setCookie === undefined ? [] : [visitor.setCookie]
      const at = new Date(started)
      const visit = visitFromRequest({ headers, url }, { visitorId: visitor.id, at, countryHeader })
      const decided = destinationOf(r, visit, r.viewCount + views.pending(r.id))
      // Not started, expired or used up without a fallback: the route renders the state page.
      if (decided.destination === null) return false
      // The fallback of an unavailable link is not a view of the link.
      const view =
        decided.matched.kind === "fallback"
          ? { counts: false, cookies: minted }
          : viewOf(r, cookie.seen, minted, secure)
      if (view.counts) {
        views.recordNow(r.id)
        recordVisit(
          recording,
          r,
          { headers, url },
          request.socket.remoteAddress,
          started,
          ownerDestinationOf(r, decided.matched)
        )
        if (r.data.webhookClicks)
          views.recordClick({
            tenantId: r.tenantId,
            resourceId: r.id,
            slug: r.slug,
            destination: decided.destination,
            at
          })
      }
      const answer = redirectHeaders(r, decided.destination, view.cookies)
      answer["x-request-id"] = requestIdOf(headers["x-request-id"])
      answer["content-length"] = "0"
      response.writeHead(302, answer as Record<string, string | Array<string>>)
      response.end()
      // Redacted as the app's logger redacts its lines (a query may carry a `token` or `sig`).
      if (options.accessLog)
        console.log(
          JSON.stringify({
            message: "Sent HTTP response",
            level: "INFO",
            timestamp: at.toISOString(),
            annotations: { "http.method": "GET", "http.url": redactSecrets(url), "http.status": 302 },
            spans: { "http.span": Date.now() - started }
          })
        )
      return true
    }
    return fastPath
  })
