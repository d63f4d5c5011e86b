// Respondent use cases behind the public form routes (no API key): read the published version,
// start a response pinned to it, resume it after a reload, save partial answers, complete. A response
// is written back only with the secret handed out when it started (or last resumed); a completed one
// is immutable unless the form allows editing.
import { Clock, Effect, Option, Schema } from "effect"
import { constantTimeEqual, sha256Hex, toBase64Url } from "../../kernel/digest.js"
import type { StorageError } from "../../kernel/errors.js"
import { type FormRecord, FormRepository, type FormVersionRecord } from "../ports/forms.js"
import { retryOnStale } from "../../kernel/retry.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import type { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { announceJob } from "../../kernel/jobs/runner.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { logUnsentNotifications, notificationJob } from "../notifications/email-job.js"
import { plannedNotifications } from "../notifications/rules.js"
import { type NewResponseRecord, type ResponseRecord, ResponseRepository } from "../ports/responses.js"
import type { FormDefinition } from "../definition/definition.js"
import type { Answers } from "./logic.js"
import {
  type AnswersNotAnObject,
  type ConsentNotGiven,
  FormClosed,
  type InvalidAnswers,
  NothingToResume,
  PinnedVersionNotFound,
  PublishedFormNotFound,
  RepeatResponse,
  ResponseChangedMeanwhile,
  ResponseCompletedMeanwhile,
  ResponseNotEditable,
  ResponseNotFound,
  ResponseTokenMismatch
} from "../errors.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import { defaultFormSettings, encodeFormSettings, type FormSettings } from "../settings/settings.js"
import { validateAnswers } from "./answers.js"
import { acceptConsent } from "./consent.js"
import { hasRandomization, type PresentedOrder, presentationOrder } from "./presentation.js"
import { RespondentEstimateSchema, ResponsePresentation } from "./reads.js"
import type { RespondentEstimate } from "./respondent-estimate.js"
import { responseQualityOf } from "./quality.js"
import { scoreResponse } from "./scoring.js"

type Ports = FormRepository | ResponseRepository | IdGen
/** A completion also announces the e-mail jobs it queued. */
type CompletionPorts = Ports | InvalidationBus

export interface PublishedForm {
  readonly form: FormRecord
  readonly version: FormVersionRecord
  readonly definition: FormDefinition
  readonly settings: FormSettings
}

export type ClosedReason = FormClosed["reason"]

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
const missing = () => new PublishedFormNotFound()

/** The form at `slug` if it is published as `kind`, with its current version. */
export const loadPublishedVersion = (
  slug: string,
  kind: FormRecord["kind"]
): Effect.Effect<
  { readonly form: FormRecord; readonly version: FormVersionRecord; readonly settings: FormSettings },
  PublishedFormNotFound | StorageError,
  FormRepository
> =>
  Effect.gen(function* () {
    const forms = yield* FormRepository
    const form = yield* Effect.flatMap(
      forms.getBySlug(slug),
      Option.match({ onNone: () => Effect.fail(missing()), onSome: Effect.succeed })
    )
    if (form.status !== "published" || form.currentVersionId === null || form.kind !== kind)
      return yield* missing()
    const version = yield* Effect.flatMap(
      forms.getVersion(form.workspaceId, form.id, form.currentVersionId),
      Option.match({ onNone: () => Effect.fail(missing()), onSome: Effect.succeed })
    )
    const documents = yield* StoredFormDocumentReader
    return { form, version, settings: documents.settings(form.settings) ?? defaultFormSettings() }
  })

/** The current published version of the classic form at `slug`. */
export const loadPublishedForm = (
  slug: string
): Effect.Effect<PublishedForm, PublishedFormNotFound | StorageError, FormRepository> =>
  Effect.gen(function* () {
    const { form, version, settings } = yield* loadPublishedVersion(slug, "classic")
    const documents = yield* StoredFormDocumentReader
    const definition = documents.version(version.id, version.definition)
    if (definition === null) return yield* missing()
    return { form, version, definition, settings }
  })

