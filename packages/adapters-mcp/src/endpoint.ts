// The forms MCP endpoint: stateless Streamable HTTP at /forms/mcp, on the core the sharing endpoint
// shares (core.ts). Every request is authenticated by the HTTP layer's shared authenticator (the
// same keys, budgets, budget headers and usage counting as REST); tools run the domain's use cases
// with the key's Principal; every failure speaks the forms error table, which the app hands in
// (this package may import only the HTTP layer's shared entry).
import { makeRequestAuthenticator } from "@folio/adapters-http/shared"
import {
  type Capabilities,
  FormAuthoring,
  FormResponses,
  fileDownloadRoute,
  missingScopes,
  type PrincipalShape
} from "@folio/domain"
import { type Context, Effect, Result } from "effect"
import { type CoreTool, type McpErrors, McpSettings, toolServerSpec, mcpRoute } from "./core.js"
import { TOOLS, type ToolContext, type ToolSpec } from "./tools.js"

export { type McpError, type McpErrors, McpSettings } from "./core.js"

export const FORMS_MCP_PATH = "/forms/mcp" as const
export const CONTEXT_RESOURCE_URI = "svc://workspace/context"

/** The use-case services the tools run on (authentication takes its own ports when the route is built). */
const MCP_SERVICES = [FormAuthoring, FormResponses] as const
type McpServices = Context.Service.Identifier<(typeof MCP_SERVICES)[number]>

// biome-ignore lint/suspicious/noExplicitAny: the tool list mixes input and output types
type AnyTool = ToolSpec<any, any, any, any>

const ALL_TOOLS = TOOLS as ReadonlyArray<AnyTool>

const visibleTools = (principal: PrincipalShape): ReadonlyArray<AnyTool> =>
  ALL_TOOLS.filter((t) => missingScopes(principal, t.scopes).length === 0)

const workspaceContext = (principal: PrincipalShape, capabilities: Capabilities) => ({
  scopes: principal.scopes,
  tools: visibleTools(principal).map((t) => t.name),
  capabilities,
  constraints: {
    customScriptEditing: false,
    partialResponses: false,
    notes: [
      "Custom script (settings.customScript) cannot be edited over MCP; forms_update keeps the stored value out of reach.",
      "Partial (in-progress) responses are not readable over MCP; responses_query lists completed responses only.",
      "Every write is compare-and-set: read the form with forms_query action=get, send its draftRevision or settingsSignature, and on conflict read again and re-apply.",
      "Following a classic file downloadUrl needs an API key with files:read."
    ]
  }
})

/** The process's one forms MCP server. */
const makeServer = (errors: McpErrors, version: string, publicOrigin: string) =>
  toolServerSpec<AnyTool & CoreTool<ToolContext>, ToolContext>({
    name: "folio-forms",
    version,
    instructions:
      "Folio forms: read svc://workspace/context first (scopes, tools, allowed block types and features), then use forms_query to read, forms_create/forms_update to write drafts with compare-and-set tokens, forms_publication to publish, responses_query to read results.",
    tools: ALL_TOOLS,
    access: {
      visible: (principal, tool) => missingScopes(principal, tool.scopes).length === 0,
      before: (_principal, tool) => tool.scopes,
      after: (tool, input) => tool.extraScopes?.(input) ?? []
    },
    errors,
    toolContext: { fileUrl: fileDownloadRoute(publicOrigin) },
    resources: [
      {
        uri: CONTEXT_RESOURCE_URI,
        name: "workspace-context",
        title: "Workspace context",
        description:
          "The key's scopes, the tools it can see, the evaluated authoring capabilities (block types with their gates, render modes, form kinds, features) and the MCP-only constraints. Read it before writing a definition.",
        read: async (caller) => {
          const capabilities = await caller.run(
            FormAuthoring.use((forms) => forms.capabilities()) as Effect.Effect<Capabilities, unknown, never>
          )
          return Result.map(capabilities, (c) => workspaceContext(caller.principal, c))
        }
      }
    ]
  })

/**
 * The route: one handler for every method, so non-POST is answered 405 after authentication. Its
 * failures speak `errors`, the service's error table (the forms one, handed in by the app).
 */
export const formsMcpRoute = (errors: McpErrors) =>
  mcpRoute(
    FORMS_MCP_PATH,
    errors,
    Effect.gen(function* () {
      const settings = yield* McpSettings
      return {
        spec: makeServer(errors, settings.serverVersion, settings.publicOrigin),
        authenticate: yield* makeRequestAuthenticator("forms"),
        context: yield* Effect.context<McpServices>(),
        services: MCP_SERVICES
      }
    })
  )
