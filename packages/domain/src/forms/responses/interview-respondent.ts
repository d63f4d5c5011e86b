// Interview respondents: the use cases behind the public interview routes of /f/{slug}. Starting
// asks the first question; each message the respondent sends goes through the Interviewer and then
// the domain's rules (correctInterviewerOutput), and the turn, the field states and the transcript
// are written back by compare-and-set on the response. When the rules say the interview is over, or
// the respondent ends it, the response completes with the built-in analysis, and a model's analysis
// is queued as a job in the same write when one is configured.
import { Clock, Effect, Option, Schema } from "effect"
import { toBase64Url } from "../../kernel/digest.js"
import {
  type JobOutcome,
  JobFailed,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { storableJson } from "../../kernel/text.js"
import { jobDedupeKey, type JobRecord, type NewJob } from "../../kernel/jobs/job.js"
import { announceJob } from "../../kernel/jobs/runner.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { retryOnStale } from "../../kernel/retry.js"
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
import {
  type InterviewAnalysis,
  InterviewAnalyst,
  correctInterviewAnalysis,
  deterministicInterviewAnalysis,
  extractedFieldsOf
} from "../interview/analysis.js"
import type { InterviewDefinition } from "../interview/definition.js"
import { deterministicInterviewerTurn } from "../interview/deterministic-interviewer.js"
import {
  emptyInterviewSession,
  InterviewFieldState,
  InterviewGoalState,
  InterviewProbeKind,
  type InterviewMessage,
  type InterviewSession,
  Interviewer,
  InterviewTurnKind
} from "../interview/interviewer.js"
import { closingText, localizedText } from "../interview/questions.js"
import {
  applyInterviewStep,
  correctInterviewerOutput,
  exchangeCount,
  followupCount,
  type InterviewStep,
  recordUserMessage
} from "../interview/rules.js"
import { FormRepository, type FormRecord, type FormVersionRecord } from "../ports/forms.js"
import { type NewResponseRecord, type ResponseRecord, ResponseRepository } from "../ports/responses.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import type { FormSettings } from "../settings/settings.js"
import { storedInterviewOf } from "./reads.js"
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
  startedMeta
} from "./respondent.js"

/** The longest message a respondent may send (characters, after trimming). */
export const MAX_INTERVIEW_MESSAGE_CHARACTERS = 4000

/** Attempts of the analysis job (a model that keeps failing leaves the analysis `failed`). */
export const INTERVIEW_ANALYSIS_MAX_ATTEMPTS = 5

/** Why a respondent's finish ends the interview, as stored in quality.completionReason. */
export const RESPONDENT_ENDED = "respondent_ended"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export interface PublishedInterview {
  readonly form: FormRecord
  readonly version: FormVersionRecord
  readonly definition: InterviewDefinition
  readonly settings: FormSettings
}

const decodeInterview = (version: FormVersionRecord) =>
  Effect.gen(function* () {
    const documents = yield* StoredFormDocumentReader
    const definition = documents.definition("interview", version.definition, version.id)
    return definition === null || !("fields" in definition && "goals" in definition)
      ? null
      : (definition as InterviewDefinition)
  })

/** The title a respondent sees: the interview's own, else the form's. */
export const interviewTitle = (published: Pick<PublishedInterview, "form" | "definition">): string =>
  published.definition.title.trim() === "" ? published.form.title : published.definition.title

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

// The interview's state in the response row ---------------------------------------------------------
//
// `meta.interview` holds what the reads show (StoredInterview in reads.ts: transcript, extracted
// fields, analysis, quality) plus `runtime`, the rules' field and goal states. Transcript turns keep
// what each assistant turn targeted (extra keys the reads ignore), so the session is rebuilt from
// the row alone and the transcript text is stored once.

const StoredTurn = Schema.Struct({
  turnId: Schema.String,
  role: Schema.Literals(["assistant", "user"]),
  content: Schema.String,
  blockId: Schema.String,
  kind: Schema.optionalKey(InterviewTurnKind),
  targetType: Schema.optionalKey(Schema.Literals(["field", "goal"])),
  probeKind: Schema.optionalKey(InterviewProbeKind)
})
type StoredTurn = typeof StoredTurn.Type

