// The console's request guard (its paths, picked by the app's one global middleware): a request id
// on every answer, bodies capped at 64 KiB (form posts and the passkey JSON are small), and every
// failure answered as an HTML page, never the APIs' JSON envelopes.
import { ByteSize, Cause, Effect } from "effect"
import { HttpIncomingMessage, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { requestIdOf, type ServiceGuard } from "../shared/index.js"

/** Every path the console answers (GET / is the fallback guard's: it has no body). */
export const CONSOLE_PATH_PREFIXES = [
  "/console",
  "/sign-in",
  "/sign-out",
  "/invitations/",
  "/reset-password",
  // The consent step of an OAuth authorization is a console page.
  "/oauth/interaction/"
] as const

export const MAX_CONSOLE_BODY_BYTES = 64 * 1024

/** A page with no script and no styles of its own: what a refused request gets before any route. */
const plainPage = (status: number, heading: string, text: string) =>
  HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} · Folio</title></head><body><main><h1>${heading}</h1><p>${text}</p><p><a href="/">Folio</a></p></main></body></html>`,
    {
      status,
      contentType: "text/html; charset=utf-8",
      headers: {
        "cache-control": "no-store",
        "content-security-policy":
          "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY"
      }
    }
  )

const failureOf = (cause: Cause.Cause<unknown>) => {
  for (const reason of cause.reasons) {
    const value = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (HttpServerError.isHttpServerError(value)) {
      if (value.reason._tag === "RouteNotFound")
        return Effect.succeed(plainPage(404, "Not found", "There is no page at this address."))
      if (value.reason._tag === "RequestParseError")
        return Effect.succeed(plainPage(413, "Too large", "The form sent was too large."))
    }
  }
  return Effect.as(
    Effect.logError("console request failed", cause),
    plainPage(500, "Something went wrong", "Try again in a moment.")
  )
}

export const consoleRequestGuard: ServiceGuard = (app) =>
  Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
    const requestId = requestIdOf(request.headers["x-request-id"])
    const length = Number(request.headers["content-length"] ?? "0")
    const answer =
      Number.isFinite(length) && length > MAX_CONSOLE_BODY_BYTES
        ? Effect.succeed(plainPage(413, "Too large", "The form sent was too large."))
        : app.pipe(
            Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_CONSOLE_BODY_BYTES)),
            Effect.catchCause((cause) =>
              Cause.hasInterruptsOnly(cause)
                ? Effect.failCause(cause as Cause.Cause<never>)
                : failureOf(cause)
            )
          )
    return Effect.map(answer, (response) => HttpServerResponse.setHeader(response, "x-request-id", requestId))
  })
