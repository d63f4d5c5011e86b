// Handlers of the analytics routes: scope, the SharingAnalytics use cases, and the streamed CSV
// with `X-Svc-Truncated` (decided before the first byte).
import { SharingAnalytics, type VisitsCsv } from "@folio/domain"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { csvDownload } from "../../streaming.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"

const download = (csv: VisitsCsv) =>
  Effect.gen(function* () {
    const response = yield* csvDownload(
      csv.lines,
      csv.filename,
      yield* HttpServerRequest.HttpServerRequest,
      "analytics export"
    )
    return HttpServerResponse.setHeader(response, "x-svc-truncated", csv.truncated ? "true" : "false")
  })

export const AnalyticsLive = HttpApiBuilder.group(SharingApi, "analytics", (handlers) =>
  Effect.gen(function* () {
    const analytics = yield* SharingAnalytics
    return handlers
      .handle("summary", ({ params, query }) =>
        sharingRoute("analytics.summary", analytics.summary(params.slug, query))
      )
      .handle("exportResource", ({ params, query }) =>
        sharingRoute(
          "analytics.exportResource",
          Effect.flatMap(analytics.exportResource(params.slug, query), download)
        )
      )
      .handle("exportAccount", ({ query }) =>
        sharingRoute("analytics.exportAccount", Effect.flatMap(analytics.exportAccount(query), download))
      )
  })
)
