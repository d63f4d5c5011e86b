// The authorization server's configuration: oidc-provider (a certified OAuth 2.1 / OpenID server)
// with the issuer at the public origin, its endpoints under /oauth/, the sharing MCP endpoint as the
// one protected resource (the audience of every access token), PKCE for every client, consent on
// every authorization, open dynamic registration and client ID metadata documents, and its
// artifacts in the OAuthStore.
/// <reference path="./oidc-provider.d.ts" />
import type { OAuthStoreService } from "@folio/domain"
import { errors, Provider } from "oidc-provider"
import { escapeHtml } from "../shared/html.js"
import { storeAdapter } from "./adapter.js"
import { cookieKeysOf, signingJwkOf } from "./keys.js"
import {
  INTERACTION_PREFIX,
  type MetadataFetch,
  OAUTH_COOKIE_NAMES,
  OAUTH_RESOURCE_SCOPES,
  OAUTH_ROUTES,
  OAUTH_TTL
} from "./names.js"

export interface OAuthProviderOptions {
  /** PUBLIC_ORIGIN, no path. */
  readonly issuer: string
  /** The protected resource: `${issuer}/share/mcp`. */
  readonly resource: string
  /** The app's secret, the keys are derived from. */
  readonly secret: string
  readonly store: OAuthStoreService
  readonly fetch: MetadataFetch
}

/** The size a client metadata document may have (the draft's advice: small). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024

interface ClientLike {
  grantTypeAllowed(type: string): boolean
}

interface ResultContext {
  readonly oidc: {
    readonly result?: { readonly consent?: { readonly grantId?: string } } | undefined
    readonly provider: Provider
  }
}

interface ErrorContext {
  type: string
  body: string
}

/**
 * A refusal the server cannot send back to the client (an unknown client, a redirect URI it did
 * not register) is a page for the person: the error code and its description, nothing else.
 */
const renderError = async (ctx: ErrorContext, out: Record<string, unknown>) => {
  const code = escapeHtml(String(out.error ?? "server_error"))
  const description = escapeHtml(String(out.error_description ?? ""))
  ctx.type = "html"
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Authorization refused · Folio</title></head><body><main><h1>This application's request was refused</h1><p><code>${code}</code>: ${description}</p><p>Go back to the application and try again, or ask its publisher.</p></main></body></html>`
}

export const makeOAuthProvider = (options: OAuthProviderOptions): Provider => {
  const secure = options.issuer.startsWith("https:")
  const cookie = { httpOnly: true, sameSite: "lax", secure, signed: true }
  const provider = new Provider(options.issuer, {
    adapter: storeAdapter(options.store),
    clients: [],
    // The account is `tenantId:userId`: the person acting in one workspace. No claims beyond sub.
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    jwks: { keys: [signingJwkOf(options.secret)] },
    cookies: {
      keys: [...cookieKeysOf(options.secret)],
      names: OAUTH_COOKIE_NAMES,
      long: cookie,
      short: cookie
    },
    routes: OAUTH_ROUTES,
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PREFIX}${interaction.uid}`
    },
    // Every authorization asks consent: only the grant the interaction has just created is loaded,
    // never one an earlier authorization of the same client left in the session.
    loadExistingGrant: async (ctx: ResultContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId
      return grantId === undefined ? undefined : ctx.oidc.provider.Grant.find(grantId)
    },
    scopes: ["openid", "offline_access", ...OAUTH_RESOURCE_SCOPES],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      // The one signing key is ES256 (the library's default alg is RS256).
      id_token_signed_response_alg: "ES256"
    },
    // A client allowed the refresh_token grant gets a refresh token (no offline_access needed),
    // rotated on every use; tokens do not end with the browser's session at the server.
    issueRefreshToken: async (_ctx: unknown, client: ClientLike) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: OAUTH_TTL,
    renderError,
    fetch: options.fetch,
    fetchResponseBodyLimits: {
      "client_id metadata document": CLIENT_METADATA_MAX_BYTES,
      jwks_uri: 64 * 1024,
      sector_identifier_uri: 64 * 1024
    },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId
      },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => options.resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== options.resource) throw new errors.InvalidTarget()
          return {
            scope: OAUTH_RESOURCE_SCOPES.join(" "),
            audience: options.resource,
            accessTokenTTL: OAUTH_TTL.AccessToken,
            accessTokenFormat: "opaque"
          }
        }
      }
    }
  })
  // The public origin (from configuration) names every URL the server writes, whatever the
  // request's Host: the mount sets the forwarded headers from it.
  provider.proxy = true
  return provider
}
