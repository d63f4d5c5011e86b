// The console's sessions over real HTTP: GET / and sign-in redirects, the cookie's attributes (and
// `__Host-` + Secure on an https origin), no fixation, a new token at every sign-in, sign-out ending
// the session, and the idle and absolute lifetimes.
import { sessionSetCookie } from "@folio/adapters-http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { clientFor, PASSWORD, signIn, workspaceWithOwner } from "../support/console.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("console sessions", () => {
  let app: RunningApp
  let email: string
  beforeAll(async () => {
    app = await startApp()
    email = (await workspaceWithOwner(app, "Sessions")).owner.email
  })
  afterAll(() => app.close())

  it("GET / sends a signed-out visitor to sign-in and a signed-in one to the console", async () => {
    const anonymous = await clientFor(app).get("/")
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get("location")).toBe("/sign-in")
    const { client } = await signIn(app, email, PASSWORD)
    const signed = await client.get("/")
    expect(signed.headers.get("location")).toBe("/console/keys")
    const keys = await client.get("/console/keys")
    expect(keys.status).toBe(200)
    expect(await keys.text()).toContain("<h1>API keys</h1>")
  })

  it("a signed-out console page leads to sign-in and back", async () => {
    const client = clientFor(app)
    const answer = await client.get("/console/members")
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe("/sign-in?next=%2Fconsole%2Fmembers")
    const { csrf } = await client.page("/sign-in?next=%2Fconsole%2Fmembers")
    const signedIn = await client.post("/sign-in", {
      csrf,
      email,
      password: PASSWORD,
      next: "/console/members"
    })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe("/console/members")
    // Another origin is never a destination.
    const other = await signIn(app, email, PASSWORD)
    expect(other.response.headers.get("location")).toBe("/console/keys")
    const { csrf: again } = await other.client.page("/sign-in")
    expect(again).toBe("") // already signed in: redirected, no form
  })

  it("refuses a foreign next (open redirect)", async () => {
    for (const next of ["//evil.test/", "https://evil.test/", "/\\evil.test"]) {
      const client = clientFor(app)
      const { csrf } = await client.page("/sign-in")
      const answer = await client.post("/sign-in", { csrf, email, password: PASSWORD, next })
      expect(answer.headers.get("location")).toBe("/console/keys")
    }
  })

  it("sets an HttpOnly, SameSite=Lax, Path=/ session cookie with no lifetime of its own (http origin)", async () => {
    const { client, response } = await signIn(app, email, PASSWORD)
    expect(response.status).toBe(303)
    const sent = client.received.find((c) => c.name === "folio_session")
    expect(sent).toBeDefined()
    const line = sent?.line ?? ""
    expect(line).toMatch(/HttpOnly/i)
    expect(line).toMatch(/SameSite=Lax/i)
    expect(line).toMatch(/Path=\//)
    expect(line).not.toMatch(/Max-Age|Expires/i)
    expect(line).not.toMatch(/Secure/i)
  })

  it("renders __Host- and Secure for an https origin", () => {
    const line = sessionSetCookie("https://folio.example", "abcdefghijklmnopqrstuvwxyz012345")
    expect(line.startsWith("__Host-folio_session=abcdefghijklmnopqrstuvwxyz012345")).toBe(true)
    expect(line).toMatch(/Secure/)
    expect(line).toMatch(/HttpOnly/)
    expect(line).toMatch(/Path=\//)
    expect(line).toMatch(/SameSite=Lax/i)
    expect(line).not.toMatch(/Domain=/i)
    expect(sessionSetCookie("http://localhost:8080", "abcdefghijklmnopqrstuvwxyz012345")).not.toMatch(
      /__Host-|Secure/
    )
  })

  it("a cookie planted before sign-in is not the session after it (no fixation)", async () => {
    const client = clientFor(app)
    const planted = "plantedplantedplantedplanted0123"
    client.cookies.set("folio_session", planted)
    const { response } = await signIn(app, email, PASSWORD, client)
    expect(response.status).toBe(303)
    expect(client.session()).toBeDefined()
    expect(client.session()).not.toBe(planted)
    // A real earlier session of the same browser is ended, not carried over.
    const before = client.session() as string
    const browser = clientFor(app)
    const { csrf } = await browser.page("/sign-in")
    browser.cookies.set("folio_session", before)
    expect((await browser.post("/sign-in", { csrf, email, password: PASSWORD })).status).toBe(303)
    const after = browser.session()
    expect(after).toBeDefined()
    expect(after).not.toBe(before)
    expect((await withSession(app, before).get("/console/keys")).status).toBe(303)
    expect((await browser.get("/console/keys")).status).toBe(200)
  })

  it("gives every sign-in a new token, and sign-out ends the session", async () => {
    const tokens = new Set<string>()
    for (let i = 0; i < 3; i++) tokens.add((await signIn(app, email, PASSWORD)).client.session() as string)
    expect(tokens.size).toBe(3)
    const { client } = await signIn(app, email, PASSWORD)
    const token = client.session() as string
    const { csrf } = await client.page("/console/keys")
    const out = await client.post("/sign-out", { csrf })
    expect(out.status).toBe(303)
    expect(client.session()).toBeUndefined()
    // The old token no longer opens anything, even sent again by hand.
    expect((await withSession(app, token).get("/console/keys")).status).toBe(303)
  })
})

const withSession = (app: RunningApp, token: string) => {
  const client = clientFor(app)
  client.cookies.set("folio_session", token)
  return client
}

describe("console session lifetimes", () => {
  it("ends a session idle longer than the idle timeout, and keeps a used one", async () => {
    const app = await startApp({ config: { consoleSessionIdleMs: 1_500 } })
    try {
      const { owner } = await workspaceWithOwner(app, "Idle")
      const idle = await signIn(app, owner.email, PASSWORD)
      const used = await signIn(app, owner.email, PASSWORD)
      for (let i = 0; i < 5; i++) {
        await sleep(500)
        expect((await used.client.get("/console/keys")).status).toBe(200)
      }
      // 2.5 s without a request: past the 1.5 s idle timeout.
      const answer = await idle.client.get("/console/keys")
      expect(answer.status).toBe(303)
      expect(answer.headers.get("location")).toMatch(/^\/sign-in/)
    } finally {
      await app.close()
    }
  })

  it("ends a session at its absolute lifetime however much it is used", async () => {
    const app = await startApp({ config: { consoleSessionMaxMs: 2_000 } })
    try {
      const { owner } = await workspaceWithOwner(app, "Absolute")
      const { client } = await signIn(app, owner.email, PASSWORD)
      expect((await client.get("/console/keys")).status).toBe(200)
      let status = 200
      const started = Date.now()
      while (status === 200 && Date.now() - started < 5_000) {
        await sleep(300)
        status = (await client.get("/console/keys")).status
      }
      expect(status).toBe(303)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500)
    } finally {
      await app.close()
    }
  })

  it("sets __Host-folio_session; Secure at sign-in when PUBLIC_ORIGIN is https", async () => {
    // The server listens on plain http in the test; a browser would reach it through TLS.
    const app = await startApp({ config: { publicOrigin: "https://console.folio.test" } })
    try {
      const { owner } = await workspaceWithOwner(app, "Https")
      expect(owner.client.session()).toBeDefined()
      const { client, response } = await signIn(app, owner.email, PASSWORD)
      expect(response.status).toBe(303)
      const pre = client.received.find((c) => c.name === "__Host-folio_pre")
      expect(pre?.line).toMatch(/; Secure/)
      const session = client.received.find((c) => c.name === "__Host-folio_session")
      expect(session?.line).toMatch(/; Secure/)
      expect(session?.line).toMatch(/Path=\//)
      expect(client.received.some((c) => c.name === "folio_session")).toBe(false)
      expect((await client.get("/console/keys")).status).toBe(200)
      // A page of the http origin is another origin here: its post is refused.
      const { csrf } = await client.page("/console/keys")
      const refused = await client.post("/console/keys/x/revoke", { csrf }, { origin: client.base })
      expect(refused.status).toBe(403)
    } finally {
      await app.close()
    }
  })
})
