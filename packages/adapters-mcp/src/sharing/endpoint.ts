// The sharing MCP endpoint: stateless Streamable HTTP at /share/mcp on the core the forms endpoint
// shares (../core.ts). A `folio_` bearer is a sharing API key (the shared key authenticator: same
// budgets, headers and usage as REST); any other bearer goes to the token authenticator the app
// hands in (OAuth access tokens), refused when there is none. Every 401 carries the RFC 9728
// challenge naming the protected resource metadata. Tools are authorised through the domain's
// SHARING_OPERATION_SCOPES table; failures speak the sharing error table, handed in by the app.
import {
  makeRequestAuthenticator,
  protectedResourceMetadataUrl,
  SHARING_MCP_PATH,
  sharingMcpResource
} from "@folio/adapters-http/shared"
import {
  missingScopes,
  type PrincipalShape,
  ResourceRepository,
  SHARING_OPERATION_SCOPES,
  SharingAnalytics,
  SharingBio,
  SharingCollections,
  SharingFiles,
  SharingIdempotency,
  SharingJobs,
  type SharingOperation,
  SharingResources,
  SharingUploadRequests,
  SharingWebhooks
} from "@folio/domain"
import { type Context, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import {
  type CoreTool,
  type McpAuthenticator,
  type McpErrors,
  McpSettings,
  toolServerSpec,
  mcpRoute
} from "../core.js"
import { ACCOUNT_CONTEXT_URI, accountContext } from "./context.js"
import type { AnySharingTool, SharingToolContext } from "./tool.js"
import { SHARING_TOOL_LIMITS, SHARING_TOOLS } from "./tools/index.js"

export { protectedResourceMetadataUrl, SHARING_MCP_PATH, sharingMcpResource }

/** The services the tools run on (taken from the app; authentication takes its own ports). */
const SHARING_MCP_SERVICES = [
  SharingResources,
  SharingAnalytics,
  SharingCollections,
  SharingBio,
  SharingFiles,
  SharingUploadRequests,
  SharingJobs,
  SharingWebhooks,
  SharingIdempotency,
  ResourceRepository
] as const
export type SharingMcpServices = Context.Service.Identifier<(typeof SHARING_MCP_SERVICES)[number]>

const scopesOf = (operations: ReadonlyArray<SharingOperation>): ReadonlyArray<string> => [
  ...new Set(operations.flatMap((o) => SHARING_OPERATION_SCOPES[o]))
]

/** A tool is the caller's when it may run at least one of the tool's operations. */
const allowedAny = (principal: PrincipalShape, tool: AnySharingTool) =>
  tool.operations.some((o) => missingScopes(principal, SHARING_OPERATION_SCOPES[o]).length === 0)

export const visibleSharingTools = (
  principal: PrincipalShape,
  tools: ReadonlyArray<AnySharingTool> = SHARING_TOOLS
) => tools.filter((t) => allowedAny(principal, t))

const INSTRUCTIONS =
  "Folio sharing: read svc://account/context first (scopes, tools, features, limits, storage). Use sharing_query to find and read resources and their analytics, sharing_create / sharing_update for links (rules, variants), Markdown pages, collections and bio pages, sharing_link_simulate to dry-run a link, the markdown version tools to restore, and sharing_manage to archive, pin, label or delete. Inputs and outputs are the REST API's snake_case shapes; send expected_etag to write only what you read."

const makeServer = (
  errors: McpErrors,
  version: string,
  publicOrigin: string,
  tools: ReadonlyArray<AnySharingTool>
) =>
  toolServerSpec<AnySharingTool & CoreTool<SharingToolContext>, SharingToolContext>({
    name: "folio-sharing",
    version,
    instructions: INSTRUCTIONS,
    tools,
    access: {
      visible: allowedAny,
      // A caller allowed none of the tool's operations is refused before its input is read.
      before: (principal, tool) =>
        allowedAny(principal, tool) ? [] : SHARING_OPERATION_SCOPES[tool.operations[0] ?? "resources.get"],
      after: (tool, input) => scopesOf(tool.operationsOf(input))
    },
    errors,
    toolContext: { publicOrigin },
    resources: [
      {
        uri: ACCOUNT_CONTEXT_URI,
        name: "account-context",
        title: "Account context",
        description:
          "The caller's scopes, the tools it can see, the server's features and creatable resource types, the limits it meets (requests per minute, links per hour, body and upload sizes, what tools take inline) and the storage used against the quota. Read it before acting.",
        read: (caller) =>
          caller.run(
            accountContext(
              visibleSharingTools(caller.principal, tools).map((t) => t.name),
              SHARING_TOOL_LIMITS
            ) as Effect.Effect<unknown, unknown, never>
          )
      }
    ]
  })

/** Whether a request presents a bearer that is not a sharing API key (an OAuth access token). */
const presentsToken = (request: { readonly headers: Readonly<Record<string, string | undefined>> }) => {
  const header = request.headers.authorization ?? ""
  return header.startsWith("Bearer ") && !header.slice(7).startsWith("folio_")
}

export interface SharingMcpOptions<R> {
  /**
   * Authenticates a bearer that is not a `folio_` key (an OAuth access token for this resource), to
   * a Principal of the sharing service. Without one, such a bearer is refused (401) like a bad key.
   */
  readonly tokenAuthenticator?: Effect.Effect<McpAuthenticator, never, R>
}

/**
 * The route at /share/mcp. Its failures speak `errors`, the sharing error table (handed in by the
 * app, as forms' table is); every 401 says where the resource's metadata is, and `invalid_token`
 * when a credential was presented.
 */
export const sharingMcpRoute = <R = never>(errors: McpErrors, options: SharingMcpOptions<R> = {}) =>
  mcpRoute(
    SHARING_MCP_PATH,
    errors,
    Effect.gen(function* () {
      const settings = yield* McpSettings
      const keys = yield* makeRequestAuthenticator("sharing")
      const tokens = options.tokenAuthenticator === undefined ? undefined : yield* options.tokenAuthenticator
      const authenticate: McpAuthenticator = (request) =>
        tokens !== undefined && presentsToken(request) ? tokens(request) : keys(request)
      const metadata = protectedResourceMetadataUrl(settings.publicOrigin)
      return {
        spec: makeServer(errors, settings.serverVersion, settings.publicOrigin, SHARING_TOOLS),
        authenticate,
        context: yield* Effect.context<SharingMcpServices>(),
        services: SHARING_MCP_SERVICES,
        challenge: (request, response) =>
          HttpServerResponse.setHeader(
            response,
            "www-authenticate",
            request.headers.authorization === undefined
              ? `Bearer resource_metadata="${metadata}"`
              : `Bearer resource_metadata="${metadata}", error="invalid_token"`
          )
      }
    })
  )
