// Cross-cutting HTTP behaviour: every failure becomes the spec's error envelope (decode errors,
// malformed JSON, unknown routes, defects), bodies are capped at 1 MiB (chunked ones too), text no
// store can keep (NUL, lone surrogates) is refused in URLs and JSON bodies, and every answer
// carries an X-Request-Id.
import {
  FileSystem,
  HttpApiBuilder,
  HttpIncomingMessage,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import {
  type Issue,
  MAX_ASSET_BYTES,
  MAX_REQUEST_BODY_BYTES,
  MAX_RESPONDENT_FILE_BYTES,
  unsafeTextIssues
} from "@folio/domain"
import { Cause, Effect, Option, Stream } from "effect"
import { FormsApi } from "./api.js"
import { makeDecodeIssues } from "./decode-issues.js"
import {
  type ApiError,
  internal,
  invalid,
  isApiError,
  notFound,
  payloadTooLarge,
  STATUS_OF_CODE
} from "./errors.js"

/** Image uploads: one byte over the domain's limit is enough to tell "too large" from "exactly at it". */
const MAX_ASSET_BODY_BYTES = MAX_ASSET_BYTES + 1

/** Respondent uploads may carry the largest maxSizeMb; the block's own limit is checked after. */
const MAX_RESPONDENT_FILE_BODY_BYTES = MAX_RESPONDENT_FILE_BYTES + 1

const escapeRegExp = (text: string) => text.replace(/[.*+?^$|()[\]{}\\]/g, "\\$&")

/** Request URLs on `path` (a `:name` segment matches any one segment), with an optional trailing slash and query. */
const routePattern = (path: string) => {
  const segments = path.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : escapeRegExp(s)))
  return new RegExp(`^${segments.join("/")}/?(\\?.*)?$`)
}

/** The route of one HttpApi endpoint, from its declared (prefixed) path, so it cannot drift from it. */
const endpointRoute = (group: string, endpoint: string) => {
  const path = FormsApi.groups[group]?.endpoints[endpoint]?.path
  if (path === undefined) throw new Error(`no endpoint ${group}.${endpoint} in FormsApi`)
  return routePattern(path)
}

const ASSET_ROUTE = endpointRoute("forms", "uploadAsset")
const RESPONDENT_FILE_ROUTE = endpointRoute("respondent", "upload")
/**
 * The MCP endpoint checks its own body (JSON-RPC errors) and its tools' arguments. Its path is
 * adapters-mcp's FORMS_MCP_PATH, which this package may not import (adapters import no adapter).
 */
const MCP_ROUTE = routePattern("/forms/mcp")

/** Methods whose requests carry no body: nothing to cap. */
const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"])

/**
 * What a request's body is, told once per request: none (bodyless methods), raw upload bytes, MCP's
 * JSON-RPC (checked by its endpoint), or JSON (every other route).
 */
type BodyKind = "none" | "asset" | "respondentFile" | "mcp" | "json"

const bodyKindOf = (method: string, url: string): BodyKind =>
  BODYLESS.has(method)
    ? "none"
    : ASSET_ROUTE.test(url)
      ? "asset"
      : RESPONDENT_FILE_ROUTE.test(url)
        ? "respondentFile"
        : MCP_ROUTE.test(url)
          ? "mcp"
          : "json"

/** Uploads (POST only) may carry their own size; every other body is capped at 1 MiB. */
const bodyLimitOf = (method: string, kind: BodyKind): number =>
  method !== "POST"
    ? MAX_REQUEST_BODY_BYTES
    : kind === "asset"
      ? MAX_ASSET_BODY_BYTES
      : kind === "respondentFile"
        ? MAX_RESPONDENT_FILE_BODY_BYTES
        : MAX_REQUEST_BODY_BYTES

