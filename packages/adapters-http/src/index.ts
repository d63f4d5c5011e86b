// @folio/adapters-http: the HTTP surface. `FormsHttpLive` registers the forms API, its request guard,
// health, OpenAPI, download, public form page and respondent image routes on the HttpRouter; serve
// it with `HttpRouter.serve`. What every service shares is the `@folio/adapters-http/shared` entry;
// `FormsErrors` is the forms error table.
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BlobDownloadRoute } from "./blobs/index.js"
import { ApiErrorsLive, FormsApi } from "./forms/Api.js"
import { AuthenticationLive } from "./forms/auth.js"
import { FormsLive } from "./forms/authoring/Http.js"
import { FormPageRoutes } from "./forms/page/routes.js"
import { MetaLive } from "./forms/meta/Http.js"
import { OpenApiRoute } from "./forms/openapi.js"
import { formsRequestGuard } from "./forms/request-guard.js"
import { RespondentLive } from "./forms/respondent/Http.js"
import { RespondentImageRoute } from "./forms/respondent/images.js"
import { RespondentRateLimitLive } from "./forms/respondent/rate-limit.js"
import { HealthRoutes } from "./health/routes.js"
import { requestGuards } from "./shared/index.js"

export * from "./blobs/index.js"
export * from "./forms/Api.js"
export * from "./forms/auth.js"
export * from "./forms/errors.js"
export * from "./forms/openapi.js"
export * from "./health/routes.js"
export * from "./public-origin.js"
export * from "./streaming.js"

export const FormsApiLive = HttpApiBuilder.layer(FormsApi).pipe(
  Layer.provide([MetaLive, FormsLive, RespondentLive]),
  Layer.provide([AuthenticationLive, RespondentRateLimitLive, ApiErrorsLive])
)

export const FormsHttpLive = Layer.mergeAll(
  FormsApiLive,
  requestGuards([], formsRequestGuard),
  HealthRoutes,
  OpenApiRoute,
  BlobDownloadRoute,
  RespondentImageRoute,
  FormPageRoutes
)
