// @folio/adapters-mcp: the forms MCP endpoint (stateless Streamable HTTP at /forms/mcp). Not built
// yet: it is issue 6, which builds on the REST and responses issues. Only its mount path lives here.
export const FORMS_MCP_PATH = "/forms/mcp"