/** The settings a respondent's page needs: everything but notification recipients and custom script. */
export const publicSettings = (settings: FormSettings) => {
  const { notifications: _notifications, customScript: _customScript, ...rest } = encodeFormSettings(settings)
  return rest
}

/** Why the form is closed right now, if it is. */
export const closedReason = (
  settings: FormSettings,
  completedCount: number,
  at: Date
): ClosedReason | undefined => {
  const s = settings.submission
  if (!s.acceptingResponses) return "not_accepting"
  if (s.closesAt !== undefined && Date.parse(s.closesAt) <= at.getTime()) return "closed_at"
  if (s.maxResponses !== undefined && completedCount >= s.maxResponses) return "max_responses"
  return undefined
}

/** Completed responses so far, counted only when a maxResponses limit makes the number matter. */
export const completedCountIfLimited = (published: Pick<PublishedForm, "form" | "settings">) =>
  published.settings.submission.maxResponses === undefined
    ? Effect.succeed(0)
    : Effect.flatMap(Effect.service(ResponseRepository), (r) =>
        r.count(published.form.workspaceId, published.form.id, "completed")
      )

/** The respondent's page: the published form at `slug` and why it is closed right now, if it is. */
export const loadPublicForm = (slug: string) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    const completed = yield* completedCountIfLimited(published)
    return { published, closed: closedReason(published.settings, completed, yield* now) }
  })

export const ensureOpen = (published: Pick<PublishedForm, "form" | "settings">) =>
  Effect.gen(function* () {
    const completed = yield* completedCountIfLimited(published)
    const reason = closedReason(published.settings, completed, yield* now)
    if (reason !== undefined)
      return yield* new FormClosed({ reason, closedMessage: published.settings.submission.closedMessage })
  })

export type { RespondentEstimate }

/** What the adapter knows of the browser: its continuity cookie, if any, and a client fingerprint. */
export interface RespondentClient {
  readonly continuityToken?: string | undefined
  /** IP address and user agent, as the adapter saw them; only a form-scoped hash of it is kept. */
  readonly fingerprint: string
  /** The respondent saw the repeat warning of a soft_block form and chose to answer again. */
  readonly confirmRepeat?: boolean | undefined
  /** The texts of the research consent items the respondent accepted on the page. */
  readonly consent?: ReadonlyArray<string> | undefined
}

/** Fingerprint matches count as "probable" for this long. */
export const FINGERPRINT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000
export const CONTINUITY_TOKEN = /^[A-Za-z0-9_-]{32}$/

export interface StartedResponse {
  readonly response: ResponseRecord
  /** Shown once: lets this respondent save and complete the response. */
  readonly token: string
  readonly presentation: PresentedOrder | null
  /** The browser's continuity token (new or the one it sent), for the form-scoped cookie. */
  readonly continuityToken: string
  readonly respondent: RespondentEstimate
  /** Set when the policy is `warn` and this browser already completed a response. */
  readonly repeatWarning: boolean
}

/** `respondentTracking: "anonymous"`: responses keep nothing that links them to a browser or network. */
export const isAnonymous = (settings: Pick<FormSettings, "submission">): boolean =>
  settings.submission.respondentTracking === "anonymous"

/**
 * Who is starting: the same browser (its continuity token matches earlier responses: deterministic),
 * the same IP and user agent within 30 days (probable), or nobody seen before (weak). An anonymous
 * form looks nobody up: every respondent is a first, weak one, and no fingerprint hash is kept.
 */
