// The whole HTML document of the public form: head with the CSP nonce, the theme as CSS custom
// properties, the intro, every block (blocks.ts), the completion screen, and the data the script
// enhances it with. Also the closed, not-found and confirmation pages.
import type { Block, FormDefinition, FormSettings, QuizResult } from "@folio/domain"
import {
  blockBody,
  hasHeading,
  matrixBody,
  pageHeading,
  type RenderContext,
  type Section,
  sectionsOf
} from "./blocks.js"
import { FORM_POST_NAMES } from "./form-post.js"
import { type Locale, STRINGS, type Strings } from "./strings.js"
import { quizResultLines } from "./quiz-results.js"
import { studySection, withdrawalNote } from "./study.js"
import { attr, type Html, html, jsonScript } from "../../shared/index.js"

export interface PageAssets {
  readonly script: string
  readonly style: string
  /** The interview chat page's script. */
  readonly interviewScript: string
}

export interface PublishedPage {
  readonly slug: string
  readonly formId: string
  readonly formVersionId: string
  readonly title: string
  readonly definition: FormDefinition
  /** The encoded definition, as the script receives it. */
  readonly encodedDefinition: unknown
  readonly settings: FormSettings
}

export type PageState =
  | { readonly kind: "open" }
  | {
      readonly kind: "invalid"
      readonly responseId: string
      readonly token: string
    }
  | { readonly kind: "confirmRepeat" }
  /**
   * After a plain post. `edit`: the form allows editing responses, so the completion screen posts
   * back `_edit` with the response and its token to reopen the form with the answers.
   */
  | {
      readonly kind: "completed"
      readonly edit?: { readonly responseId: string; readonly token: string } | undefined
      /** The quiz results the completion answered, shown on the completion screen. */
      readonly quizzes?: ReadonlyArray<QuizResult> | undefined
    }
  /** A completed response reopened for editing (plain post): the form refilled, posting the edit. */
  | { readonly kind: "editing"; readonly responseId: string; readonly token: string }

export const stringsFor = (locale: string): Strings => STRINGS[(locale in STRINGS ? locale : "en") as Locale]

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export const readableOn = (hex: string): string => {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const l = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? "#ffffff" : "#000000"
}

const HEX = /^#[0-9a-fA-F]{6}$/
const themeStyle = (settings: FormSettings): string => {
  const t = settings.theme
  const color = (c: string | undefined, fallback: string) => (c !== undefined && HEX.test(c) ? c : fallback)
  const primary = color(t.primaryColor, "#5b57d6")
  const bg = color(t.backgroundColor, "#ffffff")
  const text = color(t.textColor, "#1b1b1a")
  const accent = color(t.accentColor, primary)
  // Only validated hex colours reach this stylesheet.
  return `:root{--primary:${primary};--on-primary:${readableOn(primary)};--bg:${bg};--text:${text};--accent:${accent}}`
}

const bodyClasses = (settings: FormSettings): string => {
  const t = settings.theme
  return [
    `theme-${t.themeKey ?? "cloud"}`,
    `bg-${t.background ?? "plain"}`,
    `corner-${t.cornerStyle ?? "rounded"}`,
    `density-${t.density ?? "cozy"}`,
    `font-${t.fontKey ?? "system"}`,
    t.reduceMotion === true ? "reduce-motion" : ""
  ]
    .filter(Boolean)
    .join(" ")
}

/** The public pages' CSP; `imageOrigins`: exact https origins a page may also load images from. */
export const contentSecurityPolicy = (nonce: string, imageOrigins: ReadonlyArray<string> = []): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    ["img-src 'self' data: blob:", ...imageOrigins].join(" "),
    "connect-src 'self'",
    "form-action 'self'",
    "frame-src 'self'",
    "base-uri 'none'"
  ].join("; ")

export interface ShellOptions {
  readonly pageClass?: string
  readonly nonce: string
  readonly assets: PageAssets
  readonly locale: string
  readonly title: string
  readonly settings?: FormSettings | undefined
  readonly mode?: string
  readonly head?: Html | ""
}

