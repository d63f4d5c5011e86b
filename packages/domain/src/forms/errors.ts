// The forms service's failures, each named for what happened, with the facts a client needs as fields
// (the current draftRevision, the issues: paths and rules, never the input). The HTTP adapter's error
// table gives each its code and status; the message here is what a person reads.
import { Data } from "effect"
import { type Issue, NamedError, RefusedInput } from "../kernel/errors.js"
import type { RespondentEstimate } from "./responses/respondent-estimate.js"

type Kind = "classic" | "interview"

// Not found ---------------------------------------------------------------------------------------

/** No live form with that id in the caller's workspace (another workspace's form reads as absent). */
export class FormNotFound extends NamedError("FormNotFound", "form not found") {}

export class VersionNotFound extends NamedError("VersionNotFound", "version not found") {}

/** The version a response was pinned to is gone or no longer readable. */
export class PinnedVersionNotFound extends NamedError("PinnedVersionNotFound", "form version not found") {}

export class ResponseNotFound extends NamedError("ResponseNotFound", "response not found") {}

export class FileNotFound extends NamedError("FileNotFound", "file not found") {}

/** An image a published form does not point at (or one no longer stored as an image). */
export class ImageNotFound extends NamedError("ImageNotFound", "image not found") {}

/**
 * A resume found nothing to continue: no continuity cookie, a malformed one, or no partial response
 * of that browser on the form's current version.
 */
export class NothingToResume extends NamedError(
  "NothingToResume",
  "no unfinished response of this browser to resume on this form"
) {}

/** Nothing published (a classic form) at a public slug. */
export class PublishedFormNotFound extends NamedError(
  "PublishedFormNotFound",
  "no published form at this address"
) {}

// Invalid input -----------------------------------------------------------------------------------

export class InvalidDefinition extends Data.TaggedError("InvalidDefinition")<{
  readonly kind: Kind
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return `${this.kind === "interview" ? "interview definition" : "definition"} failed validation`
  }
}

export class InvalidSettings extends Data.TaggedError("InvalidSettings")<{
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return "settings failed validation"
  }
}

export class InvalidSlug extends RefusedInput(
  "InvalidSlug",
  "slug must be 3 to 64 lowercase letters, digits or single hyphens, not starting or ending with a hyphen",
  [{ path: ["slug"], rule: "slug" }]
) {}

/** A cursor this list did not hand out. */
export class InvalidListCursor extends RefusedInput(
  "InvalidListCursor",
  "cursor is not valid for this list",
  [{ path: ["cursor"], rule: "cursor" }]
) {}

/** Image keys that do not name an uploaded asset of the form's workspace (rule `assetOwnership`). */
export class ImageKeysNotOwned extends Data.TaggedError("ImageKeysNotOwned")<{
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return "image keys must name images uploaded to this workspace (POST /forms/{id}/assets)"
  }
}

/** Over MCP a custom script is never written: an input carrying one is refused. */
export class CustomScriptNotOverMcp extends RefusedInput(
  "CustomScriptNotOverMcp",
  "customScript cannot be set or changed over MCP; edit it over REST",
  [{ path: ["settings", "customScript"], rule: "notOverMcp" }]
) {}

/** An authoring image upload whose leading bytes are not PNG, JPEG, GIF or WebP. */
export class NotAnImage extends RefusedInput(
  "NotAnImage",
  "the upload is not a PNG, JPEG, GIF or WebP image",
  [{ path: ["body"], rule: "imageType" }]
) {}

export class AnswersNotAnObject extends RefusedInput("AnswersNotAnObject", "answers must be an object", [
  { path: ["answers"], rule: "object" }
]) {}

/** A respondent's interview message that is blank or longer than the limit. */
export class InterviewMessageInvalid extends Data.TaggedError("InterviewMessageInvalid")<{
  readonly maxLength: number
}> {
  override get message() {
    return `a message must be 1 to ${this.maxLength} characters`
  }
  get issues(): ReadonlyArray<Issue> {
    return [{ path: ["text"], rule: "length" }]
  }
}

export class InvalidAnswers extends Data.TaggedError("InvalidAnswers")<{
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return "some answers are not valid"
  }
}

/**
 * A start of a form under research compliance without the respondent's acceptance of every consent
 * item (issues at ["consent", index] for each one missing, never the text).
 */
export class ConsentNotGiven extends Data.TaggedError("ConsentNotGiven")<{
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return "every consent item of this form must be accepted before a response starts"
  }
}

/**
 * A withdrawal link that does not open a response: a wrong or forged signature, a form without
 * withdrawal, or a response already withdrawn or deleted. One error for all, so the answer never
 * tells whether the response existed.
 */
export class WithdrawalLinkInvalid extends NamedError(
  "WithdrawalLinkInvalid",
  "this withdrawal link is not valid or was already used"
) {}

