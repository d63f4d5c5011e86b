// The OAuth authorization code flow as a client and a browser make it, by plain HTTP: registration,
// the authorization request with PKCE, the console's sign-in and consent (a ConsoleClient keeps the
// browser's cookies), the code at the client's redirect URI, and the token requests.
import { createHash, randomBytes } from "node:crypto"
import { expect } from "vitest"
import type { RunningApp } from "../support/app.js"
import type { ConsoleClient } from "../support/console.js"
import { csrfOf } from "../support/console.js"

export const REDIRECT_URI = "http://127.0.0.1:9/callback"

export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

export const resourceOf = (app: RunningApp) => `${app.origin}/share/mcp`

export const register = async (
  app: RunningApp,
  metadata: Record<string, unknown> = {}
): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${app.origin}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...metadata
    })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

export interface AuthorizeOptions {
  readonly clientId: string
  readonly challenge: string
  readonly scope?: string
  readonly redirectUri?: string
  readonly resource?: string
}

export const authorizeUrl = (app: RunningApp, o: AuthorizeOptions) => {
  const url = new URL(`${app.origin}/oauth/authorize`)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("client_id", o.clientId)
  url.searchParams.set("redirect_uri", o.redirectUri ?? REDIRECT_URI)
  url.searchParams.set("scope", o.scope ?? "read write delete")
  url.searchParams.set("state", "state-1")
  url.searchParams.set("code_challenge", o.challenge)
  url.searchParams.set("code_challenge_method", "S256")
  url.searchParams.set("resource", o.resource ?? resourceOf(app))
  return url
}

/** Follows the browser's way from the authorization request to the consent page. */
export const startAuthorization = async (browser: ConsoleClient, app: RunningApp, o: AuthorizeOptions) => {
  const url = authorizeUrl(app, o)
  const first = await browser.get(`${url.pathname}${url.search}`)
  return first
}

/** Consents on the page at `interaction` and follows the redirects to the client's redirect URI. */
export const consent = async (
  browser: ConsoleClient,
  interaction: string,
  choice: { readonly workspace: string; readonly scopes: ReadonlyArray<string>; readonly decision?: string }
): Promise<URL> => {
  const page = await browser.get(interaction)
  expect(page.status).toBe(200)
  const csrf = csrfOf(await page.text())
  const answer = await browser.post(interaction, {
    csrf,
    workspace: choice.workspace,
    scope: choice.scopes,
    decision: choice.decision ?? "approve"
  })
  expect(answer.status).toBe(303)
  const resume = new URL(answer.headers.get("location") ?? "", "http://x")
  const back = await browser.get(`${resume.pathname}${resume.search}`)
  if (![302, 303].includes(back.status) || !(back.headers.get("location") ?? "").startsWith("http"))
    throw new Error(
      `resume ${resume} answered ${back.status} ${back.headers.get("location")} ${await back.text()}`
    )
  return new URL(back.headers.get("location") ?? "")
}

/** The whole way: authorization request, consent, the code. */
export const authorizeCode = async (
  browser: ConsoleClient,
  app: RunningApp,
  o: AuthorizeOptions,
  choice: { readonly workspace: string; readonly scopes: ReadonlyArray<string> }
): Promise<string> => {
  const first = await startAuthorization(browser, app, o)
  expect(first.status).toBe(303)
  const interaction = new URL(first.headers.get("location") ?? "", app.origin).pathname
  expect(interaction).toMatch(/^\/oauth\/interaction\//)
  const redirect = await consent(browser, interaction, choice)
  expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI)
  expect(redirect.searchParams.get("state")).toBe("state-1")
  return redirect.searchParams.get("code") ?? ""
}

export const tokenRequest = async (app: RunningApp, fields: Record<string, string>) => {
  const response = await fetch(`${app.origin}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields)
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