const StoredRuntime = Schema.Struct({
  transcript: Schema.Array(StoredTurn),
  runtime: Schema.Struct({
    locale: Schema.String,
    fields: Schema.Array(InterviewFieldState),
    goals: Schema.Array(InterviewGoalState)
  })
})
const decodeRuntime = Schema.decodeUnknownOption(StoredRuntime)

const turnOf = (m: InterviewMessage): StoredTurn => ({
  turnId: m.id,
  role: m.role,
  content: m.text,
  blockId: m.target?.id ?? "",
  ...(m.kind === undefined ? {} : { kind: m.kind }),
  ...(m.target === undefined ? {} : { targetType: m.target.type }),
  ...(m.probeKind === undefined ? {} : { probeKind: m.probeKind })
})

/**
 * The stored transcript: a respondent's turn names, as its `blockId`, the field or goal the question
 * before it asked about (so a reader can tell what it answers); an assistant turn its own target.
 */
const transcriptOf = (messages: ReadonlyArray<InterviewMessage>): ReadonlyArray<StoredTurn> =>
  messages.map((m, i) => {
    const turn = turnOf(m)
    if (m.role !== "user") return turn
    const asked = messages.slice(0, i).findLast((p) => p.role === "assistant")
    return { ...turn, blockId: asked?.target?.id ?? "" }
  })

const messageOf = (t: StoredTurn): InterviewMessage => ({
  id: t.turnId,
  role: t.role,
  text: t.content,
  ...(t.kind === undefined ? {} : { kind: t.kind }),
  ...(t.targetType === undefined ? {} : { target: { type: t.targetType, id: t.blockId } }),
  ...(t.probeKind === undefined ? {} : { probeKind: t.probeKind })
})

interface LiveInterview {
  readonly locale: string
  readonly session: InterviewSession
}

/** The session a response holds; a row this runtime did not write reads as not found. */
const liveInterviewOf = (response: ResponseRecord): Option.Option<LiveInterview> =>
  Option.map(decodeRuntime(response.meta.interview), (stored) => ({
    locale: stored.runtime.locale,
    session: {
      messages: stored.transcript.map(messageOf),
      fields: stored.runtime.fields,
      goals: stored.runtime.goals
    }
  }))

type AnalysisStatus = "pending" | "completed" | "partial" | "failed"

const interviewMeta = (
  live: LiveInterview,
  analysis: InterviewAnalysis,
  analysisStatus: AnalysisStatus,
  completionReason: string | null
) => ({
  transcript: transcriptOf(live.session.messages),
  runtime: { locale: live.locale, fields: live.session.fields, goals: live.session.goals },
  ...analysis,
  analysisStatus,
  quality: {
    completionReason,
    exchangeCount: exchangeCount(live.session),
    followupCount: followupCount(live.session)
  }
})

/** A partial interview: the transcript and the fields so far, no analysis yet. */
const inProgressMeta = (live: LiveInterview) =>
  interviewMeta(
    live,
    { keyInfo: [], insights: [], extractedFields: extractedFieldsOf(live.session) },
    "pending",
    null
  )

/** Share of the interview's fields and goals settled so far (0..1), for the page's progress bar. */
export const interviewProgress = (def: InterviewDefinition, session: InterviewSession): number => {
  const total = def.fields.length + def.goals.length
  if (total === 0) return 1
  const fields = session.fields.filter((f) => f.status !== "tentative").length
  const goals = def.goals.filter(
    (g) => (session.goals.find((s) => s.goalId === g.id)?.coverage ?? 0) >= g.requiredCoverage
  ).length
  return Math.round(((fields + goals) / total) * 100) / 100
}

// What the routes answer --------------------------------------------------------------------------

export interface InterviewChatMessage {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}

export interface InterviewTurnResult {
  readonly response: ResponseRecord
  /** New messages (a send: the respondent's and the reply) or the whole transcript (start, resume). */
  readonly messages: ReadonlyArray<InterviewChatMessage>
  readonly done: boolean
  readonly completionReason: string | null
  readonly progress: number
  readonly locale: string
}

const chatMessage = (m: InterviewMessage): InterviewChatMessage => ({ id: m.id, role: m.role, text: m.text })

