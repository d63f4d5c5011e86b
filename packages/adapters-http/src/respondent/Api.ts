// Public respondent routes beside the form page at /f/{slug}: read the published form, start a
// response, save answers, complete. No API key: a response is written back with the token its start
// returned.
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  FormDefinition,
  FormSettings,
  MAX_FILE_UPLOAD_SIZE_MB,
  RespondentEstimateSchema,
  ResponseStatus,
  STRICT_ALL,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { Data } from "../envelope.js"
import { RespondentRateLimit } from "./rate-limit.js"
import {
  ClosedError,
  ConflictError,
  ForbiddenError,
  InternalError,
  InvalidError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnprocessableError
} from "../errors.js"

const slug = HttpApiSchema.param("slug", Schema.String.pipe(Schema.maxLength(64)))
const responseId = HttpApiSchema.param("responseId", Uuid)

const PresentedOrder = Schema.Struct({
  choices: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }),
  groups: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
})

export const PublicForm = Schema.Struct({
  formId: Uuid,
  formVersionId: Uuid,
  version: Schema.Int,
  title: Schema.String,
  definition: Schema.encodedSchema(FormDefinition),
  settings: Schema.encodedSchema(FormSettings),
  closed: Schema.NullOr(Schema.Struct({ reason: Schema.String, message: Schema.NullOr(Schema.String) }))
}).annotations({ identifier: "PublicForm" })

export const StartedResponse = Schema.Struct({
  responseId: Uuid,
  formVersionId: Uuid,
  token: Schema.String,
  presentation: Schema.NullOr(PresentedOrder),
  respondent: RespondentEstimateSchema,
  repeatWarning: Schema.Boolean
}).annotations({ identifier: "StartedResponse" })

export const RespondentFile = Schema.Struct({
  key: Schema.String,
  id: Uuid,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Int
}).annotations({ identifier: "RespondentFile" })

export const RespondentResponse = Schema.Struct({
  responseId: Uuid,
  status: ResponseStatus,
  answers: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  completedAt: Schema.NullOr(Schema.Date)
}).annotations({ identifier: "RespondentResponse" })

const Answers = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export class RespondentGroup extends HttpApiGroup.make("respondent")
  .add(
    HttpApiEndpoint.get("form")`/f/${slug}/form`
      .addSuccess(Data(PublicForm))
      .annotate(OpenApi.Summary, "The published version to render, and whether the form is closed (no auth)")
  )
  .add(
    HttpApiEndpoint.post("start")`/f/${slug}/responses`
      .setPayload(
        Schema.Struct({
          params: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
          confirmRepeat: Schema.optional(Schema.Boolean)
        }).annotations({ parseOptions: STRICT_ALL })
      )
      .addSuccess(Data(StartedResponse), { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Start a response pinned to the current version; returns its token once (no auth)"
      )
      .annotate(
        OpenApi.Description,
        "Sets the form-scoped continuity cookie `folio_rt` and returns a RespondentEstimate. With repeatResponsePolicy `soft_block`, a browser that already completed a response gets 409 conflict (details.reason `repeat_response`) unless the body says `confirmRepeat: true`; with `warn`, `repeatWarning` is true."
      )
  )
  .add(
    HttpApiEndpoint.post("upload")`/f/${slug}/responses/${responseId}/files`
      .setUrlParams(
        Schema.Struct({
          blockId: Schema.String.pipe(Schema.maxLength(64)),
          filename: Schema.optional(Schema.String.pipe(Schema.maxLength(1000)))
        })
      )
      .setHeaders(Schema.Struct({ "x-response-token": Schema.String.pipe(Schema.maxLength(200)) }))
      .addSuccess(Data(RespondentFile), { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Upload one file for a file_upload block; the raw body is the file (no auth)"
      )
      .annotate(
        OpenApi.Description,
        `The response token goes in the \`X-Response-Token\` header. The type is sniffed from the content (the Content-Type header only picks a member of a sniffed text or ZIP family) and must be among the block's acceptedMimeTypes; size at most the block's maxSizeMb (hard cap ${MAX_FILE_UPLOAD_SIZE_MB} MiB). Put the returned \`key\` into the block's answer array.`
      )
  )
  .add(
    HttpApiEndpoint.patch("save")`/f/${slug}/responses/${responseId}`
      .setPayload(
        Schema.Struct({ token: Schema.String, answers: Answers }).annotations({ parseOptions: STRICT_ALL })
      )
      .addSuccess(Data(RespondentResponse))
      .annotate(OpenApi.Summary, "Save partial answers (values are checked, requiredness is not) (no auth)")
  )
  .add(
    HttpApiEndpoint.post("complete")`/f/${slug}/responses/${responseId}/complete`
      .setPayload(
        Schema.Struct({ token: Schema.String, answers: Schema.optional(Answers) }).annotations({
          parseOptions: STRICT_ALL
        })
      )
      .addSuccess(Data(RespondentResponse))
      .annotate(
        OpenApi.Summary,
        "Complete the response: full validation, scores; immutable afterwards unless editing is allowed (no auth)"
      )
  )
  .addError(NotFoundError)
  .addError(ForbiddenError)
  .addError(ConflictError)
  .addError(ClosedError)
  .addError(UnprocessableError)
  .addError(PayloadTooLargeError)
  .addError(InvalidError)
  .addError(RateLimitedError)
  .addError(InternalError)
  .middleware(RespondentRateLimit)
  .annotate(OpenApi.Description, "Public respondent routes of a published form") {}