/** The document around a page's main content: head, CSP nonce, stylesheet, theme and body classes. */
export const shell = (o: ShellOptions, main: Html, tail: Html | "" = "") => html`<!doctype html>
<html lang="${o.locale}" class="no-js mode-${o.mode ?? "message"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${o.title}</title><script nonce="${o.nonce}">document.documentElement.classList.replace("no-js","js")</script><link rel="stylesheet" href="${o.assets.style}">${o.settings === undefined ? "" : html`<style nonce="${o.nonce}">${themeStyleHtml(o.settings)}</style>`}${o.head ?? ""}</head><body${attr("class", o.settings === undefined ? "theme-cloud" : bodyClasses(o.settings))}><main id="main" class="page${o.pageClass === undefined ? "" : ` ${o.pageClass}`}">${main}</main>${tail}</body></html>`

// The theme stylesheet is built from validated hex colours and constants only.
const themeStyleHtml = (settings: FormSettings): Html => html`${themeStyle(settings)}`

const brand = (page: PublishedPage, imageUrl: (key: string) => string) => brandOf(page.settings, imageUrl)

/** The author's logo and cover image, when the theme has them. */
export const brandOf = (settings: FormSettings, imageUrl: (key: string) => string) => {
  const t = settings.theme
  return html`${t.logoKey === undefined ? "" : html`<header class="brand"><img class="logo" src="${imageUrl(t.logoKey)}" alt=""></header>`}${t.coverKey === undefined ? "" : html`<figure class="cover"><img src="${imageUrl(t.coverKey)}" alt=""></figure>`}`
}

const ICONS: Readonly<Record<string, string>> = { check: "✓", heart: "♥", party: "🎉" }

/** The completion screen: shown by the script after completing, or by the server after a plain post. */
const completion = (page: PublishedPage, strings: Strings, state: PageState, withdrawal?: string) => {
  const completed = state.kind === "completed"
  const quizzes = state.kind === "completed" ? (state.quizzes ?? []) : []
  const results = quizzes.length === 0 ? undefined : quizResultsHtml(page.definition, quizzes, strings)
  if (page.settings.submission.allowResponseEditing !== true)
    return completionScreen(page.slug, page.settings, strings, completed, { results, withdrawal })
  // With the script, the page holds the response's token and reopens the form itself; without it,
  // the server's completion page posts the response and token back to get the form refilled.
  const edit =
    state.kind === "completed"
      ? state.edit === undefined
        ? ""
        : html`<form class="edit-form" method="post" action="/f/${page.slug}"><input type="hidden" name="${FORM_POST_NAMES.edit}" value="1"><input type="hidden" name="${FORM_POST_NAMES.response}" value="${state.edit.responseId}"><input type="hidden" name="${FORM_POST_NAMES.token}" value="${state.edit.token}"><button type="submit" class="button secondary">${strings.editResponse}</button></form>`
      : html`<p class="edit-action js-only" hidden><button type="button" class="button secondary edit-response">${strings.editResponse}</button></p>`
  return completionScreen(page.slug, page.settings, strings, completed, { results, edit, withdrawal })
}

/** The quiz results section (the script builds the same markup in client/quiz-view.ts). */
const quizResultsHtml = (
  definition: FormDefinition,
  quizzes: ReadonlyArray<QuizResult>,
  strings: Strings
): Html =>
  html`<section class="quiz-results" aria-labelledby="quiz-results-title"><h3 id="quiz-results-title">${strings.quizResults}</h3>${quizResultLines(definition, quizzes, strings).map((q) => html`<div class="quiz"><p class="quiz-score">${q.heading}</p>${q.cutoffLabel === null ? "" : html`<p class="quiz-cutoff">${q.cutoffLabel}</p>`}${q.feedback.length === 0 ? "" : html`<ul class="quiz-feedback">${q.feedback.map((f) => html`<li class="${f.correct ? "correct" : "incorrect"}"><span class="quiz-question">${f.question}</span> <span class="quiz-verdict">${f.verdict}</span> <span class="quiz-text">${f.text}</span></li>`)}</ul>`}</div>`)}</section>`

