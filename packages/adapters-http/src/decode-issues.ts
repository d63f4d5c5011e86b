// HttpApi turns a Schema failure into an HttpApiDecodeError whose issues carry the input in their
// messages and no schema, and it stops at the first failing part. To answer with the domain's own
// value-free issues (rule, expected, allowed), a request that failed decoding is decoded again here
// against its endpoint's schemas: path, body, headers and query, every issue of each. This runs only
// on the failure path.
import { type HttpApi, type HttpApiEndpoint, type HttpApiGroup, HttpServerRequest } from "@effect/platform"
import { type Issue, issuesOf } from "@folio/domain"
import { Either, Option, ParseResult, type Schema } from "effect"

type AnyEndpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps

interface Route {
  readonly method: string
  readonly segments: ReadonlyArray<string>
  readonly endpoint: AnyEndpoint
}

export interface DecodeInput {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, when the method carries one. */
  readonly body: unknown
}

const decodeSegment = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

const ALL = { errors: "all" } as const

const issuesFor = (schema: Option.Option<Schema.Schema.Any>, input: unknown): ReadonlyArray<Issue> => {
  if (Option.isNone(schema)) return []
  const result = ParseResult.decodeUnknownEither(
    schema.value as Schema.Schema<unknown, unknown, never>,
    ALL
  )(input)
  return Either.isLeft(result) ? issuesOf(new ParseResult.ParseError({ issue: result.left })) : []
}

/** Finds the endpoint a request was routed to and lists every decode issue of it. */
export const makeDecodeIssues = (api: HttpApi.HttpApi.Any) => {
  const groups = Object.values(
    (api as unknown as { groups: Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps> }).groups
  )
  const params = (r: Route) => r.segments.filter((s) => s.startsWith(":")).length
  // Literal segments before parameters, as the router matches them (`/responses/summary` first).
  const routes: ReadonlyArray<Route> = groups
    .flatMap((group) =>
      Object.values(group.endpoints as Record<string, AnyEndpoint>).map((endpoint) => ({
        method: endpoint.method,
        segments: endpoint.path.split("/"),
        endpoint
      }))
    )
    .sort((a, b) => params(a) - params(b))
  return (input: DecodeInput): ReadonlyArray<Issue> | undefined => {
    const url = new URL(input.url, "http://localhost")
    const segments = url.pathname.replace(/(.)\/$/, "$1").split("/")
    for (const route of routes) {
      if (route.method !== input.method || route.segments.length !== segments.length) continue
      const params: Record<string, string> = {}
      const matches = route.segments.every((pattern, i) => {
        const actual = segments[i] as string
        if (pattern.startsWith(":")) {
          params[pattern.slice(1)] = decodeSegment(actual)
          return actual !== ""
        }
        return pattern === actual
      })
      if (!matches) continue
      const query = HttpServerRequest.searchParamsFromURL(url)
      const { endpoint } = route
      return [
        ...issuesFor(endpoint.pathSchema, params),
        ...(input.method === "GET" || input.method === "HEAD"
          ? []
          : issuesFor(endpoint.payloadSchema, input.body)),
        ...issuesFor(endpoint.headersSchema, input.headers),
        ...issuesFor(endpoint.urlParamsSchema, query)
      ]
    }
    return undefined
  }
}
