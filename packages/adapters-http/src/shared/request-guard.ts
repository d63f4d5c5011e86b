// Cross-cutting HTTP behaviour, parameterised by the service: every failure becomes the service's
// error envelope (decode errors, malformed JSON, unknown routes, defects), bodies are capped at 1 MiB
// (chunked ones too) unless a route takes uploads, text no store can keep (NUL, lone surrogates) is
// refused in URLs and JSON bodies, and every answer carries an X-Request-Id.
import { isUtf8 } from "node:buffer"
import { URL } from "node:url"
import {
  type Issue,
  issuesOf,
  MAX_REQUEST_BODY_BYTES,
  type ServiceName,
  unsafeTextIssues
} from "@folio/domain"
import { ByteSize, Cause, Effect, Stream } from "effect"
import {
  Headers,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import { type HttpApi, HttpApiError, type HttpApiGroup } from "effect/http-api"
import type { unhandled } from "effect/Types"
import {
  GuardAuthenticated,
  makeRequestAuthenticator,
  type RequestAuthenticator,
  scopeFailure
} from "./bearer-auth.js"
import { makeDecodeIssues } from "./decode-issues.js"
import { randomHexChars } from "./random-text.js"
import type { Codes, ErrorSurface, Rows, Tagged } from "./error-surface.js"
import { keyedEndpointOf, keyedEndpointsOf, type ScopesOf } from "./keyed-endpoints.js"
import {
  BodyUnreadable,
  NothingHere,
  RequestInvalid,
  type RequestError,
  RequestTooLarge,
  serverFault
} from "./request-errors.js"
import { ARTIFACT_SITE_ROUTE, countUploadBytes, makeRequestMetrics, type RouteSeen } from "./metrics.js"
import { routePattern } from "./route-pattern.js"

export { routePattern }

/** The route of one HttpApi endpoint, from its declared (prefixed) path, so it cannot drift from it. */
export const endpointRoute = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  group: string,
  endpoint: string
) => {
  const groups = api.groups as unknown as Readonly<
    Record<string, { readonly endpoints: Readonly<Record<string, { readonly path: string }>> }>
  >
  const path = groups[group]?.endpoints[endpoint]?.path
  if (path === undefined) throw new Error(`no endpoint ${group}.${endpoint} in ${api.identifier}`)
  return routePattern(path)
}

/** A route whose body is not the API's JSON. */
export interface RawBodyRoute {
  readonly route: RegExp
  /**
   * `upload`: raw bytes (POST) up to `maxBytes`, the route's own limit, which the route checks itself
   * (one byte over it is read, to tell "too large" from "exactly at it"); `form`: a browser's form
   * post (POST, urlencoded or multipart) up to `maxBytes`, refused one byte over it, which the route
   * parses and checks itself; `own`: the route reads and checks its body itself (MCP's JSON-RPC),
   * within the default cap; `text`: JSON as usual, or text of one of `textTypes` (a CSV file), checked
   * for unstorable characters like JSON text, within the default cap; `stream`: a multipart upload
   * (POST) the route streams to storage itself, never buffered here (chunked ones neither), cut off
   * by the reader past `maxBytes`.
   */
  readonly body: "upload" | "form" | "own" | "text" | "stream"
  readonly maxBytes?: number
  /** With `text`: the media types taken as text besides JSON. */
  readonly textTypes?: ReadonlyArray<string>
}

/** The service whose keys the API's keyed endpoints take, and the scopes each endpoint needs. */
export interface KeyedService {
  readonly service: ServiceName
  readonly scopesOf: ScopesOf
}

/**
 * What the guard needs of a service: its error surface, its HttpApi, its routes with other bodies,
 * and, for an API with keyed endpoints, whose keys they take and which scopes.
 */
export interface GuardedService<
  E extends Tagged,
  C extends Codes,
  R extends Rows<E | RequestError, keyof C & string>,
  Id extends string,
  Groups extends HttpApiGroup.Constraint
> {
  readonly errors: ErrorSurface<E | RequestError, C, R>
  readonly api: HttpApi.HttpApi<Id, Groups>
  readonly rawBodies: ReadonlyArray<RawBodyRoute>
  readonly keyed?: KeyedService
  /**
   * How a path parameter that fails its schema (a malformed id) is answered: `notFound` where the
   * service's spec says nothing with that id is 404, else a validation failure naming it.
   */
  readonly malformedPathParam?: "invalid" | "notFound"
}

