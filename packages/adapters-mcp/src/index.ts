// @folio/adapters-mcp: the forms and sharing MCP endpoints (stateless Streamable HTTP at /forms/mcp
// and /share/mcp, one core), built on @modelcontextprotocol/sdk and the domain's use cases. Register
// `formsMcpRoute(errors)` and `sharingMcpRoute(errors, options)` on the app's HttpRouter (router
// layers), each with its service's error table, and provide `McpSettings`.
export { type McpAuthenticator, type McpError, type McpErrors, McpSettings } from "./core.js"
export { CONTEXT_RESOURCE_URI, FORMS_MCP_PATH, formsMcpRoute } from "./endpoint.js"
export { inputJsonSchema, outputJsonSchema, type ToolError, toolErrorSchema } from "./schemas.js"
export { ACCOUNT_CONTEXT_URI } from "./sharing/context.js"
export {
  protectedResourceMetadataUrl,
  SHARING_MCP_PATH,
  type SharingMcpOptions,
  sharingMcpResource,
  sharingMcpRoute,
  visibleSharingTools
} from "./sharing/endpoint.js"
export {
  type AnySharingTool,
  type SharingToolContext,
  type SharingToolSpec,
  sharingTool
} from "./sharing/tool.js"
export { SHARING_TOOLS } from "./sharing/tools/index.js"
export { TOOLS } from "./tools.js"
