// Client-side reads of classic responses: compact list items, full items and the detail view, in the
// spec's shapes (ClassicResponseCompact, Response).
import { ResponseLocale, responseLocaleOf } from "./response-locale.js"
import { Effect, Option, Schema } from "effect"
import { Uuid } from "../../kernel/ids.js"
import { Principal } from "../../identity/principal.js"
import { InsufficientScope, type StorageError } from "../../kernel/errors.js"
import type { InvalidCursor } from "../../kernel/cursor.js"
import type { FormRecord, FormRepository } from "../ports/forms.js"
import {
  type ResponseFileRecord,
  type ResponseRecord,
  ResponseRepository,
  ResponseStatus
} from "../ports/responses.js"
import { TenantRepository } from "../../identity/ports/tenants.js"
import { evaluateFeatures } from "../capabilities.js"
import {
  type FormNotFound,
  InvalidListCursor,
  PartialSubmissionsDisabled,
  ResponseNotFound
} from "../errors.js"
import { PAGE_SIZE } from "../limits.js"
import { loadForm } from "../use-cases.js"
import { uploadedFilesOf } from "./uploaded-files.js"
import { ResponseQuality, storedQualityOf } from "./quality.js"
import { ResponseScore, responseScoresOf } from "./score-views.js"
import { consentOf, ResponseConsent } from "./consent.js"
import { CAPTURE_TYPES } from "../interview/definition.js"
import { liveInterviewOf } from "./interview-record.js"

const common = {
  id: Uuid,
  status: ResponseStatus,
  formVersionId: Uuid,
  translationSetId: Schema.NullOr(Uuid),
  responseLocale: Schema.NullOr(ResponseLocale),
  /** When the response was completed; null while it is partial. */
  completedAt: Schema.NullOr(Schema.Date),
  /** Its last write: start, save, completion or edit (for a partial response, the last save). */
  updatedAt: Schema.Date
}
const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const RespondentEstimateSchema = Schema.Struct({
  id: Schema.String,
  confidence: Schema.Literals(["deterministic", "probable", "weak"]),
  responseCount: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  repeatCount: NonNegativeInt
}).annotate({ identifier: "RespondentEstimate" })

export const UploadedFile = Schema.Struct({
  key: Schema.String,
  id: Uuid,
  filename: Schema.String,
  downloadUrl: Schema.String
}).annotate({ identifier: "UploadedFile" })
export type UploadedFile = typeof UploadedFile.Type

export const ResponsePresentation = Schema.Struct({
  assignmentId: Schema.String,
  order: Schema.Struct({
    choices: Schema.Record(Schema.String, Schema.Array(Schema.String)),
    groups: Schema.Record(Schema.String, Schema.Array(Schema.String))
  })
}).annotate({ identifier: "ResponsePresentation" })

/** What a classic completion computed beside the answers: scores with cutoff labels, trap checks. */
const computed = {
  /** Every scale and quiz score of the pinned version, with its cutoff label; completed responses only. */
  scores: Schema.optionalKey(Schema.Array(ResponseScore)),
  /** Completed responses of versions with a quality trap; never shown to the respondent. */
  quality: Schema.optionalKey(ResponseQuality)
}

export const ClassicResponseCompact = Schema.Struct({
  ...common,
  answerCount: NonNegativeInt,
  respondent: Schema.optionalKey(RespondentEstimateSchema),
  ...computed
}).annotate({ identifier: "ClassicResponseCompact" })

export const ClassicResponse = Schema.Struct({
  ...common,
  answers: Schema.Record(Schema.String, Schema.Unknown),
  files: Schema.Array(UploadedFile),
  respondent: Schema.optionalKey(RespondentEstimateSchema),
  presentation: Schema.optionalKey(Schema.NullOr(ResponsePresentation)),
  ...computed,
  /** The research consent accepted at the start (forms under researchCompliance). */
  consent: Schema.optionalKey(ResponseConsent)
}).annotate({ identifier: "ClassicResponse" })

/**
 * The member check's outcome (memberCheck): `confirmed`, `corrected` (correctedFieldIds changed),
 * `disputed` (not confirmed, nothing corrected on the last reply) or `unanswered` (ended before a
 * reply); absent when no read-back was given.
 */
export const InterviewMemberCheckQuality = Schema.Struct({
  outcome: Schema.Literals(["confirmed", "corrected", "disputed", "unanswered"]),
  readBacks: NonNegativeInt,
  correctedFieldIds: Schema.Array(Schema.String)
}).annotate({ identifier: "InterviewMemberCheckQuality" })

