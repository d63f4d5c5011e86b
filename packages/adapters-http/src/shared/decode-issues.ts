// HttpApi decodes a request part by part (path, headers, query, body) and stops at the first part
// that fails. To answer with every issue of every part, in the order the API has always listed them
// (path, body, headers, query), a request that failed decoding is decoded again here against its
// endpoint's schemas. This runs only on the failure path.
import { type Issue, issuesOf, STRICT_ALL } from "@folio/domain"
import { Result, Schema, type SchemaAST } from "effect"
import { URL } from "node:url"
import { HttpServerRequest } from "effect/http"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"

interface Route {
  readonly method: string
  readonly segments: ReadonlyArray<string>
  readonly endpoint: HttpApiEndpoint.Top
}

export interface DecodeInput {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The body's media type, without parameters. */
  readonly contentType: string
  /** The parsed JSON body, or the text of a text body, when the method carries one. */
  readonly body: unknown
}

const decodeSegment = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** The options HttpApi decodes each part with (see FormsApi's annotations). */
const ALL: SchemaAST.ParseOptions = { errors: "all" }

const issuesFor = (
  schema: Schema.Top | undefined,
  input: unknown,
  options: SchemaAST.ParseOptions
): ReadonlyArray<Issue> => {
  if (schema === undefined) return []
  const result = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(input, options)
  return Result.isFailure(result) ? issuesOf(result.failure) : []
}

/**
 * The body schema of an endpoint for a media type (one member as it is, several as their union):
 * the type's own when the endpoint names it, else the JSON one.
 */
const payloadOf = (endpoint: HttpApiEndpoint.Top, contentType: string): Schema.Top | undefined => {
  const encoding = endpoint.payload.get(contentType) ?? endpoint.payload.get("application/json")
  if (encoding === undefined) return undefined
  const [first, ...rest] = encoding.schemas
  return rest.length === 0 ? first : Schema.Union(encoding.schemas)
}

/** Finds the endpoint a request was routed to and lists every decode issue of it. */
export const makeDecodeIssues = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
) => {
  const params = (r: Route) => r.segments.filter((s) => s.startsWith(":")).length
  const found: Array<Route> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      found.push({ method: endpoint.method, segments: endpoint.path.split("/"), endpoint })
    }
  })
  // Literal segments before parameters, as the router matches them (`/responses/summary` first).
  const routes: ReadonlyArray<Route> = found.sort((a, b) => params(a) - params(b))
  return (input: DecodeInput): ReadonlyArray<Issue> | undefined => {
    const url = new URL(input.url, "http://localhost")
    const segments = url.pathname.replace(/(.)\/$/, "$1").split("/")
    for (const route of routes) {
      if (route.method !== input.method || route.segments.length !== segments.length) continue
      const pathParams: Record<string, string> = {}
      const matches = route.segments.every((pattern, i) => {
        const actual = segments[i] as string
        if (pattern.startsWith(":")) {
          pathParams[pattern.slice(1)] = decodeSegment(actual)
          return actual !== ""
        }
        return pattern === actual
      })
      if (!matches) continue
      const { endpoint } = route
      const query = endpoint.query === undefined ? undefined : Schema.toCodecArrayFromSingle(endpoint.query)
      return [
        ...issuesFor(endpoint.params, pathParams, ALL),
        ...(input.method === "GET" || input.method === "HEAD"
          ? []
          : issuesFor(payloadOf(endpoint, input.contentType), input.body, STRICT_ALL)),
        ...issuesFor(endpoint.headers, input.headers, ALL),
        ...issuesFor(query, HttpServerRequest.searchParamsFromURL(url), ALL)
      ]
    }
    return undefined
  }
}
