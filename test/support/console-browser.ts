// The owner console in Chromium: the app on real storage, reached as http://localhost:<port>, and the
// helpers its browser test and screenshot script share (page checks, keyboard moves, passkeys).
//
// The console is opened as `localhost`, not 127.0.0.1: WebAuthn refuses an IP address as relying
// party id, and the console's Origin check compares with PUBLIC_ORIGIN, so the browser must use that
// very origin. Node's own requests (the REST API) go to 127.0.0.1, where the server listens.
import type { BrowserContext, CDPSession, Page } from "playwright-core"
import { type RunningApp, startApp } from "./app.js"
import { axeViolations, collectProblems, type PageProblem } from "./browser.js"
import { freePort } from "./free-port.js"
import { openStorage, type StorageName } from "./storage.js"

export interface ConsoleApp {
  readonly app: RunningApp
  /** The origin the browser uses (PUBLIC_ORIGIN): http://localhost:<port>. */
  readonly origin: string
  /** The same server for Node's requests: http://127.0.0.1:<port>. */
  readonly apiOrigin: string
  readonly close: () => Promise<void>
}

/** The app on fresh storage of `name`, its public origin on localhost; close drops the storage. */
export const startConsoleApp = async (name: StorageName = "pglite"): Promise<ConsoleApp> => {
  const { storage, drop } = await openStorage(name)
  const port = await freePort()
  const origin = `http://localhost:${port}`
  const app = await startApp({ storage, config: { port, publicOrigin: origin } })
  return {
    app,
    origin,
    apiOrigin: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close()
      await drop()
    }
  }
}

/**
 * A link the domain made (setup, invitation, reset) on the console's origin: its path is kept, so the
 * test follows the link even where the use case ran outside the HTTP layer's ConsoleLinks.
 */
export const onOrigin = (origin: string, url: string): string => `${origin}${new URL(url).pathname}`

/** The first console link of the kind in a text (a page showing an invitation link once). */
export const linkIn = (text: string, kind: "invitations" | "reset-password"): string | undefined =>
  new RegExp(`https?://[^\\s"'<>]+/${kind}/[A-Za-z0-9_-]+`).exec(text)?.[0]

// Page checks ---------------------------------------------------------------------------------------

export const PHONE = { width: 390, height: 844 } as const
export const DESKTOP = { width: 1100, height: 800 } as const

/** Whether the page scrolls sideways at the current viewport. */
export const scrollsSideways = async (page: Page): Promise<boolean> =>
  (await page.evaluate("document.documentElement.scrollWidth > window.innerWidth")) === true

export interface PageReport {
  readonly url: string
  readonly axe: ReadonlyArray<{ readonly id: string; readonly nodes: ReadonlyArray<string> }>
  readonly sidewaysAtPhoneWidth: boolean
}

/**
 * What a console page must pass, as it is now: axe's serious and critical rules, and no sideways
 * scroll at phone width (390x844; the viewport is put back afterwards). Returns a report to compare
 * with `clean(url)`, so a failure names the page and the rule.
 */
export const checkPage = async (page: Page): Promise<PageReport> => {
  const axe = (await axeViolations(page)).map((v) => ({
    id: v.id,
    nodes: v.nodes.map((n) => `${n.target}: ${n.html}`)
  }))
  const before = page.viewportSize()
  await page.setViewportSize(PHONE)
  const sidewaysAtPhoneWidth = await scrollsSideways(page)
  if (before !== null) await page.setViewportSize(before)
  return { url: new URL(page.url()).pathname, axe, sidewaysAtPhoneWidth }
}

export const clean = (page: Page): PageReport => ({
  url: new URL(page.url()).pathname,
  axe: [],
  sidewaysAtPhoneWidth: false
})

/** A page of its own context, with the collector of CSP violations, console errors and page errors. */
export const consolePage = async (
  context: BrowserContext
): Promise<{ readonly page: Page; readonly problems: () => Promise<ReadonlyArray<PageProblem>> }> => {
  const page = await context.newPage()
  const collector = await collectProblems(page)
  return { page, problems: collector.problems }
}

// Keyboard --------------------------------------------------------------------------------------------

/** What has the focus, as a keyboard user would tell it apart. */
export interface Focused {
  readonly tag: string
  readonly type: string
  readonly name: string
  readonly value: string
  /** The element's visible label (its <label>, or a button's or link's text). */
  readonly label: string
}

const FOCUSED = `(() => {
  const e = document.activeElement
  if (e === null || e === document.body) return null
  const label = e.labels && e.labels.length > 0 ? e.labels[0].textContent : e.textContent
  return {
    tag: e.tagName.toLowerCase(),
    type: e.getAttribute("type") ?? "",
    name: e.getAttribute("name") ?? "",
    value: e.getAttribute("value") ?? "",
    label: (label ?? "").replace(/\\s+/g, " ").trim()
  }
})()`

export const focused = async (page: Page): Promise<Focused | null> =>
  (await page.evaluate(FOCUSED)) as Focused | null

