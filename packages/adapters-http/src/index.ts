// @folio/adapters-http: the HTTP surface. `FormsHttpLive` registers the forms API, health and
// download routes on the HttpApiBuilder router; serve it with `HttpApiBuilder.serve()`.
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { FormsApi } from "./api.js"
import { AuthenticationLive } from "./auth.js"
import { BlobDownloadRoute } from "./blobs/index.js"
import { HealthRoutes } from "./health/routes.js"
import { FormsLive } from "./forms/Http.js"
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

export const FormsApiLive = HttpApiBuilder.api(FormsApi).pipe(
  Layer.provide(MetaLive),
  Layer.provide(FormsLive),
  Layer.provide(RespondentLive),
  Layer.provide(AuthenticationLive),
  Layer.provide(RespondentRateLimitLive)
)

export const FormsHttpLive = Layer.mergeAll(
  FormsApiLive,
  EnvelopeMiddlewareLive,
  HealthRoutes,
  OpenApiRoute,
  BlobDownloadRoute
)
