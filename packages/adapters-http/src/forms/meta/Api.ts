// Meta endpoints: the key's capabilities and its usage and rate-limit budget.
import { Capabilities } from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authentication } from "../auth.js"
import { Data } from "../envelope.js"
import { errorsOf } from "../errors.js"

export const Usage = Schema.Struct({
  key: Schema.Struct({ id: Schema.String, scopes: Schema.Array(Schema.String) }),
  rateLimit: Schema.NullOr(
    Schema.Struct({ limit: Schema.Int, remaining: Schema.Int, resetSeconds: Schema.Int })
  ),
  requests: Schema.Struct({
    last24h: Schema.Int,
    last7d: Schema.Int,
    byStatusLast24h: Schema.Struct({ ok: Schema.Int, clientError: Schema.Int, serverError: Schema.Int })
  })
}).annotate({ identifier: "Usage" })

/** The errors every meta route can answer with, beside the API-wide ones. */
const MetaErrors = errorsOf("not_found", "internal")

export class MetaApi extends HttpApiGroup.make("meta")
  .add(
    HttpApiEndpoint.get("capabilities", "/capabilities", {
      success: Data(Capabilities),
      error: MetaErrors
    }).annotate(
      OpenApi.Summary,
      "What this key's workspace can author: form kinds, render modes, block types, features"
    ),
    HttpApiEndpoint.get("usage", "/usage", { success: Data(Usage), error: MetaErrors }).annotate(
      OpenApi.Summary,
      "This key, its live rate-limit budget and the workspace's request counts"
    )
  )
  .annotate(OpenApi.Description, "The key's capabilities, usage and rate-limit budget")
  .middleware(Authentication) {}