export const envelopeResponse = (error: ApiError, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(
    { ok: false, error: error.error },
    { status: STATUS_OF_CODE[error.error.code], headers }
  )

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" ? u._tag : undefined

const bodyTooLarge = (limit: number) =>
  payloadTooLarge(`request body exceeds ${limit === MAX_REQUEST_BODY_BYTES ? limit : limit - 1} bytes`)

/** A body that could not be read or parsed: too large when the reader says so, else not JSON. */
const describeRequestError = (error: { readonly cause?: unknown; readonly description?: string }) => {
  const text = `${error.description ?? ""} ${String((error.cause as { message?: string } | undefined)?.message ?? "")}`
  return /max|exceed|large|limit/i.test(text)
    ? payloadTooLarge(`request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes`)
    : invalid("request body is not valid JSON")
}

const decodeIssues = makeDecodeIssues(FormsApi)

/** The decode failure as the domain's issues, from a second decode of the request (failure path only). */
const decodeFailure = (fallback: {
  readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey> }>
}) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = BODYLESS.has(request.method)
      ? undefined
      : yield* Effect.orElseSucceed(request.json, () => undefined)
    const issues = decodeIssues({ method: request.method, url: request.url, headers: request.headers, body })
    return envelopeResponse(
      invalid(
        "request failed validation",
        issues !== undefined && issues.length > 0
          ? issues
          : fallback.issues.map((i) => ({
              path: i.path.map((p) => (typeof p === "number" ? p : String(p))),
              rule: "invalid"
            }))
      )
    )
  })

/** Any failure of the API as an envelope response. */
const failureToResponse = (
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const e = failure.value
    if (isApiError(e)) return Effect.succeed(envelopeResponse(e))
    switch (tagOf(e)) {
      case "HttpApiDecodeError":
        return decodeFailure(e as { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }> })
      case "RouteNotFound":
        return Effect.succeed(envelopeResponse(notFound("no such route")))
      case "RequestError":
        return Effect.succeed(envelopeResponse(describeRequestError(e as { cause?: unknown })))
    }
  }
  // HttpApi reads bodies with orDie: an unreadable body arrives as a defect, and is still the client's.
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) {
    switch (tagOf(defect.value)) {
      case "RequestError":
        return Effect.succeed(envelopeResponse(describeRequestError(defect.value as { cause?: unknown })))
      case "MultipartError":
        return Effect.succeed(envelopeResponse(invalid("request body is not valid multipart")))
    }
  }
  return Effect.as(Effect.logError("unhandled failure", cause), envelopeResponse(internal()))
}

const contentTypeOf = (headers: Readonly<Record<string, string | undefined>>) =>
  (headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? ""

const isJsonType = (type: string) => type === "" || type === "application/json" || type.endsWith("+json")

/** Text that cannot be stored, in the URL: a query parameter by its name, the path as `path`. */
const urlIssues = (url: string): ReadonlyArray<Issue> => {
  const at = url.indexOf("?")
  const path = at === -1 ? url : url.slice(0, at)
  const pathIssues = path
    .split("/")
    .flatMap((segment) => {
      try {
        return unsafeTextIssues(decodeURIComponent(segment), ["path"])
      } catch {
        return [] // not percent-decodable: the router leaves it as it is, and it holds no NUL
      }
    })
    .filter((issue, i, all) => all.findIndex((o) => o.rule === issue.rule) === i)
  if (at === -1) return pathIssues
  const query: Array<Issue> = []
  for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
    query.push(...unsafeTextIssues(key, ["query"]), ...unsafeTextIssues(value, [key]))
  }
  return [...pathIssues, ...query].filter(
    (issue, i, all) =>
      all.findIndex((o) => o.rule === issue.rule && o.path.join("/") === issue.path.join("/")) === i
  )
}

/**
 * A chunked body has no Content-Length to refuse up front, and the platform's reader destroys the
 * socket when it passes the cap, so the client sees a reset instead of 413. It is read here
 * instead: kept while within `limit`, then drained (discarded) for up to DRAIN_BYTES more, so the
 * whole request is consumed before the 413 is written. The request the routes see holds the bytes.
 */
const DRAIN_BYTES = 16 * 1024 * 1024

