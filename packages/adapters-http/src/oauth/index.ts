// The OAuth authorization server (issue 33): its layer, the consent routes the console serves, and
// the protected resource's metadata helpers the sharing MCP endpoint answers 401s with.
export * from "./metadata.js"
export { OAUTH_COOKIE_NAMES, OAUTH_ROUTES, OAUTH_TTL, type MetadataFetch } from "./names.js"
export { OAuthInteractions, OAuthServer, OAuthServerLive, type OAuthServerOptions } from "./server.js"
export type { PendingAuthorization, OAuthInteractionsService } from "./interactions.js"
export { OAuthConsentRoutes } from "./consent-routes.js"
