// @folio/adapters-mcp: the forms MCP endpoint (stateless Streamable HTTP at /forms/mcp), built on
// @modelcontextprotocol/sdk and the domain's use cases. Register `formsMcpRoute(errors)` on the app's
// HttpRouter (it is a router layer), with the forms error table, and provide `McpSettings`.
export {
  CONTEXT_RESOURCE_URI,
  FORMS_MCP_PATH,
  formsMcpRoute,
  type McpError,
  type McpErrors,
  McpSettings
} from "./endpoint.js"
export { inputJsonSchema, outputJsonSchema, type ToolError, toolErrorSchema } from "./schemas.js"
export { TOOLS } from "./tools.js"