const bufferChunked = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.map(
    Stream.runFoldWhile(
      request.stream,
      { chunks: [] as Array<Uint8Array>, bytes: 0 },
      (s) => s.bytes <= limit + DRAIN_BYTES,
      (s, chunk) => {
        s.bytes += chunk.length
        if (s.bytes <= limit) s.chunks.push(chunk)
        return s
      }
    ),
    ({ chunks, bytes }) => {
      if (bytes > limit) return { tooLarge: true as const, drained: bytes <= limit + DRAIN_BYTES }
      const body = new Uint8Array(bytes)
      let offset = 0
      for (const chunk of chunks) {
        body.set(chunk, offset)
        offset += chunk.length
      }
      const web = new Request(new URL(request.url, "http://localhost"), { method: request.method, body })
      const remoteAddress = Option.getOrUndefined(request.remoteAddress)
      return {
        tooLarge: false as const,
        request: HttpServerRequest.fromWeb(web).modify({
          url: request.url,
          headers: request.headers,
          ...(remoteAddress === undefined ? {} : { remoteAddress })
        })
      }
    }
  )

const invalidAnswer = (message: string, issues: ReadonlyArray<Issue>) =>
  Effect.succeed(envelopeResponse(invalid(message, issues)))

/**
 * What every route shares before it runs: no unstorable text in the URL; for a body, the size cap
 * (chunked bodies included) and, on JSON routes, a JSON content type, a body that parses, and no
 * unstorable text or hostile nesting in it. Failures answer here, before any use case runs.
 */
const guarded = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  request: HttpServerRequest.HttpServerRequest,
  kind: BodyKind,
  limit: number
): Effect.Effect<HttpServerResponse.HttpServerResponse, E | unknown, R> => {
  // Only `%00` can put unstorable text in a URL: Node refuses raw NUL and non-ASCII bytes,
  // decodeURIComponent throws on encoded surrogates and URLSearchParams replaces them. So the scan
  // runs only then, and a bodyless request otherwise goes straight to its route.
  if (request.url.includes("%00") && !MCP_ROUTE.test(request.url)) {
    const inUrl = urlIssues(request.url)
    if (inUrl.length > 0) return invalidAnswer("the URL holds text that cannot be stored", inUrl)
  }
  return kind === "none" ? app : guardedBody(app, request, kind, limit)
}

const guardedBody = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  request: HttpServerRequest.HttpServerRequest,
  kind: BodyKind,
  limit: number
): Effect.Effect<HttpServerResponse.HttpServerResponse, E | unknown, R> =>
  Effect.gen(function* () {
    let current = request
    if (
      request.headers["transfer-encoding"] !== undefined &&
      request.headers["content-length"] === undefined
    ) {
      const read = yield* bufferChunked(request, limit)
      if (read.tooLarge)
        return envelopeResponse(bodyTooLarge(limit), read.drained ? {} : { connection: "close" })
      current = read.request
    }
    if (kind === "json") {
      const type = contentTypeOf(request.headers)
      const hasBody =
        request.headers["transfer-encoding"] !== undefined ||
        Number(request.headers["content-length"] ?? "0") > 0
      if (hasBody && !isJsonType(type))
        return yield* invalidAnswer("the request body must be application/json", [
          { path: [], rule: "contentType", expected: "application/json" }
        ])
      if (hasBody) {
        const body = yield* current.json
        const issues = unsafeTextIssues(body)
        if (issues.length > 0)
          return yield* invalidAnswer("the request body holds text that cannot be stored", issues)
      }
    }
    return yield* current === request
      ? app
      : Effect.provideService(app, HttpServerRequest.HttpServerRequest, current)
  })

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/

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
    const kind = bodyKindOf(request.method, request.url)
    const limit = bodyLimitOf(request.method, kind)
    const length = Number(request.headers["content-length"] ?? "0")
    const answer =
      Number.isFinite(length) && length > limit
        ? Effect.succeed(envelopeResponse(bodyTooLarge(limit)))
        : (kind === "none"
            ? guarded(app, request, kind, limit)
            : Effect.provideService(
                guarded(app, request, kind, limit),
                HttpIncomingMessage.MaxBodySize,
                Option.some(FileSystem.Size(limit))
              )
          ).pipe(
            Effect.catchAllCause((cause) =>
              // An interruption holds no failure of its own: it passes through untouched.
              Cause.isInterruptedOnly(cause)
                ? Effect.failCause(cause as Cause.Cause<never>)
                : failureToResponse(cause)
            )
          )
    return Effect.map(answer, (response) => HttpServerResponse.setHeader(response, "x-request-id", requestId))
  })
)