export const estimateRespondent = (
  published: Pick<PublishedForm, "form" | "settings">,
  client: RespondentClient,
  at: Date
) =>
  Effect.gen(function* () {
    const formId = published.form.id
    const given = client.continuityToken
    const known = given !== undefined && CONTINUITY_TOKEN.test(given)
    const continuityToken = known
      ? given
      : toBase64Url(yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.randomBytes(24)))
    const respondentKey = sha256Hex(`${formId}:${continuityToken}`)
    if (isAnonymous(published.settings)) {
      const respondent: RespondentEstimate = {
        id: respondentKey.slice(0, 8),
        confidence: "weak",
        responseCount: 1,
        repeatCount: 0
      }
      return { continuityToken, respondentKey, clientHash: null, respondent, anonymous: true }
    }
    const clientHash = sha256Hex(`${formId}:${client.fingerprint}`)
    const history = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.respondentHistory(published.form.workspaceId, formId, {
        respondentKey: known ? respondentKey : null,
        clientHash,
        since: new Date(at.getTime() - FINGERPRINT_WINDOW_MS)
      })
    )
    const [confidence, earlier] =
      known && history.byKey.total > 0
        ? (["deterministic", history.byKey] as const)
        : history.byClient.total > 0
          ? (["probable", history.byClient] as const)
          : (["weak", { total: 0, completed: 0 }] as const)
    const respondent: RespondentEstimate = {
      id: respondentKey.slice(0, 8),
      confidence,
      responseCount: earlier.total + 1,
      repeatCount: earlier.completed
    }
    return { continuityToken, respondentKey, clientHash, respondent, anonymous: false }
  })

/**
 * What every started response stores of its start, whatever its kind: the hash of its token, the
 * browser's form-scoped keys and estimate, and the URL parameters (at most 50, cut to size). An
 * anonymous response keeps only the browser key, so a reload resumes it, until it completes.
 */
export const startedMeta = (
  token: string,
  estimate: Effect.Success<ReturnType<typeof estimateRespondent>>,
  params: Readonly<Record<string, string>>
) => ({
  tokenHash: sha256Hex(token),
  respondentKey: estimate.respondentKey,
  ...(estimate.anonymous ? {} : { clientHash: estimate.clientHash, respondent: estimate.respondent }),
  params: Object.fromEntries(
    Object.entries(params)
      .slice(0, 50)
      .map(([k, v]) => [k.slice(0, 64), v.slice(0, 2000)])
  )
})

export const startResponse = (
  slug: string,
  params: Readonly<Record<string, string>>,
  client: RespondentClient = { fingerprint: "" }
): Effect.Effect<
  StartedResponse,
  PublishedFormNotFound | FormClosed | ConsentNotGiven | RepeatResponse | StorageError,
  Ports
> =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    yield* ensureOpen(published)
    const consent = yield* Effect.fromResult(acceptConsent(published.settings, client.consent, yield* now))
    const ids = yield* IdGen
    const responses = yield* ResponseRepository
    const token = toBase64Url(yield* ids.randomBytes(24))
    const estimate = yield* estimateRespondent(published, client, yield* now)
    const policy = published.settings.submission.repeatResponsePolicy
    const isRepeat = estimate.respondent.repeatCount > 0
    if (isRepeat && policy === "soft_block" && client.confirmRepeat !== true) {
      return yield* new RepeatResponse({ respondent: estimate.respondent })
    }
    let presentation: PresentedOrder | null = null
    if (hasRandomization(published.definition)) {
      // 1,024 random 32-bit draws, so shuffles of up to 100 items in several blocks do not reuse draws.
      const seed = yield* ids.randomBytes(4096)
      let draw = 0
      const randomInt = (n: number) => {
        const at = (draw++ % 1024) * 4
        const u32 =
          ((seed[at] ?? 0) << 24) |
          ((seed[at + 1] ?? 0) << 16) |
          ((seed[at + 2] ?? 0) << 8) |
          (seed[at + 3] ?? 0)
        return (u32 >>> 0) % n
      }
      const assignment = yield* responses.count(published.form.workspaceId, published.form.id)
      presentation = presentationOrder(published.definition, randomInt, assignment)
    }
    const at = yield* now
    const response: NewResponseRecord = {
      id: yield* ids.uuidV7,
      workspaceId: published.form.workspaceId,
      formId: published.form.id,
      formVersionId: published.version.id,
      status: "partial",
      answers: {},
      meta: {
        ...startedMeta(token, estimate, params),
        ...(consent === undefined ? {} : { consent }),
        ...(presentation === null
          ? {}
          : { presentation: { assignmentId: yield* ids.uuid, order: presentation } })
      },
      createdAt: at,
      updatedAt: at,
      completedAt: null
    }
    yield* responses.insert(response)
    return {
      response: { ...response, version: 1 },
      token,
      presentation,
      continuityToken: estimate.continuityToken,
      respondent: estimate.respondent,
      repeatWarning: isRepeat && policy === "warn"
    }
  })

