// One Streamable HTTP POST exchange for a stateless server, as the SDK's Web-standard transport
// answers it in JSON-response mode (same checks, same status codes), without building Web
// Request/Response objects per call: Accept must list application/json and text/event-stream
// (406), Content-Type must be JSON (415), the body must be one JSON-RPC message (400), a
// sent MCP-Protocol-Version must be supported (400); a request is answered with its JSON-RPC
// response (200), notifications and responses with 202.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"

export interface ExchangeAnswer {
  readonly status: number
  readonly body: unknown
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

const isJsonContentType = (value: string | undefined) =>
  value !== undefined && value.split(";")[0]?.trim().toLowerCase() === "application/json"

/** A transport for exactly one incoming message; `answer` resolves with the outgoing response. */
class SingleExchange implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private resolveAnswer: (message: JSONRPCMessage) => void = () => {}
  readonly answer = new Promise<JSONRPCMessage>((resolve) => {
    this.resolveAnswer = resolve
  })
  async start() {}
  async send(message: JSONRPCMessage) {
    if ("id" in message && ("result" in message || "error" in message)) this.resolveAnswer(message)
  }
  async close() {
    this.onclose?.()
  }
}

/** Checks the headers and the message, then lets `connect` attach a server and answers. */
export const exchange = async (
  headers: Readonly<Record<string, string | undefined>>,
  body: unknown,
  connect: (transport: Transport) => Promise<unknown>
): Promise<ExchangeAnswer> => {
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
  // The SDK's Protocol validates each request's params against its method's schema.
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
  const transport = new SingleExchange()
  await connect(transport)
  // The server and transport serve this one message and are then dropped, not closed: closing
  // would only build a ConnectionClosed error (with its stack) for response handlers that do not
  // exist, on every call.
  transport.onmessage?.(message)
  if (!isJSONRPCRequest(message)) return { status: 202, body: undefined }
  return { status: 200, body: await transport.answer }
}
