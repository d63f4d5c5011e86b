// The sign-in page: e-mail and password (a plain form post), or a passkey (the script, when the
// browser can). One message for every wrong e-mail or password.
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, noticeBox, type PageChrome, renderDocument } from "../layout.js"

export interface SignInView {
  readonly email?: string | undefined
  readonly next?: string | undefined
  readonly error?: string | undefined
  readonly notice?: string | undefined
}

export const renderSignInPage = (chrome: PageChrome, view: SignInView): Html =>
  renderDocument(
    chrome,
    html`<h1>Sign in to Folio</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
<form method="post" action="/sign-in" class="stack">
  ${csrfField(chrome.csrf)}
  ${view.next === undefined ? "" : html`<input type="hidden" name="next" value="${view.next}">`}
  <div><label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username webauthn" required${attr("value", view.email)}></div>
  <div><label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required></div>
  <div><button type="submit">Sign in</button></div>
</form>
<div data-passkey-box hidden>
  <p class="or">or</p>
  <p role="alert" data-passkey-error hidden></p>
  <button type="button" class="secondary" data-passkey-sign-in>Sign in with a passkey</button>
</div>
<p><a href="/reset-password">Forgot your password?</a></p>`,
    { narrow: true }
  )
