// GET /share/api/v1/openapi.yaml: the sharing API's OpenAPI 3.1 document, generated from the same
// HttpApi the server decodes with, as YAML; public (no key), counted in the address's request budget.
import { makeAddressBudget } from "@folio/domain"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientIp, rateLimitHeaders } from "../shared/index.js"
import { SHARING_API_PREFIX } from "./Api.js"
import { SharingErrors } from "./errors.js"
import { sharingOpenApiDocument } from "./openapi-document.js"

export { sharingOpenApiDocument }

let yamlText: Promise<string> | undefined

/**
 * The document as YAML, written once per process when it is first asked for (generating and
 * writing it took ~0.3 s of every server start, and again of every app built in the same process;
 * the yaml library is loaded then too). No anchors: the document shares header objects between
 * answers, and YAML tools cap aliases.
 */
const sharingOpenApiYaml = Effect.promise(
  () =>
    (yamlText ??= import("yaml").then(({ stringify }) =>
      stringify(sharingOpenApiDocument(), { aliasDuplicateObjects: false })
    ))
)

export const SharingOpenApiRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    // The document needs no key, but a fetch of it counts toward the address's one request budget.
    const spend = yield* makeAddressBudget("sharing")
    yield* router.add(
      "GET",
      `${SHARING_API_PREFIX}/openapi.yaml`,
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const spent = yield* Effect.result(spend(clientIp(request)))
        if (spent._tag === "Failure")
          return yield* SharingErrors.respond(
            spent.failure,
            spent.failure._tag === "RateLimited" && spent.failure.budget !== undefined
              ? { headers: rateLimitHeaders(spent.failure.budget) }
              : {}
          )
        return HttpServerResponse.text(yield* sharingOpenApiYaml, {
          contentType: "application/yaml; charset=utf-8",
          headers: {
            "access-control-allow-origin": "*",
            "cache-control": "public, max-age=300",
            ...rateLimitHeaders(spent.success)
          }
        })
      })
    )
  })
)
