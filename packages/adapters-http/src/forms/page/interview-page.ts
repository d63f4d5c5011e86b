// The interview chat page of /f/{slug}: the intro (interviewer, disclosure, consent, Start), the
// conversation as a live log with its composer, and the done screen. The script (client/interview.ts)
// talks to the /f/{slug}/interview routes; without JavaScript the page says it needs it.
import {
  interviewTitle,
  type InterviewChatMessage,
  type InterviewDefinition,
  type InterviewProfileItem,
  liveProfileEnabled,
  localizedText,
  MAX_INTERVIEW_MESSAGE_CHARACTERS,
  type PublishedInterview
} from "@folio/domain"
import { type Html, html, jsonScript } from "../../shared/index.js"
import { brandOf, completionScreen, type PageAssets, shell, stringsFor } from "./page.js"
import { experienceStyle, profilePanel, restartButton, restartForm } from "./interview-experience.js"
import { fill } from "./strings.js"
import { studySection } from "./study.js"

export interface InterviewPageInput {
  readonly slug: string
  readonly published: PublishedInterview
  /** One of the interview's locales: the page's words and the interview's language. */
  readonly locale: string
  readonly nonce: string
  readonly assets: PageAssets
  readonly imageUrl: (key: string) => string
  /** The browser sent a continuity cookie, so it may have an unfinished interview to resume. */
  readonly mayResume: boolean
  /** URL parameters, carried by the JavaScript-off start form. */
  readonly params?: ReadonlyArray<readonly [string, string]>
  /** The conversation so far, rendered by the server: the page answering a JavaScript-off post. */
  readonly state?: InterviewPageState | undefined
  /** Why the last JavaScript-off post was refused, in the respondent's words. */
  readonly notice?: string | undefined
  /** The JavaScript-off start repeats with the respondent's confirmation (soft_block policy). */
  readonly confirmRepeat?: boolean
  /** The last JavaScript-off start did not accept every consent item. */
  readonly consentError?: boolean | undefined
  /** A finished interview's withdrawal link path (a JavaScript-off finish). */
  readonly withdrawalPath?: string | undefined
}

/** The interview as the server renders it for a browser without JavaScript. */
export interface InterviewPageState {
  readonly responseId: string
  readonly token: string
  readonly messages: ReadonlyArray<InterviewChatMessage>
  readonly done: boolean
  /** What has been understood so far (absent when the definition turns the live profile off). */
  readonly profile?: ReadonlyArray<InterviewProfileItem> | undefined
  /** The message a refused post carried, kept in the box. */
  readonly text?: string | undefined
}

/**
 * The conversation and its composer without JavaScript: each message and the Finish button post
 * the page, which comes back with the reply. The token travels in a hidden field, as the classic
 * page's refused post does.
 */
const staticChat = (
  input: InterviewPageInput,
  state: InterviewPageState,
  who: (m: InterviewChatMessage) => string
) => {
  const strings = stringsFor(input.locale)
  const messages = html`<ol id="transcript" class="transcript" role="log" aria-labelledby="chat-title">${state.messages.map((m) => html`<li role="none" class="msg msg-${m.role}"><span class="sr-only">${who(m)}: </span><p class="msg-text">${m.text}</p></li>`)}</ol>`
  const experience = input.published.definition.experience
  const profile = state.profile === undefined ? "" : profilePanel(strings, state.profile)
  const restart =
    state.done || experience?.allowRestart !== true
      ? ""
      : restartForm(input.slug, input.locale, strings, state)
  const composer = state.done
    ? ""
    : html`<form id="composer" class="composer" method="post" action="/f/${input.slug}"><input type="hidden" name="_response" value="${state.responseId}"><input type="hidden" name="_token" value="${state.token}"><input type="hidden" name="_locale" value="${input.locale}"><label for="message" class="composer-label">${strings.yourAnswer}</label><textarea id="message" name="text" rows="3" maxlength="${MAX_INTERVIEW_MESSAGE_CHARACTERS}" required autocomplete="off">${state.text ?? ""}</textarea><div class="composer-actions"><button type="submit" name="_action" value="message" class="button primary send">${strings.send}</button><button type="submit" name="_action" value="finish" formnovalidate class="button secondary finish">${strings.finish}</button></div></form>`
  return html`<section id="chat" class="chat" aria-labelledby="chat-title"><h2 id="chat-title" class="sr-only">${strings.conversation}</h2>${profile}${messages}${composer}${restart}</section>`
}

/** The start without JavaScript: a plain form, shown only when scripts do not run. */
const noScriptStart = (
  input: InterviewPageInput,
  disclosure: ReturnType<typeof disclosureOf>,
  buttonLabel: string | undefined
) => {
  const strings = stringsFor(input.locale)
  return html`<noscript><form id="nojs-start" class="nojs-start" method="post" action="/f/${input.slug}"><input type="hidden" name="_action" value="start"><input type="hidden" name="_locale" value="${input.locale}">${(input.params ?? []).map(([k, v]) => html`<input type="hidden" name="_param.${k}" value="${v}">`)}${input.confirmRepeat === true ? html`<input type="hidden" name="_confirmRepeat" value="1">` : ""}${disclosure === undefined ? "" : html`<p class="agree"><input type="checkbox" id="agree-nojs" name="acceptDisclosure" value="1"${disclosure.required ? html` required` : ""}> <label for="agree-nojs">${strings.agreeDisclosure}</label></p>`}<p><button type="submit" class="button primary start">${input.confirmRepeat === true ? strings.answerAgain : (buttonLabel ?? strings.interviewStart)}</button></p></form></noscript>`
}

