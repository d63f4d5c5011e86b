// The owner console in headless Chromium, on PGlite, as people use it: the setup link makes the
// owner, who signs out and in, makes a sharing key that works over REST until it is revoked (then 401
// within the key cache's 5 s); a passkey added on the account page signs in without a password
// (Chromium's virtual authenticator); an invitation brings a second person in as a member, who sees no
// admin controls; the keyboard alone signs in and makes a key. Every page passes axe, fits a phone
// (390 px, no sideways scroll) and trips no CSP violation, console error or uncaught error.
//
// One app for the file; the tests run in order and build on each other (the owner made by the first
// signs in in the others), so a page is loaded only where it proves something.
import { createSetupLink, createTenant, issueResetLink } from "@folio/domain"
import { Effect, Option } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sharedBrowser } from "../support/browser.js"
import {
  addPasskey,
  addVirtualAuthenticator,
  byLabel,
  byName,
  type ConsoleApp,
  checkPage,
  clean,
  consolePage,
  createAccountFromLink,
  createKey,
  DESKTOP,
  invite,
  MEMBER,
  OWNER,
  onOrigin,
  press,
  shownKey,
  signIn,
  signOut,
  startConsoleApp,
  tabTo
} from "../support/console-browser.js"

const WORKSPACE = "Analytical Engines"
const browser = sharedBrowser()
let it_: ConsoleApp
let origin: string
let setupUrl: string

beforeAll(async () => {
  it_ = await startConsoleApp("pglite")
  origin = it_.origin
  // As the first start does: a workspace and the one-time link that makes its owner.
  const link = await it_.app.run(
    Effect.flatMap(createTenant(WORKSPACE), (workspace) => createSetupLink(workspace.id))
  )
  setupUrl = onOrigin(origin, link.url)
}, 120_000)
afterAll(async () => it_?.close())

const newContext = () => browser.browser().newContext({ viewport: DESKTOP })

/** A fresh browser context's page, signed in as `person` with the password. */
const signedIn = async (person = OWNER) => {
  const opened = await consolePage(await newContext())
  await signIn(opened.page, origin, person)
  return opened
}

const expectClean = async (page: Page) => expect(await checkPage(page)).toEqual(clean(page))

