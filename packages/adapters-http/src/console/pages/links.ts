// The pages behind one-time links: accepting an invitation (or the first owner's setup link), asking
// for a password reset, and choosing a new password.
import type { Role } from "@folio/domain"
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, type PageChrome, renderDocument } from "../layout.js"

export interface InvitationView {
  readonly token: string
  readonly kind: "invitation" | "setup"
  readonly workspaceName: string
  readonly email: string | null
  readonly role: Role
  /** Signed in as this e-mail: a button joins with that account. */
  readonly signedInAs: string | null
  /** An account with the invitation's e-mail exists and the visitor is not signed in. */
  readonly signInFirst: boolean
  readonly values?: { readonly email?: string; readonly displayName?: string }
  readonly error?: string | undefined
}

export const renderInvitationPage = (chrome: PageChrome, view: InvitationView): Html => {
  const action = `/invitations/${encodeURIComponent(view.token)}`
  const heading =
    view.kind === "setup" ? html`Set up ${view.workspaceName}` : html`Join ${view.workspaceName}`
  const intro =
    view.kind === "setup"
      ? html`<p>Create the owner account of the workspace <strong>${view.workspaceName}</strong>.</p>`
      : html`<p>You are invited to <strong>${view.workspaceName}</strong> as <strong>${view.role}</strong>.</p>`
  const form =
    view.signedInAs !== null
      ? html`<form method="post" action="${action}" class="stack">${csrfField(chrome.csrf)}
  <p>You are signed in as ${view.signedInAs}.</p>
  <div><button type="submit">Accept invitation</button></div></form>`
      : view.signInFirst
        ? html`<p>An account with this e-mail address exists. Sign in first, then open this link again.</p>
<p><a href="/sign-in?next=${encodeURIComponent(action)}">Sign in</a></p>`
        : html`<form method="post" action="${action}" class="stack">${csrfField(chrome.csrf)}
  ${
    view.email === null
      ? html`<div><label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required${attr("value", view.values?.email)}></div>`
      : html`<p>Email: <strong>${view.email}</strong></p>`
  }
  <div><label for="displayName">Your name</label>
  <input id="displayName" name="displayName" type="text" autocomplete="name" required maxlength="100"${attr(
    "value",
    view.values?.displayName
  )}></div>
  <div><label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256" aria-describedby="password-hint">
  <p class="hint" id="password-hint">10 to 256 characters. You can add a passkey once signed in.</p></div>
  <div><button type="submit">Create account</button></div></form>`
  return renderDocument(chrome, html`<h1>${heading}</h1>${intro}${alertBox(view.error)}${form}`, {
    narrow: true
  })
}

export const renderResetRequestPage = (
  chrome: PageChrome,
  view: { readonly sent: boolean; readonly error?: string }
) =>
  renderDocument(
    chrome,
    view.sent
      ? html`<h1>Check your e-mail</h1>
<p role="status">If an account exists for that address, we sent it a link to choose a new password. The link works for one hour.</p>
<p><a href="/sign-in">Back to sign-in</a></p>`
      : html`<h1>Reset your password</h1>${alertBox(view.error)}
<form method="post" action="/reset-password" class="stack">${csrfField(chrome.csrf)}
  <div><label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required></div>
  <div><button type="submit">Send reset link</button></div>
</form>
<p><a href="/sign-in">Back to sign-in</a></p>`,
    { narrow: true }
  )

export const renderResetPasswordPage = (
  chrome: PageChrome,
  view: { readonly token: string; readonly error?: string }
) =>
  renderDocument(
    chrome,
    html`<h1>Choose a new password</h1>${alertBox(view.error)}
<form method="post" action="/reset-password/${encodeURIComponent(view.token)}" class="stack">${csrfField(chrome.csrf)}
  <div><label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256" aria-describedby="password-hint">
  <p class="hint" id="password-hint">10 to 256 characters. Every session of the account is signed out.</p></div>
  <div><button type="submit">Save</button></div>
</form>`,
    { narrow: true }
  )
