// Takes the screenshots of the owner console's pages (docs/screenshots/console-*.png): a workspace with
// an owner, a member, keys of both services and a pending invitation, so the lists are not empty.
// Run: npm run screenshots:console (it needs Chromium, as the browser tests do; not part of npm test). It
// builds the page assets and reads the packages from source (test/tsconfig.json's paths), so no build.
import { createSetupLink, createTenant } from "@folio/domain"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { launchBrowser } from "../test/support/browser.js"
import {
  addPasskey,
  addVirtualAuthenticator,
  createAccountFromLink,
  createKey,
  DESKTOP,
  invite,
  MEMBER,
  OWNER,
  onOrigin,
  signOut,
  startConsoleApp
} from "../test/support/console-browser.js"

const out = new URL("../docs/screenshots/", import.meta.url).pathname
const running = await startConsoleApp("memory")
const browser = await launchBrowser()
const { origin } = running
const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(200)
  await page.screenshot({ path: `${out}console-${name}.png`, fullPage: true })
}
const newPage = async () => (await browser.newContext({ viewport: DESKTOP })).newPage()
try {
  const setup = await running.app.run(
    Effect.flatMap(createTenant("Analytical Engines"), (workspace) => createSetupLink(workspace.id))
  )
  const owner = await newPage()
  await owner.goto(onOrigin(origin, setup.url))
  await createAccountFromLink(owner, OWNER, true)

  // A member who joined, and an invitation still pending.
  const member = await newPage()
  await owner.goto(`${origin}/console/members`)
  await member.goto(await invite(owner, MEMBER.email, "member"))
  await createAccountFromLink(member, MEMBER, false)
  await owner.goto(`${origin}/console/members`)
  const pending = await invite(owner, "grace@example.org", "admin")
  await owner.goto(`${origin}/console/members`)
  await shot(owner, "members")

  // The invitation as its holder sees it.
  const guest = await newPage()
  await guest.goto(pending)
  await shot(guest, "invitation")

  // Keys of both services, the last one shown once.
  await owner.goto(`${origin}/console/keys`)
  await createKey(owner, {
    name: "Survey importer",
    service: "forms",
    scopes: ["forms:read", "responses:read"]
  })
  await owner.goto(`${origin}/console/keys`)
  await createKey(owner, { name: "Publishing robot", service: "sharing", scopes: ["read", "write"] })
  await shot(owner, "keys")

  await addVirtualAuthenticator(owner)
  await owner.goto(`${origin}/console/account`)
  await addPasskey(owner, "Work laptop")
  await shot(owner, "account")

  await owner.goto(`${origin}/console/settings`)
  await shot(owner, "settings")
  await owner.goto(`${origin}/console/audit`)
  await shot(owner, "audit")

  await signOut(owner)
  await shot(owner, "sign-in")
  await owner.goto(`${origin}/reset-password`)
  await shot(owner, "reset-request")
} finally {
  await browser.close()
  await running.close()
}
process.stdout.write(`console screenshots written to ${out}\n`)