export const InterviewQuality = Schema.Struct({
  completionReason: Schema.NullOr(Schema.String),
  exchangeCount: NonNegativeInt,
  followupCount: NonNegativeInt,
  /** Follow-ups on emergent items (also counted in followupCount); set when emergentExtraction is on. */
  emergentFollowupCount: Schema.optionalKey(NonNegativeInt),
  memberCheck: Schema.optionalKey(InterviewMemberCheckQuality),
  validation: Schema.optionalKey(
    Schema.Struct({
      assigned: Schema.Array(Schema.String),
      answered: NonNegativeInt,
      agreed: NonNegativeInt,
      skipped: Schema.Array(Schema.String)
    }).annotate({
      identifier: "InterviewValidationSummary",
      description:
        "The validation items assigned to this respondent (field ids), how many re-test replies gave a comparable value (answered) and agreed with the extracted value, and the assigned items never asked (skipped: the field was not answered, or the interview ended first)"
    })
  )
}).annotate({ identifier: "InterviewQuality" })

const Sentiment = Schema.Literals(["positive", "neutral", "negative"])
const AnalysisStatus = Schema.Literals(["pending", "completed", "partial", "failed"])

export const TranscriptTurn = Schema.Struct({
  role: Schema.Literals(["assistant", "user"]),
  content: Schema.String,
  blockId: Schema.String,
  turnId: Schema.String
})

/** What an interview response row stores under `meta.interview` (the analysis and the transcript). */
export const StoredInterview = Schema.Struct({
  summary: Schema.optionalKey(Schema.String),
  sentiment: Schema.optionalKey(Sentiment),
  keyInfo: Schema.Array(
    Schema.Struct({ label: Schema.String, value: Schema.String, evidenceMessageIds: Schema.Array(Uuid) })
  ).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([]))),
  insights: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)).pipe(
    Schema.withDecodingDefaultTypeKey(Effect.succeed([]))
  ),
  transcript: Schema.Array(TranscriptTurn).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([]))),
  extractedFields: Schema.Record(Schema.String, Schema.Unknown).pipe(
    Schema.withDecodingDefaultTypeKey(Effect.succeed({}))
  ),
  analysisStatus: AnalysisStatus.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("pending" as const))),
  quality: InterviewQuality.pipe(
    Schema.withDecodingDefaultTypeKey(
      Effect.succeed({ completionReason: null, exchangeCount: 0, followupCount: 0 })
    )
  )
})
export type StoredInterview = typeof StoredInterview.Type

/** An emergent item as read: the summary, where it was said, and whether it drew a follow-up. */
export const InterviewEmergentView = Schema.Struct({
  id: Schema.String,
  captureType: Schema.Literals(CAPTURE_TYPES),
  summary: Schema.String,
  relatedTo: Schema.optionalKey(
    Schema.Struct({ type: Schema.Literals(["field", "goal", "module"]), id: Schema.String })
  ),
  evidenceMessageIds: Schema.Array(Schema.String),
  followedUp: Schema.Boolean
}).annotate({ identifier: "InterviewEmergentItem" })
export type InterviewEmergentView = typeof InterviewEmergentView.Type

export const InterviewResponseCompact = Schema.Struct({
  ...common,
  interview: Schema.Struct({
    summary: Schema.optionalKey(Schema.String),
    sentiment: Schema.optionalKey(Sentiment),
    transcriptCount: NonNegativeInt,
    extractedFieldCount: NonNegativeInt,
    analysisStatus: AnalysisStatus,
    quality: InterviewQuality
  }),
  respondent: Schema.optionalKey(RespondentEstimateSchema)
}).annotate({ identifier: "InterviewResponseCompact" })

export const InterviewResponse = Schema.Struct({
  ...common,
  interview: Schema.Struct({
    summary: Schema.optionalKey(Schema.String),
    sentiment: Schema.optionalKey(Sentiment),
    keyInfo: Schema.Array(
      Schema.Struct({ label: Schema.String, value: Schema.String, evidenceMessageIds: Schema.Array(Uuid) })
    ),
    insights: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
    transcript: Schema.Array(TranscriptTurn),
    extractedFields: Schema.Record(Schema.String, Schema.Unknown),
    transcriptCount: NonNegativeInt,
    analysisStatus: AnalysisStatus,
    quality: InterviewQuality,
    /** What the respondent raised beyond the fields and goals (emergentExtraction is on). */
    emergent: Schema.optionalKey(Schema.Array(InterviewEmergentView))
  }),
  respondent: Schema.optionalKey(RespondentEstimateSchema),
  /** The research consent accepted at the start (forms under researchCompliance). */
  consent: Schema.optionalKey(ResponseConsent)
}).annotate({ identifier: "InterviewResponse" })

