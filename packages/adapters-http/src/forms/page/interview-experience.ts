// The interview definition's `experience` on the chat page: the theme's palette and the background
// image with its scrim (a nonce'd stylesheet), the one image origin the page's CSP then allows, the
// live profile panel, and the start-over controls. The script (client/interview.ts) keeps the profile
// current and restarts with JavaScript; the forms here do it without.
import {
  type InterviewBackground,
  type InterviewDefinition,
  type InterviewProfileItem,
  type InterviewTheme,
  interviewBackgroundOf,
  interviewThemeOf
} from "@folio/domain"
import { type Html, html, unsafeRaw } from "../../shared/index.js"
import { contentSecurityPolicy, readableOn } from "./page.js"
import type { Strings } from "./strings.js"

interface Palette {
  readonly primary: string
  readonly bg: string
  readonly text: string
  readonly soft: string
  readonly onSoft: string
  readonly line: string
  readonly muted: string
}

/**
 * Each theme as a whole palette, its pairs chosen for WCAG AA contrast (text on bg, on-soft on soft,
 * the readable colour on primary, muted on bg). `cloud`, `ink`, `warm` and `forest` are the classic
 * page's theme names with colours of their own; `dark` and `contrast` are the interview's.
 */
const PALETTES: Readonly<Record<InterviewTheme, Palette>> = {
  cloud: {
    primary: "#5b57d6",
    bg: "#ffffff",
    text: "#1b1b1a",
    soft: "#f3f3f7",
    onSoft: "#1b1b1a",
    line: "#8a8a86",
    muted: "#4a4a48"
  },
  ink: {
    primary: "#1f2937",
    bg: "#f8fafc",
    text: "#111827",
    soft: "#e8ebf0",
    onSoft: "#111827",
    line: "#6b7280",
    muted: "#374151"
  },
  warm: {
    primary: "#9a3412",
    bg: "#fffaf3",
    text: "#2b1d12",
    soft: "#f8eadb",
    onSoft: "#2b1d12",
    line: "#8c7a68",
    muted: "#5b4636"
  },
  forest: {
    primary: "#1f6f43",
    bg: "#f7fbf8",
    text: "#14241a",
    soft: "#e3efe6",
    onSoft: "#14241a",
    line: "#5f7a66",
    muted: "#3f5446"
  },
  dark: {
    primary: "#a5b4fc",
    bg: "#121318",
    text: "#ececf1",
    soft: "#262833",
    onSoft: "#ececf1",
    line: "#8b8e9c",
    muted: "#b8bac4"
  },
  contrast: {
    primary: "#ffd400",
    bg: "#000000",
    text: "#ffffff",
    soft: "#1c1c1c",
    onSoft: "#ffffff",
    line: "#ffffff",
    muted: "#ffffff"
  }
}

/**
 * A URL as a CSS string's content: everything but unreserved URL characters is a CSS escape, so
 * neither the string nor the <style> element can be ended early, and the HTML template has nothing
 * left to escape (entities are not decoded inside <style>).
 */