/** Whether a failure is a key's spent budget (a RateLimited carrying the key's decision). */
const spentKeyBudget = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some(
    (reason) =>
      reason._tag === "Fail" &&
      tagOf(reason.error) === "RateLimited" &&
      (reason.error as { readonly budget?: unknown }).budget !== undefined
  )

/** Methods whose requests carry no body: nothing to cap. */
const BODYLESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"])

/**
 * What a request's body is, told once per request: none (bodyless methods), raw upload bytes, a
 * browser's form post, a body its route checks itself, or JSON (every other route).
 */
type BodyKind = "none" | "upload" | "form" | "own" | "json" | "text" | "stream"

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" ? u._tag : undefined

const bodyTooLarge = (maxBytes: number) =>
  new RequestTooLarge({ message: `request body exceeds ${maxBytes} bytes` })

/**
 * A body that could not be read or parsed: too large when the reader says so, else not JSON. Only
 * the reader's own flag and description count: a parse error's message quotes the body, so words
 * in the body must not turn a malformed request into a 413.
 */
const describeRequestError = (error: HttpServerError.HttpServerError) => {
  const reason = error.reason
  const tooLarge =
    (reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge") ||
    /max|exceed|large|limit/i.test(reason.description ?? "")
  return tooLarge
    ? new RequestTooLarge({ message: `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` })
    : new BodyUnreadable({ message: "request body is not valid JSON" })
}

/**
 * The body for the second decode: a text body of a non-JSON type as it is, else the parsed JSON;
 * none when absent or unreadable.
 */
const bodyForIssues = (request: HttpServerRequest.HttpServerRequest) =>
  BODYLESS.has(request.method)
    ? Effect.succeed(undefined)
    : Effect.map(
        Effect.orElseSucceed(request.text, () => ""),
        (text): unknown => {
          if (text === "") return undefined
          if (!isJsonType(contentTypeOf(request.headers))) return text
          try {
            return JSON.parse(text)
          } catch {
            return undefined
          }
        }
      )

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

/** The request as the routes see it, holding `body` in place of what was read or sent. */
const holding = (
  request: HttpServerRequest.HttpServerRequest,
  body: Uint8Array<ArrayBuffer> | string,
  headers: Headers.Headers
) =>
  HttpServerRequest.fromWeb(
    new Request(new URL(request.url, "http://localhost"), { method: request.method, body })
  ).modify({ url: request.url, headers, remoteAddress: request.remoteAddress })

/**
 * A chunked body has no Content-Length to refuse up front, and a reader that passes the cap gives
 * up on the rest, so the client could see a reset instead of 413. It is read here instead: kept
 * while within `limit`, then drained (discarded) for up to DRAIN_BYTES more, so the whole request
 * is consumed before the 413 is written. The request the routes see holds the bytes.
 */
const DRAIN_BYTES = 16 * 1024 * 1024

const bufferChunked = (request: HttpServerRequest.HttpServerRequest, limit: number) => {
  const read = { chunks: [] as Array<Uint8Array>, bytes: 0 }
  return Effect.map(
    Stream.runForEachWhile(request.stream, (chunk) =>
      Effect.sync(() => {
        read.bytes += chunk.length
        if (read.bytes <= limit) read.chunks.push(chunk)
        return read.bytes <= limit + DRAIN_BYTES
      })
    ),
    () => {
      const { chunks, bytes } = read
      if (bytes > limit) return { tooLarge: true as const, drained: bytes <= limit + DRAIN_BYTES }
      const body = new Uint8Array(bytes)
      let offset = 0
      for (const chunk of chunks) {
        body.set(chunk, offset)
        offset += chunk.length
      }
      return { tooLarge: false as const, request: holding(request, body, request.headers) }
    }
  )
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/

/**
 * A new request id: a version 4 UUID whose random digits come from the shared random text
 * (randomUUID's refills of 128 cost ~2.5% of a redirect whose client sends no id).
 */
export const newRequestId = (): string => {
  const h = randomHexChars(32)
  // The version nibble is 4; the variant's two high bits are 10 (8, 9, a or b).
  const variant = "89ab"[Number.parseInt(h.charAt(16), 16) & 3] as string
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** The request id a response carries: the client's `X-Request-Id` when it is a sane one, else a new one. */
export const requestIdOf = (incoming: string | undefined): string =>
  incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : newRequestId()

/** A request's body cap: the most it may hold, and the bytes read before the reader refuses. */
interface BodyCap {
  readonly max: number
  readonly read: number
}

/**
 * The global router middleware of a service, around every route (API groups and raw routes alike)
 * and around HttpApi's own decoding: request id, the body cap, and the service's envelope for every
 * failure. Every answer, failures included, comes back through here, so the request id is set on the
 * response itself.
 */
export const requestGuard = <
  E extends Tagged,
  C extends Codes,
  R extends Rows<E | RequestError, keyof C & string>,
  Id extends string,
  Groups extends HttpApiGroup.Constraint
>(
  service: GuardedService<E, C, R, Id, Groups>
) =>
  service.keyed === undefined
    ? Effect.succeed(makeGuard(service, undefined))
    : Effect.map(makeRequestAuthenticator(service.keyed.service), (authenticate) =>
        makeGuard(service, authenticate)
      )

/** How many `Authorization` headers a request carried (Node keeps only the first of several). */
const authorizationHeaders = (request: HttpServerRequest.HttpServerRequest): number => {
  const raw = (request.source as { readonly rawHeaders?: ReadonlyArray<string> }).rawHeaders
  if (raw === undefined) return request.headers.authorization === undefined ? 0 : 1
  let count = 0
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === "authorization") count++
  return count
}

/** Whether a request says it carries a body (a length over zero, or chunks). */
const hasBodyOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? "0") > 0

/** Methods whose absent body is read as `{}` on a JSON route: a bare `curl -X POST` works. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"])

const makeGuard = <
  E extends Tagged,
  C extends Codes,
  R extends Rows<E | RequestError, keyof C & string>,
  Id extends string,
  Groups extends HttpApiGroup.Constraint
>(
  service: GuardedService<E, C, R, Id, Groups>,
  authenticate: RequestAuthenticator | undefined
): ServiceGuard => {
  const { errors } = service
  const keyedEndpoints =
    service.keyed === undefined ? [] : keyedEndpointsOf(service.api, service.keyed.scopesOf)
  const decodeIssues = makeDecodeIssues(service.api)
  const respond = (e: RequestError, headers?: Readonly<Record<string, string>>) =>
    errors.respond(e, headers === undefined ? {} : { headers })
  const invalidAnswer = (message: string, issues: ReadonlyArray<Issue>) =>
    respond(new RequestInvalid({ message, issues }))

  const uploadService = service.keyed?.service ?? "forms"
  const rawBodyOf = (url: string) => service.rawBodies.find((raw) => raw.route.test(url))

  const bodyKindOf = (method: string, raw: RawBodyRoute | undefined): BodyKind =>
    BODYLESS.has(method) ? "none" : (raw?.body ?? "json")

  /** Uploads and form posts (POST only) may carry their own size; every other body is capped at 1 MiB. */
  const bodyMaxOf = (method: string, raw: RawBodyRoute | undefined): number =>
    method === "POST" &&
    (raw?.body === "upload" || raw?.body === "form" || raw?.body === "stream") &&
    raw.maxBytes !== undefined
      ? raw.maxBytes
      : MAX_REQUEST_BODY_BYTES

  /** Bytes read before the reader refuses: one over an upload's own limit, which its route checks. */
  const bodyLimitOf = (raw: RawBodyRoute | undefined, maxBytes: number): number =>
    raw?.body === "upload" && maxBytes !== MAX_REQUEST_BODY_BYTES ? maxBytes + 1 : maxBytes

  /** The decode failure as the domain's issues, from a second decode of the request (failure path only). */
  const decodeFailure = (error: HttpApiError.HttpApiSchemaError) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = yield* bodyForIssues(request)
      const issues = decodeIssues({
        method: request.method,
        url: request.url,
        headers: request.headers,
        contentType: contentTypeOf(request.headers),
        body
      })
      return yield* invalidAnswer(
        "request failed validation",
        issues !== undefined && issues.length > 0 ? issues : issuesOf(error.cause)
      )
    })

  /** A request part HttpApi could not decode, as the envelope; undefined for our own encoding bugs. */
  const schemaErrorResponse = (error: HttpApiError.HttpApiSchemaError) => {
    // Body and ResponseHeaders are what a handler returned: the server's fault, answered 500.
    if (error.kind === "Body" || error.kind === "ResponseHeaders") return undefined
    if (error.kind === "Params" && service.malformedPathParam === "notFound")
      return respond(new NothingHere({ message: "not found" }))
    const malformed =
      error.kind === "Payload" &&
      error.cause.issue._tag === "InvalidValue" &&
      /JSON/.test(error.cause.message)
    return malformed
      ? respond(new BodyUnreadable({ message: "request body is not valid JSON" }))
      : decodeFailure(error)
  }

  /**
   * Any failure of the API as an envelope response. Our typed errors arrive as failures; HttpApi's
   * decode errors, unreadable bodies and multipart errors as defects (it reads bodies with orDie),
   * and are still the client's; unknown routes as the router's HttpServerError.
   */
  const failureToResponse = (
    cause: Cause.Cause<unknown>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> => {
    for (const reason of cause.reasons) {
      const value = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
      if (errors.isApiError(value)) return Effect.succeed(errors.apiErrorResponse(value))
      if (errors.handles(value)) return errors.respond(value)
      if (HttpApiError.HttpApiSchemaError.is(value)) {
        const answer = schemaErrorResponse(value)
        if (answer === undefined) break
        return answer
      }
      if (HttpServerError.isHttpServerError(value)) {
        switch (value.reason._tag) {
          case "RouteNotFound":
            return respond(new NothingHere({ message: "no such route" }))
          case "RequestParseError":
            return respond(describeRequestError(value))
        }
      }
      if (tagOf(value) === "MultipartError")
        return respond(new BodyUnreadable({ message: "request body is not valid multipart" }))
    }
    return Effect.andThen(Effect.logError("unhandled failure", cause), respond(serverFault()))
  }

  /**
   * What every route shares before it runs: no unstorable text in the URL; for a body, the size cap
   * (chunked bodies included) and, on JSON routes, a JSON content type, a body that parses, and no
   * unstorable text or hostile nesting in it. Failures answer here, before any use case runs.
   */
  const guarded = <Err, Req>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, Err, Req>,
    request: HttpServerRequest.HttpServerRequest,
    raw: RawBodyRoute | undefined,
    kind: BodyKind,
    cap: BodyCap
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, Req> => {
    // Only `%00` can put unstorable text in a URL: Node refuses raw NUL and non-ASCII bytes,
    // decodeURIComponent throws on encoded surrogates and URLSearchParams replaces them. So the scan
    // runs only then, and a bodyless request otherwise goes straight to its route. A route that
    // checks its own body checks its own URL too.
    if (request.url.includes("%00") && raw?.body !== "own") {
      const inUrl = urlIssues(request.url)
      if (inUrl.length > 0) return invalidAnswer("the URL holds text that cannot be stored", inUrl)
    }
    // A streamed upload is read by its route as it arrives; MaxBodySize (set below) cuts it off.
    if (kind === "stream")
      return contentTypeOf(request.headers) === "multipart/form-data"
        ? app
        : respond(new BodyUnreadable({ message: "request body must be multipart/form-data" }))
    return kind === "none" ? app : guardedBody(app, request, kind, cap, raw?.textTypes ?? [])
  }

  type BodyChecked =
    | { readonly request: HttpServerRequest.HttpServerRequest }
    | { readonly refused: HttpServerResponse.HttpServerResponse }
  const refuse = <E>(answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E>) =>
    Effect.map(answer, (refused): BodyChecked => ({ refused }))
  const proceed = (request: HttpServerRequest.HttpServerRequest) => Effect.succeed<BodyChecked>({ request })

  /**
   * The body's checks: the request the route is to see (the same one, or one holding a chunked
   * body's bytes or a rewritten content type), or the refusal to answer. Written as a chain of
   * effects, not a generator: a generator suspended on the body's arrival made every body-bearing
   * request's objects outlive young-generation collections (decision 0029 has the measurements).
   */
  const checkBody = (
    request: HttpServerRequest.HttpServerRequest,
    kind: BodyKind,
    cap: BodyCap,
    textTypes: ReadonlyArray<string>
  ): Effect.Effect<BodyChecked, unknown> =>
    request.headers["transfer-encoding"] !== undefined && request.headers["content-length"] === undefined
      ? Effect.flatMap(bufferChunked(request, cap.read), (read) =>
          read.tooLarge
            ? refuse(respond(bodyTooLarge(cap.max), read.drained ? {} : { connection: "close" }))
            : checkRead(request, read.request, kind, textTypes)
        )
      : checkRead(request, request, kind, textTypes)

  const checkRead = (
    request: HttpServerRequest.HttpServerRequest,
    current: HttpServerRequest.HttpServerRequest,
    kind: BodyKind,
    textTypes: ReadonlyArray<string>
  ): Effect.Effect<BodyChecked, unknown> => {
    if (kind !== "json" && kind !== "text") return proceed(current)
    const type = contentTypeOf(request.headers)
    const hasBody = hasBodyOf(request)
    if (!hasBody) return checkText(request, current, kind, type, hasBody, textTypes)
    // Bytes that are not UTF-8 would be read with U+FFFD in their place and stored so (checked in
    // place, without decoding: the route decodes the text once).
    return Effect.flatMap(current.arrayBuffer, (bytes) =>
      isUtf8(new Uint8Array(bytes))
        ? checkText(request, current, kind, type, hasBody, textTypes)
        : refuse(respond(new BodyUnreadable({ message: "request body is not valid UTF-8" })))
    )
  }

  const checkText = (
    request: HttpServerRequest.HttpServerRequest,
    current: HttpServerRequest.HttpServerRequest,
    kind: "json" | "text",
    type: string,
    hasBody: boolean,
    textTypes: ReadonlyArray<string>
  ): Effect.Effect<BodyChecked, unknown> => {
    const unsafe = (
      issues: ReturnType<typeof unsafeTextIssues>,
      then: HttpServerRequest.HttpServerRequest
    ) =>
      issues.length > 0
        ? refuse(invalidAnswer("the request body holds text that cannot be stored", issues))
        : proceed(then)
    if (kind === "text" && hasBody && textTypes.includes(type))
      return Effect.flatMap(current.text, (text) => unsafe(unsafeTextIssues(text, ["body"]), current))
    if (hasBody && !isJsonType(type))
      return refuse(
        invalidAnswer("the request body must be application/json", [
          { path: [], rule: "contentType", expected: "application/json" }
        ])
      )
    // HttpApi picks a body decoder by exact media type and answers any other with a bare 415; every
    // JSON type (and an empty one) has always read as JSON. Rewritten before the body is read, so
    // the request the route sees is the one holding the bytes.
    const rewritten =
      request.headers["content-type"] !== undefined && type !== "application/json"
        ? current.modify({ headers: Headers.set(current.headers, "content-type", "application/json") })
        : current
    if (!hasBody) return proceed(rewritten)
    return Effect.flatMap(rewritten.json, (body) => unsafe(unsafeTextIssues(body), rewritten))
  }

  /** The route, after the body's checks. */
  const guardedBody = <Err, Req>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, Err, Req>,
    request: HttpServerRequest.HttpServerRequest,
    kind: BodyKind,
    cap: BodyCap,
    textTypes: ReadonlyArray<string>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, Req> =>
    Effect.flatMap(checkBody(request, kind, cap, textTypes), (checked) =>
      "refused" in checked
        ? Effect.succeed(checked.refused)
        : checked.request === request
          ? app
          : Effect.provideService(app, HttpServerRequest.HttpServerRequest, checked.request)
    )

  /**
   * A keyed endpoint's caller, authenticated and its scopes checked before anything of the request
   * is read (401 and 403 come before 400 and 413); `next` runs as that caller.
   */
  const authorized = <Err, Req>(
    request: HttpServerRequest.HttpServerRequest,
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, Err, Req>,
    seen: RouteSeen | undefined
  ) => {
    const endpoint =
      authenticate === undefined ? undefined : keyedEndpointOf(keyedEndpoints, request.method, request.url)
    if (authenticate === undefined || endpoint === undefined) return next
    // A request refused here never reaches the router: its metrics name the endpoint's route.
    if (seen !== undefined) seen.route = endpoint.path
    return Effect.flatMap(authenticate(request), (principal) => {
      const missing = endpoint.scopes === undefined ? undefined : scopeFailure(principal, endpoint.scopes)
      return Effect.andThen(
        missing === undefined ? Effect.void : Effect.fail(missing),
        Effect.provideService(next, GuardAuthenticated, principal)
      )
    })
  }

  const guard: ServiceGuard = (app, seen) =>
    Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (sent) => {
      const requestId = requestIdOf(sent.headers["x-request-id"])
      const raw = rawBodyOf(sent.url)
      const kind = bodyKindOf(sent.method, raw)
      // No body on a JSON route reads as `{}`, for the route and for the issues of a refusal alike: a
      // route whose fields are all optional takes a bare POST, and one with required fields names
      // the first missing field instead of calling the body unreadable.
      const request =
        (kind === "json" || kind === "text") && BODY_METHODS.has(sent.method) && !hasBodyOf(sent)
          ? holding(sent, "{}", Headers.set(sent.headers, "content-type", "application/json"))
          : sent
      const max = bodyMaxOf(request.method, raw)
      const cap: BodyCap = { max, read: bodyLimitOf(raw, max) }
      const length = Number(request.headers["content-length"] ?? "0")
      const checked =
        Number.isFinite(length) && length > cap.read
          ? respond(bodyTooLarge(cap.max))
          : kind === "none"
            ? guarded(app, request, raw, kind, cap)
            : Effect.provideService(
                guarded(app, request, raw, kind, cap),
                HttpIncomingMessage.MaxBodySize,
                ByteSize.bytes(cap.read)
              )
      // Every failure is answered here; the router still types the result as possibly unhandled.
      const answer: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        unhandled,
        HttpServerRequest.HttpServerRequest
      > =
        // Two keys in one request: which one speaks is not ours to guess (Node keeps the first).
        (
          authorizationHeaders(sent) > 1
            ? invalidAnswer("the request carries more than one Authorization header", [
                { path: ["authorization"], rule: "single", expected: "one Authorization header" }
              ])
            : authorized(request, checked, seen)
        ).pipe(
          Effect.catchCause((cause) => {
            // An interruption holds no failure of its own: it passes through untouched.
            if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
            if (seen !== undefined) seen.keyBudget = spentKeyBudget(cause)
            return failureToResponse(cause)
          })
        )
      const answered = Effect.map(
        request === sent
          ? answer
          : Effect.provideService(answer, HttpServerRequest.HttpServerRequest, request),
        (response) => HttpServerResponse.setHeader(response, "x-request-id", requestId)
      )
      // An upload taken counts its bytes (its declared length; a chunked one's is unknown).
      return (kind === "upload" || kind === "stream") && length > 0
        ? Effect.tap(answered, (response) =>
            response.status < 300 ? countUploadBytes(uploadService, length) : Effect.void
          )
        : answered
    })
  return guard
}

