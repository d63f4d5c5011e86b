// Sharing resources as people open them, in headless Chromium: a link with rules and variants
// followed to its destination, a password page unlocked, a Markdown page read, and a <script> in
// Markdown that never runs.
import { createServer, type Server } from "node:http"
import { type ResourceRecord, ResourceRepository, PasswordHasher } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { freePort } from "../support/free-port.js"
import { newWorkspaceKey } from "../support/keys.js"
import { resource } from "../storage/fixtures.js"

const browser = sharedBrowser()
let app: RunningApp
let tenantId: string
let destination: Server
let destinationOrigin = ""

beforeAll(async () => {
  app = await startApp()
  tenantId = (await newWorkspaceKey(app, ["read"], "sharing")).workspaceId
  // Where links lead: a page that says which destination it is.
  const port = await freePort()
  destination = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><html lang="en"><title>dest</title><h1 id="where">${req.url ?? ""}</h1></html>`)
  })
  await new Promise<void>((resolve) => destination.listen(port, "127.0.0.1", resolve))
  destinationOrigin = `http://127.0.0.1:${port}`
})
afterAll(async () => {
  await app.close()
  await new Promise((resolve) => destination.close(resolve))
})

type Overrides<T extends ResourceRecord["type"]> = Parameters<typeof resource<T>>[2]
const create = async <T extends ResourceRecord["type"]>(type: T, overrides: Overrides<T> = {}) => {
  const r = resource(tenantId, type, { createdAt: new Date(), updatedAt: new Date(), ...overrides })
  await app.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
  return r
}

const linkData = (extra: Record<string, unknown> = {}) => ({
  targetUrl: `${destinationOrigin}/target`,
  redirectRules: [{ conditions: { language: ["de"] }, target_url: `${destinationOrigin}/german` }],
  testVariants: [
    { url: `${destinationOrigin}/variant-a`, weight: 1 },
    { url: `${destinationOrigin}/variant-b`, weight: 1 }
  ],
  fallbackUrl: null,
  webhookClicks: false,
  ogTitle: null,
  ogDescription: null,
  ogImageUrl: null,
  ...extra
})

describe("a link in the browser", () => {
  it("follows the rule for a German browser, else a variant that stays the same for this visitor", async () => {
    const r = await create("link", { data: linkData() } as Overrides<"link">)
    const german = await browser.newPage({ locale: "de-DE" })
    await german.goto(`${app.origin}/s/${r.slug}`)
    expect(await german.locator("#where").textContent()).toBe("/german")
    const page = await browser.newPage({ locale: "en-US" })
    await page.goto(`${app.origin}/s/${r.slug}?ref=test`)
    const first = (await page.locator("#where").textContent()) ?? ""
    expect(first).toMatch(/^\/variant-[ab]\?ref=test$/)
    for (let i = 0; i < 3; i++) {
      await page.goto(`${app.origin}/s/${r.slug}?ref=test`)
      expect(await page.locator("#where").textContent()).toBe(first)
    }
  })
})

describe("a password-protected page", () => {
  it("asks for the password, refuses a wrong one, and shows the page after the right one", async () => {
    const r = await create("markdown", {
      passwordHash: await app.run(Effect.flatMap(PasswordHasher, (h) => h.hash("open sesame"))),
      data: { body: "# Secret plans\n\nOnly for friends." }
    } as Overrides<"markdown">)
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/s/${r.slug}`)
    expect(await page.getByText("Secret plans").count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel(/password/i).fill("wrong")
    await page.keyboard.press("Enter")
    await page.waitForLoadState()
    expect(await page.getByText("Secret plans").count()).toBe(0)
    await page.getByLabel(/password/i).fill("open sesame")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Secret plans" }).waitFor()
    // The unlock is remembered for this resource.
    await page.goto(`${app.origin}/s/${r.slug}`)
    await page.getByRole("heading", { name: "Secret plans" }).waitFor()
    // The refused password answered 403 on purpose (Chromium logs a 4xx document as a failed load).
    expect(
      (await problems.problems()).filter((p) => !(p.kind === "console" && / 403 /.test(p.text)))
    ).toEqual([])
  })
})

describe("a Markdown page", () => {
  it("reads as a clean page, and a script in the Markdown never runs", async () => {
    const r = await create("markdown", {
      title: "Release notes",
      data: {
        body: [
          "# Release notes",
          "",
          "Everything **new** in this release, with a [link](https://example.com).",
          "",
          "<script>document.title = 'pwned'; window.ran = true</script>",
          '<img src="x" onerror="window.ran = true">',
          "",
          "| a | b |",
          "|---|---|",
          "| 1 | 2 |"
        ].join("\n")
      }
    } as Overrides<"markdown">)
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/s/${r.slug}`)
    await page.getByRole("heading", { name: "Release notes" }).waitFor()
    expect(await page.locator("strong").textContent()).toBe("new")
    expect(await page.locator("table td").count()).toBe(2)
    expect(await page.evaluate(() => (window as unknown as { ran?: boolean }).ran === true)).toBe(false)
    expect(await page.title()).not.toBe("pwned")
    expect(await axeViolations(page)).toEqual([])
    // The author's broken image answers 404 (a console line), and its stripped onerror never ran.
    expect(
      (await problems.problems()).filter((p) => !(p.kind === "console" && / 404 /.test(p.text)))
    ).toEqual([])
  })
})
