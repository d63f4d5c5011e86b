// Handlers of the public respondent routes.
import {
  encodeFormDefinition,
  type FormSettings,
  interviewBackgroundOf,
  type InterviewDefinition,
  InterviewRespondent,
  interviewLocale,
  interviewThemeOf,
  liveProfileEnabled,
  interviewTitle,
  type InterviewTurnResult,
  localizedText,
  MAX_INTERVIEW_MESSAGE_CHARACTERS,
  publicSettings,
  quizResultsOf,
  Respondent,
  type ResponseRecord,
  withdrawalLinkFor
} from "@folio/domain"
import { BlobSigningSecret } from "../../blobs/Http.js"
import { Effect, Stream } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { RequestInvalid } from "../../shared/index.js"
import { FormsApi } from "../Api.js"
import { data } from "../envelope.js"
import { requireEmptyBody } from "../empty-body.js"
import { FormsErrors } from "../errors.js"
import { acceptedLanguage, requestedLocale, respondentClient, setContinuityCookie } from "./continuity.js"

/** What a save or a completion answers the respondent: never scales or quality traps, only quizzes. */
const view = (r: ResponseRecord) => {
  const quizzes = r.status === "completed" ? quizResultsOf(r.meta) : []
  return {
    responseId: r.id,
    status: r.status,
    answers: r.answers,
    completedAt: r.completedAt,
    ...(quizzes.length === 0 ? {} : { quizzes })
  }
}

/** `{ withdrawalPath }` for a response of a form offering withdrawal, else nothing. */
const withdrawalOf = (
  secret: string,
  slug: string,
  settings: FormSettings | undefined,
  r: Pick<ResponseRecord, "id" | "formId">
): { readonly withdrawalPath?: string } => {
  const path =
    settings === undefined ? undefined : withdrawalLinkFor(secret, { id: r.formId, slug }, settings, r.id)
  return path === undefined ? {} : { withdrawalPath: path }
}

/** Why a published form takes no responses now, with the author's message, or null. */
const closedView = (reason: string | undefined, settings: FormSettings) =>
  reason === undefined ? null : { reason, message: settings.submission.closedMessage ?? null }

/** The experience settings as the page applies them (a legacy unknown theme as the default). */
const publicExperience = (def: InterviewDefinition) => {
  const background = interviewBackgroundOf(def)
  return {
    theme: interviewThemeOf(def) ?? null,
    backgroundImageUrl: background?.url ?? null,
    backgroundScrim: background?.scrim ?? null,
    liveProfile: liveProfileEnabled(def),
    allowRestart: def.experience?.allowRestart === true
  }
}

const turnView = (t: InterviewTurnResult) => ({
  responseId: t.response.id,
  formVersionId: t.response.formVersionId,
  locale: t.locale,
  messages: t.messages,
  done: t.done,
  completionReason: t.completionReason,
  progress: t.progress,
  ...(t.profile === undefined ? {} : { profile: t.profile })
})

/** The client asked for the reply as server-sent events. */
const wantsEvents = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers.accept ?? "").includes("text/event-stream")

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/** Pieces of a reply a few words long, so a client can show it as it arrives. */
export const replyPieces = (text: string): ReadonlyArray<string> => text.match(/\S+\s*|\s+/gu) ?? []

const encoder = new TextEncoder()

/**
 * A message's answer as server-sent events: the respondent's message, the reply's text in pieces,
 * then the whole turn. The reply is only streamed once the domain's rules have checked it (a turn
 * they replace must never have been shown), so errors still come back as plain error responses.
 */
const eventStream = (t: InterviewTurnResult, extra: { readonly withdrawalPath?: string }) => {
  const [user, reply] = [
    t.messages.find((m) => m.role === "user"),
    t.messages.findLast((m) => m.role === "assistant")
  ]
  const events = [
    ...(user === undefined ? [] : [sse("message", user)]),
    ...(reply === undefined
      ? []
      : replyPieces(reply.text).map((text) => sse("delta", { id: reply.id, text }))),
    sse("done", data({ ...turnView(t), ...extra }))
  ]
  return HttpServerResponse.stream(Stream.fromIterable(events.map((e) => encoder.encode(e))), {
    contentType: "text/event-stream; charset=utf-8",
    headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
  })
}