export interface ResumedResponse {
  /** The partial response with the answers saved so far. */
  readonly response: ResponseRecord
  /** A fresh token, shown once; the response's earlier token no longer works. */
  readonly token: string
  readonly presentation: PresentedOrder | null
  /** The continuity token the browser sent, for re-setting the cookie. */
  readonly continuityToken: string
  /** The estimate stored when the response started. */
  readonly respondent: RespondentEstimate
}

const nothingToResume = () => new NothingToResume()

/**
 * This browser's unfinished response after a reload: the newest partial response to the form, on the
 * current published version, that its continuity token started. The page lost the response token, so
 * a fresh one is issued: rotating the stored hash is a compare-and-set on the partial row as read, so
 * it never lands on a response completed meanwhile (a lost rotation reads again; a completion that
 * won leaves nothing to resume), and a write still holding the old token is refused afterwards.
 */
export const resumeResponse = (
  slug: string,
  client: RespondentClient
): Effect.Effect<
  ResumedResponse,
  PublishedFormNotFound | FormClosed | NothingToResume | ResponseChangedMeanwhile | StorageError,
  Ports
> =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    // A form that allows editing also reopens this browser's completed response (see below).
    const resumed = yield* resumePartialResponse(published, client, {
      includeCompleted: published.settings.submission.allowResponseEditing === true
    })
    const stored = resumed.response.meta.presentation
    return {
      ...resumed,
      presentation: Schema.is(ResponsePresentation)(stored) ? stored.order : null
    }
  })

/**
 * The resume of any kind of form: this browser's newest partial response on the published version,
 * its token rotated by a compare-and-set (see resumeResponse). With `includeCompleted` (a form that
 * allows editing responses) the newest partial or completed one: a completed response comes back
 * still completed, with a fresh token its page edits it with.
 */
export const resumePartialResponse = (
  published: Pick<PublishedForm, "form" | "version" | "settings">,
  client: RespondentClient,
  options: { readonly includeCompleted?: boolean } = {}
): Effect.Effect<
  Omit<ResumedResponse, "presentation">,
  FormClosed | NothingToResume | ResponseChangedMeanwhile | StorageError,
  Ports
> =>
  Effect.gen(function* () {
    yield* ensureOpen(published)
    const continuityToken = client.continuityToken
    if (continuityToken === undefined || !CONTINUITY_TOKEN.test(continuityToken))
      return yield* nothingToResume()
    const respondentKey = sha256Hex(`${published.form.id}:${continuityToken}`)
    const ids = yield* IdGen
    const responses = yield* ResponseRepository
    const resumed = yield* retryOnStale(
      SAVE_ATTEMPTS,
      () =>
        Effect.gen(function* () {
          const found = yield* responses.findResumable(published.form.workspaceId, published.form.id, {
            formVersionId: published.version.id,
            respondentKey,
            includeCompleted: options.includeCompleted === true
          })
          if (Option.isNone(found)) return yield* nothingToResume()
          const current = found.value
          const token = toBase64Url(yield* ids.randomBytes(24))
          // Only the token changes: updatedAt stays the time of the last answer write.
          const next: ResponseRecord = {
            ...current,
            meta: { ...current.meta, tokenHash: sha256Hex(token) },
            version: current.version + 1
          }
          // The status is compared as read: a partial response completed meanwhile reads again.
          const outcome = yield* responses.update(next, { status: current.status, version: current.version })
          return outcome === "updated" ? Option.some({ response: next, token }) : Option.none()
        }),
      changedMeanwhile
    )
    const respondent = resumed.response.meta.respondent
    return {
      response: resumed.response,
      token: resumed.token,
      continuityToken,
      respondent: Schema.is(RespondentEstimateSchema)(respondent)
        ? respondent
        : // Every started response stores its estimate; a row without one reads as this browser's first.
          { id: respondentKey.slice(0, 8), confidence: "deterministic", responseCount: 1, repeatCount: 0 }
    }
  })

