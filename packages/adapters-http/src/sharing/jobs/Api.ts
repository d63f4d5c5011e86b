// The background job routes (sharing-api.md, Notion and jobs): the routes that queue work
// (optimize-original, Notion refresh; 202 with a poll URL), the Notion mirror's cached pages and
// files, and the jobs themselves (list, one, retry).
import {
  JOBS_PAGE,
  JobAccepted,
  JobList,
  JobStatus,
  JobView,
  NotionAssetsView,
  NotionPagesView,
  NotionPageView,
  SharingJobType
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"

const Slug = { slug: Schema.String }
const Id = { id: Schema.String.check(Schema.isMaxLength(64)) }

export const OptimizeOriginalInput = Schema.Struct({
  /** Keep the photo's location (EXIF GPS) in the new original; removed by default. */
  keep_location: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "OptimizeOriginal" })

export const NotionRefreshInput = Schema.Struct({
  /** Refresh only this cached page (its id); the whole mirror when omitted or null. */
  page_id: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(64))))
}).annotate({ identifier: "NotionRefresh" })

const Accepted = JobAccepted.pipe(HttpApiSchema.status(202))

const Errors = sharingErrorsOf("insufficient_scope", "forbidden", "not_found", "service_unavailable")
const Queueing = [...Errors, ...sharingErrorsOf("job_already_active")]

export class JobsGroup extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.post("optimizeOriginal", "/resources/:slug/file/optimize-original", {
      params: Slug,
      payload: OptimizeOriginalInput,
      success: Accepted,
      error: [...Queueing, ...sharingErrorsOf("unsupported_media")]
    }).annotate(
      OpenApi.Summary,
      "Queue replacing a JPEG original by a smaller one, or a HEIC/HEIF by a JPEG; permanent (scope write)"
    ),
    HttpApiEndpoint.post("refreshNotion", "/resources/:slug/notion/refresh", {
      params: Slug,
      payload: NotionRefreshInput,
      success: Accepted,
      error: [...Queueing, ...sharingErrorsOf("feature_disabled")]
    }).annotate(OpenApi.Summary, "Queue a refresh of the whole Notion mirror or of one page (scope write)"),
    HttpApiEndpoint.get("notionPages", "/resources/:slug/notion/pages", {
      params: Slug,
      success: NotionPagesView,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "The mirror's cached pages in tree order and its refresh state (scope read)"
    ),
    HttpApiEndpoint.get("notionPage", "/resources/:slug/notion/pages/:pageId", {
      params: { ...Slug, pageId: Schema.String.check(Schema.isMaxLength(64)) },
      success: NotionPageView,
      error: Errors
    }).annotate(OpenApi.Summary, "One cached page with its rendered HTML (scope read)"),
    HttpApiEndpoint.get("notionAssets", "/resources/:slug/notion/assets", {
      params: Slug,
      success: NotionAssetsView,
      error: Errors
    }).annotate(OpenApi.Summary, "The mirror's cached images and files with their public URLs (scope read)"),
    HttpApiEndpoint.get("list", "/jobs", {
      query: {
        status: Schema.optionalKey(JobStatus),
        type: Schema.optionalKey(SharingJobType),
        cursor: Schema.optionalKey(Schema.String),
        limit: Schema.optionalKey(
          Schema.NumberFromString.check(
            Schema.isInt(),
            Schema.isBetween({ minimum: 1, maximum: JOBS_PAGE.max })
          )
        )
      },
      success: JobList,
      error: Errors
    }).annotate(OpenApi.Summary, "The account's jobs, newest first; filters status and type (scope read)"),
    HttpApiEndpoint.get("get", "/jobs/:id", {
      params: Id,
      success: JobView,
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "A job's status, result or error, attempts and the wait before polling again (scope read)"
    ),
    HttpApiEndpoint.post("retry", "/jobs/:id/retry", {
      params: Id,
      success: Accepted,
      error: Queueing
    }).annotate(OpenApi.Summary, "Run a failed or skipped job again, as a new job (scope write)")
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Background jobs: optimizing originals and refreshing Notion mirrors") {}
