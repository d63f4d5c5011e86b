// A service's MCP server over the SDK (its Server, with the tools/list, tools/call and resources
// handlers) and the tools' strict codecs. Loaded by the route at its first request, with the SDK
// (~0.2 s to load with zod and Ajv): a process that answers no MCP request never loads it.
import { type Failure, RequestInvalid, scopeFailure, serverFault } from "@folio/adapters-http/shared"
import { type Issue, strictDecoder, unsafeTextIssues } from "@folio/domain"
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
import { Effect, Result, Schema } from "effect"
import {
  CALLER,
  type Caller,
  type CoreTool,
  type McpError,
  type McpErrors,
  type ToolServerSpec
} from "./server-spec.js"
import { type DirectAnswer, type ExchangeAnswer, ExchangeMultiplexer, exchange } from "./exchange.js"
import { errorResult, inputJsonSchema, outputJsonSchema, type ToolError, toolErrorSchema } from "./schemas.js"

export { ExchangeMultiplexer, exchange }

/**
 * A JSON-RPC error for a handler to throw. The SDK sends a thrown error's `code` and `message`
 * as they are; its McpError puts "MCP error <code>:" into the message, and the client's McpError
 * adds the same prefix again, so the caller read it twice.
 */
export const rpcFailure = (code: ErrorCode, message: string): RpcFailure =>
  Object.assign(new Error(message), { code })

/** A JSON-RPC error as a handler throws it. */
export type RpcFailure = Error & { readonly code: ErrorCode }

/** A tool call's result; for a success, also its structured content's JSON text. */
interface ToolAnswer {
  readonly result: CallToolResult
  readonly text?: string
}

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
  /**
   * A tool call as an effect of the caller's fiber: its result, with the structured content's JSON
   * text when it succeeded (serialized once, for the text block and for the answer); it fails with
   * the JSON-RPC error to send when the tool is unknown.
   */
  const callTool = (
    caller: Caller,
    params: { readonly name: string; readonly arguments?: unknown }
  ): Effect.Effect<ToolAnswer, RpcFailure> =>
    Effect.suspend(() => {
      const { principal } = caller
      const tool = byName.get(params.name)
      if (tool === undefined)
        return Effect.fail(rpcFailure(ErrorCode.InvalidParams, `unknown tool: ${params.name}`))
      const first = access.before(principal, tool)
      const lacking = scopeFailure(principal, first)
      if (lacking !== undefined) return Effect.succeed({ result: failed(lacking) })
      const input = codecs.decode(tool.name, params.arguments)
      if (Result.isFailure(input)) return Effect.succeed({ result: failed(input.failure) })
      const all = access.after(tool, input.success)
      const lackingAll =
        all.length === 0 ? undefined : scopeFailure(principal, [...new Set([...first, ...all])])
      if (lackingAll !== undefined) return Effect.succeed({ result: failed(lackingAll) })
      return Effect.matchEffect(
        caller.provide(
          Effect.flatMap(tool.run(input.success, spec.toolContext), (value) =>
            codecs.encode(tool.name, value)
          ) as Effect.Effect<unknown, unknown, never>
        ),
        {
          onFailure: (e) => Effect.map(toToolError(errors, e), (error) => ({ result: errorResult(error) })),
          onSuccess: (value) => {
            const text = JSON.stringify(value)
            return Effect.succeed({
              result: {
                content: [{ type: "text" as const, text }],
                structuredContent: value as Record<string, unknown>
              },
              text
            })
          }
        }
      )
    })
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { principal } = callerOf(extra)
    return {
      tools: tools.filter((t) => access.visible(principal, t)).flatMap((t) => listingsOf().get(t.name) ?? [])
    }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const answered = await Effect.runPromise(Effect.result(callTool(callerOf(extra), request.params)))
    if (Result.isFailure(answered)) throw answered.failure
    return answered.success.result
  })
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
   * result, which cost more than the rest of the MCP layer; in the request's fiber, and a success
   * written around the structured content's text rather than serialized a second time. A call
   * asking for a task goes to the SDK.
   */
  const direct: DirectAnswer = (message, authInfo) => {
    if (
      message.method !== "tools/call" ||
      (message.params as { task?: unknown } | undefined)?.task !== undefined
    )
      return undefined
    const params = message.params as { readonly name: string; readonly arguments?: unknown }
    const answer = (body: JSONRPCMessage): ExchangeAnswer => ({ status: 200, body })
    const rpcError = (code: number, text: string) =>
      answer({ jsonrpc: "2.0", id: message.id, error: { code, message: text } })
    return Effect.suspend(() => callTool(callerOf({ authInfo }), params)).pipe(
      Effect.map(({ result, text }): ExchangeAnswer => {
        if (text === undefined) return answer({ jsonrpc: "2.0", id: message.id, result })
        // The message JSON.stringify would write, with the structured content serialized once.
        const json = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}}`
        return { status: 200, json }
      }),
      Effect.catchDefect((defect) =>
        Effect.as(
          Effect.logError("mcp tool failure", defect),
          rpcError(ErrorCode.InternalError, "Internal error")
        )
      ),
      Effect.catch((failure) => Effect.succeed(rpcError(failure.code, failure.message)))
    )
  }
  return { server, direct }
}
