// Takes the README's screenshots of the public form page (docs/screenshots/): each render mode part
// way through the form with every block type, and the page without JavaScript after a refused post.
// Run: npm run screenshots (it needs Chromium, as the browser tests do).
import { FORMS_SCOPES } from "@folio/domain"
import { startApp } from "../test/support/app.js"
import { launchBrowser } from "../test/support/browser.js"
import { blk, everyBlockDefinition } from "../test/support/every-block-form.js"
import { formsClient } from "../test/support/forms-client.js"
import { newWorkspaceKey } from "../test/support/keys.js"

const out = new URL("../docs/screenshots/", import.meta.url).pathname
const app = await startApp()
const browser = await launchBrowser()
try {
  const forms = formsClient(app, (await newWorkspaceKey(app, [...FORMS_SCOPES])).key)
  const settings = (renderMode: string) => ({
    renderMode,
    intro: { title: "Tell us about you", body: "It takes two minutes." },
    completion: { title: "Thank you!", icon: "party" }
  })
  for (const mode of ["classic", "conversational", "document"] as const) {
    await forms.publish(`shot-${mode}`, everyBlockDefinition, settings(mode))
    const page = await (await browser.newContext({ viewport: { width: 860, height: 760 } })).newPage()
    await page.goto(`${app.origin}/f/shot-${mode}`)
    if (mode !== "document") {
      await page.keyboard.press("Enter")
      await page.locator(`#q-${blk("intro")}`).waitFor()
      await page.keyboard.press("Enter")
      await page.keyboard.type("Ada Lovelace")
      await page.keyboard.press("Enter")
      await page.keyboard.press("Enter")
      await page.keyboard.type("Mathematician and writer.")
      await page.keyboard.press("Control+Enter")
      for (let i = 0; i < 3; i++) await page.keyboard.press("Enter")
      await page.keyboard.type("ada@example.org")
      await page.keyboard.press("Enter")
      await page.locator(`#q-${blk("color")}`).waitFor()
      await page.keyboard.press("Space")
    } else {
      await page.locator(`#in-${blk("name")}`).fill("Ada Lovelace")
    }
    await page.waitForTimeout(400)
    await page.screenshot({ path: `${out}${mode}.png` })
  }
  const page = await (
    await browser.newContext({ viewport: { width: 860, height: 760 }, javaScriptEnabled: false })
  ).newPage()
  await page.goto(`${app.origin}/f/shot-classic`)
  await page.locator(`#in-${blk("email")}`).fill("not an email")
  await page.locator("button.submit").click()
  await page.locator("#error-summary").waitFor()
  await page.screenshot({ path: `${out}no-javascript.png` })
} finally {
  await browser.close()
  await app.close()
}
process.stdout.write(`screenshots written to ${out}\n`)