/** The completion screen of the form at `slug` (the classic page's and the interview page's). */
export const completionScreen = (
  slug: string,
  settings: FormSettings,
  strings: Strings,
  visible: boolean,
  extra: {
    /** The quiz results of the completion. */
    readonly results?: Html | undefined
    /** The "Edit your response" action of a form that allows editing. */
    readonly edit?: Html | "" | undefined
    /** The response's withdrawal link path, when the server knows it (else the script fills it in). */
    readonly withdrawal?: string | undefined
  } = {}
) => {
  const c = settings.completion ?? {}
  const icon = c.icon ?? "check"
  return html`<section id="done" class="done" tabindex="-1" aria-labelledby="done-title"${visible ? "" : html` hidden`}>${icon === "none" ? "" : html`<p class="done-icon icon-${icon}" aria-hidden="true">${ICONS[icon] ?? ""}</p>`}<h2 id="done-title">${c.title ?? strings.thanks}</h2><p class="done-body">${c.body ?? strings.thanksBody}</p>${extra.results ?? ""}${extra.edit ?? ""}${withdrawalNote(settings, strings, extra.withdrawal)}${c.ctaUrl === undefined ? "" : html`<p><a class="button" href="${c.ctaUrl}" rel="noopener">${c.ctaLabel ?? strings.continue}</a></p>`}${c.allowAnother === true ? html`<p><a class="button secondary another" href="/f/${slug}">${strings.another}</a></p>` : ""}${c.redirectUrl === undefined ? "" : html`<p class="redirect"><a href="${c.redirectUrl}" rel="noopener">${strings.redirecting}</a></p>`}${c.confetti === true ? html`<div class="confetti" aria-hidden="true">${Array.from({ length: 24 }, (_, i) => html`<i class="c${i % 6}"></i>`)}</div>` : ""}</section>`
}

/** The classes and data attributes of `presentation.document` (a matrix takes its first row's). */
const documentLayout = (doc: DocumentPresentation | undefined) => ({
  classes: [
    doc?.span === undefined ? "" : `span-${doc.span}`,
    doc?.fieldChrome === "field-only" ? "field-only" : "",
    doc?.controlWidth === "full" ? "control-full" : ""
  ],
  breakBefore: doc?.breakBefore === true ? html` data-break` : ""
})

type DocumentPresentation = NonNullable<NonNullable<Block["presentation"]>["document"]>

const classList = (names: ReadonlyArray<string>) => names.filter(Boolean).join(" ")

const section = (ctx: RenderContext, s: Section, mode: string): Html | "" => {
  if (s.kind === "matrix") {
    const layout = documentLayout(s.rows[0]?.presentation?.document)
    return html`<section class="${classList(["q", "q-matrix", ...layout.classes])}" id="q-${s.id}" data-matrix="${s.id}" data-type="matrix"${layout.breakBefore}>${matrixBody(ctx, s.rows)}</section>`
  }
  const b = s.block
  if (b.type === "hidden_field") return ""
  if (b.type === "page_break") {
    // A titled break: its words head the page it opens (the script shows them with that page's
    // first step); the rule alone marks where a document's page ends.
    const heading = hasHeading(b)
      ? html`<section class="q q-page_break q-heading" id="q-${b.id}" data-block="${b.id}" data-type="page_break">${pageHeading(b)}</section>`
      : ""
    return mode === "document" ? html`<hr class="page-break" data-block="${b.id}">${heading}` : heading
  }
  const body = blockBody(ctx, b)
  if (body === undefined) return ""
  const layout = documentLayout(b.presentation?.document)
  const cls = classList(["q", `q-${b.type}`, hasHeading(b) ? "q-heading" : "", ...layout.classes])
  return html`<section class="${cls}" id="q-${b.id}" data-block="${b.id}" data-type="${b.type}"${b.required ? html` data-required` : ""}${layout.breakBefore}>${body}</section>`
}

/**
 * Question numbers for the document mode's `showNumbers`: input blocks in order, each matrix as one
 * (keyed by its group id, printed in its legend).
 */
const numbering = (definition: FormDefinition): ReadonlyMap<string, number> => {
  const out = new Map<string, number>()
  let n = 0
  for (const s of sectionsOf(definition)) {
    if (s.kind === "matrix") out.set(s.id, ++n)
    else if (
      !["statement", "page_break", "divider", "image", "hidden_field", "calculated_field"].includes(
        s.block.type
      )
    )
      out.set(s.block.id, ++n)
  }
  return out
}

