// What the forms and sharing MCP endpoints share: the stateless Streamable HTTP route (POST only, a
// sent Origin must equal PUBLIC_ORIGIN, the 1 MiB body, no batches, the caller carried with each
// exchange through one SDK Server), the tools' strict codecs, the tool errors of the service's error
// table, and the tools/list, tools/call and resources handlers. Each service hands in its tools, how
// a caller's scopes admit them, its authenticator, its resources and its error table.
import {
  type AuthenticationError,
  type ErrorAnswers,
  type Failure,
  RequestInvalid,
  type RequestError,
  RequestRefused,
  RequestTooLarge,
  scopeFailure,
  serverFault
} from "@folio/adapters-http/shared"
import {
  type InsufficientScope,
  type Issue,
  MAX_REQUEST_BODY_BYTES,
  Principal,
  type PrincipalShape,
  strictDecoder,
  unsafeTextIssues
} from "@folio/domain"
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js"
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Context, Effect, Result, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type DirectAnswer, ExchangeMultiplexer, exchange } from "./exchange.js"
import { errorResult, inputJsonSchema, outputJsonSchema, type ToolError, toolErrorSchema } from "./schemas.js"

/** What the endpoints need from the deployment. */
export class McpSettings extends Context.Service<
  McpSettings,
  { readonly publicOrigin: string; readonly serverVersion: string }
>()("@folio/adapters-mcp/McpSettings") {}

/** What an endpoint raises of its own; the service's error table must have a row for each. */
export type McpError = AuthenticationError | InsufficientScope | RequestError

/** The service's error table, as the endpoint uses it. */
export type McpErrors = ErrorAnswers<McpError>

/** What the core needs of a tool (both services' tool shapes have it). */
export interface CoreTool<C> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: Schema.Codec<unknown, unknown>
  readonly output: Schema.Codec<unknown, unknown>
  // biome-ignore lint/suspicious/noExplicitAny: each tool's requirements are the domain's ports
  readonly run: (input: any, context: C) => Effect.Effect<unknown, unknown, any>
}

/** How a caller's scopes admit a service's tools. */
export interface ToolAccess<T> {
  /** Whether tools/list shows the tool to the caller. */
  readonly visible: (principal: PrincipalShape, tool: T) => boolean
  /** The scopes a call needs before its input is read (refused first: 403 comes before 400). */
  readonly before: (principal: PrincipalShape, tool: T) => ReadonlyArray<string>
  /** Every scope this decoded input needs. */
  readonly after: (tool: T, input: unknown) => ReadonlyArray<string>
}

/** A resource the server lists, read for the caller. */
export interface CoreResource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  /** The resource's JSON for this caller; a failure is answered as an internal JSON-RPC error. */
  readonly read: (caller: Caller) => Promise<Result.Result<unknown, unknown>>
}

