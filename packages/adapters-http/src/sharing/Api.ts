// The sharing REST API as one HttpApi under /share/api/v1, in the sharing envelope.
import { SHARING_API_PREFIX } from "@folio/domain"
import { Layer } from "effect"
import { HttpApi, HttpApiMiddleware, OpenApi } from "effect/http-api"
import { AccountGroup } from "./account/Api.js"
import { sharingErrorsOf } from "./errors.js"
import { ArtifactsGroup } from "./artifacts/Api.js"
import { UploadRequestsGroup } from "./upload-requests/Api.js"
import { JobsGroup } from "./jobs/Api.js"
import { AnalyticsGroup } from "./analytics/Api.js"
import { WebhooksGroup } from "./webhooks/Api.js"
import { BioGroup } from "./bio/Api.js"
import { CollectionsGroup } from "./collections/Api.js"
import { FilesGroup } from "./files/Api.js"
import { ResourcesGroup } from "./resources/Api.js"

export { SHARING_API_PREFIX }

/** The errors any sharing route can answer with (HttpApi has no API-wide list: a no-op middleware). */
export class SharingApiErrors extends HttpApiMiddleware.Service<SharingApiErrors>()(
  "@folio/adapters-http/SharingApiErrors",
  {
    error: sharingErrorsOf(
      "validation_failed",
      "request_body_invalid",
      "invalid_api_key",
      "rate_limited",
      "payload_too_large",
      "internal_error"
    )
  }
) {}

export const SharingApiErrorsLive = Layer.succeed(
  SharingApiErrors,
  SharingApiErrors.of((httpEffect) => httpEffect)
)

export class SharingApi extends HttpApi.make("sharing")
  .add(AccountGroup)
  .add(ResourcesGroup)
  .add(FilesGroup)
  .add(CollectionsGroup)
  .add(BioGroup)
  .add(ArtifactsGroup)
  .add(UploadRequestsGroup)
  .add(JobsGroup)
  .add(AnalyticsGroup)
  .add(WebhooksGroup)
  .prefix(SHARING_API_PREFIX)
  .middleware(SharingApiErrors)
  .annotate(HttpApi.ParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotate(HttpApi.HeadersParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Folio Sharing API",
      version: "1.0.0",
      description: "Links, Markdown pages and more, each with a public URL. Bearer API keys.",
      license: { name: "MIT", url: "https://opensource.org/license/mit" },
      servers: [{ url: "/share/api/v1", description: "This deployment" }]
    })
  ) {}
