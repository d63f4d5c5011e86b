// The notification e-mails of a completed response, in the form's locale (en, ko, ja): the owners'
// summary and the respondent's receipt. Pure: what goes in a header is one line, what goes in HTML is escaped.
import type { MailMessage } from "../../kernel/ports/mailer.js"
import type { FormSettings } from "../settings/settings.js"

export type FormLocale = FormSettings["locale"]

/** One answer as the e-mail shows it: the block's label and the answer's text (files by name). */
export interface AnswerLine {
  readonly label: string
  readonly value: string
}

export interface ResponseDigest {
  readonly locale: FormLocale
  readonly formTitle: string
  readonly completedAt: Date
  readonly answers: ReadonlyArray<AnswerLine>
}

/** Longest subject line we send (the title is cut to fit; RFC 5322 recommends 78 per line, folded). */
const SUBJECT_MAX = 180

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is replaced
const LINE_BREAKERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g

/**
 * One header-safe line: every control character (CR and LF above all, but also NUL, tab, the C1
 * range and the Unicode line and paragraph separators) becomes a space, so no input can end the
 * header it is in and start another (or add a recipient).
 */
export const oneLine = (text: string): string =>
  text.replace(LINE_BREAKERS, " ").replace(/ {2,}/g, " ").trim()

const cut = (text: string, max: number) => {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`
}

export const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")

/** An address a message may go to: the plain `local@domain` form only (no name, comment or list). */
const DELIVERABLE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

export const isDeliverableAddress = (address: string): boolean =>
  address.length <= 254 && DELIVERABLE.test(address)

interface Strings {
  readonly responseSubject: (title: string) => string
  readonly receiptSubject: (title: string) => string
  readonly responseIntro: (title: string, at: string) => string
  readonly receiptIntro: (title: string, at: string) => string
  readonly noAnswer: string
  readonly viewResponse: string
  readonly receiptFooter: string
  readonly withdraw: string
}

const STRINGS: Record<FormLocale, Strings> = {
  en: {
    responseSubject: (t) => `New response: ${t}`,
    receiptSubject: (t) => `Your response to ${t}`,
    responseIntro: (t, at) => `A response to “${t}” was completed at ${at}.`,
    receiptIntro: (t, at) => `Thank you. This is a copy of the response you submitted to “${t}” at ${at}.`,
    noAnswer: "(no answer)",
    viewResponse: "The response in the API:",
    receiptFooter:
      "You received this message because this address was entered in the form. No reply is needed.",
    withdraw: "To withdraw your response:"
  },
  ko: {
    responseSubject: (t) => `새 응답: ${t}`,
    receiptSubject: (t) => `${t} 응답 사본`,
    responseIntro: (t, at) => `“${t}”에 대한 응답이 ${at}에 제출되었습니다.`,
    receiptIntro: (t, at) => `감사합니다. ${at}에 “${t}”에 제출하신 응답의 사본입니다.`,
    noAnswer: "(응답 없음)",
    viewResponse: "API의 응답:",
    receiptFooter: "양식에 이 주소가 입력되어 이 메일을 보내 드렸습니다. 회신하지 않으셔도 됩니다.",
    withdraw: "응답 철회:"
  },
  ja: {
    responseSubject: (t) => `新しい回答: ${t}`,
    receiptSubject: (t) => `「${t}」への回答の控え`,
    responseIntro: (t, at) => `「${t}」への回答が ${at} に送信されました。`,
    receiptIntro: (t, at) => `ありがとうございました。${at} に「${t}」へ送信された回答の控えです。`,
    noAnswer: "（未回答）",
    viewResponse: "API の回答:",
    receiptFooter: "フォームにこのアドレスが入力されたため、このメールをお送りしています。返信は不要です。",
    withdraw: "回答の撤回:"
  }
}

/** The completion time, the same in every locale (UTC, to the minute): no reader guesses a zone. */
const timeText = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`

/**
 * The text body's answer lines: `Label: value`, a multi-line value indented under its label, so an
 * answer can never pass for another label's line.
 */
const textAnswers = (answers: ReadonlyArray<AnswerLine>, noAnswer: string) =>
  answers
    .map(({ label, value }) => {
      const lines = value.replace(/\r\n?/g, "\n").split("\n")
      const [first = "", ...rest] = value.trim() === "" ? [noAnswer] : lines
      return [`${oneLine(label)}: ${first}`, ...rest.map((l) => `  ${l}`)].join("\n")
    })
    .join("\n")

const htmlAnswers = (answers: ReadonlyArray<AnswerLine>, noAnswer: string) =>
  answers.length === 0
    ? ""
    : `<table role="presentation" cellpadding="4" style="border-collapse:collapse">${answers
        .map(
          ({ label, value }) =>
            `<tr><th align="left" valign="top">${escapeHtml(oneLine(label))}</th><td>${
              value.trim() === ""
                ? escapeHtml(noAnswer)
                : escapeHtml(value.replace(/\r\n?/g, "\n")).replace(/\n/g, "<br>")
            }</td></tr>`
        )
        .join("")}</table>`

const htmlDocument = (locale: FormLocale, paragraphs: ReadonlyArray<string>, table: string) =>
  `<!doctype html><html lang="${locale}"><body>${paragraphs
    .slice(0, 1)
    .map((p) => `<p>${p}</p>`)
    .join("")}${table}${paragraphs
    .slice(1)
    .map((p) => `<p>${p}</p>`)
    .join("")}</body></html>`

/**
 * Headers every notification carries: it is machine-sent (RFC 3834), so vacation responders and
 * other robots do not answer it. No List-Unsubscribe: these are one-off messages about one
 * response, not a list (see docs/decisions/0031-notification-email.md).
 */
const AUTOMATED = { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" } as const

/** The owners' summary of one completed response; `responseUrl` names the response, never a secret. */
export const composeResponseEmail = (
  digest: ResponseDigest,
  message: { readonly to: string; readonly id: string; readonly responseUrl: string | null }
): MailMessage => {
  const s = STRINGS[digest.locale]
  const title = oneLine(digest.formTitle)
  const at = timeText(digest.completedAt)
  const link = message.responseUrl
  return {
    to: message.to,
    id: message.id,
    subject: oneLine(s.responseSubject(cut(title, SUBJECT_MAX))),
    text: [
      s.responseIntro(title, at),
      "",
      textAnswers(digest.answers, s.noAnswer),
      ...(link === null ? [] : ["", `${s.viewResponse} ${link}`])
    ].join("\n"),
    html: htmlDocument(
      digest.locale,
      [
        escapeHtml(s.responseIntro(title, at)),
        ...(link === null ? [] : [`${escapeHtml(s.viewResponse)} ${escapeHtml(link)}`])
      ],
      htmlAnswers(digest.answers, s.noAnswer)
    ),
    headers: AUTOMATED
  }
}

/**
 * The respondent's copy of their response. `withdrawalUrl`: where a research form lets them take it
 * back (another feature fills it; absent, nothing is said about withdrawing).
 */
export const composeReceipt = (
  digest: ResponseDigest,
  message: { readonly to: string; readonly id: string; readonly withdrawalUrl?: string | undefined }
): MailMessage => {
  const s = STRINGS[digest.locale]
  const title = oneLine(digest.formTitle)
  const at = timeText(digest.completedAt)
  const withdrawal = message.withdrawalUrl
  return {
    to: message.to,
    id: message.id,
    subject: oneLine(s.receiptSubject(cut(title, SUBJECT_MAX))),
    text: [
      s.receiptIntro(title, at),
      "",
      textAnswers(digest.answers, s.noAnswer),
      "",
      ...(withdrawal === undefined ? [] : [`${s.withdraw} ${withdrawal}`, ""]),
      s.receiptFooter
    ].join("\n"),
    html: htmlDocument(
      digest.locale,
      [
        escapeHtml(s.receiptIntro(title, at)),
        ...(withdrawal === undefined
          ? []
          : [`${escapeHtml(s.withdraw)} <a href="${escapeHtml(withdrawal)}">${escapeHtml(withdrawal)}</a>`]),
        escapeHtml(s.receiptFooter)
      ],
      htmlAnswers(digest.answers, s.noAnswer)
    ),
    headers: AUTOMATED
  }
}