/** Who is calling, as the route hands it to the server with each exchange. */
export interface Caller {
  readonly principal: PrincipalShape
  /** Runs a use case as this caller (the Principal provided, with the route's services). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, never>) => Promise<Result.Result<A, E>>
}

const CALLER = "folioCaller"

/**
 * A JSON-RPC error for a handler to throw. The SDK sends a thrown error's `code` and `message`
 * as they are; its McpError puts "MCP error <code>:" into the message, and the client's McpError
 * adds the same prefix again, so the caller read it twice.
 */
export const rpcFailure = (code: ErrorCode, message: string) => Object.assign(new Error(message), { code })

const callerOf = (extra: { readonly authInfo?: AuthInfo | undefined }): Caller => {
  const caller = extra.authInfo?.extra?.[CALLER] as Caller | undefined
  // Every exchange is authenticated before it reaches the server; this is a wiring failure.
  if (caller === undefined) throw rpcFailure(ErrorCode.InternalError, "unauthenticated exchange")
  return caller
}

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
  (name: string) =>
  (issues: ReadonlyArray<Issue>): RequestInvalid => {
    const unknown = issues.filter((i) => i.rule === "unknownKey").map((i) => i.path.join("."))
    return new RequestInvalid({
      message:
        unknown.length > 0
          ? `unknown key${unknown.length > 1 ? "s" : ""} in ${name} input: ${unknown.join(", ")}`
          : `${name} input failed validation`,
      issues
    })
  }

/**
 * Each tool's strict input decoder (the kernel's, as REST bodies) and output encoder, built once.
 * Both work on the JSON form of the schemas, as the tools' JSON Schemas describe them. Input holding
 * text no store can keep (NUL, lone surrogates), unknown keys and bad values become value-free
 * issues, through the same kernel functions as REST.
 */
export const makeCodecs = (tools: ReadonlyArray<CoreTool<never>>) => {
  const codecs = new Map(
    tools.map((tool) => [
      tool.name,
      {
        decode: strictDecoder(Schema.toCodecJson(tool.input), invalidInput(tool.name)),
        encode: Schema.encodeUnknownEffect(Schema.toCodecJson(tool.output))
      }
    ])
  )
  const of = (name: string) => {
    const c = codecs.get(name)
    if (c === undefined) throw new Error(`no codecs for tool ${name}`)
    return c
  }
  return {
    decode: (name: string, args: unknown): Result.Result<unknown, RequestInvalid> => {
      const unsafe = unsafeTextIssues(args ?? {})
      if (unsafe.length > 0)
        return Result.fail(
          new RequestInvalid({ message: `${name} input holds text that cannot be stored`, issues: unsafe })
        )
      return of(name).decode(args ?? {})
    },
    encode: (name: string, value: unknown) => of(name).encode(value)
  }
}

/** What a service's MCP server is made of. */
export interface ToolServerSpec<T extends CoreTool<C>, C> {
  readonly name: string
  readonly version: string
  readonly instructions: string
  readonly tools: ReadonlyArray<T>
  readonly access: ToolAccess<T>
  readonly errors: McpErrors
  /** What every tool's run receives. */
  readonly toolContext: C
  readonly resources: ReadonlyArray<CoreResource>
}

/** A tool as tools/list shows it. */
interface ToolListing {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: ReturnType<typeof inputJsonSchema>
  readonly outputSchema: ReturnType<typeof outputJsonSchema>
}

/** The process's one MCP server of a service: each handler acts for the caller its exchange carries. */
export const makeToolServer = <T extends CoreTool<C>, C>(spec: ToolServerSpec<T, C>) => {
  const { errors, access, tools } = spec
  const codecs = makeCodecs(tools as unknown as ReadonlyArray<CoreTool<never>>)
  const toolError = toolErrorSchema(errors.keyedCodes)
  const failed = (e: McpError) => errorResult(toolErrorOf(errors.failureOf(e)))
  const server = new Server(
    { name: spec.name, version: spec.version },
    {
      capabilities: { tools: {}, resources: {} },
      jsonSchemaValidator: new AjvJsonSchemaValidator(),
      instructions: spec.instructions
    }
  )
  // Each tool's listing (with its JSON Schemas) is generated once, at the first listing, not at
  // start-up (the tools' schemas took ~0.1 s of every server start); a caller sees the ones it may
  // call.
  let listings: ReadonlyMap<string, ToolListing> | undefined
  const listingsOf = () =>
    (listings ??= new Map(
      tools.map((t) => [
        t.name,
        {
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: inputJsonSchema(t.input),
          outputSchema: outputJsonSchema(t.output, toolError)
        }
      ])
    ))
  const byName = new Map(tools.map((t) => [t.name, t]))
  const callTool = async (
    { principal, run }: Caller,
    params: { readonly name: string; readonly arguments?: unknown }
  ): Promise<CallToolResult> => {
    const tool = byName.get(params.name)
    if (tool === undefined) throw rpcFailure(ErrorCode.InvalidParams, `unknown tool: ${params.name}`)
    const first = access.before(principal, tool)
    const lacking = scopeFailure(principal, first)
    if (lacking !== undefined) return failed(lacking)
    const input = codecs.decode(tool.name, params.arguments)
    if (Result.isFailure(input)) return failed(input.failure)
    const all = access.after(tool, input.success)
    const lackingAll =
      all.length === 0 ? undefined : scopeFailure(principal, [...new Set([...first, ...all])])
    if (lackingAll !== undefined) return failed(lackingAll)
    const outcome = await run(
      Effect.flatMap(tool.run(input.success, spec.toolContext), (value) =>
        codecs.encode(tool.name, value)
      ) as Effect.Effect<unknown, unknown, never>
    )
    if (Result.isFailure(outcome))
      return errorResult(Result.getOrThrow(await run(toToolError(errors, outcome.failure))))
    return {
      content: [{ type: "text" as const, text: JSON.stringify(outcome.success) }],
      structuredContent: outcome.success as Record<string, unknown>
    }
  }
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { principal } = callerOf(extra)
    return {
      tools: tools.filter((t) => access.visible(principal, t)).flatMap((t) => listingsOf().get(t.name) ?? [])
    }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    callTool(callerOf(extra), request.params)
  )
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: spec.resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: "application/json"
    }))
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const caller = callerOf(extra)
    const resource = spec.resources.find((r) => r.uri === request.params.uri)
    if (resource === undefined)
      throw rpcFailure(ErrorCode.InvalidParams, `unknown resource: ${request.params.uri}`)
    const read = await resource.read(caller)
    if (Result.isFailure(read)) throw rpcFailure(ErrorCode.InternalError, `${resource.name} unavailable`)
    return {
      contents: [{ uri: resource.uri, mimeType: "application/json", text: JSON.stringify(read.success) }]
    }
  })
  /**
   * Tool calls, the hot path, are answered here rather than through the SDK's Protocol: the same
   * handler and the same JSON-RPC answer (a thrown error as the Protocol sends it), without its
   * re-parsing of the request (the exchange has checked it against the SDK's schema) and of our own
   * result, which cost more than the rest of the MCP layer. A call asking for a task goes to the SDK.
   */
  const direct: DirectAnswer = (message, authInfo) => {
    if (
      message.method !== "tools/call" ||
      (message.params as { task?: unknown } | undefined)?.task !== undefined
    )
      return undefined
    const params = message.params as { readonly name: string; readonly arguments?: unknown }
    return callTool(callerOf({ authInfo }), params).then(
      (result): JSONRPCMessage => ({ jsonrpc: "2.0", id: message.id, result }),
      (error: {
        readonly code?: unknown
        readonly message?: string
        readonly data?: unknown
      }): JSONRPCMessage => ({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError,
          message: error.message ?? "Internal error",
          ...(error.data === undefined ? {} : { data: error.data })
        }
      })
    )
  }
  return { server, direct }
}

