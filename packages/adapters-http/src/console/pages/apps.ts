// The connected apps page: the apps people let act in this workspace by OAuth (which app, whose,
// what it may do, when granted, last use) and revoking one after a confirmation step.
import type { ConnectedApp, Role } from "@folio/domain"
import { type Html, html } from "../../shared/html.js"
import { alertBox, noticeBox, type PageChrome, postButton, renderDocument } from "../layout.js"
import { dateTime } from "./format.js"

export interface AppsView {
  readonly role: Role
  readonly apps: ReadonlyArray<ConnectedApp>
  readonly error?: string | undefined
  readonly notice?: string | undefined
}

/**
 * Revoke behind a disclosure: the first click only opens it, saying what revoking does, and the
 * button inside posts. No script needed, so it works under the console's CSP as is.
 */
const revokeControl = (app: ConnectedApp, chrome: PageChrome) =>
  html`<details class="confirm"><summary aria-label="Revoke ${app.clientName}">Revoke…</summary>
<p>${app.clientName} loses access now: its tokens are refused and it must be connected again.</p>
${postButton(`/console/apps/${encodeURIComponent(app.grantId)}/revoke`, "Revoke access", chrome.csrf, {
  kind: "danger",
  ariaLabel: `Confirm revoking ${app.clientName}`
})}</details>`

/** The client id when it says more than the name (a metadata document's URL, a registered id). */
const clientIdNote = (app: ConnectedApp) =>
  app.clientId === app.clientName ? "" : html`<br><small><code>${app.clientId}</code></small>`

const appRows = (view: AppsView, chrome: PageChrome) =>
  view.apps.map(
    (app) => html`<tr>
  <td>${app.clientName}${clientIdNote(app)}</td>
  ${view.role === "member" ? "" : html`<td>${app.email ?? "a former member"}</td>`}
  <td>${app.scopes.length === 0 ? "none" : app.scopes.join(", ")}</td>
  <td>${dateTime(app.grantedAt)}</td>
  <td>${dateTime(app.lastUsedAt)}</td>
  <td>${revokeControl(app, chrome)}</td>
</tr>`
  )

export const renderAppsPage = (chrome: PageChrome, view: AppsView): Html =>
  renderDocument(
    chrome,
    html`<h1>Connected apps</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
<p class="hint">${
      view.role === "member"
        ? "The apps you let act for you in this workspace (through the sharing MCP server). Revoking one signs it out at once."
        : "The apps the people of this workspace let act for them (through the sharing MCP server). Revoking one signs it out at once."
    }</p>
${
  view.apps.length === 0
    ? html`<p>No connected apps.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">App</th>${
        view.role === "member" ? "" : html`<th scope="col">Connected by</th>`
      }<th scope="col">Scopes</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${appRows(view, chrome)}</tbody></table></div>`
}`
  )