/** The whole conversation a response holds, as the respondent saw it (empty for a row not ours). */
export const interviewChatOf = (response: ResponseRecord): ReadonlyArray<InterviewChatMessage> =>
  Option.match(liveInterviewOf(response), {
    onNone: () => [],
    onSome: (live) => live.session.messages.map(chatMessage)
  })

const resultOf = (
  def: InterviewDefinition,
  response: ResponseRecord,
  live: LiveInterview,
  messages: ReadonlyArray<InterviewMessage>,
  completionReason: string | null
): InterviewTurnResult => ({
  response,
  messages: messages.map(chatMessage),
  done: response.status === "completed",
  completionReason,
  progress: response.status === "completed" ? 1 : interviewProgress(def, live.session),
  locale: live.locale
})

// The turn ------------------------------------------------------------------------------------------

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
      meta: { ...current.meta, interview: storableJson(meta) },
      updatedAt: at,
      completedAt: complete ? at : null,
      version: current.version + 1
    }
    const job =
      analyst === null
        ? undefined
        : analysisJob(next, yield* Effect.flatMap(Effect.service(IdGen), (i) => i.uuidV7), at)
    const outcome = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.update(
        next,
        {
          status: "partial",
          version: current.version,
          ...(complete ? { maxCompleted: published.settings.submission.maxResponses } : {})
        },
        job === undefined ? undefined : { enqueue: job }
      )
    )
    if (outcome === "full")
      return yield* new FormClosed({
        reason: "max_responses",
        closedMessage: published.settings.submission.closedMessage
      })
    if (outcome === "stale") return yield* new ResponseChangedMeanwhile()
    if (job !== undefined) yield* announceJob(job.id)
    return next
  })

// Use cases -------------------------------------------------------------------------------------------

