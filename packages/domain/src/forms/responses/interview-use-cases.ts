// Interview respondents: the use cases behind the public interview routes of /f/{slug}. Starting
// asks the first question; each message the respondent sends goes through the Interviewer and then
// the domain's rules (correctInterviewerOutput), and the turn, the field states and the transcript
// are written back by compare-and-set on the response. When the rules say the interview is over, or
// the respondent ends it, the response completes with the built-in analysis, and a model's analysis
// is queued as a job in the same write when one is configured.
import { responseLocaleMeta } from "./response-locale.js"
import { Clock, Effect, Option } from "effect"
import { toBase64Url } from "../../kernel/digest.js"
import { storableJson } from "../../kernel/text.js"
import { jobDedupeKey, type NewJob } from "../../kernel/jobs/job.js"
import { announceJob } from "../../kernel/jobs/runner.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { logUnsentNotifications, notificationJob } from "../notifications/email-job.js"
import { plannedNotifications } from "../notifications/rules.js"
import {
  FormClosed,
  InterviewExpired,
  InterviewFinished,
  InterviewMessageInvalid,
  InterviewNotStarted,
  DisclosureNotAccepted,
  PinnedVersionNotFound,
  PublishedFormNotFound,
  RepeatResponse,
  ResponseChangedMeanwhile
} from "../errors.js"
import { InterviewAnalyst, deterministicInterviewAnalysis } from "../interview/analysis.js"
import type { InterviewDefinition } from "../interview/definition.js"
import { deterministicInterviewerTurn } from "../interview/deterministic-interviewer.js"
import {
  emptyInterviewSession,
  type InterviewMessage,
  type InterviewSession,
  Interviewer
} from "../interview/interviewer.js"
import { closingText, localizedText } from "../interview/questions.js"
import { withContextSummary } from "../interview/summariser.js"
import { validationAssignment } from "../interview/validation.js"
import { exchangeCount } from "../interview/rule-basics.js"
import {
  applyInterviewStep,
  correctInterviewerOutput,
  type InterviewStep,
  recordUserMessage
} from "../interview/rules.js"
import { FormRepository } from "../ports/forms.js"
import { type NewResponseRecord, type ResponseRecord, ResponseRepository } from "../ports/responses.js"
import { storedInterviewOf } from "./reads.js"
import { acceptConsent } from "./consent.js"
import {
  closedReason,
  completedCountIfLimited,
  ensureOpen,
  estimateRespondent,
  loadOwnResponse,
  loadPublishedVersion,
  type RespondentClient,
  type RespondentEstimate,
  resumePartialResponse,
  startedMeta,
  completedMeta
} from "./respondent.js"
import { INTERVIEW_ANALYSIS_MAX_ATTEMPTS } from "./interview-analysis-job.js"
import {
  decodeInterview,
  inProgressMeta,
  interviewMeta,
  type LiveInterview,
  liveInterviewOf,
  type PublishedInterview
} from "./interview-record.js"
import { resultOf, type InterviewTurnResult } from "./interview-views.js"

/** The longest message a respondent may send (characters, after trimming). */
export const MAX_INTERVIEW_MESSAGE_CHARACTERS = 4000

/** Why a respondent's finish ends the interview, as stored in quality.completionReason. */
export const RESPONDENT_ENDED = "respondent_ended"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The current published version of the interview form at `slug`. */
export const loadPublishedInterview = (slug: string) =>
  Effect.gen(function* () {
    const { form, version, settings } = yield* loadPublishedVersion(slug, "interview")
    const definition = yield* decodeInterview(version)
    if (definition === null) return yield* new PublishedFormNotFound()
    return { form, version, definition, settings } satisfies PublishedInterview
  })

/** The interview page's data: the published interview and why it is closed right now, if it is. */
export const loadPublicInterview = (slug: string) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    const completed = yield* completedCountIfLimited(published)
    return { published, closed: closedReason(published.settings, completed, yield* now) }
  })

/** The definition a response was started under (the interview goes on with it after a republish). */
const pinnedInterview = (published: PublishedInterview, response: ResponseRecord) =>
  Effect.gen(function* () {
    if (response.formVersionId === published.version.id) return published.definition
    const version = yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.getVersion(published.form.workspaceId, published.form.id, response.formVersionId)
    )
    const decoded = Option.isSome(version) ? yield* decodeInterview(version.value) : null
    if (decoded === null) return yield* new PinnedVersionNotFound()
    return decoded
  })

