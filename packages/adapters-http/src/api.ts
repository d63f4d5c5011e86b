// The forms REST API as one HttpApi: every group lives under /forms/api/v1 and declares the
// envelope errors every route can answer with, so the generated OpenAPI document is complete.
import { HttpApi, OpenApi } from "@effect/platform"
import { Authentication } from "./auth.js"
import {
  InvalidError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnsupportedKindError
} from "./errors.js"
import { FormsGroup } from "./forms/Api.js"
import { MetaApi } from "./meta/Api.js"
import { RespondentGroup } from "./respondent/Api.js"

export const FORMS_API_PREFIX = "/forms/api/v1"

export class FormsApi extends HttpApi.make("forms")
  .add(MetaApi)
  .add(FormsGroup)
  .addError(InvalidError)
  .addError(UnauthorizedError)
  .addError(RateLimitedError)
  .addError(PayloadTooLargeError)
  .addError(UnsupportedKindError)
  .prefix(FORMS_API_PREFIX)
  // Added after the prefix: the respondent routes live beside the public form at /f/{slug}.
  .add(RespondentGroup)
  .annotateContext(
    OpenApi.annotations({
      title: "Folio Forms API",
      version: "1.0.0",
      description: "Author classic and interview forms, publish versions, read responses. Bearer API keys.",
      license: { name: "MIT", url: "https://opensource.org/license/mit" },
      servers: [{ url: "/", description: "This deployment" }]
    })
  ) {}

export { Authentication }
