// The authorization server on plain node:http, in front of the Effect app: its endpoints under
// /oauth/ (but the interaction pages, which the console renders), its discovery documents, and the
// protected resource metadata. The request's forwarded headers are set from the public origin, so
// every URL the server writes is the issuer's whatever Host the request came with.
/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Provider } from "oidc-provider"
import type { FastPath } from "../sharing/public/fast-redirect.js"
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from "./metadata.js"
import { INTERACTION_PREFIX } from "./provider.js"

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

export const makeOAuthFastPath = (provider: Provider, publicOrigin: string): FastPath => {
  const handle = provider.callback()
  const origin = new URL(publicOrigin)
  const proto = origin.protocol.slice(0, -1)
  return (request, response) => {
    const path = pathOf(request.url ?? "")
    if (METADATA_PATHS.has(path)) {
      answerMetadata(request, response, publicOrigin)
      return true
    }
    if (!isOAuthServerPath(path)) return false
    // The server trusts these two (provider.proxy): set here, never taken from the client.
    request.headers["x-forwarded-proto"] = proto
    request.headers["x-forwarded-host"] = origin.host
    handle(request, response)
    return true
  }
}
