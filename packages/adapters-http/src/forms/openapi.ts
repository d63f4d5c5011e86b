// GET /forms/api/v1/openapi.json: the OpenAPI 3.1 document generated from the HttpApi definition,
// unauthenticated, unwrapped, readable from any origin.
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { FORMS_API_PREFIX } from "./Api.js"
import { formsOpenApiDocument } from "./openapi-document.js"

export { formsOpenApiDocument }

export const OpenApiRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const cors = { "access-control-allow-origin": "*" }
    // The answer (the document generated and written as JSON) is made at the first GET, not at
    // every start, then sent as it is to every later one.
    let answer: HttpServerResponse.HttpServerResponse | undefined
    yield* router.add(
      "GET",
      `${FORMS_API_PREFIX}/openapi.json`,
      Effect.sync(() => (answer ??= HttpServerResponse.jsonUnsafe(formsOpenApiDocument(), { headers: cors })))
    )
    yield* router.add(
      "OPTIONS",
      `${FORMS_API_PREFIX}/openapi.json`,
      HttpServerResponse.empty({
        status: 204,
        headers: {
          ...cors,
          "access-control-allow-methods": "GET, OPTIONS",
          "access-control-allow-headers": "*"
        }
      })
    )
  })
)