const cssUrl = (url: string): string =>
  url.replace(/[^A-Za-z0-9\-._~:/?#@!$%=+,;]/g, (c) => `\\${c.codePointAt(0)?.toString(16) ?? "0"} `)

const paletteRule = (theme: InterviewTheme): string => {
  const p = PALETTES[theme]
  // `body[class]` outranks the classic theme classes on <body> (`.theme-ink` sets --soft and --line).
  return `:root,body[class]{--primary:${p.primary};--on-primary:${readableOn(p.primary)};--bg:${p.bg};--text:${p.text};--accent:${p.primary};--soft:${p.soft};--on-soft:${p.onSoft};--line:${p.line};--muted:${p.muted};color-scheme:${theme === "dark" || theme === "contrast" ? "dark" : "light"}}`
}

/**
 * The image covers the viewport under a black scrim of the author's darkness; the conversation sits
 * on a panel of the theme's background, so its text keeps the palette's contrast whatever the image.
 * The image stays put while the page scrolls, unless motion is reduced (then it scrolls along).
 */
const backgroundRules = (b: InterviewBackground, reduceMotion: boolean): string => {
  const s = Math.min(1, Math.max(0, b.scrim))
  const layers = `linear-gradient(rgba(0,0,0,${s}),rgba(0,0,0,${s})),url("${cssUrl(b.url)}")`
  return [
    `html{background-color:var(--bg);background-image:${layers};background-position:center;background-size:cover;background-repeat:no-repeat;background-attachment:${reduceMotion ? "scroll" : "fixed"}}`,
    "body[class]{background:transparent}",
    ".page.interview-page{background:var(--bg);border-radius:var(--radius);margin-block:1.5rem;box-shadow:0 2px 24px rgba(0,0,0,.25)}",
    "@media (prefers-reduced-motion:reduce){html{background-attachment:scroll}}"
  ].join("")
}

/** The page's extra stylesheet for the definition's theme and background, or nothing. */
export const experienceStyle = (
  def: InterviewDefinition,
  nonce: string,
  reduceMotion: boolean
): Html | "" => {
  const theme = interviewThemeOf(def)
  const background = interviewBackgroundOf(def)
  if (theme === undefined && background === undefined) return ""
  const css = `${theme === undefined ? "" : paletteRule(theme)}${background === undefined ? "" : backgroundRules(background, reduceMotion)}`
  // Built from the palettes' constants, a clamped number and an escaped URL only.
  return html`<style nonce="${nonce}">${unsafeRaw(css)}</style>`
}

/** The chat page's CSP: the form page's, with the background image's exact origin as an image source. */
export const interviewPageHeaders = (
  def: InterviewDefinition,
  nonce: string
): Readonly<Record<string, string>> => {
  const background = interviewBackgroundOf(def)
  return background === undefined
    ? {}
    : { "content-security-policy": contentSecurityPolicy(nonce, [background.origin]) }
}

/** One line of the profile; keyed by field so the script updates it in place (announcing changes only). */
export const profileItem = (item: InterviewProfileItem): Html =>
  html`<div class="profile-item" data-field="${item.fieldId}"><dt>${item.label}</dt><dd>${item.value}</dd></div>`

/**
 * The live profile: what the interview has understood so far. The list is a polite live region, so a
 * screen reader hears what a turn added once the reply is read, without being interrupted.
 */
export const profilePanel = (strings: Strings, items: ReadonlyArray<InterviewProfileItem>): Html =>
  html`<aside id="profile" class="live-profile" aria-labelledby="profile-title"><h2 id="profile-title" class="profile-title">${strings.profileTitle}</h2><p id="profile-empty" class="profile-empty"${items.length === 0 ? "" : html` hidden`}>${strings.profileEmpty}</p><dl id="profile-list" class="profile-list" aria-live="polite">${items.map(profileItem)}</dl></aside>`

/** Start over without JavaScript: a form posting the interview being left with its token. */
export const restartForm = (
  slug: string,
  locale: string,
  strings: Strings,
  state: { readonly responseId: string; readonly token: string }
): Html =>
  html`<form id="restart-form" class="restart" method="post" action="/f/${slug}"><input type="hidden" name="_response" value="${state.responseId}"><input type="hidden" name="_token" value="${state.token}"><input type="hidden" name="_locale" value="${locale}"><button type="submit" name="_action" value="restart" class="button secondary restart" aria-describedby="restart-hint">${strings.restart}</button> <span id="restart-hint" class="q-hint">${strings.restartHint}</span></form>`

/** Start over with JavaScript: the script posts the restart route. */
export const restartButton = (strings: Strings): Html =>
  html`<p class="restart"><button type="button" id="restart" class="button secondary restart" aria-describedby="restart-hint">${strings.restart}</button> <span id="restart-hint" class="q-hint">${strings.restartHint}</span></p>`
