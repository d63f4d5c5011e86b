// Public respondent routes beside the form page at /f/{slug}: read the published form, start a
// response, resume it after a reload, save answers, complete. No API key: a response is written back
// with the token its start (or latest resume) returned.
import {
  FormDefinition,
  FormSettings,
  MAX_FILE_UPLOAD_SIZE_MB,
  QuizResult,
  MAX_CONSENT_ITEMS,
  ResearchCompliance,
  RespondentEstimateSchema,
  ResponseStatus,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Data } from "../envelope.js"
import { errorsOf } from "../errors.js"
import { RespondentRateLimit } from "./rate-limit.js"

const Slug = Schema.String.check(Schema.isMaxLength(64))

const PresentedOrder = Schema.Struct({
  choices: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  groups: Schema.Record(Schema.String, Schema.Array(Schema.String))
})

export const PublicForm = Schema.Struct({
  formId: Uuid,
  formVersionId: Uuid,
  version: Schema.Int,
  title: Schema.String,
  definition: Schema.toEncoded(FormDefinition),
  settings: Schema.toEncoded(FormSettings),
  closed: Schema.NullOr(Schema.Struct({ reason: Schema.String, message: Schema.NullOr(Schema.String) }))
}).annotate({ identifier: "PublicForm" })

export const StartedResponse = Schema.Struct({
  responseId: Uuid,
  formVersionId: Uuid,
  token: Schema.String,
  presentation: Schema.NullOr(PresentedOrder),
  respondent: RespondentEstimateSchema,
  repeatWarning: Schema.Boolean
}).annotate({ identifier: "StartedResponse" })

export const ResumedResponse = Schema.Struct({
  ...StartedResponse.fields,
  /** `completed` only on a form that allows editing responses: the page offers to edit it. */
  status: ResponseStatus,
  answers: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "ResumedResponse" })

export const RespondentFile = Schema.Struct({
  key: Schema.String,
  id: Uuid,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Int
}).annotate({ identifier: "RespondentFile" })

export const RespondentResponse = Schema.Struct({
  responseId: Uuid,
  status: ResponseStatus,
  answers: Schema.Record(Schema.String, Schema.Unknown),
  completedAt: Schema.NullOr(Schema.Date),
  quizzes: Schema.optionalKey(Schema.Array(QuizResult)).annotate({
    description:
      "Completed responses of versions with quizzes: each quiz's score, the cutoff label it reached and the author's per-question feedback. Scales, and quality traps, are never shown to the respondent."
  }),
  /** A completed response of a form offering withdrawal: the private link's path, for this respondent only. */
  withdrawalPath: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "RespondentResponse" })

/** The research consent items the respondent accepted: their texts, as the page showed them. */
const Consent = Schema.Array(Schema.String.check(Schema.isMaxLength(500))).check(
  Schema.isMaxLength(MAX_CONSENT_ITEMS)
)
const CONSENT_DESCRIPTION =
  "When the form's settings hold researchCompliance, `consent` must list the text of every one of its consentItems (else 400 invalid, issues at [\"consent\", index]); the acceptance is stored with the response (its reads' `consent`)."

const Answers = Schema.Record(Schema.String, Schema.Unknown)

export const PublicInterview = Schema.Struct({
  formId: Uuid,
  formVersionId: Uuid,
  version: Schema.Int,
  title: Schema.String,
  locale: Schema.String,
  locales: Schema.Array(Schema.String),
  interviewer: Schema.NullOr(Schema.String),
  disclosure: Schema.NullOr(
    Schema.Struct({
      version: Schema.String,
      required: Schema.Boolean,
      purpose: Schema.NullOr(Schema.String),
      retention: Schema.NullOr(Schema.String)
    })
  ),
  maxExchanges: Schema.Int,
  maxMessageLength: Schema.Int,
  closed: Schema.NullOr(Schema.Struct({ reason: Schema.String, message: Schema.NullOr(Schema.String) })),
  /** The study's terms and consent items a start must accept, or null. */
  researchCompliance: Schema.NullOr(Schema.toEncoded(ResearchCompliance)),
  /** How the chat looks and what it offers (experience): an unknown stored theme reads as `cloud`. */
  experience: Schema.optionalKey(
    Schema.Struct({
      theme: Schema.NullOr(Schema.String),
      backgroundImageUrl: Schema.NullOr(Schema.String),
      backgroundScrim: Schema.NullOr(Schema.Finite),
      liveProfile: Schema.Boolean,
      allowRestart: Schema.Boolean
    })
  )
}).annotate({ identifier: "PublicInterview" })

export const InterviewChatMessage = Schema.Struct({
  id: Schema.String,
  role: Schema.Literals(["assistant", "user"]),
  text: Schema.String
}).annotate({ identifier: "InterviewChatMessage" })

/** One line of the live profile: a field understood so far, labelled and worded in the locale. */
export const InterviewProfileItem = Schema.Struct({
  fieldId: Schema.String,
  label: Schema.String,
  value: Schema.String
}).annotate({ identifier: "InterviewProfileItem" })

