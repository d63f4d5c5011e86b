// An interview without JavaScript: the chat page's plain forms post to POST /f/{slug} (`_action`
// start, message or finish), and each answer is the page again with the conversation rendered by
// the server. The same use cases as the JSON routes do the work; a refusal comes back as the page
// with a notice in the respondent's words, and what they typed kept.
import {
  interviewChatOf,
  InterviewRespondent,
  type InterviewTurnResult,
  interviewLocale,
  MAX_CONSENT_ITEMS,
  type PublishedInterview
} from "@folio/domain"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { acceptedLanguage, respondentClient, setContinuityCookie } from "../respondent/continuity.js"
import type { InterviewPageState } from "./interview-page.js"
import { stringsFor } from "./page.js"
import { readFormBody, unstorable } from "./submit.js"
import { CONSENT_FIELD } from "./study.js"

/** What the route renders for an interview post. */
export type InterviewPostOutcome =
  | { readonly _tag: "Closed"; readonly published: PublishedInterview }
  | {
      readonly _tag: "Page"
      readonly published: PublishedInterview
      readonly locale: string
      readonly status: number
      readonly state?: InterviewPageState | undefined
      readonly notice?: string | undefined
      readonly confirmRepeat?: boolean
      readonly params?: ReadonlyArray<readonly [string, string]>
      readonly consentError?: boolean
    }

const stateOf = (turn: InterviewTurnResult, token: string, text?: string): InterviewPageState => ({
  responseId: turn.response.id,
  token,
  messages: turn.messages,
  done: turn.done,
  profile: turn.profile,
  ...(text === undefined ? {} : { text })
})

/**
 * The post's outcome, or undefined when no published interview lives at `slug` (the caller answers
 * its 404). The respondent budget was spent by the caller.
 */
export const interviewPost = (slug: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const interviews = yield* InterviewRespondent
    const found = yield* Effect.result(interviews.publicInterview(slug))
    if (found._tag === "Failure") return undefined
    const { published, closed } = found.success
    if (closed !== undefined) return { _tag: "Closed", published } as const
    const body = yield* readFormBody(request, new Set())
    const field = (name: string) => body.fields.find(([n]) => n === name)?.[1]
    const locale = interviewLocale(published.definition, field("_locale") ?? acceptedLanguage(request))
    const strings = stringsFor(locale)
    const page = (
      status: number,
      rest: Omit<Extract<InterviewPostOutcome, { _tag: "Page" }>, "_tag" | "published" | "locale" | "status">
    ) => ({ _tag: "Page", published, locale, status, ...rest }) as const
    if (unstorable(body.fields).length > 0) return page(400, { notice: strings.sendFailed })
    const action = field("_action")
    const responseId = field("_response") ?? ""
    const token = field("_token") ?? ""

    if (action === "start") {
      const params = body.fields.flatMap(([n, v]) =>
        n.startsWith("_param.") ? [[n.slice(7), v] as const] : []
      )
      const confirmRepeat = field("_confirmRepeat") === "1"
      const started = yield* Effect.result(
        interviews.start(
          slug,
          Object.fromEntries(params),
          {
            ...respondentClient(request, confirmRepeat),
            consent: body.fields
              .flatMap(([n, v]) => (n === CONSENT_FIELD ? [v] : []))
              .slice(0, MAX_CONSENT_ITEMS)
          },
          { locale, acceptDisclosure: field("acceptDisclosure") === "1" }
        )
      )
      if (started._tag === "Success") {
        yield* setContinuityCookie(started.success.continuityToken)
        return page(200, { state: stateOf(started.success, started.success.token) })
      }
      const e = started.failure
      switch (e._tag) {
        case "DisclosureNotAccepted":
          return page(409, { notice: strings.agreeFirst, params })
        case "ConsentNotGiven":
          return page(422, { notice: strings.consentRequired, params, consentError: true })
        case "RepeatResponse":
          return page(409, { notice: strings.repeatConfirm, confirmRepeat: true, params })
        case "FormClosed":
          return { _tag: "Closed", published } as const
        default:
          return page(503, { notice: strings.startFailed, params })
      }
    }

    if (action === "restart") {
      const restarted = yield* Effect.result(
        interviews.restart(slug, responseId, token, respondentClient(request))
      )
      if (restarted._tag === "Success") {
        yield* setContinuityCookie(restarted.success.continuityToken)
        return page(200, {
          state: stateOf(restarted.success, restarted.success.token),
          notice: strings.restarted
        })
      }
      const e = restarted.failure
      switch (e._tag) {
        case "FormClosed":
          return { _tag: "Closed", published } as const
        // The terms changed since the interview being left started: the intro asks for them again.
        case "DisclosureNotAccepted":
          return page(409, { notice: strings.agreeFirst })
        case "ConsentNotGiven":
          return page(422, { notice: strings.consentRequired, consentError: true })
        default: {
          const notice =
            e._tag === "InterviewRestartNotAllowed"
              ? strings.restartNotOffered
              : e._tag === "InterviewFinished"
                ? strings.interviewEnded
                : strings.restartFailed
          const state = yield* interviews.own(slug, responseId, token).pipe(
            Effect.map((turn) => stateOf(turn, token)),
            Effect.orElseSucceed(() => undefined)
          )
          const status =
            e._tag === "InterviewRestartNotAllowed" || e._tag === "InterviewFinished"
              ? 409
              : e._tag === "ResponseTokenMismatch"
                ? 403
                : e._tag === "ResponseNotFound"
                  ? 404
                  : 503
          return page(status, { notice, state })
        }
      }
    }

    // A message or a finish: the conversation by its token, shown again whatever happens.
    const current = () =>
      interviews.own(slug, responseId, token).pipe(
        Effect.map((turn) => stateOf(turn, token)),
        Effect.orElseSucceed(() => undefined)
      )
    const text = field("text") ?? ""
    const write: Effect.Effect<
      InterviewTurnResult,
      Effect.Error<ReturnType<typeof interviews.send>> | Effect.Error<ReturnType<typeof interviews.finish>>
    > =
      action === "finish"
        ? interviews.finish(slug, responseId, token)
        : interviews.send(slug, responseId, token, text)
    const written = yield* Effect.result(write)
    if (written._tag === "Success") {
      // The written response holds the whole conversation: no second read.
      const turn = written.success
      return page(200, { state: stateOf({ ...turn, messages: interviewChatOf(turn.response) }, token) })
    }
    const e = written.failure
    const notice =
      e._tag === "InterviewMessageInvalid"
        ? strings.typeFirst
        : e._tag === "InterviewNotStarted"
          ? strings.nothingAnswered
          : e._tag === "InterviewFinished"
            ? strings.interviewEnded
            : e._tag === "InterviewExpired"
              ? strings.interviewExpired
              : e._tag === "FormClosed"
                ? undefined
                : action === "finish"
                  ? strings.finishFailed
                  : strings.sendFailed
    if (e._tag === "FormClosed") return { _tag: "Closed", published } as const
    const state = e._tag === "InterviewExpired" ? undefined : yield* current()
    return page(e._tag === "InterviewMessageInvalid" ? 422 : 409, {
      notice,
      state: state === undefined ? undefined : { ...state, ...(state.done ? {} : { text }) }
    })
  })