/** The respondent's locale if the interview supports it (exactly or by language), else its default. */
export const interviewLocale = (def: InterviewDefinition, requested: string | undefined): string => {
  const supported: ReadonlyArray<string> = def.locales.supported
  if (requested === undefined) return def.locales.default
  const wanted = requested.trim().toLowerCase()
  return (
    supported.find((l) => l.toLowerCase() === wanted) ??
    supported.find((l) => l.toLowerCase().split("-")[0] === wanted.split("-")[0]) ??
    def.locales.default
  )
}

/** The interviewer's next turn as the rules allow it; a failed interviewer is answered by the built-in one. */
const nextStep = (def: InterviewDefinition, locale: string, session: InterviewSession) =>
  Effect.gen(function* () {
    const interviewer = yield* Interviewer
    const input = { definition: def, locale, session }
    const proposal = yield* interviewer
      .next(input)
      .pipe(
        Effect.catchTag("InterviewerFailed", (e) =>
          Effect.as(
            Effect.logWarning("interviewer failed; the built-in interviewer answers this turn", e.reason),
            deterministicInterviewerTurn(input)
          )
        )
      )
    const step: InterviewStep = correctInterviewerOutput(def, locale, session, proposal)
    if (step.corrections.length > 0)
      yield* Effect.logDebug("interviewer output corrected", step.corrections.map((c) => c.rule).join(","))
    return step
  })

const analysisJob = (response: ResponseRecord, id: string, at: Date): NewJob => ({
  id,
  tenantId: response.workspaceId,
  type: "interview_analysis",
  resourceId: response.id,
  dedupeKey: jobDedupeKey("interview_analysis", response.id),
  payload: { formId: response.formId, responseId: response.id },
  maxAttempts: INTERVIEW_ANALYSIS_MAX_ATTEMPTS,
  runAt: at,
  retryOf: null,
  createdAt: at
})

/**
 * Writes `live` over `current` by compare-and-set: as a partial response, or completed with the
 * built-in analysis (`partial`, or `pending` with the analysis job queued in the same write when a
 * model analyst is configured). `stale` when another write got there first.
 */
const writeInterview = (
  published: PublishedInterview,
  def: InterviewDefinition,
  current: ResponseRecord,
  live: LiveInterview,
  completionReason: string | null
) =>
  Effect.gen(function* () {
    const at = yield* now
    const complete = completionReason !== null
    const analyst = complete ? yield* InterviewAnalyst : null
    const meta = complete
      ? interviewMeta(
          live,
          deterministicInterviewAnalysis(def, live.locale, live.session),
          analyst === null ? "partial" : "pending",
          completionReason
        )
      : inProgressMeta(live)
    const next: ResponseRecord = {
      ...current,
      status: complete ? "completed" : "partial",
      // Text from a model, or cut by the rules, is made storable before it is kept.
      meta: complete
        ? completedMeta(published.settings, { ...current.meta, interview: storableJson(meta) })
        : { ...current.meta, interview: storableJson(meta) },
      updatedAt: at,
      completedAt: complete ? at : null,
      version: current.version + 1
    }
    const newId = Effect.flatMap(Effect.service(IdGen), (i) => i.uuidV7)
    const job = analyst === null ? undefined : analysisJob(next, yield* newId, at)
    // The owners' e-mails, queued in the same write (an interview has no email block: no receipt).
    const planned = complete ? plannedNotifications(published.settings, { blocks: [] }, {}) : []
    const mailer = planned.length === 0 ? null : yield* Mailer
    const mails =
      mailer === null
        ? []
        : yield* Effect.forEach(planned, (p) => Effect.map(newId, (id) => notificationJob(next, p, id, at)))
    const jobs = [...(job === undefined ? [] : [job]), ...mails]
    const outcome = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.update(
        next,
        {
          status: "partial",
          version: current.version,
          ...(complete ? { maxCompleted: published.settings.submission.maxResponses } : {})
        },
        jobs.length === 0 ? undefined : { enqueue: jobs }
      )
    )
    if (outcome === "full")
      return yield* new FormClosed({
        reason: "max_responses",
        closedMessage: published.settings.submission.closedMessage
      })
    if (outcome === "stale") return yield* new ResponseChangedMeanwhile()
    yield* Effect.forEach(jobs, (j) => announceJob(j.id), { discard: true })
    if (mailer === null) yield* logUnsentNotifications(next, planned)
    return next
  })

