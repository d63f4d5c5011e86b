// The protected resource's metadata (RFC 9728): where an MCP client learns which authorization
// server issues tokens for the sharing endpoint (the endpoint's 401 challenge points here).
import { sharingMcpResource } from "../shared/protected-resource.js"

export { PROTECTED_RESOURCE_PATH } from "../shared/protected-resource.js"

export const protectedResourceMetadata = (publicOrigin: string) => ({
  resource: sharingMcpResource(publicOrigin),
  authorization_servers: [publicOrigin],
  scopes_supported: ["read", "write", "delete"],
  bearer_methods_supported: ["header"],
  resource_name: "Folio sharing"
})
