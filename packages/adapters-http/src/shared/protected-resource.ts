// The sharing MCP endpoint as an OAuth protected resource: its identifier (every access token's
// audience) and where its RFC 9728 metadata lives. The authorization server and the endpoint's 401
// challenge both read these, so the two cannot name different resources.

export const SHARING_MCP_PATH = "/share/mcp" as const

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"

const trimmed = (publicOrigin: string) => publicOrigin.replace(/\/+$/, "")

/** The sharing MCP resource's identifier: the resource indicator and every access token's audience. */
export const sharingMcpResource = (publicOrigin: string): string =>
  `${trimmed(publicOrigin)}${SHARING_MCP_PATH}`

/** The URL of the resource's metadata document (the path-suffixed form RFC 9728 defines). */
export const protectedResourceMetadataUrl = (publicOrigin: string): string =>
  `${trimmed(publicOrigin)}${PROTECTED_RESOURCE_PATH}${SHARING_MCP_PATH}`