const me = (key: string) =>
  fetch(`${it_.apiOrigin}/share/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })

describe("the console in Chromium", () => {
  it("makes the owner from the setup link; signed out and in again, the owner makes a sharing key that works over REST until revoked", async () => {
    const { page, problems } = await consolePage(await newContext())
    await page.goto(setupUrl)
    expect(await page.locator("main").textContent()).toContain(WORKSPACE)
    await expectClean(page)
    await createAccountFromLink(page, OWNER, true)
    // Signed in, in the owner's workspace.
    expect(new URL(page.url()).pathname).toBe("/console/keys")
    expect(await page.locator("header").textContent()).toContain(`${WORKSPACE} (owner)`)
    await expectClean(page)
    // The setup link is spent.
    expect((await fetch(`${it_.apiOrigin}${new URL(setupUrl).pathname}`)).status).not.toBe(200)

    await signOut(page)
    await expectClean(page)
    // Signed out, a console page sends to sign-in, and sign-in back to it.
    await page.goto(`${origin}/console/members`)
    expect(new URL(page.url()).pathname).toBe("/sign-in")
    expect(new URL(page.url()).searchParams.get("next")).toBe("/console/members")
    await signIn(page, origin, OWNER)
    expect(page.url()).toBe(`${origin}/console/members`)

    await page.goto(`${origin}/console/keys`)
    const key = await createKey(page, {
      name: "Sharing robot",
      service: "sharing",
      scopes: ["read", "write"]
    })
    expect(key.length).toBeGreaterThan(20)
    expect(await page.getByRole("button", { name: "Copy", exact: true }).isVisible()).toBe(true)
    // The curl line beside it calls the API with the key.
    expect(await page.locator("pre.curl").textContent()).toContain(key)
    await expectClean(page)
    const answer = await me(key)
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { key: { scopes: Array<string> } }).key.scopes.toSorted()).toEqual([
      "read",
      "write"
    ])

    // Listed without the key (its prefix only), then revoked: refused within the key cache's 5 s.
    await page.goto(`${origin}/console/keys`)
    expect(await page.locator("code#new-key").count()).toBe(0)
    expect(await page.content()).not.toContain(key)
    await Promise.all([
      page.waitForNavigation({ url: /\/console\/keys/ }),
      page.getByRole("button", { name: "Revoke Sharing robot", exact: true }).click()
    ])
    const revokedAt = Date.now()
    let status = (await me(key)).status
    while (status !== 401 && Date.now() - revokedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      status = (await me(key)).status
    }
    expect(status).toBe(401)
    expect(await page.locator("tr").filter({ hasText: "Sharing robot" }).textContent()).toContain("revoked")
    expect(await problems()).toEqual([])
  })

  it("registers a passkey on the account page and signs in with it, without a password", async () => {
    const { page, problems } = await signedIn()
    const authenticator = await addVirtualAuthenticator(page)
    await page.goto(`${origin}/console/account`)
    await expectClean(page)
    await addPasskey(page, "Test laptop")
    expect(
      await page.getByRole("button", { name: "Remove the passkey Test laptop", exact: true }).count()
    ).toBe(1)
    const held = await authenticator.credentials()
    expect(held).toHaveLength(1)
    expect(held[0]?.isResidentCredential).toBe(true)
    await expectClean(page)

    await signOut(page)
    // No e-mail, no password: the authenticator's discoverable credential names the account.
    await Promise.all([
      page.waitForURL(/\/console\/keys/),
      page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click()
    ])
    expect(await page.locator("header").textContent()).toContain(OWNER.name)
    await page.goto(`${origin}/console/audit`)
    expect(await page.locator("main").textContent()).toContain("method: passkey")
    await expectClean(page)
    expect(await problems()).toEqual([])
  })

  it("brings a second person in through an invitation from the members page, as a member without admin controls", async () => {
    const owner = await signedIn()
    await owner.page.goto(`${origin}/console/members`)
    await expectClean(owner.page)
    const link = await invite(owner.page, MEMBER.email, "member")
    expect(link.startsWith(`${origin}/invitations/`)).toBe(true)
    await expectClean(owner.page)

    const guest = await consolePage(await newContext())
    await guest.page.goto(link)
    const invitation = (await guest.page.locator("main").textContent()) ?? ""
    expect(invitation).toContain(WORKSPACE)
    expect(invitation).toContain(MEMBER.email)
    await expectClean(guest.page)
    await createAccountFromLink(guest.page, MEMBER, false)
    expect(await guest.page.locator("header").textContent()).toContain(`${WORKSPACE} (member)`)
    await expectClean(guest.page)

    // The member sees the workspace's people, and none of the controls owners and admins have.
    const nav = guest.page.getByRole("navigation", { name: "Console" })
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "API keys",
      "Connected apps",
      "Members",
      "Settings",
      "Account"
    ])
    await guest.page.goto(`${origin}/console/members`)
    expect(await guest.page.locator("tr").filter({ hasText: MEMBER.email }).textContent()).toContain("member")
    expect(await guest.page.locator("tr").filter({ hasText: OWNER.email }).textContent()).toContain("owner")
    expect(await guest.page.getByRole("button", { name: "Invite", exact: true }).count()).toBe(0)
    expect(await guest.page.locator("select[name=role]").count()).toBe(0)
    expect(await guest.page.getByRole("button", { name: /^Remove / }).count()).toBe(0)
    await expectClean(guest.page)
    await guest.page.goto(`${origin}/console/settings`)
    expect(await guest.page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0)
    expect(await guest.page.getByRole("button", { name: "Disable workspace", exact: true }).count()).toBe(0)
    await expectClean(guest.page)

    // The owner's members page lists them with the member role.
    await owner.page.goto(`${origin}/console/members`)
    expect(await owner.page.locator("tr").filter({ hasText: MEMBER.email }).textContent()).toContain("member")
    expect(await owner.problems()).toEqual([])
    expect(await guest.problems()).toEqual([])
  })

  it("signs in and makes a key with the keyboard alone (Tab, Enter, Space)", async () => {
    const { page, problems } = await consolePage(await newContext())
    await page.goto(`${origin}/sign-in`)
    await tabTo(page, byName("email"), "the email field")
    await page.keyboard.type(OWNER.email)
    await tabTo(page, byName("password"), "the password field")
    await page.keyboard.type(OWNER.password)
    await Promise.all([page.waitForURL(/\/console\/keys/), page.keyboard.press("Enter")])

    await tabTo(page, byName("name"), "the key's name")
    await page.keyboard.type("Keyboard key")
    // The service first offered (forms, already chosen), and its first scope ticked with Space.
    const scope = await tabTo(page, byName("scopes"), "a scope checkbox")
    await page.keyboard.press("Space")
    expect(await page.locator(`input[name=scopes][value="${scope.value}"]`).isChecked()).toBe(true)
    await tabTo(page, byLabel("Create key"), "the Create key button")
    await Promise.all([page.waitForNavigation({ url: /\/console\/keys/ }), page.keyboard.press("Space")])
    expect((await shownKey(page)).length).toBeGreaterThan(20)
    expect(await page.locator("tr").filter({ hasText: "Keyboard key" }).textContent()).toContain(scope.value)
    expect(await problems()).toEqual([])
  })

  it("passes axe and fits a phone on the pages the flows above did not open", async () => {
    const { page, problems } = await signedIn()
    for (const path of ["/console/settings", "/console/account"]) {
      await page.goto(`${origin}${path}`)
      await expectClean(page)
    }
    await signOut(page)
    await page.goto(`${origin}/reset-password`)
    await expectClean(page)
    await page.getByLabel("Email", { exact: true }).fill(OWNER.email)
    await press(page, "Send reset link", /\/reset-password/)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your e-mail")
    await expectClean(page)
    const reset = await it_.app.run(issueResetLink(OWNER.email))
    await page.goto(onOrigin(origin, Option.getOrThrow(reset).url))
    await expectClean(page)
    // At an IP address (the default 127.0.0.1 origin) browsers refuse passkeys: no passkey button.
    await page.goto(`${it_.apiOrigin}/sign-in`)
    expect(await page.getByRole("button", { name: "Sign in", exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).isVisible()).toBe(false)
    await page.goto(`${origin}/sign-in`)
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).isVisible()).toBe(true)
    expect(await problems()).toEqual([])
  })
})
