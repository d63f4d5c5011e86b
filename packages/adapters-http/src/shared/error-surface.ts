// One service's errors on the wire, derived from the two tables the service writes once: its codes
// (each with its HTTP status, the HttpApi class its envelope is declared with, and what it means) and
// its rows (every error tag its surfaces meet -> a code, and the details that code documents). The
// REST errors, raw envelope responses, OpenAPI components and MCP tool-error codes all come from here.
import { Effect, type Schema } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"

/** An error value: a domain error or one of the HTTP layer's own. */
export interface Tagged {
  readonly _tag: string
  readonly message: string
}

/** A failure as a client sees it, before the service's envelope shapes it. */
export interface Failure<Code extends string = string> {
  readonly code: Code
  readonly status: number
  readonly message: string
  readonly details?: Readonly<Record<string, unknown>>
}

/** One code of a service. */
export interface CodeSpec {
  /**
   * The HttpApi class the envelope of this code is declared with (an OpenAPI component); its
   * `httpApiStatus` annotation is the code's status, written once, where HttpApi reads it too.
   */
  readonly error: Schema.Top & { readonly identifier: string } & (abstract new (...args: never) => unknown)
  /** What the code means, for the API's documentation. */
  readonly meaning: string
  /** Sent only by routes that take no key, so never to a keyed caller (REST with a key, MCP). */
  readonly keyless?: boolean
}

export type Codes = Readonly<Record<string, CodeSpec>>

/** How one error tag is answered. */
export interface Row<E, Code extends string> {
  readonly code: Code
  /** What the client reads instead of the error's own message (a storage failure's cause is not shown). */
  readonly message?: string
  /** The value-free details the code documents (issues, the current concurrency token, ...). */
  readonly details?: (e: E) => Readonly<Record<string, unknown>> | undefined
  /** Headers the answer carries (Retry-After). */
  readonly headers?: (e: E) => Readonly<Record<string, string>>
}

/** A row for every tag of `E`: a tag without one does not compile. */
export type Rows<E extends Tagged, Code extends string> = {
  readonly [T in E["_tag"]]: Row<Extract<E, { readonly _tag: T }>, Code>
}

type CodeOfTag<R, T> = T extends keyof R ? (R[T] extends { readonly code: infer C } ? C : never) : never

/** The REST error (an instance of its code's class) that an error `X` becomes. */
export type ApiErrorOf<C extends Codes, R, X> = X extends Tagged
  ? InstanceType<C[CodeOfTag<R, X["_tag"]> & keyof C]["error"]>
  : never

/** Every REST error of a service: an instance of any of its codes' classes. */
export type AnyApiError<C extends Codes> = InstanceType<C[keyof C]["error"]>

/**
 * What a raw surface (MCP) needs of a service's errors, for the errors `E` it raises itself: any
 * service whose table has rows for `E` can be handed in.
 */
export interface ErrorAnswers<E extends Tagged> {
  /** The codes a keyed caller can receive, in table order. */
  readonly keyedCodes: ReadonlyArray<string>
  readonly failureOf: (e: E) => Failure
  /** The failure of any value the table has a row for; undefined for anything else. */
  readonly lookup: (u: unknown) => Failure | undefined
  /** The envelope response of `e` (status overridable); server faults are logged. */
  readonly respond: (
    e: E,
    init?: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> }
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
}

export interface ErrorSurface<E extends Tagged, C extends Codes, R extends Rows<E, keyof C & string>>
  extends ErrorAnswers<E> {
  readonly codes: C
  readonly rows: R
  readonly keyedCodes: ReadonlyArray<keyof C & string>
  /** Whether the table has a row for this value. */
  readonly handles: (u: unknown) => u is E
  readonly failureOf: (e: E) => Failure<keyof C & string>
  /** The service's envelope of a failure: the JSON body every surface of the service sends. */
  readonly envelope: (failure: Failure<keyof C & string>) => unknown
  readonly apiError: <X extends E>(e: X) => ApiErrorOf<C, R, X>
  /** Fails as the REST error of `e`, with the row's headers on the answer; server faults are logged. */
  readonly fail: <X extends E>(
    e: X
  ) => Effect.Effect<never, ApiErrorOf<C, R, X>, HttpServerRequest.HttpServerRequest>
  readonly isApiError: (u: unknown) => u is AnyApiError<C>
  /** The response of a REST error that reached a raw layer (the envelope it holds, its class's status). */
  readonly apiErrorResponse: (error: AnyApiError<C>) => HttpServerResponse.HttpServerResponse
}

