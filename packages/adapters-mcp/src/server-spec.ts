// What a service's MCP server is made of (its tools, how scopes admit them, its resources, its
// error table) and who calls it: shared by the route (core.ts) and the server it loads at its
// first request (tool-server.ts).
import type { AuthenticationError, ErrorAnswers, RequestError } from "@folio/adapters-http/shared"
import type { InsufficientScope, PrincipalShape } from "@folio/domain"
import type { Effect, Result, Schema } from "effect"

/** What an endpoint raises of its own; the service's error table must have a row for each. */
export type McpError = AuthenticationError | InsufficientScope | RequestError

/** The service's error table, as the endpoint uses it. */
export type McpErrors = ErrorAnswers<McpError>

/** What the core needs of a tool (both services' tool shapes have it). */
export interface CoreTool<C> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: Schema.Codec<unknown, unknown>
  readonly output: Schema.Codec<unknown, unknown>
  // biome-ignore lint/suspicious/noExplicitAny: each tool's requirements are the domain's ports
  readonly run: (input: any, context: C) => Effect.Effect<unknown, unknown, any>
}

/** How a caller's scopes admit a service's tools. */
export interface ToolAccess<T> {
  /** Whether tools/list shows the tool to the caller. */
  readonly visible: (principal: PrincipalShape, tool: T) => boolean
  /** The scopes a call needs before its input is read (refused first: 403 comes before 400). */
  readonly before: (principal: PrincipalShape, tool: T) => ReadonlyArray<string>
  /** Every scope this decoded input needs. */
  readonly after: (tool: T, input: unknown) => ReadonlyArray<string>
}

/** A resource the server lists, read for the caller. */
export interface CoreResource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  /** The resource's JSON for this caller; a failure is answered as an internal JSON-RPC error. */
  readonly read: (caller: Caller) => Promise<Result.Result<unknown, unknown>>
}

/** Who is calling, as the route hands it to the server with each exchange. */
export interface Caller {
  readonly principal: PrincipalShape
  /** Runs a use case as this caller (the Principal provided, with the route's services). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, never>) => Promise<Result.Result<A, E>>
  /** The same use case as an effect, for the request's own fiber (a tool call, the hot path). */
  readonly provide: <A, E>(effect: Effect.Effect<A, E, never>) => Effect.Effect<A, E, never>
}

/** Where an exchange's authInfo carries its Caller. */
export const CALLER = "folioCaller"

/** What a service's MCP server is made of. */
export interface ToolServerSpec<T extends CoreTool<C>, C> {
  readonly name: string
  readonly version: string
  readonly instructions: string
  readonly tools: ReadonlyArray<T>
  readonly access: ToolAccess<T>
  readonly errors: McpErrors
  /** What every tool's run receives. */
  readonly toolContext: C
  readonly resources: ReadonlyArray<CoreResource>
}

/** A server's spec, its tools' types inferred (the server is built from it at the first request). */
export const toolServerSpec = <T extends CoreTool<C>, C>(spec: ToolServerSpec<T, C>): ToolServerSpec<T, C> =>
  spec
