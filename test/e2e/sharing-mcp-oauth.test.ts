// The sharing MCP server with OAuth sign-in, end to end: the MCP SDK's own client with an
// OAuthClientProvider against the running app (memory storage, and PGlite, or PostgreSQL when
// TEST_DATABASE_URL is set). The 401 names the resource metadata, the client discovers the
// authorization server, registers (by a client ID metadata document on a local HTTPS server, or
// dynamically), sends the person to the authorization endpoint; Chromium signs in to the console
// and consents; the client exchanges the code (PKCE), calls the endpoint, refreshes; a revoked
// grant is refused. Then the refusals, by plain HTTP: PKCE, redirect URI, audience, expiry,
// revocation, scope, refresh token reuse, client metadata documents on private addresses or too big.
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { mcpClient } from "../support/mcp-client.js"
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { OAuthAccessTokens, OAuthStore, type TenantRecord, ViewCounter, VisitRecorder } from "@folio/domain"
import { Effect, Option } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { sharedBrowser } from "../support/browser.js"
import { checkPage, clean } from "../support/console-browser.js"
import { invitedPerson, type Person, workspaceWithOwner } from "../support/console.js"
import { startHttpsReceiver } from "../support/https-receiver.js"
import { openStorage, realStorageName, type StorageName, storageSkipped } from "../support/storage.js"
import {
  authorizeCode,
  authorizeUrl,
  consent,
  pkcePair,
  REDIRECT_URI,
  register,
  resourceOf,
  startAuthorization,
  tokenRequest
} from "./oauth-flow.js"

const browser = sharedBrowser()

