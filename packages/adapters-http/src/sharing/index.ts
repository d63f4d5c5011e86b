// The sharing service's HTTP surface: its API, OpenAPI document and request guard.
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AccountLive } from "./account/Http.js"
import { SharingApi, SharingApiErrorsLive } from "./Api.js"
import { SharingAuthenticationLive } from "./auth.js"
import { ArtifactsLive } from "./artifacts/Http.js"
import { UploadRequestsLive } from "./upload-requests/Http.js"
import { JobsLive } from "./jobs/Http.js"
import { AnalyticsLive } from "./analytics/Http.js"
import { WebhooksLive } from "./webhooks/Http.js"
import { UploadPageRoutes } from "./public/upload-page.js"
import { BioLive } from "./bio/Http.js"
import { CollectionsLive } from "./collections/Http.js"
import { FilesLive } from "./files/Http.js"
import { SharingOpenApiRoute } from "./openapi.js"
import { SharingPublicRoutes } from "./public/Http.js"
import { ResourcesLive } from "./resources/Http.js"

export * from "./Api.js"
export * from "./artifacts/Api.js"
export * from "./upload-requests/Api.js"
export * from "./jobs/Api.js"
export * from "./analytics/Api.js"
export * from "./webhooks/Api.js"
export * from "./bio/Api.js"
export * from "./collections/Api.js"
export * from "./errors.js"
export * from "./files/Api.js"
export * from "./openapi.js"
export * from "./public/fast-redirect.js"
export * from "./public/password.js"
export * from "./public/Http.js"
export * from "./request-guard.js"
export * from "./resources/Api.js"
export { DEFAULT_COUNTRY_HEADER } from "../shared/country-header.js"
export { CountryHeader } from "./visit.js"
export { ClientIpHeader } from "./public/record-visit.js"
export { SIMULATION_VISITOR_ID } from "./resources/Http.js"

export const SharingApiLive = HttpApiBuilder.layer(SharingApi).pipe(
  Layer.provide([
    AccountLive,
    ResourcesLive,
    FilesLive,
    CollectionsLive,
    BioLive,
    ArtifactsLive,
    UploadRequestsLive,
    JobsLive,
    AnalyticsLive,
    WebhooksLive
  ]),
  Layer.provide([SharingAuthenticationLive, SharingApiErrorsLive])
)

export const SharingHttpLive = Layer.mergeAll(
  SharingApiLive,
  SharingOpenApiRoute,
  SharingPublicRoutes,
  UploadPageRoutes
)
