// The account page: the person's name, password, passkeys and sessions (with "sign out everywhere
// else"). Passkeys are added by the script (WebAuthn); everything else is a form post.
import type { PasskeyRecord, SessionRecord } from "@folio/domain"
import { type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, noticeBox, type PageChrome, postButton, renderDocument } from "../layout.js"
import { dateTime } from "./format.js"

export interface AccountView {
  readonly email: string
  readonly displayName: string
  readonly hasPassword: boolean
  readonly passkeys: ReadonlyArray<PasskeyRecord>
  readonly sessions: ReadonlyArray<SessionRecord>
  readonly currentSessionId: string
  readonly error?: string | undefined
  readonly notice?: string | undefined
}

export const renderAccountPage = (chrome: PageChrome, view: AccountView): Html =>
  renderDocument(
    chrome,
    html`<h1>Account</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
<p>Signed in as <strong>${view.email}</strong>.</p>
<h2>Name</h2>
<form method="post" action="/console/account/name" class="stack">${csrfField(chrome.csrf)}
<div><label for="display-name">Your name</label>
<input id="display-name" name="displayName" type="text" required maxlength="100" value="${view.displayName}"></div>
<div><button type="submit">Save</button></div></form>
<h2>Password</h2>
<form method="post" action="/console/account/password" class="stack">${csrfField(chrome.csrf)}
${
  view.hasPassword
    ? html`<div><label for="current-password">Current password</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" required></div>`
    : html`<p>This account signs in with passkeys only. You may set a password too.</p>`
}
<div><label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256" aria-describedby="new-password-hint">
<p class="hint" id="new-password-hint">10 to 256 characters. Your other sessions are signed out.</p></div>
<div><button type="submit">Save</button></div></form>
${
  view.hasPassword && view.passkeys.length > 0
    ? postButton("/console/account/password/remove", "Remove password", chrome.csrf, { kind: "danger" })
    : ""
}
<h2>Passkeys</h2>
${
  view.passkeys.length === 0
    ? html`<p>No passkeys yet.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${view.passkeys.map(
        (p) =>
          html`<tr><td>${p.name}</td><td>${dateTime(p.createdAt)}</td><td>${dateTime(p.lastUsedAt)}</td><td>${postButton(
            `/console/account/passkeys/${encodeURIComponent(p.id)}/remove`,
            "Remove",
            chrome.csrf,
            { kind: "danger", ariaLabel: `Remove the passkey ${p.name}` }
          )}</td></tr>`
      )}</tbody></table></div>`
}
<div data-passkey-box hidden>
<form data-passkey-add class="stack">
<p role="alert" data-passkey-error hidden></p>
<div><label for="passkey-name">Passkey name</label>
<input id="passkey-name" name="name" type="text" required maxlength="100" placeholder="e.g. my laptop"></div>
<div><button type="submit">Add a passkey</button></div></form>
</div>
<p data-passkey-needs-host hidden>Passkeys need the console at a host name: browsers refuse an IP address
as a passkey's site. Set <code>PUBLIC_ORIGIN</code> to one (for example <code>http://localhost:8080</code>)
and open the console there.</p>
<noscript><p>Adding a passkey needs JavaScript.</p></noscript>
<h2>Sessions</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Device</th><th scope="col">Address</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${view.sessions.map(
      (s) =>
        html`<tr><td>${s.userAgent ?? "unknown"}${s.id === view.currentSessionId ? html` <strong>(this one)</strong>` : ""}</td><td>${
          s.ip ?? ""
        }</td><td>${dateTime(s.createdAt)}</td><td>${dateTime(s.lastSeenAt)}</td><td>${
          s.id === view.currentSessionId
            ? ""
            : postButton(
                `/console/account/sessions/${encodeURIComponent(s.id)}/revoke`,
                "Sign out",
                chrome.csrf,
                {
                  kind: "secondary",
                  ariaLabel: "Sign out this session"
                }
              )
        }</td></tr>`
    )}</tbody></table></div>
${postButton("/console/account/sessions/revoke-others", "Sign out everywhere else", chrome.csrf, { kind: "danger" })}`
  )