/**
 * One service's guard around a request's route: what the global middleware runs for its URLs. Given
 * `seen`, it names there the route of a keyed endpoint it authenticates (for the request's metrics).
 */
export type ServiceGuard = (
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled>,
  seen?: RouteSeen
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled, HttpServerRequest.HttpServerRequest>

/**
 * The one global router middleware of a process serving several services: each request is guarded
 * by the service its path belongs to (the first prefix it starts with), and by `fallback` otherwise,
 * so an unknown route answers in the envelope of the service whose paths it sits among. The guards
 * are made once, when the layer is built (`make` reads the configuration they need).
 */
export const requestGuards = <R>(
  make: Effect.Effect<
    {
      readonly services: ReadonlyArray<{
        readonly prefixes: ReadonlyArray<string>
        readonly guard: ServiceGuard
      }>
      readonly fallback: ServiceGuard
      /**
       * A request whose Host belongs to another site the process serves (an artifact deployment's
       * origin): its answer, taken before any path is looked at; undefined for the app's own hosts.
       */
      readonly byHost?: (
        request: HttpServerRequest.HttpServerRequest
      ) => Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined
    },
    never,
    R
  >
) =>
  HttpRouter.middleware(
    Effect.map(
      Effect.zip(make, makeRequestMetrics),
      ([{ services, fallback, byHost }, metrics]) =>
        (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled>) =>
          Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
            const hosted = byHost?.(request)
            if (hosted !== undefined)
              return metrics === undefined ? hosted : metrics(request, hosted, (a) => a, ARTIFACT_SITE_ROUTE)
            const chosen = services.find((s) => s.prefixes.some((prefix) => request.url.startsWith(prefix)))
            const guard = chosen?.guard ?? fallback
            // Measured around the guard, so every answer it gives (refusals, errors) is counted.
            return metrics === undefined ? guard(app) : metrics(request, app, guard)
          })
    ),
    { global: true }
  )
