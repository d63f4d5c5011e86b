// What the forms and sharing MCP endpoints share: the stateless Streamable HTTP route (POST only, a
// sent Origin must equal PUBLIC_ORIGIN, the 1 MiB body, no batches, the caller carried with each
// exchange through one SDK Server). Each service hands in its server's spec (server-spec.ts: its
// tools, how a caller's scopes admit them, its resources, its error table) and its authenticator;
// the server itself (tool-server.ts, with the SDK) is loaded and built at the route's first request.
import {
  type AuthenticationError,
  RequestInvalid,
  RequestRefused,
  RequestTooLarge,
  serverFault
} from "@folio/adapters-http/shared"
import { MAX_REQUEST_BODY_BYTES, Principal, type PrincipalShape, provideHeld } from "@folio/domain"
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js"
import { Cause, Context, Effect, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ExchangeAnswer } from "./exchange.js"
import { CALLER, type Caller, type McpErrors, type ToolServerSpec } from "./server-spec.js"

export { type CoreTool, type McpError, type McpErrors, toolServerSpec } from "./server-spec.js"

/** What the endpoints need from the deployment. */
export class McpSettings extends Context.Service<
  McpSettings,
  { readonly publicOrigin: string; readonly serverVersion: string }
>()("@folio/adapters-mcp/McpSettings") {}

/** One POST's exchange, as the server answers it. */
interface Exchanged {
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: unknown
  readonly authInfo: AuthInfo
}

/** JSON-RPC's codes for a body that is no JSON, and for a batch. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

const jsonRpcError = (status: number, code: number, message: string) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id: null }, { status })

/** A request's authentication: the caller, or the failure the error table answers. */
export type McpAuthenticator = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<PrincipalShape, AuthenticationError, HttpServerRequest.HttpServerRequest>

/** One service's endpoint, built when its route layer is. */
export interface McpEndpoint {
  /** What the service's server is made of (built at the route's first request). */
  // biome-ignore lint/suspicious/noExplicitAny: each service's tools and their context
  readonly spec: ToolServerSpec<any, any>
  readonly authenticate: McpAuthenticator
  /** What the tools run on (the route's context when it was built). */
  readonly context: Context.Context<never>
  /**
   * The tools' own services in `context`: a call in a request's fiber that already holds each of
   * them runs in that fiber's context as it is, with the request's own scope, not a copy of it
   * merged with `context` (`provideHeld`).
   */
  readonly services: ReadonlyArray<Context.Service.Any>
  /** Changes every 401 answer before it is sent (the sharing endpoint's WWW-Authenticate challenge). */
  readonly challenge?: (
    request: HttpServerRequest.HttpServerRequest,
    response: HttpServerResponse.HttpServerResponse
  ) => HttpServerResponse.HttpServerResponse
}

/**
 * The route of one service's endpoint at `path`: one handler for every method, so non-POST is
 * answered 405 after authentication. Its failures speak `errors`, the service's error table.
 */
export const mcpRoute = <R>(
  path: HttpRouter.PathInput,
  errors: McpErrors,
  make: Effect.Effect<McpEndpoint, never, R>
) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const settings = yield* McpSettings
      const endpoint = yield* make
      const provideServices = provideHeld(endpoint.context, endpoint.services)
      // The SDK's server, with the SDK itself, is loaded and built at the first request, once;
      // once built, an exchange runs in the request's fiber with no promise in between.
      type Serve = (exchanged: Exchanged) => Effect.Effect<ExchangeAnswer>
      let ready: Serve | undefined
      let server: Promise<Serve> | undefined
      const serverNow = () =>
        (server ??= import("./tool-server.js").then(
          async ({ ExchangeMultiplexer, exchange, makeToolServer }) => {
            const built = makeToolServer(endpoint.spec)
            const mux = new ExchangeMultiplexer()
            await built.server.connect(mux)
            const serve: Serve = ({ headers, body, authInfo }) =>
              exchange(headers, body, mux, authInfo, built.direct)
            ready = serve
            return serve
          }
        ))

      // A chain of effects, not a generator: a generator suspended on the body's arrival made every
      // call's objects outlive young-generation collections (decision 0029).
      const answer = (
        request: HttpServerRequest.HttpServerRequest,
        principal: PrincipalShape
      ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
        if (request.method !== "POST") {
          return errors.respond(new RequestInvalid({ message: "the MCP endpoint accepts POST only" }), {
            status: 405,
            headers: { allow: "POST" }
          })
        }
        const origin = request.headers.origin
        if (origin !== undefined && origin !== settings.publicOrigin) {
          return errors.respond(new RequestRefused({ message: "Origin does not match this deployment" }))
        }
        return Effect.flatMap(Effect.result(request.text), (text) => {
          if (Result.isFailure(text)) {
            return errors.respond(
              new RequestTooLarge({ message: `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes` })
            )
          }
          let body: unknown
          try {
            body = JSON.parse(text.success)
          } catch {
            return Effect.succeed(jsonRpcError(400, PARSE_ERROR, "request body is not valid JSON"))
          }
          if (Array.isArray(body)) {
            return Effect.succeed(
              jsonRpcError(
                400,
                INVALID_REQUEST,
                "JSON-RPC batches are not supported; send one message per request"
              )
            )
          }
          const provide = <A, E>(effect: Effect.Effect<A, E, never>) =>
            provideServices(Effect.provideService(effect, Principal, principal))
          const caller: Caller = {
            principal,
            run: (effect) => Effect.runPromise(Effect.result(provide(effect))),
            provide
          }
          const authInfo: AuthInfo = {
            token: "redacted",
            clientId: principal.keyId,
            scopes: [...principal.scopes],
            extra: { [CALLER]: caller }
          }
          const exchanging = { headers: request.headers, body, authInfo }
          const exchanged =
            ready === undefined
              ? Effect.flatMap(Effect.tryPromise(serverNow), (serve) => serve(exchanging))
              : ready(exchanging)
          return Effect.map(exchanged, (answered) =>
            answered.json !== undefined
              ? HttpServerResponse.text(answered.json, {
                  status: answered.status,
                  contentType: "application/json"
                })
              : answered.body === undefined
                ? HttpServerResponse.empty({ status: answered.status })
                : HttpServerResponse.jsonUnsafe(answered.body, { status: answered.status })
          )
        }).pipe(
          Effect.catchCause((cause) =>
            Effect.andThen(
              Effect.logError("mcp request failed", Cause.pretty(cause)),
              errors.respond(serverFault())
            )
          )
        )
      }

      const challenge = endpoint.challenge
      const handle = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const answered = Effect.matchEffect(endpoint.authenticate(request), {
          onFailure: (e) => errors.respond(e),
          onSuccess: (principal) => answer(request, principal)
        })
        return challenge === undefined
          ? answered
          : Effect.map(answered, (response) =>
              response.status === 401 ? challenge(request, response) : response
            )
      })
      yield* router.add("*", path, handle)
    })
  )
