// The console's one script: passkey sign-in and registration (WebAuthn needs JavaScript; every other
// action is a plain form post) and the copy button beside a newly created key. Loaded with the
// page's CSP nonce; no inline handlers.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser"

const csrfToken = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ""

const postJson = async (url: string, body: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrfToken() },
    body: JSON.stringify(body)
  })
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) {
    throw new Error(typeof json.message === "string" ? json.message : "something went wrong; try again")
  }
  return json
}

const showError = (target: HTMLElement, message: string) => {
  const alert = target.querySelector<HTMLElement>("[data-passkey-error]")
  if (alert === null) return
  alert.textContent = message
  alert.hidden = false
}

/** A cancelled prompt is not an error worth a scary message. */
const describe = (error: unknown): string =>
  error instanceof Error && error.name === "NotAllowedError"
    ? "the passkey prompt was closed or timed out"
    : error instanceof Error
      ? error.message
      : "something went wrong; try again"

const passkeySignIn = (button: HTMLButtonElement) => {
  const box = button.closest<HTMLElement>("[data-passkey-box]") ?? document.body
  button.addEventListener("click", async () => {
    button.disabled = true
    try {
      const begun = await postJson("/sign-in/passkey/options", {})
      const response = await startAuthentication({ optionsJSON: begun.options as never })
      const next = new URLSearchParams(location.search).get("next")
      const done = await postJson("/sign-in/passkey", { flowId: begun.flowId, response, next })
      location.assign(typeof done.redirect === "string" ? done.redirect : "/console/keys")
    } catch (error) {
      showError(box, describe(error))
      button.disabled = false
    }
  })
}

const passkeyRegistration = (form: HTMLFormElement) => {
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    const button = form.querySelector<HTMLButtonElement>("button")
    if (button !== null) button.disabled = true
    try {
      const name = (new FormData(form).get("name") ?? "").toString()
      const begun = await postJson("/console/account/passkeys/options", {})
      const response = await startRegistration({ optionsJSON: begun.options as never })
      await postJson("/console/account/passkeys", { flowId: begun.flowId, response, name })
      location.assign("/console/account?passkey=added")
    } catch (error) {
      showError(form, describe(error))
      if (button !== null) button.disabled = false
    }
  })
}

const copyButton = (button: HTMLButtonElement) => {
  button.hidden = false
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy ?? "")
    if (source === null) return
    try {
      await navigator.clipboard.writeText(source.textContent ?? "")
      button.textContent = "Copied"
    } catch {
      // No clipboard access (an insecure origin): select the text so the person can copy it.
      const range = document.createRange()
      range.selectNodeContents(source)
      getSelection()?.removeAllRanges()
      getSelection()?.addRange(range)
    }
  })
}

/** WebAuthn refuses an IP address as the relying party: passkeys need a host name. */
const onIpAddress = () => /^[\d.]+$/.test(location.hostname) || location.hostname.startsWith("[")

const start = () => {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) copyButton(button)
  const ip = onIpAddress()
  for (const note of document.querySelectorAll<HTMLElement>("[data-passkey-needs-host]")) note.hidden = !ip
  const webauthn = browserSupportsWebAuthn() && !ip
  for (const box of document.querySelectorAll<HTMLElement>("[data-passkey-box]")) box.hidden = !webauthn
  if (!webauthn) return
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-passkey-sign-in]"))
    passkeySignIn(button)
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-passkey-add]"))
    passkeyRegistration(form)
}

start()