export interface InterviewStartOptions {
  /** The respondent's language (e.g. from the page or Accept-Language). */
  readonly locale?: string | undefined
  /** The respondent read and accepted the interview's disclosure (required when it says so). */
  readonly acceptDisclosure?: boolean | undefined
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
    const estimate = yield* estimateRespondent(published, client, at)
    const policy = published.settings.submission.repeatResponsePolicy
    const isRepeat = estimate.respondent.repeatCount > 0
    if (isRepeat && policy === "soft_block" && client.confirmRepeat !== true)
      return yield* new RepeatResponse({ respondent: estimate.respondent })
    const locale = interviewLocale(def, options.locale)
    const greeting = localizedText(def, def.greetingByLocale, locale)
    let session: InterviewSession =
      greeting === undefined
        ? emptyInterviewSession
        : {
            ...emptyInterviewSession,
            messages: [{ id: yield* ids.uuidV7, role: "assistant", text: greeting }]
          }
    const step = yield* nextStep(def, locale, session)
    session = applyInterviewStep(session, step, yield* ids.uuidV7)
    const live = { locale, session }
    const token = toBase64Url(yield* ids.randomBytes(24))
    const response: NewResponseRecord = {
      id: yield* ids.uuidV7,
      workspaceId: published.form.workspaceId,
      formId: published.form.id,
      formVersionId: published.version.id,
      status: "partial",
      answers: {},
      meta: {
        ...startedMeta(token, estimate, params),
        ...(def.disclosure !== undefined && options.acceptDisclosure === true
          ? { disclosure: { version: def.disclosure.version, acceptedAt: at.toISOString() } }
          : {}),
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
    const withUser = recordUserMessage(live.session, userId, message)
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

// The analysis job ----------------------------------------------------------------------------------

const payloadIds = (job: JobRecord) => {
  const formId = job.payload.formId
  const responseId = job.payload.responseId
  return typeof formId === "string" && typeof responseId === "string" ? { formId, responseId } : undefined
}

/**
 * The `interview_analysis` job: the configured analyst reads the finished interview; its output,
 * checked by correctInterviewAnalysis, replaces the built-in analysis and the status becomes
 * `completed`. A failure is retried; whatever fails the last attempt (the model, storage, a
 * write that kept losing), the status becomes `failed` where it can still be written (the built-in
 * analysis stays). Nothing to do (`skipped`) when the response is gone or no longer pending.
 */
export const runInterviewAnalysisJob = (
  job: JobRecord
): Effect.Effect<JobOutcome, JobFailed, FormRepository | ResponseRepository> =>
  Effect.gen(function* () {
    const target = payloadIds(job)
    if (target === undefined)
      return yield* new JobFailed({
        code: "invalid_payload",
        message: "the job names no response",
        retryable: false
      })
    const responses = yield* ResponseRepository
    const forms = yield* FormRepository
    const analyst = yield* InterviewAnalyst
    const attempt = () =>
      Effect.gen(function* () {
        const found = yield* responses.get(job.tenantId, target.formId, target.responseId)
        if (Option.isNone(found) || found.value.status !== "completed")
          return Option.some(skipped({ reason: "response_not_completed" }))
        const current = found.value
        const stored = current.meta.interview as { analysisStatus?: unknown } | undefined
        if (stored?.analysisStatus !== "pending") return Option.some(skipped({ reason: "not_pending" }))
        const version = yield* forms.getVersion(job.tenantId, target.formId, current.formVersionId)
        const def = Option.isSome(version) ? yield* decodeInterview(version.value) : null
        const live = liveInterviewOf(current)
        if (def === null || Option.isNone(live)) return Option.some(skipped({ reason: "unreadable" }))
        const at = yield* now
        // The model's text is made storable (no NUL, no half of a surrogate pair) before it is kept.
        const write = (interview: Record<string, unknown>) =>
          responses.update(
            {
              ...current,
              meta: { ...current.meta, interview: storableJson(interview) },
              updatedAt: at,
              version: current.version + 1
            },
            { status: "completed", version: current.version }
          )
        const base = current.meta.interview as Record<string, unknown>
        if (analyst === null) {
          // The model was configured away since: the built-in analysis is what there is.
          const outcome = yield* write({ ...base, analysisStatus: "partial" })
          return outcome === "updated" ? Option.some(succeeded({ analysisStatus: "partial" })) : Option.none()
        }
        const proposed = yield* Effect.result(
          analyst.analyze({
            definition: def,
            locale: live.value.locale,
            session: live.value.session,
            extractedFields: extractedFieldsOf(live.value.session)
          })
        )
        if (proposed._tag === "Failure")
          return yield* new JobFailed({
            code: "analysis_failed",
            message: proposed.failure.reason,
            retryable: true
          })
        const analysis = correctInterviewAnalysis(
          def,
          live.value.locale,
          live.value.session,
          proposed.success
        )
        const outcome = yield* write({ ...base, ...analysis, analysisStatus: "completed" })
        return outcome === "updated" ? Option.some(succeeded({ analysisStatus: "completed" })) : Option.none()
      })
    const run = retryOnStale(
      2,
      attempt,
      () =>
        new JobFailed({
          code: "changed_meanwhile",
          message: "the response changed meanwhile",
          retryable: true
        })
    ).pipe(Effect.catchTag("StorageError", storageUnavailable("interview analysis")))
    if (job.attempts < job.maxAttempts) return yield* run
    // The last attempt: a failure leaves the analysis `failed`, never `pending` with no job behind it.
    return yield* run.pipe(
      Effect.tapError(() => markAnalysisFailed(responses, job.tenantId, target)),
      Effect.mapError((e) => new JobFailed({ code: e.code, message: e.message, retryable: false }))
    )
  })

/** Sets a pending analysis to `failed` (best effort: a store that is down leaves it as it is). */
const markAnalysisFailed = (
  responses: ResponseRepository["Service"],
  tenantId: string,
  target: { readonly formId: string; readonly responseId: string }
) =>
  Effect.gen(function* () {
    const found = yield* responses.get(tenantId, target.formId, target.responseId)
    if (Option.isNone(found)) return
    const current = found.value
    const interview = current.meta.interview as Record<string, unknown> | undefined
    if (current.status !== "completed" || interview?.analysisStatus !== "pending") return
    yield* responses.update(
      {
        ...current,
        meta: { ...current.meta, interview: { ...interview, analysisStatus: "failed" } },
        updatedAt: yield* now,
        version: current.version + 1
      },
      { status: "completed", version: current.version }
    )
  }).pipe(Effect.ignore)