/**
 * Presses Tab (only Tab) until the focus is on what `wanted` accepts; fails after `max` presses. The
 * page is only read, never clicked: the move is the keyboard user's.
 */
export const tabTo = async (
  page: Page,
  wanted: (f: Focused) => boolean,
  what: string,
  max = 60
): Promise<Focused> => {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab")
    const now = await focused(page)
    if (now !== null && wanted(now)) return now
  }
  throw new Error(`${what}: not reached with ${max} presses of Tab`)
}

export const byName =
  (name: string, value?: string) =>
  (f: Focused): boolean =>
    f.name === name && (value === undefined || f.value === value)
export const byLabel =
  (label: string | RegExp) =>
  (f: Focused): boolean =>
    typeof label === "string" ? f.label === label : label.test(f.label)

// Passkeys --------------------------------------------------------------------------------------------

export interface VirtualAuthenticator {
  readonly id: string
  /** The credentials the authenticator holds (resident ones are the passkeys). */
  readonly credentials: () => Promise<
    ReadonlyArray<{ readonly credentialId: string; readonly isResidentCredential: boolean }>
  >
  readonly cdp: CDPSession
}

/**
 * Chromium's virtual authenticator on the page (it stays through the page's navigations): a platform
 * authenticator (CTAP2, internal transport) holding resident keys, verifying the user and answering
 * without a touch, as a phone's or laptop's built-in one would.
 */
export const addVirtualAuthenticator = async (page: Page): Promise<VirtualAuthenticator> => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true
    }
  })
  return {
    id: authenticatorId,
    cdp,
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.map((c) => ({
        credentialId: c.credentialId,
        isResidentCredential: c.isResidentCredential
      }))
  }
}

// Flows ------------------------------------------------------------------------------------------------

export interface Person {
  readonly email: string
  readonly name: string
  readonly password: string
}

export const OWNER: Person = {
  email: "ada@example.org",
  name: "Ada Lovelace",
  password: "analytical-engine-1843"
}
export const MEMBER: Person = {
  email: "charles@example.org",
  name: "Charles Babbage",
  password: "difference-engine-1822"
}

const CONSOLE_PAGE = /\/console\//

/**
 * Clicks the button (by its accessible name) and waits for the navigation it starts (a form post,
 * then the page or the 303 it answers) to end at `url`. A wait for the next navigation, not for a
 * URL: a post that answers on the same address (a new key) would otherwise be missed.
 */
export const press = async (page: Page, button: string, url: RegExp | string = /.*/): Promise<void> => {
  await Promise.all([
    page.waitForNavigation({ url }),
    page.getByRole("button", { name: button, exact: true }).click()
  ])
}

/** A setup or invitation link's form for a new account, posted: the person lands in the console. */
export const createAccountFromLink = async (page: Page, person: Person, withEmail: boolean) => {
  if (withEmail) await page.getByLabel("Email", { exact: true }).fill(person.email)
  await page.getByLabel("Your name", { exact: true }).fill(person.name)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await press(page, "Create account", CONSOLE_PAGE)
}

/** The sign-in page's form, filled and posted; the person lands in the console (or at `next`). */
export const signIn = async (page: Page, origin: string, person: Person) => {
  if (!page.url().startsWith(`${origin}/sign-in`)) await page.goto(`${origin}/sign-in`)
  await page.getByLabel("Email", { exact: true }).fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await press(page, "Sign in", CONSOLE_PAGE)
}

export const signOut = async (page: Page) => press(page, "Sign out", /\/sign-in/)

/** The key form of the API keys page, posted: the full key as the page shows it once. */
export const createKey = async (
  page: Page,
  key: {
    readonly name: string
    readonly service: "forms" | "sharing"
    readonly scopes: ReadonlyArray<string>
  }
): Promise<string> => {
  await page.getByLabel("Name", { exact: true }).fill(key.name)
  await page.locator(`input[name=service][value="${key.service}"]`).check()
  for (const scope of key.scopes) await page.locator(`input[name=scopes][value="${scope}"]`).check()
  await press(page, "Create key")
  return shownKey(page)
}

/** The key the page shows once, in <code id="new-key">. */
export const shownKey = async (page: Page): Promise<string> =>
  ((await page.locator("code#new-key").textContent()) ?? "").trim()

/** The members page's invitation form, posted; the link the page shows once (mail is off). */
export const invite = async (page: Page, email: string, role: "admin" | "member"): Promise<string> => {
  await page.getByLabel("Email", { exact: true }).fill(email)
  await page.getByLabel("Role", { exact: true }).selectOption(role)
  await press(page, "Invite")
  const link = linkIn((await page.locator("code#invitation-link").textContent()) ?? "", "invitations")
  if (link === undefined) throw new Error("the members page showed no invitation link")
  return link
}

/** The account page's passkey form (the script runs the WebAuthn ceremony), posted. */
export const addPasskey = async (page: Page, name: string) => {
  await page.getByLabel("Passkey name", { exact: true }).fill(name)
  await Promise.all([
    page.waitForURL(/\/console\/account\?passkey=added/),
    page.getByRole("button", { name: "Add a passkey", exact: true }).click()
  ])
}
