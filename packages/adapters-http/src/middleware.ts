// Cross-cutting HTTP behaviour: every failure becomes the spec's error envelope (decode errors,
// malformed JSON, unknown routes, defects), bodies are capped at 1 MiB, and every answer carries
// an X-Request-Id.
import {
  FileSystem,
  HttpApiBuilder,
  HttpIncomingMessage,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import {
  type ApiError,
  internal,
  invalid,
  isApiError,
  notFound,
  payloadTooLarge,
  STATUS_OF_CODE
} from "./errors.js"

export const MAX_BODY_BYTES = 1024 * 1024
/** Image uploads may carry 5 MiB; one byte more is enough to tell "too large" from "exactly 5 MiB". */
export const MAX_ASSET_BODY_BYTES = 5 * 1024 * 1024 + 1

/** Respondent uploads may carry 25 MiB (the largest maxSizeMb); the block's own limit is checked after. */
export const MAX_RESPONDENT_FILE_BODY_BYTES = 25 * 1024 * 1024 + 1

const ASSET_ROUTE = /^\/forms\/api\/v1\/forms\/[^/]+\/assets\/?(\?.*)?$/
const RESPONDENT_FILE_ROUTE = /^\/f\/[^/]+\/responses\/[^/]+\/files\/?(\?.*)?$/

export const bodyLimitFor = (method: string, url: string): number =>
  method !== "POST"
    ? MAX_BODY_BYTES
    : ASSET_ROUTE.test(url)
      ? MAX_ASSET_BODY_BYTES
      : RESPONDENT_FILE_ROUTE.test(url)
        ? MAX_RESPONDENT_FILE_BODY_BYTES
        : MAX_BODY_BYTES

export const envelopeResponse = (error: ApiError, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(
    { ok: false, error: error.error },
    { status: STATUS_OF_CODE[error.error.code], headers }
  )

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" ? u._tag : undefined

interface DecodeIssue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
}

/** Value-free issues from an HttpApiDecodeError: where, and which kind of rule, never the input. */
const issuesOf = (error: { readonly issues: ReadonlyArray<DecodeIssue> }) =>
  error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "number" ? p : String(p))),
    rule:
      issue._tag === "Missing"
        ? "required"
        : issue._tag === "Unexpected"
          ? "unknownKey"
          : issue._tag.toLowerCase()
  }))

const describeRequestError = (error: {
  readonly reason: string
  readonly cause?: unknown
  readonly description?: string
}) => {
  const text = `${error.description ?? ""} ${String((error.cause as { message?: string } | undefined)?.message ?? "")}`
  return /max|exceed|large|limit/i.test(text)
    ? payloadTooLarge(`request body exceeds ${MAX_BODY_BYTES} bytes`)
    : invalid("request body is not valid JSON")
}

/** Any failure of the API as an envelope response. */
export const failureToResponse = (
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const e = failure.value
    if (isApiError(e)) return Effect.succeed(envelopeResponse(e))
    switch (tagOf(e)) {
      case "HttpApiDecodeError":
        return Effect.succeed(
          envelopeResponse(
            invalid("request failed validation", issuesOf(e as { issues: ReadonlyArray<DecodeIssue> }))
          )
        )
      case "RouteNotFound":
        return Effect.succeed(envelopeResponse(notFound("no such route")))
      case "RequestError":
        return Effect.succeed(envelopeResponse(describeRequestError(e as { reason: string })))
    }
  }
  return Effect.as(Effect.logError("unhandled failure", cause), envelopeResponse(internal()))
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/

/** Methods whose requests carry no body: nothing to cap. */
const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"])

/**
 * Api-level middleware, around every route of the router (API groups and raw routes alike) and
 * before HttpApi's own error encoding: request id, the 1 MiB body cap, and the envelope for every
 * failure. Every answer, failures included, comes back through here, so the request id is set on
 * the response itself.
 */
export const EnvelopeMiddlewareLive = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const incoming = request.headers["x-request-id"]
    const requestId = incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    const limit = bodyLimitFor(request.method, request.url)
    const length = Number(request.headers["content-length"] ?? "0")
    const answer =
      Number.isFinite(length) && length > limit
        ? Effect.succeed(
            envelopeResponse(
              payloadTooLarge(`request body exceeds ${limit === MAX_BODY_BYTES ? limit : limit - 1} bytes`)
            )
          )
        : (BODYLESS.has(request.method)
            ? app
            : Effect.provideService(app, HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(limit)))
          ).pipe(
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : failureToResponse(cause)
            )
          )
    return Effect.map(answer, (response) => HttpServerResponse.setHeader(response, "x-request-id", requestId))
  })
)
