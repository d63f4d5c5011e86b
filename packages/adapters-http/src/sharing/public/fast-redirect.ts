// The warm link redirect on plain node:http, in front of the Effect app. Routing a request through
// HttpRouter, the request guard and a fiber costs more CPU than the whole redirect decision, and the
// redirect is the service's hot path: a GET of `/s/{slug}` whose resource this instance already
// holds (WarmResources) is decided by the same domain decision as the route, and answered here when
// the answer is a link's redirect, with the same headers, cookies and records. Every other answer (a
// page, a password, a state page, a preview) and a cold slug or a HEAD go to the Effect app, which
// also warms the cache for the next request.
import type { IncomingMessage, ServerResponse } from "node:http"
import {
  ArtifactsFeature,
  isResourceSlug,
  SuspendedAccounts,
  ViewCounter,
  VisitRecorder,
  WarmResources
} from "@folio/domain"
import { Context, Effect, Option } from "effect"
import { BlobSigningSecret } from "../../blobs/index.js"
import { PublicOrigin, secureCookiesFor } from "../../public-origin.js"
import { countFastRedirect, redactSecrets, requestIdOf } from "../../shared/index.js"
import { CountryHeader, type RequestLike } from "../visit.js"
import { deploymentOfHost } from "./artifact-site.js"
import { unlockSecretOf } from "./password.js"
import {
  decideRequest,
  type PublicRequest,
  recordDecided,
  redirectHeaders,
  setCookieValues,
  type VisitDeps
} from "./public-visit.js"
import { ClientIpHeader } from "./record-visit.js"

/** Answers the request and returns true, or returns false having touched nothing. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean

/**
 * Whether the fast path answers at all (on unless turned off): off, every request goes to the
 * routes, which give the same answers; a test compares the two.
 */
export const FastRedirectEnabled = Context.Reference<boolean>("@folio/adapters-http/FastRedirectEnabled", {
  defaultValue: () => true
})

const PREFIX = "/s/"

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
    if (!(yield* FastRedirectEnabled)) return (() => false) satisfies FastPath
    const warm = yield* WarmResources
    const origin = yield* PublicOrigin
    const countryHeader = yield* CountryHeader
    const deps: VisitDeps = {
      views: yield* ViewCounter,
      suspended: yield* SuspendedAccounts,
      unlockSecret: unlockSecretOf(yield* BlobSigningSecret),
      secureCookies: secureCookiesFor(origin),
      countryHeader,
      visits: { recorder: yield* VisitRecorder, ipHeader: yield* ClientIpHeader, countryHeader }
    }
    const artifactHost = (yield* ArtifactsFeature).host
    const counted = countFastRedirect(yield* Effect.context<never>())

    const fastPath: FastPath = (request, response) => {
      const url = request.url ?? ""
      if (request.method !== "GET") return false
      const slug = slugOf(url)
      // A request to an artifact deployment's origin is that site's, never the app's redirect.
      if (slug === undefined || deploymentOfHost(request.headers.host, artifactHost) !== undefined)
        return false
      // The one read of the clock for this request: the decision and its records take it.
      const started = Date.now()
      const held = warm.peek(slug, started)
      if (held === undefined || Option.isNone(held)) return false
      const r = held.value
      const asked: PublicRequest = { method: "GET", url, headers: request.headers as RequestLike["headers"] }
      const decided = decideRequest(deps, asked, r, started)
      // Only a link's redirect is answered here: the app renders every other answer (it decides the
      // same, being given the same facts).
      if (decided.answer._tag !== "LinkRedirect") return false
      recordDecided(deps, r, decided, asked, request.socket.remoteAddress)
      counted?.()
      const answer: Record<string, string | Array<string>> = redirectHeaders(
        decided.noindex,
        decided.answer.location
      )
      if (decided.cookies.length > 0) answer["set-cookie"] = setCookieValues(decided.cookies)
      answer["x-request-id"] = requestIdOf(asked.headers["x-request-id"])
      answer["content-length"] = "0"
      response.writeHead(302, answer)
      response.end()
      // Redacted as the app's logger redacts its lines (a query may carry a `token` or `sig`).
      if (options.accessLog)
        console.log(
          JSON.stringify({
            message: "Sent HTTP response",
            level: "INFO",
            timestamp: new Date(started).toISOString(),
            annotations: { "http.method": "GET", "http.url": redactSecrets(url), "http.status": 302 },
            spans: { "http.span": Date.now() - started }
          })
        )
      return true
    }
    return fastPath
  })
