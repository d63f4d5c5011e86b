// The forms REST API as one HttpApi: every group lives under /forms/api/v1 and declares the
// envelope errors every route can answer with, so the generated OpenAPI document is complete.
import { Layer } from "effect"
import { HttpApi, HttpApiMiddleware, OpenApi } from "effect/http-api"
import { Authentication } from "./auth.js"
import { FormsGroup } from "./authoring/Api.js"
import { errorsOf } from "./errors.js"
import { MetaApi } from "./meta/Api.js"
import { RespondentGroup } from "./respondent/Api.js"

export const FORMS_API_PREFIX = "/forms/api/v1"

/**
 * The errors any route of the API can answer with. HttpApi has no API-wide error list, so they
 * hang on a middleware that does nothing else; attached last, it reaches every group.
 */
export class ApiErrors extends HttpApiMiddleware.Service<ApiErrors>()("@folio/adapters-http/ApiErrors", {
  error: errorsOf("invalid", "unauthorized", "rate_limited", "payload_too_large", "unsupported_kind")
}) {}

export const ApiErrorsLive = Layer.succeed(
  ApiErrors,
  ApiErrors.of((httpEffect) => httpEffect)
)

/** Every issue of a request, and unknown body keys refused, as the domain's own decoders do. */
const STRICT_ALL = { errors: "all", onExcessProperty: "error" } as const
/** Query strings and headers may carry more than a route reads (proxies, tracking parameters). */
const ALL = { errors: "all" } as const
/** What a handler returns is trimmed to its schema (domain values carry more than the wire shows). */
const ENCODE = {} as const

export class FormsApi extends HttpApi.make("forms")
  .add(MetaApi)
  .add(FormsGroup)
  .prefix(FORMS_API_PREFIX)
  // Added after the prefix: the respondent routes live beside the public form at /f/{slug}.
  .add(RespondentGroup)
  .middleware(ApiErrors)
  .annotate(HttpApi.ParseOptions, STRICT_ALL)
  .annotate(HttpApi.QueryParseOptions, ALL)
  .annotate(HttpApi.HeadersParseOptions, ALL)
  .annotate(HttpApi.SuccessParseOptions, ENCODE)
  .annotate(HttpApi.ErrorParseOptions, ENCODE)
  .annotateMerge(
    OpenApi.annotations({
      title: "Folio Forms API",
      version: "1.0.0",
      description: "Author classic and interview forms, publish versions, read responses. Bearer API keys.",
      license: { name: "MIT", url: "https://opensource.org/license/mit" },
      servers: [{ url: "/", description: "This deployment" }]
    })
  ) {}

export { Authentication }