export interface FormPageInput {
  readonly page: PublishedPage
  readonly nonce: string
  readonly assets: PageAssets
  readonly imageUrl: (key: string) => string
  /** URL query parameters, carried to the post for hidden fields. */
  readonly params: ReadonlyArray<readonly [string, string]>
  readonly state: PageState
  readonly values?: ReadonlyMap<string, ReadonlyArray<string>>
  readonly errors?: ReadonlyMap<string, string>
  readonly uploaded?: RenderContext["uploaded"]
  /** The blank questions' HTML rendered before (questionsFor), reused when nothing is refilled. */
  readonly questions?: Html | undefined
  /** The browser sent a continuity cookie, so it may have a response to resume. */
  readonly mayResume?: boolean
  /** Where the author's custom script runs (sandboxed), when there is one. */
  readonly customScriptUrl?: string | undefined
  /** The last post did not accept every consent item (research compliance). */
  readonly consentError?: boolean | undefined
  /** The completed response's withdrawal link path (a JavaScript-off completion). */
  readonly withdrawalPath?: string | undefined
}

const questionsHtml = (ctx: RenderContext, definition: FormDefinition, mode: string): Html =>
  html`${sectionsOf(definition).map((s) => section(ctx, s, mode))}`

const contextOf = (
  page: PublishedPage,
  imageUrl: (key: string) => string,
  refill: Pick<FormPageInput, "values" | "errors" | "uploaded">
): RenderContext => {
  const settings = page.settings
  return {
    strings: stringsFor(settings.locale),
    locale: settings.locale,
    imageUrl,
    values: refill.values ?? new Map(),
    errors: refill.errors ?? new Map(),
    uploaded: refill.uploaded ?? new Map(),
    ...(settings.renderMode === "document" && settings.document.showNumbers
      ? { numbers: numbering(page.definition) }
      : {})
  }
}

/** The blank questions of a page: the same for every visitor of one version, slug and settings. */
export const questionsFor = (page: PublishedPage, imageUrl: (key: string) => string): Html =>
  questionsHtml(contextOf(page, imageUrl, {}), page.definition, page.settings.renderMode)

