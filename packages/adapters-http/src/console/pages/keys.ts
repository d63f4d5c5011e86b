// The API keys page: the workspace's keys of both services (prefix, scopes, who made it, when, last
// use, expiry), the form to create one, and, once, the full key of the one just created.
import type { ApiKeyRecord, Role, ServiceName } from "@folio/domain"
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, noticeBox, type PageChrome, postButton, renderDocument } from "../layout.js"
import { dateTime } from "./format.js"

export type ListedKey = ApiKeyRecord & { readonly createdByEmail: string | null }

export interface ServiceScopes {
  readonly service: ServiceName
  readonly label: string
  /** What this person may give a key of the service (all of the set for owners and admins). */
  readonly scopes: ReadonlyArray<string>
}

export interface CreatedKey {
  readonly plaintext: string
  readonly record: ApiKeyRecord
  readonly curl: string
}

export interface KeysView {
  readonly role: Role
  readonly userId: string
  readonly keys: ReadonlyArray<ListedKey>
  readonly services: ReadonlyArray<ServiceScopes>
  readonly created?: CreatedKey
  readonly error?: string | undefined
  readonly notice?: string | undefined
  readonly values?: {
    readonly name?: string
    readonly service?: string
    readonly scopes?: ReadonlyArray<string>
    readonly expiresAt?: string
  }
}

const SERVICE_LABEL: Readonly<Record<ServiceName, string>> = { forms: "Forms", sharing: "Sharing" }

/** Owners and admins revoke any key; members only the ones they created. */
const mayRevoke = (view: KeysView, key: ListedKey) =>
  key.revokedAt === null && (view.role !== "member" || key.createdBy === view.userId)

const statusOf = (key: ListedKey, now: Date) =>
  key.revokedAt !== null ? "revoked" : key.expiresAt !== null && key.expiresAt <= now ? "expired" : "active"

const createdPanel = (created: CreatedKey) => html`<section aria-labelledby="new-key-heading">
<h2 id="new-key-heading">Your new ${SERVICE_LABEL[created.record.service]} key “${created.record.name}”</h2>
<p>Copy it now: it is shown only once. Folio keeps only its hash.</p>
<div class="secret"><code id="new-key">${created.plaintext}</code>
<button type="button" class="secondary" data-copy="new-key" hidden>Copy</button></div>
<p>Try it:</p>
<pre class="curl"><code>${created.curl}</code></pre>
</section>`

const keyRows = (view: KeysView, chrome: PageChrome, now: Date) =>
  view.keys.map(
    (key) => html`<tr>
  <td>${key.name}</td>
  <td><code>${key.prefix}</code></td>
  <td>${SERVICE_LABEL[key.service]}</td>
  <td>${key.scopes.join(", ")}</td>
  <td>${key.createdByEmail ?? "command line"}</td>
  <td>${dateTime(key.createdAt)}</td>
  <td>${dateTime(key.lastUsedAt)}</td>
  <td>${dateTime(key.expiresAt)}</td>
  <td>${statusOf(key, now)}</td>
  <td>${
    mayRevoke(view, key)
      ? postButton(`/console/keys/${encodeURIComponent(key.id)}/revoke`, "Revoke", chrome.csrf, {
          kind: "danger",
          ariaLabel: `Revoke ${key.name}`
        })
      : ""
  }</td>
</tr>`
  )

const createForm = (view: KeysView, chrome: PageChrome) => {
  const chosen = view.values?.service ?? view.services[0]?.service
  const ticked = new Set(view.values?.scopes ?? [])
  return html`<form method="post" action="/console/keys" class="stack" aria-labelledby="create-heading">
${csrfField(chrome.csrf)}
<div><label for="key-name">Name</label>
<input id="key-name" name="name" type="text" required maxlength="100"${attr("value", view.values?.name)}></div>
<fieldset><legend>Service</legend>${view.services.map(
    (s) =>
      html`<label><input type="radio" name="service" value="${s.service}"${attr("checked", s.service === chosen && "checked")}> ${s.label}</label>`
  )}</fieldset>
${view.services.map(
  (s) =>
    html`<fieldset><legend>${s.label} scopes</legend>${
      s.scopes.length === 0
        ? html`<p class="hint">Your role may not give ${s.label} keys any scope.</p>`
        : s.scopes.map(
            (scope) =>
              html`<label><input type="checkbox" name="scopes" value="${scope}"${attr("checked", ticked.has(scope) && "checked")}> ${scope}</label>`
          )
    }</fieldset>`
)}
<p class="hint">Only the scopes of the chosen service are given to the key.</p>
<div><label for="key-expires">Last day it works (optional, UTC)</label>
<input id="key-expires" name="expiresAt" type="date"${attr("value", view.values?.expiresAt)}></div>
<div><button type="submit">Create key</button></div>
</form>`
}

export const renderKeysPage = (chrome: PageChrome, view: KeysView, now: Date): Html =>
  renderDocument(
    chrome,
    html`<h1>API keys</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
${view.created === undefined ? "" : createdPanel(view.created)}
<h2>Keys of this workspace</h2>
${
  view.keys.length === 0
    ? html`<p>No keys yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Service</th><th scope="col">Scopes</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${keyRows(view, chrome, now)}</tbody></table></div>`
}
<h2 id="create-heading">Create a key</h2>
${createForm(view, chrome)}`
  )
