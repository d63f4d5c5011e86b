// Requests Node's HTTP parser refuses never reach the app: a request line and headers over
// `maxHeaderSize` (16 KiB; a long query string is the usual cause), a malformed request line, a
// header with a control character. Node would answer them with a bare status line; here they get
// the envelope of the service whose path the request line names, like every other refusal (the
// forms envelope when no path can be read). The status stays Node's (431, 400, 413, 408): 431
// "Request Header Fields Too Large" covers an overlong URL too, since the parser cannot tell which
// of the two overflowed; the code is forms' `invalid` or sharing's `validation_failed`
// (`payload_too_large` for 413 in both).
import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import { SHARING_PATH_PREFIXES } from "@folio/adapters-http"

const answers: Record<string, readonly [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "Request Header Fields Too Large",
    "invalid",
    "the request line and headers exceed 16 KiB; send long values in a request body"
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    "Payload Too Large",
    "payload_too_large",
    "chunk extensions too large"
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "invalid", "the request was not received in time"]
}
const malformed = [400, "Bad Request", "invalid", "the request is not valid HTTP"] as const

/** The path of the request line in the bytes Node was parsing, when it is there to read. */
const pathOf = (packet: unknown): string | undefined => {
  if (!Buffer.isBuffer(packet)) return undefined
  const line = packet.subarray(0, 2048).toString("latin1")
  return /^[A-Z]+ (\/[^ \r\n]*)/.exec(line)?.[1]
}

const envelopeOf = (path: string | undefined, code: string, message: string) =>
  path !== undefined && SHARING_PATH_PREFIXES.some((prefix) => path.startsWith(prefix))
    ? { error: message, error_code: code === "invalid" ? "validation_failed" : code }
    : { ok: false, error: { code, message } }

export const answerClientErrorsWithEnvelope = (server: Server) =>
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing can be written to a connection the client has already dropped.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    const [status, reason, code, message] = answers[error.code ?? ""] ?? malformed
    const path = pathOf((error as { rawPacket?: unknown }).rawPacket)
    const body = JSON.stringify(envelopeOf(path, code, message))
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  })
