// Handlers of the analytics routes: scope, the SharingAnalytics use cases, and the streamed CSV
// with `X-Svc-Truncated` (decided before the first byte).
import { SharingAnalytics, type VisitsCsv } from "@folio/domain"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { requireScopes } from "../../shared/index.js"
import { csvDownload } from "../../streaming.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"

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
        Effect.gen(function* () {
          yield* requireScopes("read")
          return yield* analytics.summary(params.slug, query)
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("exportResource", ({ params, query }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          return yield* download(yield* analytics.exportResource(params.slug, query))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("exportAccount", ({ query }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          return yield* download(yield* analytics.exportAccount(query))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
  })
)