/** A respondent upload aimed at a block that does not exist or is not a file_upload block. */
export class NotAnUploadBlock extends Data.TaggedError("NotAnUploadBlock")<{
  readonly rule: "unknownBlock" | "notFileUpload"
}> {
  override get message() {
    return "uploads go to a file_upload block of this form"
  }
  get issues(): ReadonlyArray<Issue> {
    return [{ path: ["blockId"], rule: this.rule }]
  }
}

export class EmptyUpload extends RefusedInput("EmptyUpload", "the upload is empty", [
  { path: ["body"], rule: "empty" }
]) {}

/** The sniffed type of a respondent upload is not among the block's accepted types. */
export class FileTypeNotAccepted extends RefusedInput(
  "FileTypeNotAccepted",
  "this question does not accept files of this type",
  [{ path: ["body"], rule: "fileType" }]
) {}

/** A block's uploads (its maxFiles plus room for replacements) are all used. */
export class TooManyUploads extends RefusedInput("TooManyUploads", "too many uploads for this question", [
  { path: ["blockId"], rule: "maxUploads" }
]) {}

/** A report cohort that ends before it starts (`order`) or spans more than 366 days (`maxRange`). */
export class InvalidCohort extends Data.TaggedError("InvalidCohort")<{
  readonly rule: "order" | "maxRange"
}> {
  override get message() {
    return this.rule === "order" ? "from must be before to" : "a cohort spans at most 366 days"
  }
  get issues(): ReadonlyArray<Issue> {
    return [{ path: ["from"], rule: this.rule }]
  }
}

// Conflicts ---------------------------------------------------------------------------------------

/** The client's expectedDraftRevision is stale; `draftRevision` is the current one to re-read. */
export class DraftRevisionConflict extends Data.TaggedError("DraftRevisionConflict")<{
  readonly draftRevision: number
}> {
  override get message() {
    return "draftRevision does not match: re-read the form and re-apply your change"
  }
}

/** The client's expectedSettingsSignature is stale; `settingsSignature` is the current one. */
export class SettingsSignatureConflict extends Data.TaggedError("SettingsSignatureConflict")<{
  readonly settingsSignature: string
}> {
  override get message() {
    return "settingsSignature does not match: re-read the form and re-apply your change"
  }
}

/** Another live form already has the slug the caller asked for. */
export class SlugInUse extends Data.TaggedError("SlugInUse")<{ readonly slug: string }> {
  override get message() {
    return "this slug is already used by another form"
  }
}

/** Every random slug drawn for a new form was taken. */
export class SlugAllocationFailed extends NamedError(
  "SlugAllocationFailed",
  "could not allocate a unique slug; try again"
) {}

/** A write kept losing races to other writers of the same form. */
export class FormChangedConcurrently extends NamedError(
  "FormChangedConcurrently",
  "the form is being changed concurrently; re-read it and re-apply your change"
) {}

/** A soft_block form: this browser already responded and did not confirm answering again. */
export class RepeatResponse extends Data.TaggedError("RepeatResponse")<{
  readonly respondent: RespondentEstimate
}> {
  override get message() {
    return "this browser has already responded to this form; start again with confirmRepeat to answer again"
  }
}

export class ResponseNotEditable extends NamedError(
  "ResponseNotEditable",
  "this response is complete and the form does not allow editing it"
) {}

/** A save or completion lost to a completion by another request. */
export class ResponseCompletedMeanwhile extends NamedError(
  "ResponseCompletedMeanwhile",
  "this response was completed by another request while this one was writing"
) {}

/** A write kept losing to other writes of the same response, or an edit of a completed one lost. */
export class ResponseChangedMeanwhile extends NamedError(
  "ResponseChangedMeanwhile",
  "this response changed while this request was writing it; read it and try again"
) {}

/** A message sent after the interview ended (by its rules or by the respondent). */
export class InterviewFinished extends NamedError("InterviewFinished", "this interview has already ended") {}

/** The interview's session outlived the definition's sessionTtlMinutes; a new one can be started. */
export class InterviewExpired extends NamedError(
  "InterviewExpired",
  "this interview session has expired; start a new one"
) {}

/** Ending an interview before the respondent answered anything (it is left, not completed). */
export class InterviewNotStarted extends NamedError(
  "InterviewNotStarted",
  "nothing has been answered yet, so there is nothing to finish"
) {}

/** A restart of an interview whose definition does not offer one (experience.allowRestart false). */
export class InterviewRestartNotAllowed extends NamedError(
  "InterviewRestartNotAllowed",
  "this interview does not offer starting over"
) {}

/** The interview's disclosure is required and the start did not accept it. */
export class DisclosureNotAccepted extends Data.TaggedError("DisclosureNotAccepted")<{
  readonly version: string
}> {
  override get message() {
    return "this interview's disclosure must be accepted before it starts (acceptDisclosure: true)"
  }
}

// Refused by the workspace's capabilities or the form's state -------------------------------------