export const loadOwnResponse = (published: Pick<PublishedForm, "form">, responseId: string, token: string) =>
  Effect.gen(function* () {
    const found = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.get(published.form.workspaceId, published.form.id, responseId)
    )
    if (Option.isNone(found)) return yield* new ResponseNotFound()
    const hash = found.value.meta.tokenHash
    if (typeof hash !== "string" || !constantTimeEqual(hash, sha256Hex(token))) {
      return yield* new ResponseTokenMismatch()
    }
    return found.value
  })

/** The definition the response was pinned to (it may be older than the current version). */
export const pinnedDefinition = (published: PublishedForm, response: ResponseRecord) =>
  Effect.gen(function* () {
    if (response.formVersionId === published.version.id) return published.definition
    const version = yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.getVersion(published.form.workspaceId, published.form.id, response.formVersionId)
    )
    const documents = yield* StoredFormDocumentReader
    const decoded = Option.isSome(version)
      ? documents.version(version.value.id, version.value.definition)
      : null
    if (decoded === null) return yield* new PinnedVersionNotFound()
    return decoded
  })

/** The meta of a response as it completes: an anonymous form's loses the browser key it resumed by. */
export const completedMeta = (
  settings: Pick<FormSettings, "submission">,
  meta: ResponseRecord["meta"]
): ResponseRecord["meta"] => {
  if (!isAnonymous(settings)) return meta
  const { respondentKey: _key, ...rest } = meta
  return rest
}

/** Tries of one save or completion that keeps losing to concurrent saves of a partial response. */
export const SAVE_ATTEMPTS = 5

const changedMeanwhile = () => new ResponseChangedMeanwhile()

/**
 * One compare-and-set write of a save or completion over the response as read: `stale` when another
 * write reached the row first. A completion also takes its place under maxResponses atomically.
 */
