// What a form under research compliance shows before its first question: the study's purpose,
// contact, third-party provision and retention, and each consent item as a required checkbox.
import type { FormSettings } from "@folio/domain"
import { type Html, html } from "../../shared/index.js"
import { fill, type Strings } from "./strings.js"

/** The post field of an accepted consent item; its value is the item's text (see acceptConsent). */
export const CONSENT_FIELD = "_consent"

export interface StudyOptions {
  /** The id of the form the checkboxes post with (they may sit outside it). */
  readonly form: string
  /** Items to render ticked (a refused post refilled). */
  readonly checked?: ReadonlySet<string> | undefined
  /** The last post did not accept every item. */
  readonly error?: boolean | undefined
  /** With a Continue button the page's script gates the questions on (false: the caller's own start does). */
  readonly gate?: boolean | undefined
}

/** The study facts alone (the interview's no-script start repeats only the checkboxes). */
const facts = (c: NonNullable<FormSettings["researchCompliance"]>, strings: Strings) => {
  const third = c.thirdPartyProvision
  const shared =
    third?.enabled === true ? (third.details ?? strings.studyThirdParty) : strings.studyNoThirdParty
  return html`<dl class="study-facts"><dt>${strings.purpose}</dt><dd class="study-purpose">${c.purpose}</dd><dt>${strings.studyContact}</dt><dd class="study-contact">${c.contact}</dd><dt>${strings.studyThirdParty}</dt><dd class="study-third-party">${shared}</dd><dt>${strings.retention}</dt><dd class="study-retention">${fill(strings.studyRetention, { days: c.retentionDays })}</dd></dl>`
}

/** The consent items as required checkboxes posting `_consent=<text>` with the form `o.form`. */
export const consentItems = (
  c: NonNullable<FormSettings["researchCompliance"]>,
  strings: Strings,
  o: StudyOptions,
  idPrefix = "consent"
) =>
  html`<fieldset class="consent-items"${o.error === true ? html` aria-invalid="true" aria-describedby="${idPrefix}-error"` : ""}><legend>${strings.consentLegend}</legend>${o.error === true ? html`<p class="q-error consent-error" id="${idPrefix}-error" role="alert">${strings.consentRequired}</p>` : html`<p class="q-error consent-error" id="${idPrefix}-error" role="alert" hidden>${strings.consentRequired}</p>`}<ul class="consent-list">${c.consentItems.map((item, i) => html`<li><input type="checkbox" id="${idPrefix}-${i}" name="${CONSENT_FIELD}" value="${item}" form="${o.form}" required${o.checked?.has(item) === true ? html` checked` : ""}> <label for="${idPrefix}-${i}">${item}</label></li>`)}</ul></fieldset>`

/** The study section, or nothing for a form without research compliance. */
export const studySection = (settings: FormSettings, strings: Strings, o: StudyOptions): Html | "" => {
  const c = settings.researchCompliance
  if (c === undefined) return ""
  return html`<section id="study" class="study" aria-labelledby="study-title"><h2 id="study-title">${strings.studyTitle}</h2>${facts(c, strings)}${consentItems(c, strings, o)}${o.gate === false ? "" : html`<p class="js-only"><button type="button" class="button primary consent-continue" hidden>${strings.consentContinue}</button></p>`}</section>`
}

/** The completion screen's withdrawal note: a link when known, else a slot the script fills. */
export const withdrawalNote = (settings: FormSettings, strings: Strings, path: string | undefined) => {
  if (settings.researchCompliance?.withdrawalEnabled !== true) return ""
  return html`<p class="withdraw"${path === undefined ? html` hidden` : ""}>${strings.withdrawNote} <a class="withdraw-link" href="${path ?? "#"}">${strings.withdrawLink}</a></p>`
}
