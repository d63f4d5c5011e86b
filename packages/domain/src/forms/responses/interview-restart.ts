// Starting over (experience.allowRestart): the respondent leaves the interview they are in and a new
// one starts from the greeting. The old response is not written at all: it stays partial, as any
// interview left midway does, and the new one records which response it replaced (`meta.restartOf`).
import { Effect, Option } from "effect"
import { InterviewFinished, InterviewRestartNotAllowed } from "../errors.js"
import { consentOf } from "./consent.js"
import { loadOwnResponse, type RespondentClient } from "./respondent.js"
import { liveInterviewOf } from "./interview-record.js"
import { interviewLocale, loadPublishedInterview, startInterview } from "./interview-use-cases.js"

const paramsOf = (meta: Readonly<Record<string, unknown>>): Record<string, string> => {
  const stored = meta.params
  if (typeof stored !== "object" || stored === null) return {}
  return Object.fromEntries(
    Object.entries(stored).filter((e): e is [string, string] => typeof e[1] === "string")
  )
}

/**
 * A new interview for the holder of `responseId`'s token, refused when the current definition does
 * not offer restarts or the interview already ended (a finished interview is not started over: that
 * would be a repeat response, which the form's policy governs).
 *
 * The restart is not refused by a `soft_block` repeat policy: the token proves this browser holds an
 * unfinished interview of this form, which passed the repeat policy (with the respondent's
 * confirmation where it asked for one) when it started, and leaving it adds no completed response.
 * What the respondent accepted then (consent items, the disclosure) and the URL parameters carry
 * over, checked again against the current settings and definition, so a restart never skips terms
 * that changed since.
 */
export const restartInterview = (
  slug: string,
  responseId: string,
  token: string,
  client: Omit<RespondentClient, "confirmRepeat" | "consent">
) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedInterview(slug)
    if (published.definition.experience?.allowRestart !== true) return yield* new InterviewRestartNotAllowed()
    const old = yield* loadOwnResponse(published, responseId, token)
    if (old.status === "completed") return yield* new InterviewFinished()
    const def = published.definition
    const disclosure = old.meta.disclosure
    const acceptedVersion =
      typeof disclosure === "object" && disclosure !== null && "version" in disclosure
        ? disclosure.version
        : undefined
    const locale = Option.match(liveInterviewOf(old), {
      onNone: () => def.locales.default,
      onSome: (live) => live.locale
    })
    return yield* startInterview(
      slug,
      paramsOf(old.meta),
      { ...client, confirmRepeat: true, consent: consentOf(old.meta)?.items ?? [] },
      {
        locale: interviewLocale(def, locale),
        acceptDisclosure: def.disclosure !== undefined && acceptedVersion === def.disclosure.version,
        restartOf: old.id
      }
    )
  })