export interface InterviewStartOptions {
  /** The respondent's language (e.g. from the page or Accept-Language). */
  readonly locale?: string | undefined
  /** The respondent read and accepted the interview's disclosure (required when it says so). */
  readonly acceptDisclosure?: boolean | undefined
  /** The response this start replaces, when the respondent chose to start over (interview-restart.ts). */
  readonly restartOf?: string | undefined
}

export interface StartedInterview extends InterviewTurnResult {
  readonly token: string
  readonly continuityToken: string
  readonly respondent: RespondentEstimate
  readonly repeatWarning: boolean
}

/**
 * Starts an interview pinned to the current version: the greeting (if any) and the first question.
 * The same continuity, repeat-response and closing rules as a classic response apply.
 */
export const startInterview = (
  slug: string,
  params: Readonly<Record<string, string>>,
  client: RespondentClient,
  options: InterviewStartOptions = {}
) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    yield* ensureOpen(published)
    const def = published.definition
    if (def.disclosure?.required === true && options.acceptDisclosure !== true)
      return yield* new DisclosureNotAccepted({ version: def.disclosure.version })
    const ids = yield* IdGen
    const at = yield* now
    const consent = yield* Effect.fromResult(acceptConsent(published.settings, client.consent, at))
    const estimate = yield* estimateRespondent(published, client, at)
    const policy = published.settings.submission.repeatResponsePolicy
    const isRepeat = estimate.respondent.repeatCount > 0
    if (isRepeat && policy === "soft_block" && client.confirmRepeat !== true)
      return yield* new RepeatResponse({ respondent: estimate.respondent })
    const locale = interviewLocale(def, options.locale)
    const greeting = localizedText(def, def.greetingByLocale, locale)
    // The response id is drawn first: the validation items are assigned from it.
    const responseId = yield* ids.uuidV7
    const validation = validationAssignment(def, responseId)
    let session: InterviewSession = {
      ...emptyInterviewSession,
      ...(greeting === undefined
        ? {}
        : { messages: [{ id: yield* ids.uuidV7, role: "assistant" as const, text: greeting }] }),
      ...(validation === undefined ? {} : { validation })
    }
    const step = yield* nextStep(def, locale, session)
    session = applyInterviewStep(session, step, yield* ids.uuidV7)
    const live = { locale, session }
    const token = toBase64Url(yield* ids.randomBytes(24))
    const response: NewResponseRecord = {
      id: responseId,
      workspaceId: published.form.workspaceId,
      formId: published.form.id,
      formVersionId: published.version.id,
      status: "partial",
      answers: {},
      meta: {
        ...startedMeta(token, estimate, params),
        ...responseLocaleMeta(def.locales.supported, locale),
        ...(consent === undefined ? {} : { consent }),
        ...(def.disclosure !== undefined && options.acceptDisclosure === true
          ? { disclosure: { version: def.disclosure.version, acceptedAt: at.toISOString() } }
          : {}),
        ...(options.restartOf === undefined ? {} : { restartOf: options.restartOf }),
        interview: inProgressMeta(live)
      },
      createdAt: at,
      updatedAt: at,
      completedAt: null
    }
    yield* Effect.flatMap(Effect.service(ResponseRepository), (r) => r.insert(response))
    let stored: ResponseRecord = { ...response, version: 1 }
    // A definition whose rules leave nothing to ask closes at once.
    const reason = step.output.completion.done ? (step.output.completion.reason ?? null) : null
    if (reason !== null) stored = yield* writeInterview(published, def, stored, live, reason)
    return {
      ...resultOf(def, stored, live, session.messages, reason),
      token,
      continuityToken: estimate.continuityToken,
      respondent: estimate.respondent,
      repeatWarning: isRepeat && policy === "warn"
    } satisfies StartedInterview
  })

/** A response's definition (as pinned) and session; a row this runtime did not write reads as gone. */
const sessionOf = (published: PublishedInterview, response: ResponseRecord) =>
  Effect.gen(function* () {
    const def = yield* pinnedInterview(published, response)
    const live = liveInterviewOf(response)
    if (Option.isNone(live)) return yield* new PinnedVersionNotFound()
    return { def, live: live.value }
  })

