// A Notion mirror as a reader sees it, in headless Chromium: the root page with its headings,
// lists, code, toggle and the cached image shown from our copy, the page tree as navigation to a
// child page and back, no horizontal scrolling on a phone, no CSP violation, and axe passes. The
// real Notion client reads the local fake Notion API; the app runs on PGlite with the fs store.
import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { FAKE_NOTION_PAGES, FAKE_NOTION_TOKEN, startFakeNotion } from "../support/fake-notion.js"
import { newWorkspaceKey } from "../support/keys.js"
import { sharingClientOf } from "../support/sharing-client.js"
import { openStorage } from "../support/storage.js"

const browser = sharedBrowser()
let app: RunningApp
let key: string
let drop: () => Promise<void>
let fake: Awaited<ReturnType<typeof startFakeNotion>>

beforeAll(async () => {
  fake = await startFakeNotion()
  const storage = await openStorage("pglite")
  drop = storage.drop
  app = await startApp({
    storage: storage.storage,
    config: {
      blobStore: "fs",
      sharingRequestsPerKey: 100_000,
      notionToken: Option.some(Redacted.make(FAKE_NOTION_TOKEN)),
      notionApiUrl: fake.baseUrl
    }
  })
  key = (await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")).key
}, 60_000)
afterAll(async () => {
  await app.close()
  await drop()
  await fake.close()
})

describe("a Notion mirror in the browser", () => {
  it("reads like the Notion page, with its tree to move between pages", async () => {
    const api = sharingClientOf(app.origin)
    const made = await api.call("POST", "/resources", {
      key,
      body: {
        type: "notion",
        title: "Team handbook",
        source_url: `https://www.notion.so/acme/Handbook-${FAKE_NOTION_PAGES.root.replace(/-/g, "")}`
      }
    })
    expect(made.status).toBe(201)
    const slug = made.body.slug as string
    for (let i = 0; i < 100; i++) {
      const pages = await api.call("GET", `/resources/${slug}/notion/pages`, { key })
      if ((pages.body.refresh as { status: string }).status === "succeeded") break
      await new Promise((r) => setTimeout(r, 100))
    }

    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true
    })
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/s/${slug}`)
    await page.getByRole("heading", { level: 1, name: "Team handbook" }).waitFor()
    expect(await page.getByRole("heading", { name: "Lists" }).isVisible()).toBe(true)
    expect(await page.locator("pre code").first().textContent()).toContain("const answer = 42")
    // The hosted image comes from our cached copy and decodes.
    const img = page.locator("article img").first()
    const src = (await img.getAttribute("src")) ?? ""
    expect(src.startsWith(`/s/${slug}/media/`)).toBe(true)
    await img.scrollIntoViewIfNeeded()
    await page.waitForFunction(
      (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
      await img.elementHandle()
    )
    // A toggle opens.
    const toggle = page.locator("details").first()
    await toggle.locator("summary").click()
    expect(await toggle.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await axeViolations(page)).toEqual([])

    // The tree: to the child page, whose own heading shows, and back to the root.
    await page
      .getByRole("navigation", { name: "Pages" })
      .getByRole("link", { name: "Child page", exact: true })
      .click()
    await page.getByRole("heading", { level: 1, name: "Child page" }).waitFor()
    expect(
      await page.getByRole("navigation", { name: "Pages" }).locator('[aria-current="page"]').textContent()
    ).toBe("Child page")
    await page
      .getByRole("navigation", { name: "Pages" })
      .getByRole("link", { name: "Team handbook", exact: true })
      .click()
    await page.getByRole("heading", { level: 1, name: "Team handbook" }).waitFor()
    // The fixture's external image is on the web, which this machine cannot reach: only that may fail.
    const offline = (p: { readonly location?: string }) =>
      p.location?.startsWith("https://images.example.com/")
    expect((await problems.problems()).filter((p) => !offline(p as { location?: string }))).toEqual([])
  })
})