/** Any of the four response shapes (ResponseListPage items). */
export const AnyResponse = Schema.Union([
  ClassicResponseCompact,
  ClassicResponse,
  InterviewResponseCompact,
  InterviewResponse
])

export type ClassicCompactView = typeof ClassicResponseCompact.Type
export type ClassicFullView = typeof ClassicResponse.Type
export type InterviewCompactView = typeof InterviewResponseCompact.Type
export type InterviewFullView = typeof InterviewResponse.Type
export type ResponseView = typeof AnyResponse.Type

const decodeStoredInterview = Schema.decodeUnknownOption(StoredInterview)
const emptyInterview = decodeStoredInterview({}).pipe(Option.getOrThrow)

/** The interview part of a stored response; a malformed row reads as an empty, pending analysis. */
export const storedInterviewOf = (r: ResponseRecord): StoredInterview =>
  Option.getOrElse(decodeStoredInterview(r.meta.interview ?? {}), () => emptyInterview)

const respondentOf = (r: ResponseRecord) => {
  const e = r.meta.respondent
  return e !== undefined && Schema.is(RespondentEstimateSchema)(e) ? { respondent: e } : {}
}

const computedOf = (r: ResponseRecord) => {
  const scores = responseScoresOf(r.meta)
  const quality = storedQualityOf(r.meta)
  return {
    ...(scores.length === 0 ? {} : { scores }),
    ...(quality === undefined ? {} : { quality })
  }
}

const consentField = (r: ResponseRecord) => {
  const consent = consentOf(r.meta)
  return consent === null ? {} : { consent }
}

const base = (r: ResponseRecord) => ({
  id: r.id,
  status: r.status,
  formVersionId: r.formVersionId,
  translationSetId: null,
  responseLocale: responseLocaleOf(r.meta),
  completedAt: r.completedAt,
  updatedAt: r.updatedAt
})

export const toCompactView = (r: ResponseRecord): ClassicCompactView => ({
  ...base(r),
  answerCount: Object.keys(r.answers).length,
  ...respondentOf(r),
  ...computedOf(r)
})

export const toFullView = (
  r: ResponseRecord,
  detail: boolean,
  files: ReadonlyArray<UploadedFile> = []
): ClassicFullView => {
  const presentation = r.meta.presentation
  return {
    ...base(r),
    answers: r.answers,
    files,
    ...respondentOf(r),
    ...consentField(r),
    ...(detail
      ? {
          presentation: Schema.is(ResponsePresentation)(presentation) ? presentation : null
        }
      : {}),
    ...computedOf(r)
  }
}

/** The interview fields both projections carry. */
const interviewHeadline = (i: StoredInterview) => ({
  ...(i.summary === undefined ? {} : { summary: i.summary }),
  ...(i.sentiment === undefined ? {} : { sentiment: i.sentiment }),
  transcriptCount: i.transcript.length,
  analysisStatus: i.analysisStatus,
  quality: i.quality
})

export const toInterviewCompactView = (r: ResponseRecord): InterviewCompactView => {
  const i = storedInterviewOf(r)
  return {
    ...base(r),
    interview: { ...interviewHeadline(i), extractedFieldCount: Object.keys(i.extractedFields).length },
    ...respondentOf(r)
  }
}

/**
 * The emergent items a response holds (kept in the interview's runtime state), with whether each drew
 * a follow-up; undefined for a row whose interview ran without emergentExtraction.
 */
export const emergentItemsOf = (r: ResponseRecord): ReadonlyArray<InterviewEmergentView> | undefined =>
  Option.match(liveInterviewOf(r), {
    onNone: () => undefined,
    onSome: ({ session }) =>
      session.emergent?.map((item) => ({
        id: item.id,
        captureType: item.captureType,
        summary: item.summary,
        ...(item.relatedTo === undefined ? {} : { relatedTo: item.relatedTo }),
        evidenceMessageIds: item.evidenceMessageIds,
        followedUp: session.messages.some(
          (m) => m.kind === "probe" && m.target?.type === "emergent" && m.target.id === item.id
        )
      }))
  })

/** The full interview response; without `includeTranscript` the turns are left out (count kept). */
export const toInterviewFullView = (r: ResponseRecord, includeTranscript = true): InterviewFullView => {
  const i = storedInterviewOf(r)
  const emergent = emergentItemsOf(r)
  return {
    ...base(r),
    interview: {
      ...interviewHeadline(i),
      keyInfo: i.keyInfo,
      insights: i.insights,
      transcript: includeTranscript ? i.transcript : [],
      extractedFields: i.extractedFields,
      ...(emergent === undefined ? {} : { emergent })
    },
    ...respondentOf(r),
    ...consentField(r)
  }
}

