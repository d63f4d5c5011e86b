// The authorization server on plain node:http, in front of the Effect app: its endpoints under
// /oauth/ (but the interaction pages, which the console renders), its discovery documents, and the
// protected resource metadata. The request's forwarded headers are set from the public origin, so
// every URL the server writes is the issuer's whatever Host the request came with.
/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Provider } from "oidc-provider"
import { redactSecrets } from "../shared/secret-urls.js"
import type { FastPath } from "../sharing/public/fast-redirect.js"
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from "./metadata.js"
import { INTERACTION_PREFIX, OAUTH_ROUTES } from "./names.js"

const DISCOVERY_PATHS = new Set([
  "/.well-known/oauth-authorization-server",
  "/.well-known/openid-configuration"
])
const METADATA_PATHS = new Set([PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/share/mcp`])

const pathOf = (url: string): string => {
  const end = url.indexOf("?")
  return end < 0 ? url : url.slice(0, end)
}

/** Whether the authorization server answers this path. */
export const isOAuthServerPath = (path: string): boolean =>
  DISCOVERY_PATHS.has(path) || (path.startsWith("/oauth/") && !path.startsWith(INTERACTION_PREFIX))

const answerMetadata = (request: IncomingMessage, response: ServerResponse, publicOrigin: string) => {
  if (request.method === "OPTIONS") {
    response.writeHead(204, {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET",
      "access-control-allow-headers": "mcp-protocol-version"
    })
    response.end()
    return
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-length": "0" })
    response.end()
    return
  }
  const body = JSON.stringify(protectedResourceMetadata(publicOrigin))
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "public, max-age=3600",
    "access-control-allow-origin": "*"
  })
  response.end(request.method === "HEAD" ? undefined : body)
}

/**
 * Whether a request from `address` may go on (the registration budget); answered false, the mount
 * refuses it with 429. Registration is open, so each address registers a bounded number of clients.
 */
export type RegistrationBudget = (address: string) => Promise<boolean>

export interface OAuthMountOptions {
  /** Log each answer as the app's access log does (one JSON line, the URL redacted). */
  readonly accessLog: boolean
  readonly registrationBudget: RegistrationBudget
}

const tooMany = (response: ServerResponse) => {
  const body = JSON.stringify({
    error: "temporarily_unavailable",
    error_description: "too many client registrations from this address; try again later"
  })
  response.writeHead(429, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "retry-after": "3600",
    "cache-control": "no-store"
  })
  response.end(body)
}

const logAnswer = (request: IncomingMessage, response: ServerResponse, started: number) =>
  response.once("finish", () =>
    console.log(
      JSON.stringify({
        message: "Sent HTTP response",
        level: "INFO",
        timestamp: new Date(started).toISOString(),
        annotations: {
          "http.method": request.method,
          "http.url": redactSecrets(request.url ?? ""),
          "http.status": response.statusCode
        },
        spans: { "http.span": Date.now() - started }
      })
    )
  )

/** The server could not be built (it is built at its first request): the request is answered 500. */
const unavailable = (response: ServerResponse) => {
  if (response.headersSent) return
  const body = JSON.stringify({
    error: "server_error",
    error_description: "the authorization server is unavailable"
  })
  response.writeHead(500, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store"
  })
  response.end(body)
}

export const makeOAuthFastPath = (
  providerNow: () => Promise<Provider>,
  publicOrigin: string,
  options: OAuthMountOptions
): FastPath => {
  // The server's handler, from the provider built at the first request it answers (the request
  // stays paused, its body unread, until then).
  let callback: Promise<ReturnType<Provider["callback"]>> | undefined
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    callback ??= providerNow().then((provider) => provider.callback())
    callback.then(
      (answer) => answer(request, response),
      (error: unknown) => {
        console.error("authorization server unavailable", error instanceof Error ? error.name : "unknown")
        unavailable(response)
      }
    )
  }
  const origin = new URL(publicOrigin)
  const proto = origin.protocol.slice(0, -1)
  return (request, response) => {
    const path = pathOf(request.url ?? "")
    const metadata = METADATA_PATHS.has(path)
    if (!metadata && !isOAuthServerPath(path)) return false
    if (options.accessLog) logAnswer(request, response, Date.now())
    if (metadata) {
      answerMetadata(request, response, publicOrigin)
      return true
    }
    // The server trusts these two (provider.proxy): set here, never taken from the client.
    request.headers["x-forwarded-proto"] = proto
    request.headers["x-forwarded-host"] = origin.host
    if (request.method === "POST" && path === OAUTH_ROUTES.registration) {
      // The body stays unread (paused) while the budget is asked; the server reads it afterwards.
      options.registrationBudget(request.socket.remoteAddress ?? "unknown").then(
        (allowed) => (allowed ? handle(request, response) : tooMany(response)),
        () => handle(request, response)
      )
      return true
    }
    handle(request, response)
    return true
  }
}
