// The console's page shell: the document, its nonce CSP, the top bar (navigation by role, the
// workspace switcher, sign-out) and the small form helpers every page uses (hidden CSRF field,
// one-button posts, alerts).
import { type ConsoleOperation, mayRun, type Role } from "@folio/domain"
import { attr, type Html, html } from "../shared/html.js"
import type { ConsoleAssetUrls } from "./assets.js"

export const consoleContentSecurityPolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'self'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

export type Section = "keys" | "apps" | "members" | "settings" | "audit" | "account"

export interface WorkspaceChoice {
  readonly tenantId: string
  readonly name: string
  readonly role: Role
}

/** Who is signed in, for the top bar. */
export interface SignedInChrome {
  readonly email: string
  readonly displayName: string
  readonly role: Role | null
  readonly tenantId: string | null
  readonly workspaces: ReadonlyArray<WorkspaceChoice>
  readonly section: Section | null
}

export interface PageChrome {
  readonly nonce: string
  readonly assets: ConsoleAssetUrls
  /** The token forms on the page echo: the session's, or the pre-session one when signed out. */
  readonly csrf: string
  readonly title: string
  readonly signedIn?: SignedInChrome | undefined
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`

/** A form holding one button (sign out, revoke, remove): a post with the CSRF field. */
export const postButton = (
  action: string,
  label: string,
  csrf: string,
  options: {
    readonly kind?: "danger" | "secondary"
    readonly fields?: Readonly<Record<string, string>>
    readonly ariaLabel?: string
  } = {}
) =>
  html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}${Object.entries(
    options.fields ?? {}
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`
  )}<button type="submit"${attr(
    "class",
    options.kind
  )}${attr("aria-label", options.ariaLabel)}>${label}</button></form>`

export const alertBox = (message: string | undefined) =>
  message === undefined ? "" : html`<p role="alert">${message}</p>`

export const noticeBox = (message: string | undefined) =>
  message === undefined ? "" : html`<p class="notice" role="status">${message}</p>`

const NAV: ReadonlyArray<{
  readonly section: Section
  readonly label: string
  readonly needs?: ConsoleOperation
}> = [
  { section: "keys", label: "API keys", needs: "listKeys" },
  { section: "apps", label: "Connected apps", needs: "listConnectedApps" },
  { section: "members", label: "Members", needs: "listMembers" },
  { section: "settings", label: "Settings", needs: "viewSettings" },
  { section: "audit", label: "Audit log", needs: "viewAudit" },
  { section: "account", label: "Account" }
]

const topBar = (chrome: PageChrome, who: SignedInChrome) => {
  const current = who.workspaces.find((w) => w.tenantId === who.tenantId)
  const links = NAV.filter((n) => n.needs === undefined || (who.role !== null && mayRun(who.role, n.needs)))
  return html`<header class="top">
  <a class="brand" href="/console/keys">Folio</a>
  <nav class="main" aria-label="Console"><ul>${links.map(
    (n) =>
      html`<li><a href="/console/${n.section}"${attr("aria-current", n.section === who.section && "page")}>${n.label}</a></li>`
  )}</ul></nav>
  <div class="who">
    ${
      who.workspaces.length > 1
        ? html`<form method="post" action="/console/workspace" class="inline">${csrfField(chrome.csrf)}
      <label for="workspace-switch" class="inline">Workspace</label>
      <select id="workspace-switch" name="tenantId">${who.workspaces.map(
        (w) =>
          html`<option value="${w.tenantId}"${attr("selected", w.tenantId === who.tenantId && "selected")}>${w.name} (${w.role})</option>`
      )}</select>
      <button type="submit" class="secondary">Switch</button></form>`
        : current === undefined
          ? ""
          : html`<span>${current.name} (${current.role})</span>`
    }
    <span>${who.displayName}</span>
    ${postButton("/sign-out", "Sign out", chrome.csrf, { kind: "secondary" })}
  </div>
</header>`
}

export const renderDocument = (chrome: PageChrome, body: Html, options: { readonly narrow?: boolean } = {}) =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex">
<meta name="csrf-token" content="${chrome.csrf}">
<title>${chrome.title} · Folio</title>
<link rel="stylesheet" href="${chrome.assets.style}">
<script type="module" src="${chrome.assets.script}" nonce="${chrome.nonce}"></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
${chrome.signedIn === undefined ? "" : topBar(chrome, chrome.signedIn)}
<main id="content"${attr("class", options.narrow === true && "narrow")}>
${body}
</main>
</body>
</html>`
