// The authorization server's names and numbers, which the rest of the app uses without loading the
// server itself (provider.ts, which loads oidc-provider, is imported at its first request).

/** The sharing scopes (the domain's SHARING_SCOPES; what a token for the MCP endpoint may carry). */
export const OAUTH_RESOURCE_SCOPES = ["read", "write", "delete"] as const

/** Lifetimes, in seconds. */
export const OAUTH_TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  RefreshToken: 14 * 24 * 60 * 60,
  /** A grant outlives its tokens: refreshing keeps it in use until revoked or a year has passed. */
  Grant: 365 * 24 * 60 * 60,
  /** The browser's sign-in at the authorization server: short, since every authorization asks consent. */
  Session: 60 * 60,
  Interaction: 10 * 60,
  IdToken: 60 * 60
} as const

export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
  // Turned off below, but routes of features that are off must still name a path.
  end_session: "/oauth/end-session",
  introspection: "/oauth/introspect",
  userinfo: "/oauth/userinfo",
  pushed_authorization_request: "/oauth/par",
  code_verification: "/oauth/device",
  device_authorization: "/oauth/device/auth",
  backchannel_authentication: "/oauth/backchannel",
  challenge: "/oauth/challenge",
  credential: "/oauth/credential"
} as const

/** Where the console renders an interaction (sign-in and consent). */
export const INTERACTION_PREFIX = "/oauth/interaction/"

/** The cookies the authorization server sets (its own names, apart from the console's). */
export const OAUTH_COOKIE_NAMES = {
  session: "folio_oauth_session",
  interaction: "folio_oauth_interaction",
  resume: "folio_oauth_resume"
} as const

/** A WHATWG fetch for client metadata documents (the SSRF-safe one in production). */
export type MetadataFetch = (url: string | URL, init?: RequestInit) => Promise<Response>

/** A non-empty string, or null. */
export const stringOf = (value: unknown): string | null =>
  typeof value === "string" && value.length > 0 ? value : null

/** The workspace of an account id `tenantId:userId`; null for any other shape. */
export const tenantOfAccount = (accountId: unknown): string | null => {
  const account = stringOf(accountId)
  if (account === null) return null
  const colon = account.indexOf(":")
  return colon > 0 ? account.slice(0, colon) : null
}