/** An interview's state after a start, resume, message or finish. */
export const InterviewTurn = Schema.Struct({
  responseId: Uuid,
  formVersionId: Uuid,
  locale: Schema.String,
  messages: Schema.Array(InterviewChatMessage),
  done: Schema.Boolean,
  completionReason: Schema.NullOr(Schema.String),
  progress: Schema.Finite,
  /** Once done, on a form offering withdrawal: the private withdrawal link's path. */
  withdrawalPath: Schema.optionalKey(Schema.String),
  /** What has been understood so far (experience.liveProfile, on by default); absent when turned off. */
  profile: Schema.optionalKey(Schema.Array(InterviewProfileItem))
}).annotate({ identifier: "InterviewTurn" })

export const StartedInterview = Schema.Struct({
  ...InterviewTurn.fields,
  token: Schema.String,
  respondent: RespondentEstimateSchema,
  repeatWarning: Schema.Boolean
}).annotate({ identifier: "StartedInterview" })

const InterviewToken = Schema.String.check(Schema.isMaxLength(200))

/** What every public route can answer with, beside the API-wide errors. */
const RespondentErrors = errorsOf(
  "not_found",
  "forbidden",
  "conflict",
  "closed",
  "unprocessable",
  "payload_too_large",
  "invalid",
  "rate_limited",
  "internal"
)

