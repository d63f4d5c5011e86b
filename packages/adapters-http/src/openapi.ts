// GET /forms/api/v1/openapi.json: the OpenAPI 3.1 document generated from the HttpApi definition,
// unauthenticated, unwrapped, readable from any origin.
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { FORMS_API_PREFIX } from "./api.js"
import { formsOpenApiDocument } from "./openapi-document.js"

export const OpenApiRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const document = formsOpenApiDocument()
    const cors = { "access-control-allow-origin": "*" }
    yield* router.get(
      `${FORMS_API_PREFIX}/openapi.json`,
      Effect.succeed(HttpServerResponse.unsafeJson(document, { headers: cors }))
    )
    yield* router.options(
      `${FORMS_API_PREFIX}/openapi.json`,
      Effect.succeed(
        HttpServerResponse.empty({
          status: 204,
          headers: {
            ...cors,
            "access-control-allow-methods": "GET, OPTIONS",
            "access-control-allow-headers": "*"
          }
        })
      )
    )
  })
)
