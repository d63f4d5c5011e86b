// Streamed bodies that fail after their headers went out: the status is already 200, so the only
// honest signal left is to cut the connection without the final chunk (curl and browsers then
// report an incomplete download). Cutting a socket is the server platform's business: a port here,
// the Node implementation in the app.
import { Cause, Context, Effect, Stream } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"

export class ConnectionCutter extends Context.Service<
  ConnectionCutter,
  {
    /** Drops the request's connection at once, without ending its response. */
    readonly cut: (request: HttpServerRequest.HttpServerRequest) => void
  }
>()("@folio/adapters-http/ConnectionCutter") {}

/**
 * The body stream, cutting the request's connection when it fails (interruption included: a
 * response stopped half-way must not look finished). The failure is logged with `what`.
 */
export const cutOnFailure = <E, R>(
  body: Stream.Stream<Uint8Array, E, R>,
  request: HttpServerRequest.HttpServerRequest,
  what: string
) =>
  Effect.map(Effect.service(ConnectionCutter), (cutter) =>
    body.pipe(
      Stream.onError((cause) =>
        Effect.andThen(
          Cause.hasInterruptsOnly(cause)
            ? Effect.logWarning(`${what} interrupted; connection cut`)
            : Effect.logError(`${what} failed; connection cut`, cause),
          Effect.sync(() => cutter.cut(request))
        )
      )
    )
  )

const encoder = new TextEncoder()

/**
 * A CSV download of `lines` (each a whole CSV line), streamed as it is produced, cut on failure as
 * `cutOnFailure` says; `filename` names the attachment.
 */
export const csvDownload = <E, R>(
  lines: Stream.Stream<string, E, R>,
  filename: string,
  request: HttpServerRequest.HttpServerRequest,
  what: string
) =>
  Effect.map(cutOnFailure(lines.pipe(Stream.map((line) => encoder.encode(line))), request, what), (body) =>
    HttpServerResponse.stream(body as Stream.Stream<Uint8Array>, {
      contentType: "text/csv; charset=utf-8",
      headers: { "content-disposition": `attachment; filename="${filename}"`, "cache-control": "no-store" }
    })
  )
