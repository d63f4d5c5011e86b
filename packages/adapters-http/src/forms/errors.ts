// The forms service's one error table. Its codes: the envelope `{ ok: false, error: { code, message,
// details? } }` as one HttpApi class per code (the class carries the status), with what each means.
// Its rows: every error the forms surfaces meet (the domain's, the keyed-request ones, the HTTP
// layer's own) -> a code and the details it documents. REST, OpenAPI and MCP are derived from both.
import {
  type AccountDisabled,
  type FormsError,
  type InsufficientScope,
  Issue,
  type RateLimited,
  type StorageError,
  type Unauthorized,
  type TenantNotFound
} from "@folio/domain"
import { Schema } from "effect"
import {
  type AnyApiError,
  errorClassesOf,
  errorSurface,
  type Failure,
  INTERNAL_SERVER_ERROR,
  type RequestError
} from "../shared/index.js"

/** The envelope of one code whose `details` has a documented shape. */
const envelopeWith = <Code extends string, Details extends Schema.Top>(code: Code, details: Details) => ({
  ok: Schema.Literal(false),
  error: Schema.Struct({ code: Schema.Literal(code), message: Schema.String, details })
})

/** The envelope of one code with free-form, optional `details`. */
const envelope = <Code extends string>(code: Code) => envelopeWith(code, Schema.optionalKey(Schema.Unknown))

export class UnauthorizedError extends Schema.Class<UnauthorizedError>("UnauthorizedError")(
  envelope("unauthorized"),
  { httpApiStatus: 401 }
) {}
export class ForbiddenError extends Schema.Class<ForbiddenError>("ForbiddenError")(envelope("forbidden"), {
  httpApiStatus: 403
}) {}
export class NotFoundError extends Schema.Class<NotFoundError>("NotFoundError")(envelope("not_found"), {
  httpApiStatus: 404
}) {}
// `invalid` documents its issues (path, rule, expected, allowed), so clients can rely on them.
export class InvalidError extends Schema.Class<InvalidError>("InvalidError")(
  envelopeWith("invalid", Schema.optionalKey(Schema.Struct({ issues: Schema.Array(Issue) }))),
  { httpApiStatus: 400 }
) {}
export class ConflictError extends Schema.Class<ConflictError>("ConflictError")(envelope("conflict"), {
  httpApiStatus: 409
}) {}
export class UnsupportedKindError extends Schema.Class<UnsupportedKindError>("UnsupportedKindError")(
  envelope("unsupported_kind"),
  { httpApiStatus: 409 }
) {}
export class UnprocessableError extends Schema.Class<UnprocessableError>("UnprocessableError")(
  envelope("unprocessable"),
  { httpApiStatus: 422 }
) {}
export class PayloadTooLargeError extends Schema.Class<PayloadTooLargeError>("PayloadTooLargeError")(
  envelope("payload_too_large"),
  { httpApiStatus: 413 }
) {}
export class RateLimitedError extends Schema.Class<RateLimitedError>("RateLimitedError")(
  envelope("rate_limited"),
  { httpApiStatus: 429 }
) {}
export class InternalError extends Schema.Class<InternalError>("InternalError")(envelope("internal"), {
  httpApiStatus: 500
}) {}
/** Public respondent routes: the form is not taking responses (410), with the author's message. */
export class ClosedError extends Schema.Class<ClosedError>("ClosedError")(
  envelopeWith(
    "closed",
    Schema.Struct({ reason: Schema.Literals(["not_accepting", "closed_at", "max_responses"]) })
  ),
  { httpApiStatus: 410 }
) {}

/** The forms codes, in the order the API documents them. */
const FORMS_CODES = {
  invalid: {
    error: InvalidError,
    meaning: "the request failed validation; `details.issues` lists `{ path, rule }` (never the input)"
  },
  unauthorized: { error: UnauthorizedError, meaning: "missing, unknown or revoked API key" },
  forbidden: {
    error: ForbiddenError,
    meaning:
      "the key lacks a scope (`details.requiredScopes`), or a respondent's response token does not match"
  },
  not_found: { error: NotFoundError, meaning: "nothing with that id or slug in this workspace" },
  conflict: {
    error: ConflictError,
    meaning:
      "a concurrency token is stale (`details.draftRevision` or `details.settingsSignature`: re-read and re-apply), the slug is taken, or the response is already complete"
  },
  unsupported_kind: {
    error: UnsupportedKindError,
    meaning: "the route does not apply to this form's kind (classic-only or interview-only)"
  },
  closed: {
    error: ClosedError,
    meaning: "public routes: the form is not taking responses (`details.reason`)",
    keyless: true
  },
  unprocessable: {
    error: UnprocessableError,
    meaning: "publishing an empty form, or a definition using a feature not enabled for the workspace"
  },
  payload_too_large: { error: PayloadTooLargeError, meaning: "the body is over the route's limit" },
  rate_limited: {
    error: RateLimitedError,
    meaning: "the key's or the address's budget is spent; see `Retry-After`"
  },
  internal: { error: InternalError, meaning: "a server failure (details are logged, never sent)" }
} as const

