// FormResponses: the client-side reads of a form's responses (lists, one response, summaries,
// reports, analytics, insights, the CSV export, file downloads) as one service over their ports.
import { Context, type Effect, Layer } from "effect"
import { TenantRepository } from "../../identity/ports/tenants.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { FormRepository } from "../ports/forms.js"
import { InsightExtractor, InsightModel, InsightPolicy } from "../ports/insights.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { ResponseRepository } from "../ports/responses.js"
import { exportResponsesCsv } from "../responses/csv.js"
import { fileDownloadUrl } from "../responses/files.js"
import { formInsights, runFormInsightsJob } from "../responses/insights-model.js"
import { getResponse, listResponses } from "../responses/reads.js"
import { formReport, interviewAnalytics } from "../responses/reports.js"
import { responseSummary } from "../responses/summary.js"

const responses = {
  list: listResponses,
  get: getResponse,
  summary: responseSummary,
  report: formReport,
  interviewAnalytics,
  insights: formInsights,
  /** Runs one `form_insights` job (the app's job runner dispatches it here). */
  runInsightsJob: runFormInsightsJob,
  exportCsv: exportResponsesCsv,
  fileDownloadUrl
}

/** Builds the service over its ports in context (the Live layer; tests build it over fakes). */
export const makeFormResponses = bindPortsFromContext(
  responses,
  FormRepository,
  TenantRepository,
  ResponseRepository,
  BlobStore,
  InsightExtractor,
  InsightPolicy,
  InsightModel,
  JobQueue,
  IdGen
)

export class FormResponses extends Context.Service<FormResponses, Effect.Success<typeof makeFormResponses>>()(
  "@folio/domain/FormResponses"
) {}

export const FormResponsesLive = Layer.effect(FormResponses, makeFormResponses)
