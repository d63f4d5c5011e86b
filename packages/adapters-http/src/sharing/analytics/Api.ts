// The analytics routes (sharing-api.md, Analytics): one resource's summary (daily series and top
// values, all time unless `days` or `from`+`to`), and CSV exports of raw visits for one resource or
// the whole account (last 30 days unless `from`+`to`; at most 100,000 rows, `X-Svc-Truncated`).
import { AnalyticsSummary, MAX_SUMMARY_DAYS } from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"

const Slug = { slug: Schema.String }

/** A day, `YYYY-MM-DD` (checked as a calendar day by the use case, which names the field). */
const Day = Schema.String.check(Schema.isMaxLength(10)).annotate({
  description: "A UTC day, YYYY-MM-DD",
  format: "date"
})

const ExportQuery = {
  from: Schema.optionalKey(Day),
  to: Schema.optionalKey(Day)
}

const SummaryQuery = {
  days: Schema.optionalKey(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_SUMMARY_DAYS }))
  ),
  ...ExportQuery
}

/** The CSV of an export, with whether it stopped at the row cap. */
const VisitsCsv = HttpApiSchema.WithHeaders(
  Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
  { "x-svc-truncated": Schema.Literals(["true", "false"]) }
)

const Errors = sharingErrorsOf("insufficient_scope", "forbidden", "not_found", "service_unavailable")

export class AnalyticsGroup extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("summary", "/analytics/resources/:slug", {
      params: Slug,
      query: SummaryQuery,
      success: AnalyticsSummary,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Views and visitors per day with the top browsers, systems, devices, referrers, UTM tags, countries and link destinations; all time unless days (1..365) or from and to (scope read)"
    ),
    HttpApiEndpoint.get("exportResource", "/analytics/resources/:slug/export", {
      params: Slug,
      query: ExportQuery,
      success: VisitsCsv,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "The resource's visits as CSV, oldest first: last 30 days unless from and to; at most 100,000 rows, X-Svc-Truncated says whether it stopped there (scope read)"
    ),
    HttpApiEndpoint.get("exportAccount", "/analytics/export", {
      query: ExportQuery,
      success: VisitsCsv,
      error: sharingErrorsOf("insufficient_scope", "service_unavailable")
    }).annotate(
      OpenApi.Summary,
      "The visits of every resource of the account as CSV, oldest first: last 30 days unless from and to; at most 100,000 rows, X-Svc-Truncated (scope read)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Analytics: views and visitors of public resources") {}
