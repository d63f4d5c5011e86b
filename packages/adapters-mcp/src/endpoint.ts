// The forms MCP endpoint: stateless Streamable HTTP at /forms/mcp. Every request is authenticated
// by the HTTP layer's shared authenticator (the same keys, budgets, budget headers and usage counting
// as REST); then only POST is accepted, a sent Origin must equal PUBLIC_ORIGIN, batches are refused,
// and the process's one SDK Server answers the JSON-RPC message in JSON through a multiplexing
// transport that carries the caller with it (no sessions, no SSE, no resume; see exchange.ts). Tools
// run the domain's use cases with the key's Principal; every failure speaks the forms error table,
// which the app hands in (this package may import only the HTTP layer's shared entry).
import {
  type AuthenticationError,
  type ErrorAnswers,
  type Failure,
  makeRequestAuthenticator,
  RequestInvalid,
  type RequestError,
  RequestRefused,
  RequestTooLarge,
  scopeFailure,
  serverFault
} from "@folio/adapters-http/shared"
import {
  type Capabilities,
  FormAuthoring,
  type FormResponses,
  fileDownloadRoute,
  type InsufficientScope,
  type Issue,
  MAX_REQUEST_BODY_BYTES,
  missingScopes,
  Principal,
  type PrincipalShape,
  strictDecoder,
  unsafeTextIssues
} from "@folio/domain"
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Context, Effect, Result, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ExchangeMultiplexer, exchange } from "./exchange.js"
import { errorResult, inputJsonSchema, outputJsonSchema, type ToolError, toolErrorSchema } from "./schemas.js"
import { TOOLS, type ToolSpec } from "./tools.js"

export const FORMS_MCP_PATH = "/forms/mcp"
export const CONTEXT_RESOURCE_URI = "svc://workspace/context"

/** The use-case services the tools run on (authentication takes its own ports when the route is built). */
type McpServices = FormAuthoring | FormResponses

/** What the endpoint needs from the deployment. */
export class McpSettings extends Context.Service<
  McpSettings,
  { readonly publicOrigin: string; readonly serverVersion: string }
>()("@folio/adapters-mcp/McpSettings") {}

/** What the endpoint raises of its own; the service's error table must have a row for each. */
export type McpError = AuthenticationError | InsufficientScope | RequestError

/** The service's error table, as the endpoint uses it. */
export type McpErrors = ErrorAnswers<McpError>

const jsonRpcError = (status: number, code: number, message: string) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id: null }, { status })

// biome-ignore lint/suspicious/noExplicitAny: the tool list mixes input and output types
type AnyTool = ToolSpec<any, any, any, any>

const visibleTools = (principal: PrincipalShape): ReadonlyArray<AnyTool> =>
  (TOOLS as ReadonlyArray<AnyTool>).filter((t) => missingScopes(principal, t.scopes).length === 0)

/** A failure as a tool error: the code, message and value-free details REST sends for it. */
const toolErrorOf = (failure: Failure): ToolError => ({
  error: {
    code: failure.code,
    message: failure.message,
    ...(failure.details === undefined ? {} : { details: failure.details })
  }
})

/** Any failure of a tool: through the error table; what it has no row for is a server fault. */
const toToolError = (errors: McpErrors, e: unknown): Effect.Effect<ToolError> => {
  const failure = errors.lookup(e) ?? errors.failureOf(serverFault())
  return failure.status >= 500
    ? Effect.as(Effect.logError("mcp tool failure", e), toolErrorOf(failure))
    : Effect.succeed(toolErrorOf(failure))
}

/** An invalid tool input, naming its unknown keys when that is what is wrong. */
const invalidInput =
  (tool: AnyTool) =>
  (issues: ReadonlyArray<Issue>): RequestInvalid => {
    const unknown = issues.filter((i) => i.rule === "unknownKey").map((i) => i.path.join("."))
    return new RequestInvalid({
      message:
        unknown.length > 0
          ? `unknown key${unknown.length > 1 ? "s" : ""} in ${tool.name} input: ${unknown.join(", ")}`
          : `${tool.name} input failed validation`,
      issues
    })
  }

/**
 * Each tool's strict input decoder (the kernel's, as REST bodies) and output encoder, built once.
 * Both work on the JSON form of the schemas, as the tools' JSON Schemas describe them.
 */