/** Where the MCP client receives the code: a local HTTP server recording each callback URL. */
const startCallbackServer = async () => {
  const hits: Array<URL> = []
  const server: Server = createServer((req, res) => {
    hits.push(new URL(req.url ?? "/", "http://127.0.0.1"))
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("You can close this window.")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/callback`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The MCP client's side of OAuth, kept in memory (what a desktop client keeps in its settings). */
class TestOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  authorizationUrl: URL | undefined
  /** Set for a client that registers by its metadata document (its URL is its client id). */
  clientMetadataUrl?: string
  constructor(
    readonly callback: string,
    metadataUrl?: string
  ) {
    if (metadataUrl !== undefined) this.clientMetadataUrl = metadataUrl
  }
  get redirectUrl() {
    return this.callback
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test MCP client",
      redirect_uris: [this.callback],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

const contextScopes = async (client: Client): Promise<ReadonlyArray<string>> => {
  const read = await client.readResource({ uri: "svc://account/context" })
  const first = read.contents[0]
  const text = first !== undefined && "text" in first ? String(first.text) : "{}"
  return (JSON.parse(text) as { scopes: ReadonlyArray<string> }).scopes
}

/** A raw JSON-RPC ping to /share/mcp with a bearer: the status and the challenge. */
const ping = async (app: RunningApp, bearer: string | undefined) => {
  const response = await fetch(`${app.origin}/share/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` })
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
  })
  await response.text()
  return { status: response.status, challenge: response.headers.get("www-authenticate") }
}

/** In Chromium: the authorization URL, the console's sign-in, the consent; the code the client got. */
const signInAndConsent = async (
  page: Page,
  authorization: URL,
  person: Person,
  callback: string,
  scopes: ReadonlyArray<string>
) => {
  await page.goto(authorization.href)
  await page.waitForURL(/\/sign-in\?next=/)
  await page.fill("#email", person.email)
  await page.fill("#password", person.password)
  await page.click("form[action='/sign-in'] button[type=submit]")
  await page.waitForURL(/\/oauth\/interaction\//)
  expect(await page.textContent("h1")).toBe("Connect Test MCP client to Folio")
  // The consent page passes the console's page checks (axe, no sideways scroll on a phone).
  expect(await checkPage(page)).toEqual(clean(page))
  // Read is ticked by default; the others only when the person ticks them.
  expect(await page.isChecked("input[name=scope][value=read]")).toBe(true)
  expect(await page.isChecked("input[name=scope][value=write]")).toBe(false)
  for (const scope of ["read", "write", "delete"]) {
    const box = page.locator(`input[name=scope][value=${scope}]`)
    if (scopes.includes(scope)) await box.check()
    else await box.uncheck()
  }
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(callback)),
    page.click("button[value=approve]")
  ])
  const landed = new URL(page.url())
  expect(landed.searchParams.get("error")).toBeNull()
  return landed.searchParams.get("code") ?? ""
}

// The memory store, and the SQL store: PostgreSQL when TEST_DATABASE_URL is set, else PGlite.
const targets: ReadonlyArray<StorageName> = ["memory", realStorageName]

describe.each(targets)("OAuth sign-in for the sharing MCP server on %s", (name) => {
  const skip = storageSkipped(name)
  let app: RunningApp
  let drop: () => Promise<void> = async () => {}
  let tenant: TenantRecord
  let owner: Person
  let callback: Awaited<ReturnType<typeof startCallbackServer>>
  let metadataHost: Awaited<ReturnType<typeof startHttpsReceiver>>
  const clients: Array<Client> = []

  beforeAll(async () => {
    if (skip) return
    metadataHost = await startHttpsReceiver()
    const opened = await openStorage(name)
    drop = opened.drop
    app = await startApp({
      storage: opened.storage,
      config: { webhookAllowLoopback: true, webhookCaFile: Option.some(metadataHost.caFile) }
    })
    callback = await startCallbackServer()
    ;({ tenant, owner } = await workspaceWithOwner(app, "Acme"))
  })
  afterAll(async () => {
    if (skip) return
    for (const c of clients) await c.close()
    await app?.close()
    await drop()
    await callback?.close()
    await metadataHost?.close()
  })

  const mcpUrl = () => new URL(`${app.origin}/share/mcp`)

  const connected = async (provider: TestOAuthProvider) => {
    const client = mcpClient("oauth-test")
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }))
    clients.push(client)
    return client
  }

  /** The SDK's whole way in: 401, discovery, registration, the browser, the code, the tokens. */
  const authorizeWithSdk = async (
    provider: TestOAuthProvider,
    person: Person,
    scopes: ReadonlyArray<string>
  ) => {
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })
    const first = mcpClient("oauth-test")
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    expect(provider.authorizationUrl?.pathname).toBe("/oauth/authorize")
    const page = await browser.newPage()
    const code = await signInAndConsent(page, provider.authorizationUrl as URL, person, callback.url, scopes)
    await transport.finishAuth(code)
    expect(provider.saved?.access_token).toBeDefined()
    return connected(provider)
  }

  it.skipIf(skip)(
    "answers 401 naming the resource metadata, which names the authorization server",
    async () => {
      const refused = await ping(app, undefined)
      expect(refused.status).toBe(401)
      const metadataUrl = `${app.origin}/.well-known/oauth-protected-resource/share/mcp`
      expect(refused.challenge).toBe(`Bearer resource_metadata="${metadataUrl}"`)
      const metadata = await (await fetch(metadataUrl)).json()
      // The same document at the well-known root.
      expect(await (await fetch(`${app.origin}/.well-known/oauth-protected-resource`)).json()).toEqual(
        metadata
      )
      expect(metadata).toMatchObject({
        resource: `${app.origin}/share/mcp`,
        authorization_servers: [app.origin],
        scopes_supported: ["read", "write", "delete"],
        bearer_methods_supported: ["header"]
      })
      const server = (await (
        await fetch(`${app.origin}/.well-known/oauth-authorization-server`)
      ).json()) as Record<string, unknown>
      expect(server).toMatchObject({
        issuer: app.origin,
        authorization_endpoint: `${app.origin}/oauth/authorize`,
        token_endpoint: `${app.origin}/oauth/token`,
        registration_endpoint: `${app.origin}/oauth/register`,
        revocation_endpoint: `${app.origin}/oauth/revoke`,
        code_challenge_methods_supported: ["S256"],
        client_id_metadata_document_supported: true
      })
      expect(server.introspection_endpoint).toBeUndefined()
      expect(server.userinfo_endpoint).toBeUndefined()
    }
  )

  it.skipIf(skip)(
    "connects a client registered by its metadata document: consent in the browser, tools, refresh, revocation",
    async () => {
      metadataHost.answerWith(() => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: metadataHost.url,
          client_name: "Test MCP client",
          redirect_uris: [callback.url],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        })
      }))
      const provider = new TestOAuthProvider(callback.url, metadataHost.url)
      const client = await authorizeWithSdk(provider, owner, ["read", "write"])
      // No registration: the client's id is its document's URL, which the server fetched.
      expect(provider.info?.client_id).toBe(metadataHost.url)
      expect(metadataHost.received.length).toBeGreaterThan(0)
      expect(await contextScopes(client)).toEqual(["read", "write"])

      // Tools, as the person: create a link, visit it, read its analytics summary.
      const created = await client.callTool({
        name: "sharing_create",
        arguments: {
          resource: { type: "link", slug: "oauth-launch", target_url: "https://example.com/launch" }
        }
      })
      expect(created.isError).not.toBe(true)
      expect((created.structuredContent as { resource: { url: string } }).resource.url).toBe(
        `${app.origin}/s/oauth-launch`
      )
      expect((await fetch(`${app.origin}/s/oauth-launch`, { redirect: "manual" })).status).toBe(302)
      await app.run(
        Effect.andThen(
          Effect.flatMap(VisitRecorder, (r) => r.flush),
          Effect.flatMap(ViewCounter, (v) => v.flush)
        )
      )
      const summary = await client.callTool({
        name: "sharing_analytics",
        arguments: { slug: "oauth-launch" }
      })
      expect(summary.isError).not.toBe(true)
      expect(summary.structuredContent).toMatchObject({ slug: "oauth-launch", totals: { views: 1 } })

      // Refresh: a new pair; the old refresh token is spent.
      const refreshed = await tokenRequest(app, {
        grant_type: "refresh_token",
        refresh_token: provider.saved?.refresh_token ?? "",
        client_id: metadataHost.url
      })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.scope).toBe("read write")
      expect(refreshed.body.refresh_token).not.toBe(provider.saved?.refresh_token)
      expect((await ping(app, String(refreshed.body.access_token))).status).toBe(200)

      // Revoked in the console's connected apps: every token of the grant is refused at once.
      const apps = await owner.client.page("/console/apps")
      expect(apps.status).toBe(200)
      // Named as its metadata document named it at consent, though the document is not stored.
      expect(apps.html).toContain("Test MCP client")
      const revoke = /action="(\/console\/apps\/[^"]+\/revoke)"/.exec(apps.html)?.[1]
      expect(revoke).toBeDefined()
      const revoked = await owner.client.post(revoke ?? "", { csrf: apps.csrf })
      expect(revoked.status).toBe(303)
      const refused = await ping(app, String(refreshed.body.access_token))
      expect(refused.status).toBe(401)
      expect(refused.challenge).toContain('error="invalid_token"')
      expect(
        (
          await tokenRequest(app, {
            grant_type: "refresh_token",
            refresh_token: String(refreshed.body.refresh_token),
            client_id: metadataHost.url
          })
        ).status
      ).toBe(400)
    }
  )

  it.skipIf(skip)("connects a dynamically registered client with the scopes the person chose", async () => {
    const provider = new TestOAuthProvider(callback.url)
    const client = await authorizeWithSdk(provider, owner, ["read"])
    expect(typeof provider.info?.client_id).toBe("string")
    expect(provider.info?.client_id).not.toMatch(/^https:/)
    expect(await contextScopes(client)).toEqual(["read"])
    // A read-only grant: the write tools are not listed, and calling one is refused.
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain("sharing_query")
    expect(names).not.toContain("sharing_create")
    const refused = await client.callTool({
      name: "sharing_create",
      arguments: { resource: { type: "link", target_url: "https://example.com/" } }
    })
    expect(refused.isError).toBe(true)
    expect((refused.structuredContent as { error: { code: string } }).error.code).toBe("insufficient_scope")
  })

  describe("refusals", () => {
    const dcrClient = async () => String((await register(app)).body.client_id)

    it.skipIf(skip)("refuses a code without its PKCE verifier, with a wrong one, or used twice", async () => {
      const clientId = await dcrClient()
      const { verifier, challenge } = pkcePair()
      const code = await authorizeCode(
        owner.client,
        app,
        { clientId, challenge },
        { workspace: tenant.id, scopes: ["read"] }
      )
      const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: clientId }
      const missing = await tokenRequest(app, base)
      expect(missing.status).toBe(400)
      const wrong = await tokenRequest(app, { ...base, code_verifier: pkcePair().verifier })
      expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
      // The right verifier redeems it, once: a second use is refused and revokes what the first got.
      const redeemed = await tokenRequest(app, { ...base, code_verifier: verifier })
      expect(redeemed.status).toBe(200)
      expect((await ping(app, String(redeemed.body.access_token))).status).toBe(200)
      const reused = await tokenRequest(app, { ...base, code_verifier: verifier })
      expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
      expect((await ping(app, String(redeemed.body.access_token))).status).toBe(401)
    })

    it.skipIf(skip)("refuses an authorization request without PKCE", async () => {
      const clientId = await dcrClient()
      const url = authorizeUrl(app, { clientId, challenge: "x" })
      url.searchParams.delete("code_challenge")
      url.searchParams.delete("code_challenge_method")
      const answer = await owner.client.get(`${url.pathname}${url.search}`)
      const location = new URL(answer.headers.get("location") ?? "", app.origin)
      expect(location.searchParams.get("error")).toBe("invalid_request")
    })

    it.skipIf(skip)(
      "refuses a redirect URI the client did not register, without redirecting to it",
      async () => {
        const clientId = await dcrClient()
        const answer = await startAuthorization(owner.client, app, {
          clientId,
          challenge: pkcePair().challenge,
          redirectUri: "http://127.0.0.1:9/elsewhere"
        })
        expect(answer.status).toBe(400)
        expect(answer.headers.get("location")).toBeNull()
        expect(await answer.text()).toContain("redirect_uri")
      }
    )

    it.skipIf(skip)(
      "refuses tokens for another resource, and verifies a token only for its own audience",
      async () => {
        const clientId = await dcrClient()
        const other = await startAuthorization(owner.client, app, {
          clientId,
          challenge: pkcePair().challenge,
          resource: "https://elsewhere.example/mcp"
        })
        const location = new URL(other.headers.get("location") ?? "", app.origin)
        expect(location.searchParams.get("error")).toBe("invalid_target")

        const { verifier, challenge } = pkcePair()
        const code = await authorizeCode(
          owner.client,
          app,
          { clientId, challenge },
          { workspace: tenant.id, scopes: ["read"] }
        )
        const token = await tokenRequest(app, {
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          code_verifier: verifier
        })
        const accessToken = String(token.body.access_token)
        const verify = (resource: string) =>
          app.run(Effect.flatMap(Effect.service(OAuthAccessTokens), (t) => t.verify(accessToken, resource)))
        expect(Option.isSome(await verify(resourceOf(app)))).toBe(true)
        expect(Option.isNone(await verify("https://elsewhere.example/mcp"))).toBe(true)
      }
    )

    const tokenFor = async (scopes: ReadonlyArray<string>, person: Person = owner) => {
      const clientId = await dcrClient()
      const { verifier, challenge } = pkcePair()
      const code = await authorizeCode(
        person.client,
        app,
        { clientId, challenge },
        { workspace: tenant.id, scopes }
      )
      const token = await tokenRequest(app, {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier
      })
      expect(token.status).toBe(200)
      return { clientId, access: String(token.body.access_token), refresh: String(token.body.refresh_token) }
    }

    it.skipIf(skip)("refuses a revoked access token and an expired one", async () => {
      const revoked = await tokenFor(["read"])
      expect((await ping(app, revoked.access)).status).toBe(200)
      const answer = await fetch(`${app.origin}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: revoked.access, client_id: revoked.clientId })
      })
      expect(answer.status).toBe(200)
      expect((await ping(app, revoked.access)).status).toBe(401)

      // Expired: the stored token's lifetime moved into the past.
      const expiring = await tokenFor(["read"])
      await app.run(
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const now = new Date()
          // Kept as API keys are: under its SHA-256, the value itself nowhere in the record.
          expect(Option.isNone(yield* store.find("AccessToken", expiring.access, now))).toBe(true)
          const storedId = `sha256:${createHash("sha256").update(expiring.access).digest("base64url")}`
          const found = yield* store.find("AccessToken", storedId, now)
          if (Option.isNone(found)) throw new Error("the token is not stored under its hash")
          expect(JSON.stringify(found.value)).not.toContain(expiring.access)
          const refresh = yield* store.find(
            "RefreshToken",
            `sha256:${createHash("sha256").update(expiring.refresh).digest("base64url")}`,
            now
          )
          expect(Option.isSome(refresh)).toBe(true)
          expect(JSON.stringify(refresh)).not.toContain(expiring.refresh)
          const past = Math.floor(now.getTime() / 1000) - 10
          yield* store.upsert(
            {
              ...found.value,
              payload: { ...found.value.payload, exp: past },
              expiresAt: new Date(now.getTime() - 10_000)
            },
            now
          )
        })
      )
      const expired = await ping(app, expiring.access)
      expect(expired.status).toBe(401)
      expect(expired.challenge).toContain('error="invalid_token"')
    })

    it.skipIf(skip)("refuses a refresh token used again after rotation, and revokes its family", async () => {
      const first = await tokenFor(["read"])
      const rotated = await tokenRequest(app, {
        grant_type: "refresh_token",
        refresh_token: first.refresh,
        client_id: first.clientId
      })
      expect(rotated.status).toBe(200)
      const replay = await tokenRequest(app, {
        grant_type: "refresh_token",
        refresh_token: first.refresh,
        client_id: first.clientId
      })
      expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
      // The whole grant is gone: the rotated pair no longer works either.
      expect((await ping(app, String(rotated.body.access_token))).status).toBe(401)
      const again = await tokenRequest(app, {
        grant_type: "refresh_token",
        refresh_token: String(rotated.body.refresh_token),
        client_id: first.clientId
      })
      expect(again.status).toBe(400)
    })

    it.skipIf(skip)(
      "lets a member grant only what members' keys may hold, and caps tokens by the role now",
      async () => {
        const member = await invitedPerson(app, tenant.id, "member")
        const clientId = await dcrClient()
        const first = await startAuthorization(member.client, app, {
          clientId,
          challenge: pkcePair().challenge
        })
        const interaction = new URL(first.headers.get("location") ?? "", app.origin).pathname
        const page = await member.client.page(interaction)
        const refused = await member.client.post(interaction, {
          csrf: page.csrf,
          workspace: tenant.id,
          scope: ["read", "delete"],
          decision: "approve"
        })
        expect(refused.status).toBe(400)
        expect(await refused.text()).toContain("you may grant only: read")
      }
    )

    it.skipIf(skip)(
      "shows an authorization only to the browser that started it, and checks CSRF",
      async () => {
        const clientId = await dcrClient()
        const first = await startAuthorization(owner.client, app, {
          clientId,
          challenge: pkcePair().challenge
        })
        const interaction = new URL(first.headers.get("location") ?? "", app.origin).pathname
        // Another signed-in browser (no interaction cookie) is told the request is gone.
        const other = await invitedPerson(app, tenant.id, "admin")
        const elsewhere = await other.client.page(interaction)
        expect(elsewhere.status).toBe(404)
        expect(elsewhere.html).toContain("This request has expired")
        // A post without the session's CSRF token, or from another origin, changes nothing.
        const page = await owner.client.page(interaction)
        expect(page.status).toBe(200)
        const forged = await owner.client.post(interaction, {
          csrf: "nope",
          workspace: tenant.id,
          scope: "read"
        })
        expect(forged.status).toBe(403)
        const crossOrigin = await owner.client.post(
          interaction,
          { csrf: page.csrf, workspace: tenant.id, scope: "read" },
          { origin: "https://evil.example" }
        )
        expect(crossOrigin.status).toBe(403)
        // Signed out: the sign-in page, coming back here.
        const signedOut = await fetch(`${app.origin}${interaction}`, {
          redirect: "manual",
          headers: {
            cookie: [...owner.client.cookies]
              .filter(([k]) => k.startsWith("folio_oauth"))
              .map(([k, v]) => `${k}=${v}`)
              .join("; ")
          }
        })
        expect(signedOut.status).toBe(303)
        expect(signedOut.headers.get("location")).toBe(`/sign-in?next=${encodeURIComponent(interaction)}`)
      }
    )

    it.skipIf(skip)("sends the client access_denied when the person denies", async () => {
      const clientId = await dcrClient()
      const first = await startAuthorization(owner.client, app, { clientId, challenge: pkcePair().challenge })
      const interaction = new URL(first.headers.get("location") ?? "", app.origin).pathname
      const redirect = await consent(owner.client, interaction, {
        workspace: tenant.id,
        scopes: [],
        decision: "deny"
      })
      expect(redirect.searchParams.get("error")).toBe("access_denied")
      expect(redirect.searchParams.get("code")).toBeNull()
    })

    it.skipIf(skip)("limits client registrations per address (20 an hour)", async () => {
      const statuses: Array<number> = []
      for (let i = 0; i < 25 && !statuses.includes(429); i++) statuses.push((await register(app)).status)
      expect(statuses.at(-1)).toBe(429)
      expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true)
      const refused = await fetch(`${app.origin}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT_URI] })
      })
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toBe("3600")
      expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" })
    })

    it.skipIf(skip)("refuses client metadata documents on private addresses, and too big ones", async () => {
      const tryClient = async (clientId: string) => {
        const answer = await startAuthorization(owner.client, app, {
          clientId,
          challenge: pkcePair().challenge
        })
        return { status: answer.status, location: answer.headers.get("location"), text: await answer.text() }
      }
      for (const privateUrl of ["https://10.0.0.1/client.json", "https://169.254.169.254/client.json"]) {
        const refused = await tryClient(privateUrl)
        expect(refused.status).toBe(400)
        expect(refused.location).toBeNull()
        expect(refused.text).toContain("invalid_client")
      }
      const before = metadataHost.received.length
      metadataHost.answerWith(() => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: `${metadataHost.url}?big`,
          client_name: "x".repeat(6 * 1024),
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none"
        })
      }))
      const big = await tryClient(`${metadataHost.url}?big`)
      // Fetched (the address is allowed) and refused for its size.
      expect(metadataHost.received.length).toBeGreaterThan(before)
      expect(big.status).toBe(400)
      expect(big.text).toContain("invalid_client")
    })
  })
})
