// The protected resource's metadata (RFC 9728): where an MCP client learns which authorization
// server issues tokens for the sharing endpoint, and the header every 401 of that endpoint carries.

/** The sharing MCP endpoint: the resource indicator and every access token's audience. */
export const sharingResourceOf = (publicOrigin: string): string => `${publicOrigin}/share/mcp`

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"

/** The metadata URL of the resource (the well-known prefix before the resource's path). */
export const resourceMetadataUrlOf = (publicOrigin: string): string =>
  `${publicOrigin}${PROTECTED_RESOURCE_PATH}/share/mcp`

export const protectedResourceMetadata = (publicOrigin: string) => ({
  resource: sharingResourceOf(publicOrigin),
  authorization_servers: [publicOrigin],
  scopes_supported: ["read", "write", "delete"],
  bearer_methods_supported: ["header"],
  resource_name: "Folio sharing"
})

/** `WWW-Authenticate` of a 401: where the metadata is, and whether a presented token was refused. */
export const bearerChallenge = (publicOrigin: string, tokenRefused: boolean): string =>
  `Bearer resource_metadata="${resourceMetadataUrlOf(publicOrigin)}"${tokenRefused ? ', error="invalid_token"' : ""}`
