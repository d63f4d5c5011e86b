// The connected apps page in headless Chromium, on PGlite: an app the owner connected (seeded in the
// OAuth store as the authorization server writes it) is listed with its name and scopes; revoking
// asks first, then removes it (and its tokens) and says so; the audit log names it. The page passes
// axe, fits a phone and trips no CSP violation, console error or uncaught error.
import { createSetupLink, createTenant, MembershipRepository, OAuthStore } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sharedBrowser } from "../support/browser.js"
import {
  type ConsoleApp,
  checkPage,
  clean,
  consolePage,
  createAccountFromLink,
  DESKTOP,
  OWNER,
  onOrigin,
  startConsoleApp
} from "../support/console-browser.js"
import { clientRecord, grantRecords } from "../support/oauth-grants.js"

const browser = sharedBrowser()
let it_: ConsoleApp
let origin: string
let setupUrl: string
let tenantId: string

beforeAll(async () => {
  it_ = await startConsoleApp("pglite")
  origin = it_.origin
  const made = await it_.app.run(
    Effect.flatMap(createTenant("Connected"), (workspace) =>
      Effect.map(createSetupLink(workspace.id), (link) => ({ workspace, link }))
    )
  )
  tenantId = made.workspace.id
  setupUrl = onOrigin(origin, made.link.url)
}, 120_000)
afterAll(async () => it_?.close())

const grantIn = (grantId: string) =>
  it_.app.run(
    Effect.map(
      Effect.flatMap(Effect.service(OAuthStore), (store) => store.find("Grant", grantId, new Date())),
      Option.isSome
    )
  )

describe("connected apps in Chromium", () => {
  it("lists the app the owner connected and revokes it after asking", async () => {
    const { page, problems } = await consolePage(await browser.browser().newContext({ viewport: DESKTOP }))
    await page.goto(setupUrl)
    await createAccountFromLink(page, OWNER, true)
    const members = await it_.app.run(
      Effect.flatMap(Effect.service(MembershipRepository), (m) => m.listByTenant(tenantId))
    )
    const ownerId = members.find((m) => m.email === OWNER.email)?.userId ?? ""
    expect(ownerId).not.toBe("")
    await it_.app.run(
      Effect.flatMap(Effect.service(OAuthStore), (store) =>
        Effect.forEach(
          [
            clientRecord("client-desktop", "Desktop Assistant"),
            ...grantRecords({
              grantId: "grant-desktop",
              tenantId,
              userId: ownerId,
              clientId: "client-desktop",
              scopes: "read write"
            })
          ],
          (r) => store.upsert(r, new Date()),
          { discard: true }
        )
      )
    )

    // Reached from the navigation.
    await Promise.all([
      page.waitForNavigation({ url: /\/console\/apps$/ }),
      page.getByRole("link", { name: "Connected apps" }).click()
    ])
    const row = page.getByRole("row", { name: /Desktop Assistant/ })
    expect(await row.textContent()).toContain("read, write")
    expect(await row.textContent()).toContain(OWNER.email)
    expect(await checkPage(page)).toEqual(clean(page))

    // The first click only opens the warning; the button inside revokes.
    const confirm = page.getByRole("button", { name: "Confirm revoking Desktop Assistant" })
    expect(await confirm.isVisible()).toBe(false)
    await page.getByText("Revoke…").click()
    expect(await page.locator("main").textContent()).toContain("Desktop Assistant loses access now")
    expect(await grantIn("grant-desktop")).toBe(true)
    await Promise.all([page.waitForNavigation({ url: /notice=app-revoked/ }), confirm.click()])
    expect(await page.getByRole("status").textContent()).toContain("The app is disconnected")
    expect(await page.locator("main").textContent()).toContain("No connected apps.")
    expect(await grantIn("grant-desktop")).toBe(false)
    expect(await checkPage(page)).toEqual(clean(page))

    await page.goto(`${origin}/console/audit`)
    expect(await page.locator("main").textContent()).toContain("app: Desktop Assistant")
    expect(await problems()).toEqual([])
  })
})
