// @folio/adapters-http: the HTTP surface. `FormsHttpLive` registers the forms API, the envelope
// middleware, health, OpenAPI and download routes on the HttpRouter; serve it with `HttpRouter.serve`.
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiErrorsLive, FormsApi } from "./api.js"
import { AuthenticationLive } from "./auth.js"
import { BlobDownloadRoute } from "./blobs/index.js"
import { FormsLive } from "./forms/Http.js"
import { HealthRoutes } from "./health/routes.js"
import { MetaLive } from "./meta/Http.js"
import { EnvelopeMiddlewareLive } from "./middleware.js"
import { OpenApiRoute } from "./openapi.js"
import { RespondentLive } from "./respondent/Http.js"
import { RespondentRateLimitLive } from "./respondent/rate-limit.js"

export * from "./api.js"
export * from "./auth.js"
export * from "./blobs/index.js"
export * from "./errors.js"
export * from "./health/routes.js"
export * from "./middleware.js"
export * from "./openapi.js"
export * from "./public-origin.js"
export * from "./streaming.js"
export { RespondentRateLimitPolicy } from "./respondent/rate-limit.js"

export const FormsApiLive = HttpApiBuilder.layer(FormsApi).pipe(
  Layer.provide([MetaLive, FormsLive, RespondentLive]),
  Layer.provide([AuthenticationLive, RespondentRateLimitLive, ApiErrorsLive])
)

export const FormsHttpLive = Layer.mergeAll(
  FormsApiLive,
  EnvelopeMiddlewareLive,
  HealthRoutes,
  OpenApiRoute,
  BlobDownloadRoute
)