/** An interview session lives `policy.sessionTtlMinutes` from its start. */
const ensureNotExpired = (def: InterviewDefinition, response: ResponseRecord) =>
  Effect.flatMap(now, (at) =>
    at.getTime() - response.createdAt.getTime() > def.policy.sessionTtlMinutes * 60_000
      ? Effect.fail(new InterviewExpired())
      : Effect.void
  )

/** The respondent's own partial interview, its session, and the definition it runs under. */
const loadOwnInterview = (slug: string, responseId: string, token: string) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    const current = yield* loadOwnResponse(published, responseId, token)
    if (current.status === "completed") return yield* new InterviewFinished()
    yield* ensureOpen(published)
    const { def, live } = yield* sessionOf(published, current)
    yield* ensureNotExpired(def, current)
    return { published, current, def, live }
  })

/**
 * The respondent's message and the interviewer's reply, which may close the interview. Two sends
 * racing on one response: one wins, the other is a conflict (its reply would answer a transcript
 * that no longer exists).
 */
export const sendInterviewMessage = (slug: string, responseId: string, token: string, text: string) =>
  Effect.gen(function* () {
    const message = text.trim()
    if (message === "" || message.length > MAX_INTERVIEW_MESSAGE_CHARACTERS)
      return yield* new InterviewMessageInvalid({ maxLength: MAX_INTERVIEW_MESSAGE_CHARACTERS })
    const { published, current, def, live } = yield* loadOwnInterview(slug, responseId, token)
    const ids = yield* IdGen
    const userId = yield* ids.uuidV7
    // The rolling summary a model's bounded context needs, stored with this turn (policy.context).
    const withUser = yield* withContextSummary(
      def,
      live.locale,
      recordUserMessage(live.session, userId, message)
    )
    const step = yield* nextStep(def, live.locale, withUser)
    const session = applyInterviewStep(withUser, step, yield* ids.uuidV7)
    const next = { locale: live.locale, session }
    const reason = step.output.completion.done ? (step.output.completion.reason ?? null) : null
    const written = yield* writeInterview(published, def, current, next, reason)
    return resultOf(def, written, next, session.messages.slice(-2), reason)
  })

/**
 * The respondent ends the interview before the rules would: completed with the closing words and
 * `respondent_ended` as its reason. An interview with no answer yet cannot be ended (it would count
 * as completed with nothing in it); it is simply left.
 */
export const finishInterview = (slug: string, responseId: string, token: string) =>
  Effect.gen(function* () {
    const { published, current, def, live } = yield* loadOwnInterview(slug, responseId, token)
    if (exchangeCount(live.session) === 0) return yield* new InterviewNotStarted()
    const closing: InterviewMessage = {
      id: yield* Effect.flatMap(Effect.service(IdGen), (i) => i.uuidV7),
      role: "assistant",
      text: closingText(def, live.locale),
      kind: "closing"
    }
    const next = {
      locale: live.locale,
      session: { ...live.session, messages: [...live.session.messages, closing] }
    }
    const written = yield* writeInterview(published, def, current, next, RESPONDENT_ENDED)
    return resultOf(def, written, next, [closing], RESPONDENT_ENDED)
  })

/**
 * The respondent's own interview as it stands, by its token, without writing (the page without
 * JavaScript shows it again after a refused message). Finished interviews read too.
 */
export const readOwnInterview = (slug: string, responseId: string, token: string) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    const current = yield* loadOwnResponse(published, responseId, token)
    const { def, live } = yield* sessionOf(published, current)
    const reason = storedInterviewOf(current).quality.completionReason
    return resultOf(def, current, live, live.session.messages, reason)
  })

export interface ResumedInterview extends InterviewTurnResult {
  readonly token: string
  readonly continuityToken: string
  readonly respondent: RespondentEstimate
}

/** This browser's unfinished interview after a reload, the whole transcript, and a fresh token. */
export const resumeInterview = (slug: string, client: RespondentClient) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    const resumed = yield* resumePartialResponse(published, client)
    const { def, live } = yield* sessionOf(published, resumed.response)
    yield* ensureNotExpired(def, resumed.response)
    return {
      ...resultOf(def, resumed.response, live, live.session.messages, null),
      token: resumed.token,
      continuityToken: resumed.continuityToken,
      respondent: resumed.respondent
    } satisfies ResumedInterview
  })
