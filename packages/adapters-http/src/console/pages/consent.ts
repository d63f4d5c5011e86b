// The consent page of an OAuth authorization: which application asks (its name and where it will
// receive the answer), the workspace it will act in (one of the person's), the sharing scopes it
// asked for (read ticked, the rest left to the person), Approve or Deny.
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, type PageChrome, renderDocument } from "../layout.js"

export interface ConsentWorkspace {
  readonly tenantId: string
  readonly name: string
  readonly role: string
  /** The scopes the person's role lets them grant in this workspace. */
  readonly grantable: ReadonlyArray<string>
  readonly disabled: boolean
}

export interface ConsentView {
  readonly uid: string
  readonly clientName: string
  readonly clientId: string
  /** The origin (scheme and host) the answer goes to. */
  readonly redirectHost: string
  readonly requestedScopes: ReadonlyArray<string>
  readonly workspaces: ReadonlyArray<ConsentWorkspace>
  readonly selectedTenant: string | undefined
  readonly selectedScopes: ReadonlyArray<string>
  readonly error?: string | undefined
}

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  read: "Read your links, pages, files and analytics",
  write: "Create and change links, pages, collections and uploads",
  delete: "Delete links, pages and files"
}

export const renderConsentPage = (chrome: PageChrome, view: ConsentView): Html => {
  const selected = view.selectedTenant ?? view.workspaces.find((w) => !w.disabled)?.tenantId
  return renderDocument(
    chrome,
    html`<h1>Connect ${view.clientName} to Folio</h1>
${alertBox(view.error)}
<p><strong>${view.clientName}</strong> asks to use Folio sharing on your behalf.
It will receive the answer at <code>${view.redirectHost}</code>.</p>
${view.clientName === view.clientId ? "" : html`<p class="hint">Application id: <code>${view.clientId}</code></p>`}
<form method="post" action="/oauth/interaction/${view.uid}" class="stack">
  ${csrfField(chrome.csrf)}
  <fieldset><legend>Workspace</legend>
  ${view.workspaces.map(
    (w) =>
      html`<div><label><input type="radio" name="workspace" value="${w.tenantId}"${attr(
        "checked",
        w.tenantId === selected && "checked"
      )}${attr("disabled", w.disabled && "disabled")}> ${w.name} (${w.role})${
        w.role === "member" ? html` · members may grant: ${w.grantable.join(", ") || "nothing"}` : ""
      }${w.disabled ? " · disabled" : ""}</label></div>`
  )}
  </fieldset>
  <fieldset><legend>Allow the application to</legend>
  ${view.requestedScopes.map(
    (s) =>
      html`<div><label><input type="checkbox" name="scope" value="${s}"${attr(
        "checked",
        view.selectedScopes.includes(s) && "checked"
      )}> <strong>${s}</strong>: ${SCOPE_TEXT[s] ?? s}</label></div>`
  )}
  </fieldset>
  <div><button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>
</form>
<p class="hint">You can disconnect the application at any time under Connected apps.</p>`,
    { narrow: true }
  )
}