const disclosureOf = (def: InterviewDefinition, locale: string) => {
  const d = def.disclosure
  if (d === undefined) return undefined
  return {
    required: d.required,
    purpose: localizedText(def, d.purposeTextByLocale, locale),
    retention: localizedText(def, d.retentionTextByLocale, locale)
  }
}

export const renderInterviewPage = (input: InterviewPageInput): Html => {
  const { published, locale, nonce, assets, slug } = input
  const def = published.definition
  const settings = published.settings
  const strings = stringsFor(locale)
  const title = interviewTitle(published)
  const persona = def.persona?.name?.trim() || undefined
  const disclosure = disclosureOf(def, locale)
  const showProgress = def.experience?.progress !== false
  const reduceMotion = settings.theme.reduceMotion === true || def.experience?.motion === "reduced"
  const liveProfile = liveProfileEnabled(def)
  const allowRestart = def.experience?.allowRestart === true
  const data = {
    slug,
    locale,
    mayResume: input.mayResume,
    reduceMotion,
    liveProfile,
    allowRestart,
    disclosureRequired: disclosure?.required === true,
    interviewer: persona ?? null,
    maxMessageLength: MAX_INTERVIEW_MESSAGE_CHARACTERS,
    redirectUrl: settings.completion?.redirectUrl ?? null,
    strings
  }
  // With a continuity cookie the script first asks to resume: the intro waits hidden meanwhile
  // (only where scripts run: without them the intro's plain form is the way in).
  const intro = html`<section id="intro" class="intro interview-intro${input.mayResume ? " await-resume" : ""}" aria-labelledby="intro-title"><h2 id="intro-title">${settings.intro?.title ?? (persona === undefined ? strings.interviewTitle : fill(strings.interviewWith, { name: persona }))}</h2><p class="intro-body">${settings.intro?.body ?? strings.interviewBody}</p>${
    disclosure === undefined
      ? ""
      : html`<dl class="consent disclosure">${disclosure.purpose === undefined ? "" : html`<dt>${strings.purpose}</dt><dd>${disclosure.purpose}</dd>`}${disclosure.retention === undefined ? "" : html`<dt>${strings.retention}</dt><dd>${disclosure.retention}</dd>`}</dl><p class="agree js-only"><input type="checkbox" id="agree"${disclosure.required ? html` required aria-required="true"` : ""}> <label for="agree">${strings.agreeDisclosure}${disclosure.required ? html` <span class="req">(${strings.required})</span>` : ""}</label></p>`
  }${studySection(settings, strings, { form: "nojs-start", error: input.consentError, gate: false })}<p class="js-only"><button type="button" id="start" class="button primary start">${settings.intro?.buttonLabel ?? strings.interviewStart}</button></p>${noScriptStart(input, disclosure, settings.intro?.buttonLabel)}</section>`
  const who = (m: InterviewChatMessage) =>
    m.role === "user" ? strings.you : (persona ?? strings.interviewer)
  const state = input.state
  const chat =
    state !== undefined
      ? staticChat(input, state, who)
      : html`<section id="chat" class="chat" aria-labelledby="chat-title" hidden><h2 id="chat-title" class="sr-only">${strings.conversation}</h2>${liveProfile ? profilePanel(strings, []) : ""}<ol id="transcript" class="transcript" role="log" aria-live="polite" aria-labelledby="chat-title"></ol><p id="typing" class="typing" aria-hidden="true" hidden><span class="dots"><i></i><i></i><i></i></span> ${persona ?? strings.interviewer}: ${strings.typing}</p><form id="composer" class="composer" novalidate><label for="message" class="composer-label">${strings.yourAnswer}</label><textarea id="message" name="text" rows="3" maxlength="${MAX_INTERVIEW_MESSAGE_CHARACTERS}" aria-describedby="composer-hint" autocomplete="off"></textarea><p id="composer-hint" class="q-hint">${strings.composerHint}</p><div class="composer-actions"><button type="submit" id="send" class="button primary send">${strings.send}</button><button type="button" id="finish" class="button secondary finish">${strings.finish}</button></div></form>${allowRestart ? restartButton(strings) : ""}</section>`
  const progress = showProgress
    ? html`<div id="progress" class="progress interview-progress" hidden><div class="progress-bar" role="progressbar" aria-label="${strings.interviewProgress}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><span></span></div></div>`
    : ""
  const notice =
    input.notice === undefined ? "" : html`<div class="banner warn" role="alert"><p>${input.notice}</p></div>`
  // A page rendered for a post (no JavaScript) shows the conversation itself and runs no script.
  const main = html`${brandOf(settings, input.imageUrl)}<h1 class="form-title">${title}</h1>${state === undefined ? progress : ""}<div id="banner" class="banners" role="status" aria-live="polite">${notice}</div>${state === undefined ? intro : ""}${chat}${completionScreen(slug, settings, strings, state?.done === true, { withdrawal: input.withdrawalPath })}`
  const tail =
    state === undefined
      ? html`<script type="application/json" id="folio-data">${jsonScript(data)}</script><script type="module" src="${assets.interviewScript}" nonce="${nonce}"></script>`
      : ""
  return shell(
    {
      nonce,
      assets,
      locale,
      title,
      settings,
      mode: "interview",
      pageClass: "interview-page",
      head: experienceStyle(def, nonce, reduceMotion)
    },
    main,
    tail
  )
}
