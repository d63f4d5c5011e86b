// The responses context's public surface. Its use cases (reads, reports, exports, the respondent's
// start and save) are reached through the FormResponses and Respondent services, not exported here.
export * from "./answers.js"
export * from "./logic.js"
export * from "./scoring.js"
export * from "./presentation.js"
export {
  type PublishedForm,
  type ClosedReason,
  publicSettings,
  closedReason,
  type RespondentEstimate,
  type RespondentClient,
  FINGERPRINT_WINDOW_MS,
  type StartedResponse,
  type ResumedResponse,
  SAVE_ATTEMPTS
} from "./respondent.js"
export type { PublishedInterview } from "./interview-record.js"
export {
  type InterviewStartOptions,
  type StartedInterview,
  type ResumedInterview,
  interviewLocale,
  MAX_INTERVIEW_MESSAGE_CHARACTERS,
  RESPONDENT_ENDED
} from "./interview-use-cases.js"
export {
  type InterviewChatMessage,
  type InterviewTurnResult,
  interviewProgress,
  interviewTitle,
  interviewChatOf
} from "./interview-views.js"
export { INTERVIEW_ANALYSIS_MAX_ATTEMPTS } from "./interview-analysis-job.js"
export {
  closeStuckInterviewAnalyses,
  INTERVIEW_ANALYSIS_NO_JOB_GRACE_MS,
  INTERVIEW_ANALYSIS_SWEEP_BATCH
} from "./interview-analysis-sweep.js"
export {
  RespondentEstimateSchema,
  UploadedFile,
  ResponsePresentation,
  ClassicResponseCompact,
  ClassicResponse,
  InterviewQuality,
  TranscriptTurn,
  StoredInterview,
  InterviewResponseCompact,
  InterviewResponse,
  AnyResponse,
  type ClassicCompactView,
  type ClassicFullView,
  type InterviewCompactView,
  type InterviewFullView,
  type ResponseView,
  storedInterviewOf,
  toCompactView,
  toFullView,
  toInterviewCompactView,
  toInterviewFullView,
  type FileUrl,
  type ResponseReadOptions
} from "./reads.js"
export {
  type QualitySummary,
  type QuestionSummary,
  type ScoreSummary,
  buildSummaries,
  responseSummaryOf
} from "./summary.js"
export {
  FILE_URL_TTL_SECONDS,
  MAX_REPLACEMENTS,
  sniffFileType,
  acceptsType,
  cleanFilename,
  fileDownloadRoute,
  respondentFileKey,
  type RespondentUpload
} from "./files.js"
export { uploadedFilesOf } from "./uploaded-files.js"
export { DEFAULT_COHORT_DAYS, type CohortQuery, resolveCohort } from "./reports.js"
export {
  extractInsights,
  BuiltInInsightExtractorLive,
  type PromotionCandidate,
  rankCandidates
} from "./insights.js"
export {
  correctModelInsights,
  FORM_INSIGHTS_MAX_ATTEMPTS,
  INSIGHT_SUGGESTED_TYPES,
  InsightModelOutput
} from "./insights-model.js"
export { type CsvOptions, answerText, type CsvExport } from "./csv.js"
export { ResponseConsent, MAX_CONSENT_ITEMS, acceptConsent, consentOf } from "./consent.js"
export {
  withdrawalMac,
  withdrawalPath,
  withdrawalLinkFor,
  parseWithdrawalToken,
  type WithdrawalTarget
} from "./withdrawal.js"
export { RETENTION_BATCH, RETENTION_BATCHES_PER_FORM, purgeExpiredResponses } from "./retention.js"
export * from "./schemas.js"
export { ResponseQuality, responseQualityOf, storedQualityOf } from "./quality.js"
export { QuizResult, quizResultsOf, ResponseScore, responseScoresOf } from "./score-views.js"
export * from "./sources.js"
