// The workspace settings page: its name, the forms feature gates, the scopes members may give their
// keys, and disabling the workspace (owners). Read-only for roles that may not change them.
import { type FeatureName, mayRun, type Role, type ServiceName } from "@folio/domain"
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, noticeBox, type PageChrome, postButton, renderDocument } from "../layout.js"

export interface SettingsView {
  readonly role: Role
  readonly name: string
  readonly disabled: boolean
  readonly features: Readonly<Record<FeatureName, boolean>>
  readonly memberScopes: ReadonlyArray<{
    readonly service: ServiceName
    readonly label: string
    readonly all: ReadonlyArray<string>
    readonly allowed: ReadonlyArray<string>
  }>
  readonly error?: string | undefined
  readonly notice?: string | undefined
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export const renderSettingsPage = (chrome: PageChrome, view: SettingsView): Html => {
  const rename = mayRun(view.role, "renameWorkspace")
  const features = mayRun(view.role, "changeFeatures")
  const scopes = mayRun(view.role, "changeMemberKeyScopes")
  const off = (may: boolean) => attr("disabled", !may && "disabled")
  return renderDocument(
    chrome,
    html`<h1>Workspace settings</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
${view.disabled ? html`<p role="alert">This workspace is disabled: every key of it is refused.</p>` : ""}
<h2>Name</h2>
<form method="post" action="/console/settings/name" class="stack">${csrfField(chrome.csrf)}
<div><label for="workspace-name">Workspace name</label>
<input id="workspace-name" name="name" type="text" required maxlength="200" value="${view.name}"${off(rename)}></div>
${rename ? html`<div><button type="submit">Save</button></div>` : ""}</form>
<h2>Forms features</h2>
<form method="post" action="/console/settings/features" class="stack">${csrfField(chrome.csrf)}
<fieldset><legend>Features on in this workspace</legend>${(
      Object.keys(view.features) as Array<FeatureName>
    ).map(
      (f) =>
        html`<label><input type="checkbox" name="${snake(f)}" value="on"${attr("checked", view.features[f] && "checked")}${off(features)}> ${snake(f)}</label>`
    )}</fieldset>
${features ? html`<div><button type="submit">Save</button></div>` : ""}</form>
<h2>Scopes members may give their keys</h2>
<form method="post" action="/console/settings/member-scopes" class="stack">${csrfField(chrome.csrf)}
${view.memberScopes.map(
  (s) =>
    html`<fieldset><legend>${s.label}</legend>${s.all.map(
      (scope) =>
        html`<label><input type="checkbox" name="${s.service}" value="${scope}"${attr("checked", s.allowed.includes(scope) && "checked")}${off(scopes)}> ${scope}</label>`
    )}</fieldset>`
)}
${scopes ? html`<div><button type="submit">Save</button></div>` : ""}</form>
${
  mayRun(view.role, "disableWorkspace")
    ? html`<h2>${view.disabled ? "Enable" : "Disable"} the workspace</h2>
<p>${view.disabled ? "Its keys work again." : "Every key of the workspace is refused while it is disabled; its public pages answer as absent."}</p>
${
  view.disabled
    ? postButton("/console/settings/enable", "Enable workspace", chrome.csrf)
    : postButton("/console/settings/disable", "Disable workspace", chrome.csrf, { kind: "danger" })
}`
    : ""
}`
  )
}
