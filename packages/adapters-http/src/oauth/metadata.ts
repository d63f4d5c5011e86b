// The protected resource's metadata (RFC 9728): where an MCP client learns which authorization
// server issues tokens for the sharing endpoint (the endpoint's 401 challenge points here).

/** The sharing MCP endpoint: the resource indicator and every access token's audience. */
export const sharingResourceOf = (publicOrigin: string): string => `${publicOrigin}/share/mcp`

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"

export const protectedResourceMetadata = (publicOrigin: string) => ({
  resource: sharingResourceOf(publicOrigin),
  authorization_servers: [publicOrigin],
  scopes_supported: ["read", "write", "delete"],
  bearer_methods_supported: ["header"],
  resource_name: "Folio sharing"
})