export const RespondentLive = HttpApiBuilder.group(FormsApi, "respondent", (handlers) =>
  Effect.map(
    Effect.all([
      Effect.service(Respondent),
      Effect.service(InterviewRespondent),
      Effect.service(BlobSigningSecret)
    ]),
    ([respondent, interviews, secret]) => {
      /** A finished interview's withdrawal link, when its form offers withdrawal. */
      const interviewWithdrawal = (slug: string, t: InterviewTurnResult) =>
        t.done
          ? interviews.publicInterview(slug).pipe(
              Effect.map((found) => withdrawalOf(secret, slug, found.published.settings, t.response)),
              Effect.orElseSucceed(() => ({}))
            )
          : Effect.succeed({})
      return handlers
        .handle("form", ({ params }) =>
          Effect.gen(function* () {
            const { published, closed: reason } = yield* respondent.publicForm(params.slug)
            return data({
              formId: published.form.id,
              formVersionId: published.version.id,
              version: published.version.version,
              title: published.form.title,
              definition: encodeFormDefinition(published.definition),
              settings: publicSettings(published.settings),
              closed: closedView(reason, published.settings)
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("start", ({ params, payload }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const started = yield* respondent.start(params.slug, payload.params ?? {}, {
              ...respondentClient(request, payload.confirmRepeat),
              consent: payload.consent
            })
            yield* setContinuityCookie(started.continuityToken)
            return data({
              responseId: started.response.id,
              formVersionId: started.response.formVersionId,
              token: started.token,
              presentation: started.presentation,
              respondent: started.respondent,
              repeatWarning: started.repeatWarning
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("resume", ({ params }) =>
          Effect.gen(function* () {
            yield* requireEmptyBody
            const request = yield* HttpServerRequest.HttpServerRequest
            const resumed = yield* respondent.resume(params.slug, respondentClient(request))
            yield* setContinuityCookie(resumed.continuityToken)
            return data({
              responseId: resumed.response.id,
              formVersionId: resumed.response.formVersionId,
              token: resumed.token,
              presentation: resumed.presentation,
              respondent: resumed.respondent,
              repeatWarning: false,
              status: resumed.response.status,
              answers: resumed.response.answers
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("upload", ({ params, query, headers }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const body = yield* request.arrayBuffer.pipe(
              Effect.mapError(() => new RequestInvalid({ message: "the request body could not be read" }))
            )
            const file = yield* respondent.uploadFile(
              params.slug,
              params.responseId,
              headers["x-response-token"],
              {
                blockId: query.blockId,
                filename: query.filename ?? "upload",
                claimedType: request.headers["content-type"] ?? "",
                bytes: new Uint8Array(body)
              }
            )
            return data({
              key: file.key,
              id: file.id,
              filename: file.filename,
              contentType: file.contentType,
              size: file.size
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("save", ({ params, payload }) =>
          Effect.map(
            respondent.save(params.slug, params.responseId, payload.token, payload.answers, false),
            (r) => data(view(r))
          ).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("complete", ({ params, payload }) =>
          Effect.gen(function* () {
            const r = yield* respondent.save(
              params.slug,
              params.responseId,
              payload.token,
              payload.answers ?? {},
              true
            )
            const settings = yield* respondent.publicForm(params.slug).pipe(
              Effect.map((found) => found.published.settings),
              Effect.orElseSucceed(() => undefined)
            )
            return data({ ...view(r), ...withdrawalOf(secret, params.slug, settings, r) })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("interview", ({ params }) =>
          Effect.gen(function* () {
            const { published, closed: reason } = yield* interviews.publicInterview(params.slug)
            const def = published.definition
            const request = yield* HttpServerRequest.HttpServerRequest
            const locale = interviewLocale(def, requestedLocale(request))
            const text = (map: Readonly<Record<string, string>> | undefined) =>
              localizedText(def, map, locale) ?? null
            return data({
              formId: published.form.id,
              formVersionId: published.version.id,
              version: published.version.version,
              title: interviewTitle(published),
              locale,
              locales: def.locales.supported,
              interviewer: def.persona?.name ?? null,
              disclosure:
                def.disclosure === undefined
                  ? null
                  : {
                      version: def.disclosure.version,
                      required: def.disclosure.required,
                      purpose: text(def.disclosure.purposeTextByLocale),
                      retention: text(def.disclosure.retentionTextByLocale)
                    },
              maxExchanges: def.policy.maxExchanges,
              maxMessageLength: MAX_INTERVIEW_MESSAGE_CHARACTERS,
              closed: closedView(reason, published.settings),
              researchCompliance: publicSettings(published.settings).researchCompliance ?? null,
              experience: publicExperience(def)
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("startInterview", ({ params, payload }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const started = yield* interviews.start(
              params.slug,
              payload.params ?? {},
              { ...respondentClient(request, payload.confirmRepeat), consent: payload.consent },
              {
                locale: payload.locale ?? acceptedLanguage(request),
                acceptDisclosure: payload.acceptDisclosure
              }
            )
            yield* setContinuityCookie(started.continuityToken)
            return data({
              ...turnView(started),
              token: started.token,
              respondent: started.respondent,
              repeatWarning: started.repeatWarning
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("resumeInterview", ({ params }) =>
          Effect.gen(function* () {
            yield* requireEmptyBody
            const request = yield* HttpServerRequest.HttpServerRequest
            const resumed = yield* interviews.resume(params.slug, respondentClient(request))
            yield* setContinuityCookie(resumed.continuityToken)
            return data({
              ...turnView(resumed),
              token: resumed.token,
              respondent: resumed.respondent,
              repeatWarning: false
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("restartInterview", ({ params, payload }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const started = yield* interviews.restart(
              params.slug,
              params.responseId,
              payload.token,
              respondentClient(request)
            )
            yield* setContinuityCookie(started.continuityToken)
            return data({
              ...turnView(started),
              token: started.token,
              respondent: started.respondent,
              repeatWarning: started.repeatWarning
            })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("interviewMessage", ({ params, payload }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const turn = yield* interviews.send(params.slug, params.responseId, payload.token, payload.text)
            const extra = yield* interviewWithdrawal(params.slug, turn)
            return wantsEvents(request) ? eventStream(turn, extra) : data({ ...turnView(turn), ...extra })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
        .handle("finishInterview", ({ params, payload }) =>
          Effect.gen(function* () {
            const turn = yield* interviews.finish(params.slug, params.responseId, payload.token)
            return data({ ...turnView(turn), ...(yield* interviewWithdrawal(params.slug, turn)) })
          }).pipe(Effect.catch(FormsErrors.fail))
        )
    }
  )
)