const jsonRpcError = (status: number, code: number, message: string) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id: null }, { status })

/** A request's authentication: the caller, or the failure the error table answers. */
export type McpAuthenticator = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<PrincipalShape, AuthenticationError, HttpServerRequest.HttpServerRequest>

/** One service's endpoint, built when its route layer is. */
export interface McpEndpoint {
  /** The service's server and its direct answers (makeToolServer's). */
  readonly server: { readonly server: Server; readonly direct?: DirectAnswer }
  readonly authenticate: McpAuthenticator
  /** The services the tools run on (the route's context when it was built). */
  readonly context: Context.Context<never>
  /** Changes every 401 answer before it is sent (the sharing endpoint's WWW-Authenticate challenge). */
  readonly challenge?: (
    request: HttpServerRequest.HttpServerRequest,
    response: HttpServerResponse.HttpServerResponse
  ) => HttpServerResponse.HttpServerResponse
}

/**
 * The route of one service's endpoint at `path`: one handler for every method, so non-POST is
 * answered 405 after authentication. Its failures speak `errors`, the service's error table.
 */
export const mcpRoute = <R>(
  path: HttpRouter.PathInput,
  errors: McpErrors,
  make: Effect.Effect<McpEndpoint, never, R>
) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const settings = yield* McpSettings
      const endpoint = yield* make
      const context = endpoint.context
      const mux = new ExchangeMultiplexer()
      yield* Effect.promise(() => endpoint.server.server.connect(mux))

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
          const exchanged = yield* Effect.tryPromise(() =>
            exchange(request.headers, body, mux, authInfo, endpoint.server.direct)
          )
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

      const challenge = endpoint.challenge
      const handle = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const answered = Effect.matchEffect(endpoint.authenticate(request), {
          onFailure: (e) => errors.respond(e),
          onSuccess: (principal) => answer(request, principal)
        })
        return challenge === undefined
          ? answered
          : Effect.map(answered, (response) =>
              response.status === 401 ? challenge(request, response) : response
            )
      })
      yield* router.add("*", path, handle)
    })
  )
