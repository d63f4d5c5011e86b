// The served sharing OpenAPI document: what HttpApi generates from SharingApi, published as every
// document is (shared/openapi-publish.ts: paths relative to the server URL), plus the facts the
// generator cannot see because no endpoint declares them:
// - the budget headers of every keyed answer (bearer-auth.ts sets them whichever layer answered) and
//   `Retry-After` on every 429;
// - every route can answer 431 (Node refuses an overlong request line before any route runs);
// - this document's own route, served beside the HttpApi (public, counted in the address's budget);
// - each keyed operation's scopes, from the domain's SHARING_OPERATION_SCOPES (the table the request
//   guard and the handlers' sharingRoute check), as the role names of its bearer requirement.
import { sharingOperationScopes } from "@folio/domain"
import { OpenApi } from "effect/http-api"
import { publishedOpenApi } from "../shared/index.js"
import { SharingApi } from "./Api.js"
import { SharingErrors } from "./errors.js"

type Json = { [key: string]: unknown }
type Operation = Json & {
  operationId?: string
  security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  responses: Record<string, Json>
}

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } })

/**
 * On every answer to a request whose key was recognised (an unknown key's 401 has none). Not
 * `required`: an answer produced before the key was read carries none.
 */
const BUDGET_HEADERS = {
  "X-RateLimit-Limit": integerHeader("Requests the key may make in the current window"),
  "X-RateLimit-Remaining": integerHeader("Requests left in the current window"),
  "X-RateLimit-Reset": integerHeader("Seconds until the window resets")
}

const RETRY_AFTER = {
  "Retry-After": { ...integerHeader("Seconds to wait before trying again"), required: true }
}

/** The sharing envelope of one error code, as an answer's content. */
const envelopeOf = (code: keyof typeof SharingErrors.codes) => ({
  "application/json": {
    schema: { $ref: `#/components/schemas/${SharingErrors.codes[code].error.identifier}` }
  }
})

/** GET /openapi.yaml (openapi.ts): public, CORS `*`. */
const openApiOperation = () => ({
  tags: ["account"],
  operationId: "account.openapi",
  summary: "This OpenAPI 3.1 document, as YAML (no key; counted in the address's request budget)",
  security: [],
  responses: {
    "200": {
      description: "The document",
      headers: BUDGET_HEADERS,
      content: { "application/yaml": { schema: { type: "string" } } }
    },
    "429": {
      description: "The address's budget is spent; wait `Retry-After` seconds",
      headers: { ...BUDGET_HEADERS, ...RETRY_AFTER },
      content: envelopeOf("rate_limited")
    },
    "431": headersTooLarge()
  }
})

/** Node's parser refuses an overlong request line or headers on any route (app/client-errors.ts). */
const headersTooLarge = () => ({
  description: "The request line and headers exceed 16 KiB (a long query string): `validation_failed`",
  content: envelopeOf("validation_failed")
})

/**
 * A keyed operation's security requirements with its scopes from the table (OpenAPI 3.1 lets a
 * bearer requirement list the role names it needs). The operation id is HttpApi's `<group>.<endpoint>`,
 * the table's key; an endpoint the table lacks is a mistake in the API definition.
 */
const withScopes = (op: Operation): NonNullable<Operation["security"]> => {
  const security = op.security ?? []
  if (security.length === 0) return security
  const scopes = sharingOperationScopes(op.operationId ?? "")
  if (scopes === undefined) throw new Error(`${op.operationId} is missing from SHARING_OPERATION_SCOPES`)
  return security.map((requirement) =>
    Object.fromEntries(Object.keys(requirement).map((scheme) => [scheme, [...scopes]]))
  )
}

const shape = (generated: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const doc = publishedOpenApi(generated) as unknown as { paths: Record<string, Record<string, Operation>> }
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      const keyed = (op.security ?? []).length > 0
      if (keyed) op.security = withScopes(op)
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = {
          ...(keyed ? BUDGET_HEADERS : {}),
          ...(status === "429" ? RETRY_AFTER : {}),
          ...(response.headers as Json | undefined)
        }
        if (Object.keys(headers).length > 0) response.headers = headers
      }
      op.responses["431"] = headersTooLarge()
    }
  }
  doc.paths = { "/openapi.yaml": { get: openApiOperation() }, ...doc.paths }
  return doc as unknown as OpenApi.OpenAPISpec
}

let cached: OpenApi.OpenAPISpec | undefined

/** The document served at /openapi.yaml (built once; the API definition does not change at run time). */
export const sharingOpenApiDocument = (): OpenApi.OpenAPISpec => {
  cached ??= shape(OpenApi.fromApi(SharingApi))
  return cached
}