/** A service's `errorsOf`: the HttpApi classes of some of its codes, for a route's or group's `error` list. */
export const errorClassesOf =
  <const C extends Codes>(codes: C) =>
  <const Cs extends ReadonlyArray<keyof C>>(...names: Cs): { readonly [I in keyof Cs]: C[Cs[I]]["error"] } =>
    names.map((name) => (codes[name] as CodeSpec).error) as never

/** The status a code's class declares (HttpApi's `httpApiStatus` annotation). */
export const statusOf = (spec: CodeSpec): number => {
  const status = spec.error.ast.annotations?.httpApiStatus
  if (typeof status !== "number") throw new Error("an error class without an httpApiStatus annotation")
  return status
}

/**
 * A failure of the server (a storage failure) is logged, with its cause, where it is answered;
 * client errors are not. A ServerFault is the HTTP layer's answer to a cause it has already logged
 * where it caught it (a defect), or to a state it reports itself (not ready).
 */
const logFault = (failure: Failure, e: Tagged) =>
  failure.status >= 500 && e._tag !== "ServerFault"
    ? Effect.logError(`answered ${failure.code}`, e)
    : Effect.void

/**
 * A service's error surface from its codes, its rows (one per tag of `E`) and its envelope. Written
 * `errorSurface<E>()({ codes, rows, envelope })` so the tags are named and the table's literals kept.
 */
export const errorSurface =
  <E extends Tagged>() =>
  <const C extends Codes, const R extends Rows<E, keyof C & string>>(spec: {
    readonly codes: C
    readonly rows: R
    readonly envelope: (failure: Failure<keyof C & string>) => unknown
  }): ErrorSurface<E, C, R> => {
    type Code = keyof C & string
    const { codes, rows, envelope } = spec
    // Read once: a class without a status fails here, when the service's layer is built.
    const statuses = new Map(Object.entries(codes).map(([code, spec]) => [code, statusOf(spec)]))
    const rowOf = (e: E) =>
      (rows as unknown as Readonly<Record<string, Row<E, Code>>>)[e._tag] as Row<E, Code>
    const handles = (u: unknown): u is E =>
      typeof u === "object" &&
      u !== null &&
      "_tag" in u &&
      typeof u._tag === "string" &&
      Object.hasOwn(rows, u._tag)
    const failureOf = (e: E): Failure<Code> => {
      const row = rowOf(e)
      const details = row.details?.(e)
      return {
        code: row.code,
        status: statuses.get(row.code) ?? 500,
        message: row.message ?? e.message,
        ...(details === undefined ? {} : { details })
      }
    }
    const construct = (failure: Failure<Code>) => {
      const ErrorClass = (codes[failure.code] as CodeSpec).error as unknown as new (props: unknown) => unknown
      return new ErrorClass(envelope(failure))
    }
    const apiError = <X extends E>(e: X) => construct(failureOf(e)) as ApiErrorOf<C, R, X>
    const withHeaders = (e: E) => {
      const headers = rowOf(e).headers?.(e)
      return headers === undefined
        ? Effect.void
        : HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeaders(response, headers))
          )
    }
    const classes = Object.values(codes).map((spec) => spec.error)
    const isApiError = (u: unknown): u is AnyApiError<C> => classes.some((C) => u instanceof C)
    return {
      codes,
      rows,
      keyedCodes: (Object.keys(codes) as Array<Code>).filter((code) => codes[code]?.keyless !== true),
      handles,
      failureOf,
      lookup: (u) => (handles(u) ? failureOf(u) : undefined),
      envelope,
      apiError,
      fail: (e) => {
        const failure = failureOf(e)
        return Effect.andThen(
          Effect.andThen(logFault(failure, e), withHeaders(e)),
          Effect.fail(construct(failure) as ApiErrorOf<C, R, typeof e>)
        )
      },
      respond: (e, init = {}) => {
        const failure = failureOf(e)
        return Effect.as(
          logFault(failure, e),
          HttpServerResponse.jsonUnsafe(envelope(failure), {
            status: init.status ?? failure.status,
            headers: { ...rowOf(e).headers?.(e), ...init.headers }
          })
        )
      },
      isApiError,
      apiErrorResponse: (error) => {
        const spec = Object.values(codes).find((s) => error instanceof s.error)
        return HttpServerResponse.jsonUnsafe(error, { status: spec === undefined ? 500 : statusOf(spec) })
      }
    }
  }