const codecs = new Map(
  (TOOLS as ReadonlyArray<AnyTool>).map((tool) => [
    tool.name,
    {
      decode: strictDecoder(
        Schema.toCodecJson(tool.input as Schema.Codec<unknown, unknown>),
        invalidInput(tool)
      ),
      encode: Schema.encodeUnknownEffect(Schema.toCodecJson(tool.output as Schema.Codec<unknown, unknown>))
    }
  ])
)
const codecsOf = (tool: AnyTool) => {
  const c = codecs.get(tool.name)
  if (c === undefined) throw new Error(`no codecs for tool ${tool.name}`)
  return c
}

/**
 * Strict decoding of tool input: text no store can keep (NUL, lone surrogates) and unknown keys and
 * bad values become value-free issues, through the same kernel functions as REST.
 */
const decodeInput = (tool: AnyTool, args: unknown): Result.Result<unknown, RequestInvalid> => {
  const unsafe = unsafeTextIssues(args ?? {})
  if (unsafe.length > 0)
    return Result.fail(
      new RequestInvalid({ message: `${tool.name} input holds text that cannot be stored`, issues: unsafe })
    )
  return codecsOf(tool).decode(args ?? {})
}

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

/** Who is calling, as the route hands it to the server with each exchange. */
interface Caller {
  readonly principal: PrincipalShape
  /** Runs a use case as this caller (the key's Principal provided). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, never>) => Promise<Result.Result<A, E>>
}

const CALLER = "folioCaller"

/**
 * A JSON-RPC error for a handler to throw. The SDK sends a thrown error's `code` and `message`
 * as they are; its McpError puts "MCP error <code>:" into the message, and the client's McpError
 * adds the same prefix again, so the caller read it twice.
 */
const rpcFailure = (code: ErrorCode, message: string) => Object.assign(new Error(message), { code })

const callerOf = (extra: { readonly authInfo?: AuthInfo | undefined }): Caller => {
  const caller = extra.authInfo?.extra?.[CALLER] as Caller | undefined
  // Every exchange is authenticated before it reaches the server; this is a wiring failure.
  if (caller === undefined) throw rpcFailure(ErrorCode.InternalError, "unauthenticated exchange")
  return caller
}

/** The process's one MCP server: each handler acts for the caller its exchange carries. */
const makeServer = (
  errors: McpErrors,
  version: string,
  fileUrl: (file: { readonly formId: string; readonly id: string }) => string
) => {
  const toolError = toolErrorSchema(errors.keyedCodes)
  const failed = (e: McpError) => errorResult(toolErrorOf(errors.failureOf(e)))
  const server = new Server(
    { name: "folio-forms", version },
    {
      capabilities: { tools: {}, resources: {} },
      jsonSchemaValidator: new AjvJsonSchemaValidator(),
      instructions:
        "Folio forms: read svc://workspace/context first (scopes, tools, allowed block types and features), then use forms_query to read, forms_create/forms_update to write drafts with compare-and-set tokens, forms_publication to publish, responses_query to read results."
    }
  )
  // Each tool's listing (with its JSON Schemas) is generated once; a key sees the ones it may call.
  const listings = new Map(
    (TOOLS as ReadonlyArray<AnyTool>).map((t) => [
      t.name,
      {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: inputJsonSchema(t.input),
        outputSchema: outputJsonSchema(t.output, toolError)
      }
    ])
  )
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: visibleTools(callerOf(extra).principal).flatMap((t) => listings.get(t.name) ?? [])
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, handlerExtra) => {
    const { principal, run } = callerOf(handlerExtra)
    const tool = (TOOLS as ReadonlyArray<AnyTool>).find((t) => t.name === request.params.name)
    if (tool === undefined) throw rpcFailure(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`)
    const lacking = scopeFailure(principal, tool.scopes)
    if (lacking !== undefined) return failed(lacking)
    const input = decodeInput(tool, request.params.arguments)
    if (Result.isFailure(input)) return failed(input.failure)
    const extra = tool.extraScopes?.(input.success) ?? []
    const lackingExtra =
      extra.length === 0 ? undefined : scopeFailure(principal, [...new Set([...tool.scopes, ...extra])])
    if (lackingExtra !== undefined) return failed(lackingExtra)
    const outcome = await run(
      Effect.flatMap(tool.run(input.success, { fileUrl }), (value) =>
        codecsOf(tool).encode(value)
      ) as Effect.Effect<unknown, unknown, never>
    )
    if (Result.isFailure(outcome))
      return errorResult(Result.getOrThrow(await run(toToolError(errors, outcome.failure))))
    return {
      content: [{ type: "text" as const, text: JSON.stringify(outcome.success) }],
      structuredContent: outcome.success as Record<string, unknown>
    }
  })
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: CONTEXT_RESOURCE_URI,
        name: "workspace-context",
        title: "Workspace context",
        description:
          "The key's scopes, the tools it can see, the evaluated authoring capabilities (block types with their gates, render modes, form kinds, features) and the MCP-only constraints. Read it before writing a definition.",
        mimeType: "application/json"
      }
    ]
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { principal, run } = callerOf(extra)
    if (request.params.uri !== CONTEXT_RESOURCE_URI) {
      throw rpcFailure(ErrorCode.InvalidParams, `unknown resource: ${request.params.uri}`)
    }
    const capabilities = await run(
      FormAuthoring.use((forms) => forms.capabilities()) as Effect.Effect<Capabilities, unknown, never>
    )
    if (Result.isFailure(capabilities))
      throw rpcFailure(ErrorCode.InternalError, "workspace context unavailable")
    return {
      contents: [
        {
          uri: CONTEXT_RESOURCE_URI,
          mimeType: "application/json",
          text: JSON.stringify(workspaceContext(principal, capabilities.success))
        }
      ]
    }
  })
  return server
}

/**
 * The route: one handler for every method, so non-POST is answered 405 after authentication. Its
 * failures speak `errors`, the service's error table (the forms one, handed in by the app).
 */
export const formsMcpRoute = (errors: McpErrors) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const settings = yield* McpSettings
      const context = yield* Effect.context<McpServices>()
      const authenticate = yield* makeRequestAuthenticator("forms")
      const mux = new ExchangeMultiplexer()
      yield* Effect.promise(() =>
        makeServer(errors, settings.serverVersion, fileDownloadRoute(settings.publicOrigin)).connect(mux)
      )

      const answer = (request: HttpServerRequest.HttpServerRequest, principal: PrincipalShape) =>
        Effect.gen(function* () {
          if (request.method !== "POST") {
            return yield* errors.respond(
              new RequestInvalid({ message: "the MCP endpoint accepts POST only" }),
              {
                status: 405,
                headers: { allow: "POST" }
              }
            )
          }
          const origin = request.headers.origin
          if (origin !== undefined && origin !== settings.publicOrigin) {
            return yield* errors.respond(
              new RequestRefused({ message: "Origin does not match this deployment" })
            )
          }
          const text = yield* Effect.result(request.text)
          if (Result.isFailure(text)) {
            return yield* errors.respond(
              new RequestTooLarge({ message: `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` })
            )
          }
          let body: unknown
          try {
            body = JSON.parse(text.success)
          } catch {
            return jsonRpcError(400, ErrorCode.ParseError, "request body is not valid JSON")
          }
          if (Array.isArray(body)) {
            return jsonRpcError(
              400,
              ErrorCode.InvalidRequest,
              "JSON-RPC batches are not supported; send one message per request"
            )
          }
          const caller: Caller = {
            principal,
            run: <A, E>(effect: Effect.Effect<A, E, never>) =>
              Effect.runPromiseWith(context)(
                Effect.result(Effect.provideService(effect, Principal, principal))
              )
          }
          const authInfo: AuthInfo = {
            token: "redacted",
            clientId: principal.keyId,
            scopes: [...principal.scopes],
            extra: { [CALLER]: caller }
          }
          const exchanged = yield* Effect.tryPromise(() => exchange(request.headers, body, mux, authInfo))
          return exchanged.body === undefined
            ? HttpServerResponse.empty({ status: exchanged.status })
            : HttpServerResponse.jsonUnsafe(exchanged.body, { status: exchanged.status })
        }).pipe(
          Effect.catchCause((cause) =>
            Effect.andThen(
              Effect.logError("mcp request failed", Cause.pretty(cause)),
              errors.respond(serverFault())
            )
          )
        )

      const handle = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.matchEffect(authenticate(request), {
          onFailure: (e) => errors.respond(e),
          onSuccess: (principal) => answer(request, principal)
        })
      )
      yield* router.add("*", FORMS_MCP_PATH, handle)
    })
  )
