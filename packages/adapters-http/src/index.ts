// @folio/adapters-http: the HTTP surface. `HttpSurfaceLive` registers both services on the
// HttpRouter (serve it with `HttpRouter.serve`): `FormsHttpLive` (the forms API, health, OpenAPI,
// downloads, the public form page and its images), `SharingHttpLive` (the sharing API and its
// OpenAPI document), `ConsoleRoutes` (the owner console's pages), and the one request guard that
// answers each path in its service's envelope (the console's as HTML pages).
// What every service shares is the `@folio/adapters-http/shared` entry; `FormsErrors` and
// `SharingErrors` are the two error tables.
import { ArtifactPolicy, UploadPolicy } from "@folio/domain"
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BlobDownloadRoute } from "./blobs/index.js"
import { ConsoleRoutes } from "./console/Http.js"
import { CONSOLE_PATH_PREFIXES, consoleRequestGuard } from "./console/request-guard.js"
import { ApiErrorsLive, FormsApi } from "./forms/Api.js"
import { AuthenticationLive } from "./forms/auth.js"
import { FormsLive } from "./forms/authoring/Http.js"
import { FormPageRoutes } from "./forms/page/Http.js"
import { MetaLive } from "./forms/meta/Http.js"
import { OpenApiRoute } from "./forms/openapi.js"
import { formsRequestGuard } from "./forms/request-guard.js"
import { RespondentLive } from "./forms/respondent/Http.js"
import { RespondentImageRoute } from "./forms/respondent/images.js"
import { RespondentRateLimitLive } from "./forms/respondent/rate-limit.js"
import { HealthRoutes } from "./health/Http.js"
import { requestGuards } from "./shared/index.js"
import { SHARING_PATH_PREFIXES, SharingHttpLive, sharingRequestGuard } from "./sharing/index.js"
import { makeArtifactSite } from "./sharing/public/artifact-site.js"

export * from "./blobs/index.js"
export { sessionSetCookie, consoleCookieNames } from "./console/cookies.js"
export { CONSOLE_PATH_PREFIXES } from "./console/request-guard.js"
export * from "./forms/Api.js"
export * from "./forms/auth.js"
export * from "./forms/errors.js"
export * from "./forms/openapi.js"
export * from "./health/Http.js"
export * from "./public-origin.js"
export * from "./streaming.js"
export * from "./sharing/index.js"

export const FormsApiLive = HttpApiBuilder.layer(FormsApi).pipe(
  Layer.provide([MetaLive, FormsLive, RespondentLive]),
  Layer.provide([AuthenticationLive, RespondentRateLimitLive, ApiErrorsLive])
)

export const FormsHttpLive = Layer.mergeAll(
  FormsApiLive,
  HealthRoutes,
  OpenApiRoute,
  BlobDownloadRoute,
  RespondentImageRoute,
  FormPageRoutes
)

/** The one global guard: sharing paths in the sharing envelope, everything else in the forms one. */
export const RequestGuardsLive = requestGuards(
  Effect.gen(function* () {
    const uploads = yield* UploadPolicy
    const artifacts = yield* ArtifactPolicy
    const site = yield* makeArtifactSite
    const sharing = yield* sharingRequestGuard(
      uploads.maxBytes,
      Math.max(artifacts.siteBytes, artifacts.zipBytes)
    )
    const forms = yield* formsRequestGuard
    return {
      services: [
        { prefixes: SHARING_PATH_PREFIXES, guard: sharing },
        { prefixes: CONSOLE_PATH_PREFIXES, guard: consoleRequestGuard }
      ],
      fallback: forms,
      // An artifact deployment's origin is a host of its own: its requests never reach the app's routes.
      byHost: (request: HttpServerRequest.HttpServerRequest) => {
        const deployment = site.deploymentOf(request.headers.host)
        return deployment === undefined ? undefined : site.serve(request, deployment)
      }
    }
  })
)

/** Both services, the owner console and the guard, as the app serves them. */
export const HttpSurfaceLive = Layer.mergeAll(
  FormsHttpLive,
  SharingHttpLive,
  ConsoleRoutes,
  RequestGuardsLive
)
export * from "./oauth/index.js"