export class RespondentGroup extends HttpApiGroup.make("respondent")
  .add(
    HttpApiEndpoint.get("form", "/f/:slug/form", {
      params: { slug: Slug },
      success: Data(PublicForm),
      error: RespondentErrors
    }).annotate(OpenApi.Summary, "The published version to render, and whether the form is closed (no auth)"),
    HttpApiEndpoint.post("start", "/f/:slug/responses", {
      params: { slug: Slug },
      payload: Schema.Struct({
        params: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
        confirmRepeat: Schema.optionalKey(Schema.Boolean),
        consent: Schema.optionalKey(Consent)
      }),
      success: Data(StartedResponse).pipe(HttpApiSchema.status(201)),
      error: RespondentErrors
    })
      .annotate(
        OpenApi.Summary,
        "Start a response pinned to the current version; returns its token once (no auth)"
      )
      .annotate(
        OpenApi.Description,
        [
          "Sets the form-scoped continuity cookie `folio_rt` and returns a RespondentEstimate. With repeatResponsePolicy `soft_block`, a browser that already completed a response gets 409 conflict (details.reason `repeat_response`) unless the body says `confirmRepeat: true`; with `warn`, `repeatWarning` is true.",
          CONSENT_DESCRIPTION
        ].join(" ")
      ),
    HttpApiEndpoint.post("resume", "/f/:slug/responses/resume", {
      params: { slug: Slug },
      success: Data(ResumedResponse),
      error: RespondentErrors
    })
      .annotate(
        OpenApi.Summary,
        "Resume this browser's unfinished response after a reload, with a fresh token (no auth)"
      )
      .annotate(
        OpenApi.Description,
        "For a page that lost its response token: the continuity cookie `folio_rt` names the browser, and its newest partial response on the current published version comes back with the answers saved so far and a new `token` (shown once; the previous token stops working), and the cookie is set again. The body is optional: none, or an empty object. 404 `not_found` without the cookie, or when this browser has no partial response on the current version (responses started on an older version are not resumed, and completed ones only when the form's settings.submission.allowResponseEditing is true: then the newest partial or completed response comes back, `status` saying which, and a completed one is edited with the new token through the save and complete routes)."
      ),
    HttpApiEndpoint.post("upload", "/f/:slug/responses/:responseId/files", {
      params: { slug: Slug, responseId: Uuid },
      query: {
        blockId: Schema.String.check(Schema.isMaxLength(64)),
        filename: Schema.optional(Schema.String.check(Schema.isMaxLength(1000)))
      },
      headers: { "x-response-token": Schema.String.check(Schema.isMaxLength(200)) },
      success: Data(RespondentFile).pipe(HttpApiSchema.status(201)),
      error: RespondentErrors
    })
      .annotate(
        OpenApi.Summary,
        "Upload one file for a file_upload block; the raw body is the file (no auth)"
      )
      .annotate(
        OpenApi.Description,
        `The response token goes in the \`X-Response-Token\` header. The type is sniffed from the content (the Content-Type header only picks a member of a sniffed text or ZIP family) and must be among the block's acceptedMimeTypes; size at most the block's maxSizeMb (hard cap ${MAX_FILE_UPLOAD_SIZE_MB} MiB). Put the returned \`key\` into the block's answer array.`
      ),
    HttpApiEndpoint.patch("save", "/f/:slug/responses/:responseId", {
      params: { slug: Slug, responseId: Uuid },
      payload: Schema.Struct({ token: Schema.String, answers: Answers }),
      success: Data(RespondentResponse),
      error: RespondentErrors
    }).annotate(OpenApi.Summary, "Save partial answers (values are checked, requiredness is not) (no auth)"),
    HttpApiEndpoint.post("complete", "/f/:slug/responses/:responseId/complete", {
      params: { slug: Slug, responseId: Uuid },
      payload: Schema.Struct({ token: Schema.String, answers: Schema.optionalKey(Answers) }),
      success: Data(RespondentResponse),
      error: RespondentErrors
    })
      .annotate(
        OpenApi.Summary,
        "Complete the response: full validation, scores; immutable afterwards unless editing is allowed (no auth)"
      )
      .annotate(
        OpenApi.Description,
        "On a form whose researchCompliance has withdrawalEnabled, the answer carries `withdrawalPath`: the respondent's private link (GET shows a confirmation page, its POST deletes the response and its files)."
      )
  )
  .add(
    HttpApiEndpoint.get("interview", "/f/:slug/interview", {
      params: { slug: Slug },
      success: Data(PublicInterview),
      error: RespondentErrors
    }).annotate(
      OpenApi.Summary,
      "A published interview: its locales, disclosure and limits, and whether it is closed (no auth)"
    ),
    HttpApiEndpoint.post("startInterview", "/f/:slug/interview", {
      params: { slug: Slug },
      payload: Schema.Struct({
        params: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
        confirmRepeat: Schema.optionalKey(Schema.Boolean),
        locale: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(35))),
        acceptDisclosure: Schema.optionalKey(Schema.Boolean),
        consent: Schema.optionalKey(Consent)
      }),
      success: Data(StartedInterview).pipe(HttpApiSchema.status(201)),
      error: RespondentErrors
    })
      .annotate(OpenApi.Summary, "Start an interview: the greeting and the first question (no auth)")
      .annotate(
        OpenApi.Description,
        [
          "Pinned to the current version; returns the response token once and sets the continuity cookie `folio_rt`. `locale` picks one of the interview's locales (else its default). When the disclosure is required, the start must say `acceptDisclosure: true` (else 409 conflict, details.reason `disclosure_required`). Repeat responses follow the form's repeatResponsePolicy as for classic forms.",
          CONSENT_DESCRIPTION
        ].join(" ")
      ),
    HttpApiEndpoint.post("resumeInterview", "/f/:slug/interview/resume", {
      params: { slug: Slug },
      success: Data(StartedInterview),
      error: RespondentErrors
    }).annotate(
      OpenApi.Summary,
      "Resume this browser's unfinished interview after a reload: the whole transcript and a fresh token (no auth)"
    ),
    HttpApiEndpoint.post("interviewMessage", "/f/:slug/interview/:responseId/messages", {
      params: { slug: Slug, responseId: Uuid },
      payload: Schema.Struct({
        token: InterviewToken,
        text: Schema.String.check(Schema.isMaxLength(20_000))
      }),
      success: [
        Data(InterviewTurn),
        // With `Accept: text/event-stream`: the same turn as server-sent events (Http.ts eventStream).
        Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" }))
      ],
      error: RespondentErrors
    })
      .annotate(
        OpenApi.Summary,
        "Send the respondent's message; answers with the interviewer's reply (no auth)"
      )
      .annotate(
        OpenApi.Description,
        "`messages` holds the respondent's message and the reply; `done` is true when the reply closed the interview (the response is then completed and analysed). With `Accept: text/event-stream` the reply is streamed as server-sent events: `message` (the respondent's message), `delta` (pieces of the reply's text, once the domain's rules have checked it), then `done` (the InterviewTurn). Two messages racing on one interview: one is answered, the other gets 409 conflict."
      ),
    HttpApiEndpoint.post("finishInterview", "/f/:slug/interview/:responseId/finish", {
      params: { slug: Slug, responseId: Uuid },
      payload: Schema.Struct({ token: InterviewToken }),
      success: Data(InterviewTurn),
      error: RespondentErrors
    }).annotate(
      OpenApi.Summary,
      "End the interview now: completed with completionReason `respondent_ended` (no auth)"
    ),
    HttpApiEndpoint.post("restartInterview", "/f/:slug/interview/:responseId/restart", {
      params: { slug: Slug, responseId: Uuid },
      payload: Schema.Struct({ token: InterviewToken }),
      success: Data(StartedInterview).pipe(HttpApiSchema.status(201)),
      error: RespondentErrors
    })
      .annotate(OpenApi.Summary, "Start over: a new interview; the one left stays partial (no auth)")
      .annotate(
        OpenApi.Description,
        "Only when the definition's experience.allowRestart is true (else 409 conflict, details.reason `restart_not_allowed`); an ended interview gets 409 `interview_finished`. The token of the interview being left proves the respondent: the consent, disclosure, locale and URL parameters it started with carry over (checked again), the repeat-response policy does not refuse it (leaving an unfinished interview adds no completed response), and the new response's token is returned once with the continuity cookie `folio_rt`."
      )
  )
  .middleware(RespondentRateLimit)
  .annotate(OpenApi.Description, "Public respondent routes of a published form") {}
