// Takes the screenshots of the owner console's pages (docs/screenshots/console-*.png): a workspace with
// an owner, a member, keys of both services, a pending invitation and two connected apps, so the lists
// are not empty.
// Run: npm run screenshots:console (it needs Chromium, as the browser tests do; not part of npm test). It
// builds the page assets and reads the packages from source (test/tsconfig.json's paths), so no build.
import { createSetupLink, createTenant, MembershipRepository, OAuthStore } from "@folio/domain"
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
import { clientRecord, grantRecords } from "../test/support/oauth-grants.js"

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
  const workspace = await running.app.run(createTenant("Analytical Engines"))
  const setup = await running.app.run(createSetupLink(workspace.id))
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

  // Two apps connected by OAuth (as the authorization server stores them), one of them used.
  const people = await running.app.run(
    Effect.flatMap(Effect.service(MembershipRepository), (m) => m.listByTenant(workspace.id))
  )
  const idOf = (email: string) => people.find((p) => p.email === email)?.userId ?? ""
  await running.app.run(
    Effect.flatMap(Effect.service(OAuthStore), (store) =>
      Effect.gen(function* () {
        const records = [
          clientRecord("client-desktop", "Desktop Assistant"),
          ...grantRecords({
            grantId: "grant-desktop",
            tenantId: workspace.id,
            userId: idOf(OWNER.email),
            clientId: "client-desktop",
            scopes: "read write"
          }),
          ...grantRecords({
            grantId: "grant-agent",
            tenantId: workspace.id,
            userId: idOf(MEMBER.email),
            clientId: "https://agent.example.org/oauth/client.json",
            scopes: "read"
          })
        ]
        for (const record of records) yield* store.upsert(record, new Date())
        yield* store.touchGrant("grant-desktop", new Date(), 0)
      })
    )
  )
  await owner.goto(`${origin}/console/apps`)
  await shot(owner, "apps")

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
