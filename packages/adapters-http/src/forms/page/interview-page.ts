// The interview chat page of /f/{slug}: the intro (interviewer, disclosure, consent, Start), the
// conversation as a live log with its composer, and the done screen. The script (client/interview.ts)
// talks to the /f/{slug}/interview routes; without JavaScript the page says it needs it.
import {
  type InterviewDefinition,
  localizedText,
  MAX_INTERVIEW_MESSAGE_CHARACTERS,
  type PublishedInterview
} from "@folio/domain"
import { type Html, html, jsonScript } from "../../shared/index.js"
import { brandOf, completionScreen, type PageAssets, shell, stringsFor } from "./page.js"
import { fill } from "./strings.js"

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
}

/** The title a respondent sees: the interview's own, else the form's. */
export const interviewTitle = (published: PublishedInterview): string =>
  published.definition.title.trim() === "" ? published.form.title : published.definition.title

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
  const data = {
    slug,
    locale,
    mayResume: input.mayResume,
    reduceMotion: settings.theme.reduceMotion === true || def.experience?.motion === "reduced",
    disclosureRequired: disclosure?.required === true,
    interviewer: persona ?? null,
    maxMessageLength: MAX_INTERVIEW_MESSAGE_CHARACTERS,
    redirectUrl: settings.completion?.redirectUrl ?? null,
    strings
  }
  // With a continuity cookie the script first asks to resume: the intro waits hidden meanwhile.
  const intro = html`<section id="intro" class="intro interview-intro" aria-labelledby="intro-title"${input.mayResume ? html` hidden` : ""}><h2 id="intro-title">${persona === undefined ? strings.interviewTitle : fill(strings.interviewWith, { name: persona })}</h2><p class="intro-body">${strings.interviewBody}</p>${
    disclosure === undefined
      ? ""
      : html`<dl class="consent disclosure">${disclosure.purpose === undefined ? "" : html`<dt>${strings.purpose}</dt><dd>${disclosure.purpose}</dd>`}${disclosure.retention === undefined ? "" : html`<dt>${strings.retention}</dt><dd>${disclosure.retention}</dd>`}</dl><p class="agree js-only"><input type="checkbox" id="agree"${disclosure.required ? html` required aria-required="true"` : ""}> <label for="agree">${strings.agreeDisclosure}${disclosure.required ? html` <span class="req">(${strings.required})</span>` : ""}</label></p>`
  }<p class="js-only"><button type="button" id="start" class="button primary start">${strings.interviewStart}</button></p></section>`
  const chat = html`<section id="chat" class="chat" aria-labelledby="chat-title" hidden><h2 id="chat-title" class="sr-only">${strings.conversation}</h2><ol id="transcript" class="transcript" role="log" aria-live="polite" aria-labelledby="chat-title"></ol><p id="typing" class="typing" aria-hidden="true" hidden><span class="dots"><i></i><i></i><i></i></span> ${persona ?? strings.interviewer}: ${strings.typing}</p><form id="composer" class="composer" novalidate><label for="message" class="composer-label">${strings.yourAnswer}</label><textarea id="message" name="text" rows="3" maxlength="${MAX_INTERVIEW_MESSAGE_CHARACTERS}" aria-describedby="composer-hint" autocomplete="off"></textarea><p id="composer-hint" class="q-hint">${strings.composerHint}</p><div class="composer-actions"><button type="submit" id="send" class="button primary send">${strings.send}</button><button type="button" id="finish" class="button secondary finish">${strings.finish}</button></div></form></section>`
  const progress = showProgress
    ? html`<div id="progress" class="progress interview-progress" hidden><div class="progress-bar" role="progressbar" aria-label="${strings.interviewProgress}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><span></span></div></div>`
    : ""
  const main = html`${brandOf(settings, input.imageUrl)}<h1 class="form-title">${title}</h1>${progress}<div id="banner" class="banners" role="status" aria-live="polite"></div><noscript><p class="banner warn">${strings.needsJavaScript}</p></noscript>${intro}${chat}${completionScreen(slug, settings, strings, false)}`
  const tail = html`<script type="application/json" id="folio-data">${jsonScript(data)}</script><script type="module" src="${assets.interviewScript}" nonce="${nonce}"></script>`
  return shell(
    { nonce, assets, locale, title, settings, mode: "interview", pageClass: "interview-page" },
    main,
    tail
  )
}