const writeAnswers = (
  published: PublishedForm,
  current: ResponseRecord,
  answers: unknown,
  complete: boolean
) =>
  Effect.gen(function* () {
    if (current.status === "completed" && published.settings.submission.allowResponseEditing !== true) {
      return yield* new ResponseNotEditable()
    }
    if (current.status !== "completed") yield* ensureOpen(published)
    const definition = yield* pinnedDefinition(published, current)
    const params = (current.meta.params ?? {}) as Record<string, string>
    // Earlier answers carry forward; server-set values (hidden and calculated fields) are recomputed.
    const serverSet = new Set(
      definition.blocks
        .filter((b) => b.type === "hidden_field" || b.type === "calculated_field")
        .map((b) => b.id)
    )
    const earlier = Object.fromEntries(Object.entries(current.answers).filter(([id]) => !serverSet.has(id)))
    const isObject = typeof answers === "object" && answers !== null && !Array.isArray(answers)
    const input = isObject ? { ...earlier, ...answers } : answers
    const hasUploads = definition.blocks.some((b) => b.type === "file_upload")
    const files = hasUploads
      ? yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
          r.listFiles(current.workspaceId, current.formId, [current.id])
        )
      : []
    const uploads = new Map<string, Set<string>>()
    for (const f of files) uploads.set(f.blockId, (uploads.get(f.blockId) ?? new Set()).add(f.key))
    const completed = complete || current.status === "completed"
    const valid = yield* Effect.fromResult(
      validateAnswers(definition, input, { final: completed, params, uploads })
    )
    const at = yield* now
    const next: ResponseRecord = {
      ...current,
      status: completed ? "completed" : "partial",
      answers: valid,
      meta: completed
        ? completedMeta(published.settings, scoredMeta(current.meta, definition, valid))
        : current.meta,
      updatedAt: at,
      completedAt: current.completedAt ?? (complete ? at : null),
      version: current.version + 1
    }
    // A completion queues its e-mails in its own write: sent once it commits, never lost if it does.
    const planned =
      complete && current.status !== "completed"
        ? plannedNotifications(published.settings, definition, valid)
        : []
    const mailer = planned.length === 0 ? null : yield* Mailer
    const jobs =
      mailer === null
        ? []
        : yield* Effect.forEach(planned, (p) =>
            Effect.map(
              Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuidV7),
              (jobId) => notificationJob(next, p, jobId, at)
            )
          )
    const outcome = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.update(
        next,
        {
          status: current.status,
          version: current.version,
          maxCompleted: published.settings.submission.maxResponses
        },
        jobs.length === 0 ? undefined : { enqueue: jobs }
      )
    )
    if (outcome === "full") {
      return yield* new FormClosed({
        reason: "max_responses",
        closedMessage: published.settings.submission.closedMessage
      })
    }
    if (outcome === "stale") return Option.none<ResponseRecord>()
    yield* Effect.forEach(jobs, (job) => announceJob(job.id), { discard: true })
    // No mail transport: each e-mail this completion asked for is logged once, never its address.
    if (mailer === null) yield* logUnsentNotifications(next, planned)
    return Option.some(next)
  })

/** What a completion (or an edit of a completed response) stores beside the answers. */
const scoredMeta = (
  meta: ResponseRecord["meta"],
  definition: FormDefinition,
  answers: Answers
): ResponseRecord["meta"] => {
  const { quality: _earlier, ...rest } = meta
  const quality = responseQualityOf(definition, answers)
  return {
    ...rest,
    scores: scoreResponse(definition, answers),
    ...(quality === undefined ? {} : { quality })
  }
}

/**
 * A save (`complete` false) or a completion. Every write is a compare-and-set on the response's
 * status and version, so a completed response never goes back to partial and of parallel
 * completions exactly one wins. A request that lost to another write reads the response again and
 * retries (at most SAVE_ATTEMPTS tries) only while the response is still partial, i.e. it lost to a
 * save: its answers then go over that save's. Once another request completed the response, and for
 * edits of a completed response, losing is a 409 conflict: a write never crosses a completion.
 */
export const saveAnswers = (
  slug: string,
  responseId: string,
  token: string,
  answers: unknown,
  complete: boolean
): Effect.Effect<
  ResponseRecord,
  | PublishedFormNotFound
  | ResponseNotFound
  | ResponseTokenMismatch
  | PinnedVersionNotFound
  | ResponseNotEditable
  | ResponseCompletedMeanwhile
  | ResponseChangedMeanwhile
  | AnswersNotAnObject
  | InvalidAnswers
  | FormClosed
  | StorageError,
  CompletionPorts
> =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    return yield* retryOnStale(
      SAVE_ATTEMPTS,
      (attempt) =>
        Effect.gen(function* () {
          const current = yield* loadOwnResponse(published, responseId, token)
          if (attempt > 0 && current.status === "completed") return yield* new ResponseCompletedMeanwhile()
          const written = yield* writeAnswers(published, current, answers, complete)
          // An edit of a completed response that lost is not retried.
          if (Option.isNone(written) && current.status === "completed") return yield* changedMeanwhile()
          return written
        }),
      changedMeanwhile
    )
  })