/** Every error a forms surface answers: the domain's, the keyed request's and the HTTP layer's. */
export type FormsSurfaceError =
  | FormsError
  | AccountDisabled
  | TenantNotFound
  | Unauthorized
  | RateLimited
  | InsufficientScope
  | StorageError
  | RequestError

const issues = (e: { readonly issues?: ReadonlyArray<Issue> | undefined }) =>
  e.issues === undefined ? undefined : { issues: e.issues }
const invalid = { code: "invalid", details: issues } as const
const notFound = { code: "not_found" } as const
const conflict = { code: "conflict" } as const
const unprocessable = { code: "unprocessable" } as const

/** The forms envelope: `{ ok: false, error: { code, message, details? } }`. */
const formsEnvelope = (failure: Failure) => ({
  ok: false as const,
  error: {
    code: failure.code,
    message: failure.message,
    ...(failure.details === undefined ? {} : { details: failure.details })
  }
})

export const FormsErrors = errorSurface<FormsSurfaceError>()({
  codes: FORMS_CODES,
  envelope: formsEnvelope,
  rows: {
    // A keyed request.
    Unauthorized: { code: "unauthorized" },
    AccountDisabled: { code: "forbidden" },
    RateLimited: {
      code: "rate_limited",
      details: (e) => ({ retryAfterSeconds: e.retryAfterSeconds }),
      headers: (e) => ({ "retry-after": String(e.retryAfterSeconds) })
    },
    InsufficientScope: { code: "forbidden", details: (e) => ({ requiredScopes: e.requiredScopes }) },
    StorageError: { code: "internal", message: INTERNAL_SERVER_ERROR },
    // The HTTP layer's own.
    RequestInvalid: invalid,
    BodyUnreadable: { code: "invalid" },
    RequestTooLarge: { code: "payload_too_large" },
    NothingHere: notFound,
    RequestRefused: { code: "forbidden" },
    ServerFault: { code: "internal" },
    // Not found.
    TenantNotFound: notFound,
    FormNotFound: notFound,
    VersionNotFound: notFound,
    PinnedVersionNotFound: notFound,
    ResponseNotFound: notFound,
    FileNotFound: notFound,
    ImageNotFound: notFound,
    PublishedFormNotFound: notFound,
    NothingToResume: notFound,
    WithdrawalLinkInvalid: notFound,
    // Invalid input.
    InvalidDefinition: invalid,
    InvalidSettings: invalid,
    InvalidSlug: invalid,
    InvalidListCursor: invalid,
    ImageKeysNotOwned: invalid,
    CustomScriptNotOverMcp: invalid,
    NotAnImage: invalid,
    AnswersNotAnObject: invalid,
    InvalidAnswers: invalid,
    ConsentNotGiven: invalid,
    NotAnUploadBlock: invalid,
    EmptyUpload: invalid,
    FileTypeNotAccepted: invalid,
    TooManyUploads: invalid,
    InvalidCohort: invalid,
    InterviewMessageInvalid: invalid,
    // Conflicts: a stale token tells the caller the current one.
    DraftRevisionConflict: { code: "conflict", details: (e) => ({ draftRevision: e.draftRevision }) },
    SettingsSignatureConflict: {
      code: "conflict",
      details: (e) => ({ settingsSignature: e.settingsSignature })
    },
    SlugInUse: { code: "conflict", details: (e) => ({ slug: e.slug, reason: "slug_taken" }) },
    SlugAllocationFailed: conflict,
    FormChangedConcurrently: conflict,
    RepeatResponse: {
      code: "conflict",
      details: (e) => ({ reason: "repeat_response", respondent: e.respondent })
    },
    ResponseNotEditable: conflict,
    ResponseCompletedMeanwhile: conflict,
    ResponseChangedMeanwhile: conflict,
    InterviewFinished: { code: "conflict", details: () => ({ reason: "interview_finished" }) },
    InterviewExpired: { code: "conflict", details: () => ({ reason: "interview_expired" }) },
    InterviewNotStarted: { code: "conflict", details: () => ({ reason: "nothing_answered" }) },
    InterviewRestartNotAllowed: { code: "conflict", details: () => ({ reason: "restart_not_allowed" }) },
    DisclosureNotAccepted: {
      code: "conflict",
      details: (e) => ({ reason: "disclosure_required", disclosureVersion: e.version })
    },
    // Refused by the workspace's capabilities or the form's state.
    FormKindDisabled: unprocessable,
    FeaturesDisabled: { code: "unprocessable", details: issues },
    RenderModeDisabled: { code: "unprocessable", details: issues },
    NothingToPublish: unprocessable,
    UnreadableSourceDraft: unprocessable,
    WrongFormKind: { code: "unsupported_kind" },
    PartialSubmissionsDisabled: { code: "forbidden" },
    ResponseTokenMismatch: { code: "forbidden" },
    FormClosed: { code: "closed", details: (e) => ({ reason: e.reason }) },
    // Too large.
    ImageTooLarge: { code: "payload_too_large" },
    FileTooLarge: { code: "payload_too_large" }
  }
})

export type FormsCode = keyof typeof FORMS_CODES
/** Any REST error of the forms API. */
export type FormsApiError = AnyApiError<typeof FORMS_CODES>

/** The HttpApi classes of `codes`, for a route's or group's `error` list. */
export const errorsOf = errorClassesOf(FORMS_CODES)
