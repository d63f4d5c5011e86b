// One Streamable HTTP POST exchange for a stateless server, as the SDK's Web-standard transport
// answers it in JSON-response mode (same checks, same status codes), without building Web
// Request/Response objects per call: Accept must list application/json and text/event-stream
// (406), Content-Type must be JSON (415), the body must be one JSON-RPC message (400), a
// sent MCP-Protocol-Version must be supported (400); a request is answered with its JSON-RPC
// response (200), notifications and responses with 202. One SDK Server answers every exchange
// through the multiplexing transport below.
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"

export interface ExchangeAnswer {
  readonly status: number
  /** The JSON-RPC message to send, or none (202). */
  readonly body?: unknown
  /** The message already serialized (a tool call's answer, written once). */
  readonly json?: string
}

const rpcError = (status: number, code: number, message: string): ExchangeAnswer => ({
  status,
  body: { jsonrpc: "2.0", error: { code, message }, id: null }
})

/** The envelope of a JSON-RPC 2.0 message (request, notification or response). */
const isJsonRpcMessage = (value: unknown): value is JSONRPCMessage => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const m = value as Record<string, unknown>
  if (m.jsonrpc !== "2.0") return false
  const id = m.id
  const validId = typeof id === "string" || (typeof id === "number" && Number.isInteger(id))
  if (typeof m.method === "string") return id === undefined || validId
  return validId && ("result" in m || "error" in m)
}

interface RequestSchema {
  readonly safeParse: (value: unknown) => {
    readonly success: boolean
    readonly error?: { readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey> }> }
  }
}

/**
 * The request schemas of the methods this server answers. The SDK's Protocol parses a request with
 * them before its handler runs, but reports a failure as -32603 Internal error; JSON-RPC says a
 * request whose params are wrong is -32602 Invalid params, so they are checked here first.
 */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
  ["resources/list", ListResourcesRequestSchema],
  ["resources/read", ReadResourceRequestSchema]
])

/** -32602 naming where the params broke (paths only, never the values). */
const invalidParams = (message: JSONRPCRequest): ExchangeAnswer | undefined => {
  const parsed = REQUEST_SCHEMAS.get(message.method)?.safeParse(message)
  if (parsed === undefined || parsed.success) return undefined
  const where = [...new Set((parsed.error?.issues ?? []).map((i) => i.path.map(String).join(".")))]
  return {
    status: 200,
    body: {
      jsonrpc: "2.0",
      id: message.id,
      error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${where.join(", ") || "params"}` }
    }
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A tool call in the shape clients send it (`jsonrpc`, `id`, `method` and `params` with `name` and
 * an `arguments` object, nothing else): every such message passes the SDK's JSON-RPC request schema
 * and its tools/call schema (a property test holds the two together), so the hot path skips
 * parsing it with them (~10 µs a call). Anything else, `_meta` or `task` included, is checked by
 * the schemas.
 */
export const isPlainToolCall = (message: Record<string, unknown>): boolean => {
  for (const key in message)
    if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return false
  const id = message.id
  if (message.jsonrpc !== "2.0" || message.method !== "tools/call") return false
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return false
  const params = message.params
  if (!isPlainObject(params)) return false
  for (const key in params) if (key !== "name" && key !== "arguments") return false
  return (
    typeof params.name === "string" && (params.arguments === undefined || isPlainObject(params.arguments))
  )
}

const isJsonContentType = (value: string | undefined) =>
  value !== undefined && value.split(";")[0]?.trim().toLowerCase() === "application/json"

/**
 * The one transport of the process's one SDK Server. Each HTTP exchange hands it one request under
 * an id of its own (so concurrent clients that reuse JSON-RPC ids never meet), with the caller's
 * identity as `authInfo`; the response is matched back by that id and given the client's id again.
 * Building a Server per request cost more than the rest of a tool call.
 */
export class ExchangeMultiplexer implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  private readonly waiting = new Map<string, (message: JSONRPCMessage) => void>()
  private readonly prefix = `exchange-${Math.random().toString(36).slice(2)}-`
  private counter = 0
  async start() {}
  async send(message: JSONRPCMessage) {
    if (!("id" in message) || !("result" in message || "error" in message)) return
    const key = String(message.id)
    const resolve = this.waiting.get(key)
    if (resolve === undefined) return
    this.waiting.delete(key)
    resolve(message)
  }
  async close() {
    this.onclose?.()
  }
  /** Delivers one request and resolves with its response, under the client's own id. */
  request(message: JSONRPCRequest, authInfo: AuthInfo): Promise<JSONRPCMessage> {
    const id = `${this.prefix}${++this.counter}`
    return new Promise<JSONRPCMessage>((resolve) => {
      this.waiting.set(id, (answer) => resolve({ ...answer, id: message.id } as JSONRPCMessage))
      this.onmessage?.({ ...message, id }, { authInfo })
    })
  }
}

/**
 * The server's own answer to a request it answers without the SDK's Protocol (the hot path: a tool
 * call), after the same checks, in the request's fiber; undefined leaves the request to the SDK
 * Server behind `mux`.
 */
export type DirectAnswer = (
  message: JSONRPCRequest,
  authInfo: AuthInfo
) => Effect.Effect<ExchangeAnswer> | undefined

/**
 * Checks the headers and the message, then answers it through `direct` or `mux`. Notifications and responses
 * are accepted (202) and not delivered: in a stateless server there is no exchange they could
 * belong to (a cancellation names a request of another POST, and no server request awaits a reply).
 */
export const exchange = (
  headers: Readonly<Record<string, string | undefined>>,
  body: unknown,
  mux: ExchangeMultiplexer,
  authInfo: AuthInfo,
  direct?: DirectAnswer
): Effect.Effect<ExchangeAnswer> => {
  const checked = check(headers, body)
  if (!("method" in checked)) return Effect.succeed(checked)
  return (
    direct?.(checked, authInfo) ??
    Effect.map(
      Effect.promise(() => mux.request(checked, authInfo)),
      (answer): ExchangeAnswer => ({ status: 200, body: answer })
    )
  )
}

/** The request to answer, or the answer its headers or message get without being delivered. */
const check = (
  headers: Readonly<Record<string, string | undefined>>,
  body: unknown
): JSONRPCRequest | ExchangeAnswer => {
  const accept = headers.accept ?? ""
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return rpcError(
      406,
      -32000,
      "Not Acceptable: Client must accept both application/json and text/event-stream"
    )
  }
  if (!isJsonContentType(headers["content-type"])) {
    return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
  }
  if (!isJsonRpcMessage(body)) return rpcError(400, -32700, "Parse error: Invalid JSON-RPC message")
  const message = body
  const isInitialize = "method" in message && message.method === "initialize"
  const version = headers["mcp-protocol-version"]
  if (!isInitialize && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`
    )
  }
  // A plain tool call needs neither schema (isPlainToolCall); anything else is checked by both.
  const plain = isPlainToolCall(message)
  if (!plain && !isJSONRPCRequest(message)) {
    // A method with an id that the SDK does not take as a request (params not an object, extra
    // members) would otherwise be acknowledged as if it were a notification.
    if ("method" in message && "id" in message && message.id !== undefined) {
      return rpcError(400, -32600, "Invalid Request: not a valid JSON-RPC request")
    }
    return { status: 202, body: undefined }
  }
  const request = message as JSONRPCRequest
  return (plain ? undefined : invalidParams(request)) ?? request
}