export const renderFormPage = (input: FormPageInput): Html => {
  const { page, nonce, assets } = input
  const settings = page.settings
  const strings = stringsFor(settings.locale)
  const mode = settings.renderMode
  const ctx = contextOf(page, input.imageUrl, input)
  const completed = input.state.kind === "completed"
  const intro = settings.intro
  const redirect = completed ? settings.completion?.redirectUrl : undefined
  const errorCount = ctx.errors.size
  const data = {
    slug: page.slug,
    formVersionId: page.formVersionId,
    mode,
    locale: settings.locale,
    definition: page.encodedDefinition,
    completion: settings.completion ?? {},
    repeatResponsePolicy: settings.submission.repeatResponsePolicy ?? null,
    reduceMotion: settings.theme.reduceMotion === true,
    mayResume: input.mayResume === true,
    hasIntro: intro !== undefined && (intro.title !== undefined || intro.body !== undefined),
    allowEditing: settings.submission.allowResponseEditing === true,
    consent: settings.researchCompliance !== undefined,
    strings
  }
  const consentChecked = new Set(input.values?.get("_consent") ?? [])
  const form = completed
    ? ""
    : html`<form id="form" class="form mode-${mode}${mode === "document" ? ` width-${settings.document.pageWidth}` : ""}" method="post" action="/f/${page.slug}" enctype="multipart/form-data" novalidate>${input.params.map(([k, v]) => html`<input type="hidden" name="_param.${k}" value="${v}">`)}${input.state.kind === "invalid" || input.state.kind === "editing" ? html`<input type="hidden" name="_response" value="${input.state.responseId}"><input type="hidden" name="_token" value="${input.state.token}">` : ""}${input.state.kind === "confirmRepeat" ? html`<div class="banner warn" role="alert"><p>${strings.repeatConfirm}</p><input type="hidden" name="_confirmRepeat" value="1"></div>` : ""}${errorCount > 0 ? html`<div class="error-summary" role="alert" tabindex="-1" id="error-summary"><p>${strings.fixErrors}</p><ul>${[...ctx.errors.keys()].map((id) => html`<li><a href="#q-${id}">${labelOf(page.definition, id)}</a></li>`)}</ul></div>` : ""}<div class="questions">${input.questions !== undefined && ctx.values.size === 0 && ctx.errors.size === 0 && ctx.uploaded.size === 0 ? input.questions : questionsHtml(ctx, page.definition, mode)}</div><div class="nav"><button type="button" class="button secondary back js-only" hidden>${strings.back}</button><span class="nav-hint js-only" aria-hidden="true" hidden>${strings.pressEnter}</span><button type="submit" class="button primary submit">${input.state.kind === "confirmRepeat" ? strings.answerAgain : input.state.kind === "editing" ? strings.saveEdit : (settings.submission.submitLabel ?? strings.submit)}</button></div></form>`
  const main = html`${brand(page, input.imageUrl)}<div class="progress js-only" hidden><div class="progress-bar"><span></span></div><p class="progress-text" aria-live="polite"></p></div><h1 class="form-title">${page.title}</h1>${intro === undefined || completed ? "" : html`<section id="intro" class="intro"${intro.title === undefined ? "" : html` aria-labelledby="intro-title"`}>${intro.title === undefined ? "" : html`<h2 id="intro-title">${intro.title}</h2>`}${intro.body === undefined ? "" : html`<p class="intro-body">${intro.body}</p>`}<button type="button" class="button primary start js-only" hidden>${intro.buttonLabel ?? strings.start}</button></section>`}<div id="banner" class="banners" role="status" aria-live="polite"></div>${completed ? "" : studySection(settings, strings, { form: "form", checked: consentChecked, error: input.consentError })}${form}${completion(page, strings, input.state, input.withdrawalPath)}<p class="save-state js-only" aria-live="polite" hidden></p>`
  const tail = html`${completed ? "" : html`<script type="application/json" id="folio-data">${jsonScript(data)}</script><script type="module" src="${assets.script}" nonce="${nonce}"></script>`}${input.customScriptUrl === undefined ? "" : html`<iframe class="custom-script" src="${input.customScriptUrl}" sandbox="allow-scripts" title="" aria-hidden="true" tabindex="-1"></iframe>`}`
  return shell(
    {
      nonce,
      assets,
      locale: settings.locale,
      title: page.title,
      settings,
      mode,
      ...(mode === "document" ? { pageClass: `doc-${settings.document.pageWidth}` } : {}),
      ...(redirect === undefined
        ? {}
        : { head: html`<meta http-equiv="refresh" content="0;url=${redirect}">` })
    },
    main,
    tail
  )
}

const labelOf = (definition: FormDefinition, id: string): string => {
  const block = definition.blocks.find((b) => b.id === id)
  return block === undefined ? id : block.label || id
}

/** The page of a form that exists but is closed right now. */
export const renderClosedPage = (input: {
  readonly nonce: string
  readonly assets: PageAssets
  readonly title: string
  readonly settings: FormSettings
  readonly message: string | undefined
}): Html => {
  const strings = stringsFor(input.settings.locale)
  return shell(
    {
      nonce: input.nonce,
      assets: input.assets,
      locale: input.settings.locale,
      title: input.title,
      settings: input.settings
    },
    html`<section class="message"><h1>${strings.closedTitle}</h1><p>${input.message ?? strings.closedBody}</p></section>`
  )
}

/** A page with one message: a refused post, a body too large, a client over its budget. */
export const renderMessagePage = (input: {
  readonly nonce: string
  readonly assets: PageAssets
  readonly heading: string
  readonly message: string
  readonly settings?: FormSettings | undefined
}): Html =>
  shell(
    {
      nonce: input.nonce,
      assets: input.assets,
      locale: input.settings?.locale ?? "en",
      title: input.heading,
      settings: input.settings
    },
    html`<section class="message" role="alert"><h1>${input.heading}</h1><p>${input.message}</p></section>`
  )

/** No published form at this address (unknown, unpublished or deleted). */
export const renderNotFoundPage = (input: { readonly nonce: string; readonly assets: PageAssets }): Html => {
  const strings = stringsFor("en")
  return shell(
    { nonce: input.nonce, assets: input.assets, locale: "en", title: strings.notFoundTitle },
    html`<section class="message"><h1>${strings.notFoundTitle}</h1><p>${strings.notFoundBody}</p></section>`
  )
}
