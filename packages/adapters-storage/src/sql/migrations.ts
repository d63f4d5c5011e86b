// The ordered, forward-only migrations, run at start-up by the effect/sql migrator. Append new
// files; never edit one that has shipped.
import { Migrator } from "effect/sql"
import foundation from "./migrations/0001_foundation.js"
import respondents from "./migrations/0002_respondents.js"
import answerStats from "./migrations/0003_answer_stats.js"
import responseVersions from "./migrations/0004_response_versions.js"
import apiKeyServices from "./migrations/0005_api_key_services.js"
import resumableResponses from "./migrations/0006_resumable_responses.js"
import sharingResources from "./migrations/0007_sharing_resources.js"
import disabledTenants from "./migrations/0008_disabled_tenants.js"
import usageByService from "./migrations/0009_usage_by_service.js"
import sharingFiles from "./migrations/0010_sharing_files.js"
import bioFormSubmissions from "./migrations/0011_bio_form_submissions.js"
import artifacts from "./migrations/0012_artifacts.js"
import uploadRequests from "./migrations/0013_upload_requests.js"
import jobsAndNotion from "./migrations/0014_jobs_and_notion.js"
import analytics from "./migrations/0015_analytics.js"
import webhooks from "./migrations/0016_webhooks.js"
import idempotentAnswersAsSent from "./migrations/0017_idempotent_answers_as_sent.js"
import pendingInterviewAnalyses from "./migrations/0018_pending_interview_analyses.js"
import consoleKeys from "./migrations/0019_console_keys.js"
import people from "./migrations/0020_people.js"
import oauth from "./migrations/0021_oauth.js"
import jobTraceContext from "./migrations/0022_job_trace_context.js"

export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation,
  "0002_respondents": respondents,
  "0003_answer_stats": answerStats,
  "0004_response_versions": responseVersions,
  "0005_api_key_services": apiKeyServices,
  "0006_resumable_responses": resumableResponses,
  "0007_sharing_resources": sharingResources,
  "0008_disabled_tenants": disabledTenants,
  "0009_usage_by_service": usageByService,
  "0010_sharing_files": sharingFiles,
  "0011_bio_form_submissions": bioFormSubmissions,
  "0012_artifacts": artifacts,
  "0013_upload_requests": uploadRequests,
  "0014_jobs_and_notion": jobsAndNotion,
  "0015_analytics": analytics,
  "0016_webhooks": webhooks,
  "0017_idempotent_answers_as_sent": idempotentAnswersAsSent,
  "0018_pending_interview_analyses": pendingInterviewAnalyses,
  "0019_console_keys": consoleKeys,
  "0020_people": people,
  "0021_oauth": oauth,
  "0022_job_trace_context": jobTraceContext
})
