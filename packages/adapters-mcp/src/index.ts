// @folio/adapters-mcp: the forms MCP endpoint (stateless Streamable HTTP at /forms/mcp), built on
// @modelcontextprotocol/sdk and the domain's use cases. Register `FormsMcpRoute` on the app's
// HttpRouter (it is a router layer) and provide `McpSettings`.
export { CONTEXT_RESOURCE_URI, FORMS_MCP_PATH, FormsMcpRoute, McpSettings } from "./endpoint.js"
export { inputJsonSchema, outputJsonSchema, ToolError } from "./schemas.js"
export { TOOLS } from "./tools.js"