/** Builds the download route address of a respondent file (the adapter knows its public origin). */
export type FileUrl = (file: ResponseFileRecord) => string

export interface ResponseReadOptions {
  readonly projection?: "compact" | "full" | undefined
  readonly fileUrl: FileUrl
}

const classicFullViews = (
  form: FormRecord,
  records: ReadonlyArray<ResponseRecord>,
  detail: boolean,
  fileUrl: FileUrl
) =>
  Effect.gen(function* () {
    const files = yield* Effect.flatMap(Effect.service(ResponseRepository), (repo) =>
      repo.listFiles(
        form.workspaceId,
        form.id,
        records.map((r) => r.id)
      )
    )
    return records.map((r) =>
      toFullView(
        r,
        detail,
        uploadedFilesOf(
          r.answers,
          files.filter((f) => f.responseId === r.id),
          fileUrl
        )
      )
    )
  })

/** Reading partial responses needs responses:partial:read and the partial-submissions feature. */
const requirePartialAccess: Effect.Effect<
  void,
  InsufficientScope | PartialSubmissionsDisabled | StorageError,
  Principal | TenantRepository
> = Effect.gen(function* () {
  const principal = yield* Principal
  if (!principal.scopes.includes("responses:partial:read")) {
    return yield* new InsufficientScope({
      message: "partial responses need the scope responses:partial:read",
      requiredScopes: ["responses:read", "responses:partial:read"]
    })
  }
  const workspace = yield* Effect.flatMap(Effect.service(TenantRepository), (r) => r.get(principal.tenant))
  if (Option.isNone(workspace) || !evaluateFeatures(workspace.value.features).partialSubmissions) {
    return yield* new PartialSubmissionsDisabled()
  }
})

export const listResponses = (
  formId: string,
  query: {
    /** Defaults to the spec's page size for responses. */
    readonly limit?: number | undefined
    readonly cursor?: string | undefined
    readonly status?: ResponseStatus | undefined
    /** Only responses that missed a quality trap (true) or that did not (false). */
    readonly flagged?: boolean | undefined
  },
  options: ResponseReadOptions
): Effect.Effect<
  { readonly items: ReadonlyArray<ResponseView>; readonly nextCursor: string | null },
  FormNotFound | InsufficientScope | PartialSubmissionsDisabled | InvalidListCursor | StorageError,
  Principal | TenantRepository | ResponseRepository | FormRepository
> =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    const status = query.status ?? "completed"
    if (status === "partial") yield* requirePartialAccess
    const page = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.list(form.workspaceId, form.id, {
        limit: query.limit ?? PAGE_SIZE.responses,
        cursor: query.cursor,
        status,
        flagged: query.flagged
      })
    ).pipe(
      Effect.catchIf(
        (e): e is InvalidCursor =>
          typeof e === "object" && e !== null && "_tag" in e && e._tag === "InvalidCursor",
        () => Effect.fail(new InvalidListCursor())
      )
    )
    const full = options.projection === "full"
    const items: ReadonlyArray<ResponseView> =
      form.kind === "interview"
        ? page.items.map((r) => (full ? toInterviewFullView(r) : toInterviewCompactView(r)))
        : full
          ? yield* classicFullViews(form, page.items, false, options.fileUrl)
          : page.items.map(toCompactView)
    return { items, nextCursor: page.nextCursor }
  })

/**
 * One response: classic -> Response with files and presentation; interview -> InterviewResponse.
 * A partial one needs what the partial list needs (`partials: "scoped"`, REST); MCP never exposes
 * partial responses (`partials: "hidden"`): there one reads as not found, as if it did not exist.
 */
export const getResponse = (
  formId: string,
  responseId: string,
  options: {
    readonly fileUrl: FileUrl
    readonly includeTranscript?: boolean | undefined
    readonly partials: "scoped" | "hidden"
  }
): Effect.Effect<
  ClassicFullView | InterviewFullView,
  FormNotFound | ResponseNotFound | InsufficientScope | PartialSubmissionsDisabled | StorageError,
  Principal | TenantRepository | ResponseRepository | FormRepository
> =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    const found = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.get(form.workspaceId, form.id, responseId)
    )
    if (Option.isNone(found)) return yield* new ResponseNotFound()
    if (found.value.status === "partial") {
      if (options.partials === "hidden") return yield* new ResponseNotFound()
      yield* requirePartialAccess
    }
    if (form.kind === "interview") return toInterviewFullView(found.value, options.includeTranscript ?? true)
    const [view] = yield* classicFullViews(form, [found.value], true, options.fileUrl)
    return view as ClassicFullView
  })
