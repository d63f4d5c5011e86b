// Client spans of outbound calls (OpenTelemetry's HTTP client conventions, kind client): the peer's
// host and port, the method, the answer's status. Never a URL's path or query (a webhook's secret
// path, a presigned file's signature), a header or a body: only the origin is ever read.
import { Effect, type Tracer } from "effect"

/** `server.address`/`server.port` of a URL; nothing when it does not parse. */
export const peerOf = (url: string | URL): Record<string, unknown> => {
  try {
    const u = typeof url === "string" ? new URL(url) : url
    return {
      "server.address": u.hostname,
      "server.port": Number(u.port === "" ? (u.protocol === "https:" ? 443 : 80) : u.port),
      "url.scheme": u.protocol.replace(/:$/, "")
    }
  } catch {
    return {}
  }
}

/**
 * Runs `call` under a client span named `name`; `call` is given the span to record the answer's
 * status on (`statusOf`), as a promise-based client learns it outside any fiber.
 */
export const clientSpan = <A, E, R>(
  name: string,
  attributes: Record<string, unknown>,
  call: (recordStatus: (status: number) => void) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.useSpan(name, { kind: "client", attributes }, (span: Tracer.Span) =>
    call((status) => {
      if (span.sampled) span.attribute("http.response.status_code", status)
    })
  )