export class FormKindDisabled extends Data.TaggedError("FormKindDisabled")<{ readonly kind: Kind }> {
  override get message() {
    return `${this.kind} forms are not enabled for this workspace`
  }
}

/** The definition uses block features the workspace has switched off. */
export class FeaturesDisabled extends Data.TaggedError("FeaturesDisabled")<{
  readonly features: ReadonlyArray<string>
}> {
  override get message() {
    return `the definition uses features not enabled for this workspace: ${this.features.join(", ")}`
  }
  get issues(): ReadonlyArray<Issue> {
    return this.features.map((f) => ({ path: ["definition"], rule: `featureDisabled:${f}` }))
  }
}

export class RenderModeDisabled extends Data.TaggedError("RenderModeDisabled")<{ readonly mode: string }> {
  override get message() {
    return `render mode ${this.mode} is not enabled for this workspace`
  }
  get issues(): ReadonlyArray<Issue> {
    return [{ path: ["settings", "renderMode"], rule: "renderModeDisabled" }]
  }
}

/** Publishing a draft with nothing to answer: no input block (classic), no field or goal (interview). */
export class NothingToPublish extends Data.TaggedError("NothingToPublish")<{ readonly kind: Kind }> {
  override get message() {
    return this.kind === "classic"
      ? "a classic form needs at least one input block to be published"
      : "an interview needs at least one field or goal to be published"
  }
}

/** A copy of a form whose stored draft no longer decodes. */
export class UnreadableSourceDraft extends NamedError(
  "UnreadableSourceDraft",
  "the source form's draft cannot be read, so it cannot be copied"
) {}

/** A read that exists for the other kind of form (summaries and insights: classic; analytics: interview). */
export class WrongFormKind extends Data.TaggedError("WrongFormKind")<{
  readonly read: "summary" | "insights" | "interviewAnalytics"
}> {
  override get message() {
    return WRONG_KIND_MESSAGES[this.read]
  }
}

const WRONG_KIND_MESSAGES = {
  summary: "summaries are for classic forms; use interview-analytics for interviews",
  insights: "insights are for classic forms",
  interviewAnalytics: "interview analytics are for interview forms; use responses/summary for classic forms"
} as const

/** Reading partial responses needs the partial-submissions feature of the workspace. */
export class PartialSubmissionsDisabled extends NamedError(
  "PartialSubmissionsDisabled",
  "partial submissions are not enabled for this workspace"
) {}

/** A respondent's token does not match the response it names. */
export class ResponseTokenMismatch extends NamedError(
  "ResponseTokenMismatch",
  "this response belongs to another respondent"
) {}

/** The form is not taking responses; `closedMessage` is the author's, when set. */
export class FormClosed extends Data.TaggedError("FormClosed")<{
  readonly reason: "not_accepting" | "closed_at" | "max_responses"
  readonly closedMessage?: string | undefined
}> {
  override get message() {
    return this.closedMessage ?? "this form is not accepting responses"
  }
}

// Too large ---------------------------------------------------------------------------------------

export class ImageTooLarge extends Data.TaggedError("ImageTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `images are limited to ${this.maxBytes} bytes`
  }
}

/** A respondent upload over its block's maxSizeMb. */
export class FileTooLarge extends Data.TaggedError("FileTooLarge")<{ readonly maxSizeMb: number }> {
  override get message() {
    return `files for this question are limited to ${this.maxSizeMb} MB`
  }
}

/** Every failure a forms use case can end with besides storage and the keyed-request failures. */
export type FormsError =
  | FormNotFound
  | VersionNotFound
  | PinnedVersionNotFound
  | ResponseNotFound
  | FileNotFound
  | ImageNotFound
  | PublishedFormNotFound
  | NothingToResume
  | InvalidDefinition
  | InvalidSettings
  | InvalidSlug
  | InvalidListCursor
  | ImageKeysNotOwned
  | CustomScriptNotOverMcp
  | NotAnImage
  | AnswersNotAnObject
  | InvalidAnswers
  | NotAnUploadBlock
  | EmptyUpload
  | FileTypeNotAccepted
  | TooManyUploads
  | InvalidCohort
  | InterviewMessageInvalid
  | DraftRevisionConflict
  | SettingsSignatureConflict
  | SlugInUse
  | SlugAllocationFailed
  | FormChangedConcurrently
  | RepeatResponse
  | ResponseNotEditable
  | ResponseCompletedMeanwhile
  | ResponseChangedMeanwhile
  | InterviewFinished
  | InterviewExpired
  | InterviewNotStarted
  | InterviewRestartNotAllowed
  | DisclosureNotAccepted
  | ConsentNotGiven
  | WithdrawalLinkInvalid
  | FormKindDisabled
  | FeaturesDisabled
  | RenderModeDisabled
  | NothingToPublish
  | UnreadableSourceDraft
  | WrongFormKind
  | PartialSubmissionsDisabled
  | ResponseTokenMismatch
  | FormClosed
  | ImageTooLarge
  | FileTooLarge
