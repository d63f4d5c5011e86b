// Which endpoint of a service's HttpApi a request names, when that endpoint takes a key: the guard
// authenticates and checks its scopes from here before it reads the body, so a caller without a key
// or scope hears 401/403 before anything about what it sent.
import type { HttpApi, HttpApiGroup } from "effect/http-api"
import { HttpApiMiddleware } from "effect/http-api"
import { routePattern } from "./route-pattern.js"

/** One keyed endpoint: how to recognise its requests, and the scopes its operation needs. */
export interface KeyedEndpoint {
  readonly group: string
  readonly name: string
  readonly method: string
  /** The endpoint's declared path (its route template, as the router's). */
  readonly path: string
  readonly route: RegExp
  /** The operation's scopes; undefined where the service's table names none for it. */
  readonly scopes: ReadonlyArray<string> | undefined
}

/** How a service names the scopes of its endpoints (its operation table, read by group and name). */
export type ScopesOf = (group: string, endpoint: string) => ReadonlyArray<string> | undefined

interface EndpointShape {
  readonly path: string
  readonly method: string
  readonly middlewares: ReadonlySet<unknown>
}

/**
 * Every endpoint of `api` behind a security middleware, those with fewer path parameters first: a
 * literal segment (`/responses/summary`) wins over a parameter (`/responses/:responseId`), as the
 * router decides.
 */
export const keyedEndpointsOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  scopesOf: ScopesOf
): ReadonlyArray<KeyedEndpoint> => {
  const groups = api.groups as unknown as Readonly<
    Record<
      string,
      { readonly identifier: string; readonly endpoints: Readonly<Record<string, EndpointShape>> }
    >
  >
  const found: Array<KeyedEndpoint & { readonly params: number }> = []
  for (const group of Object.values(groups)) {
    // An endpoint is named by its key in the group (its own `name` is its class's).
    for (const [name, endpoint] of Object.entries(group.endpoints)) {
      const keyed = [...endpoint.middlewares].some(
        (m) => typeof m === "function" && HttpApiMiddleware.isSecurity(m as never)
      )
      if (!keyed) continue
      found.push({
        group: group.identifier,
        name,
        method: endpoint.method,
        path: endpoint.path,
        route: routePattern(endpoint.path),
        scopes: scopesOf(group.identifier, name),
        params: endpoint.path.split("/").filter((s) => s.startsWith(":")).length
      })
    }
  }
  return found.sort((a, b) => a.params - b.params)
}

/** The keyed endpoint a request names, if any (HEAD as GET). */
export const keyedEndpointOf = (
  endpoints: ReadonlyArray<KeyedEndpoint>,
  method: string,
  url: string
): KeyedEndpoint | undefined => {
  const asked = method === "HEAD" ? "GET" : method
  return endpoints.find((e) => e.method === asked && e.route.test(url))
}
