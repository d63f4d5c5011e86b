// A bio page as a visitor on a phone sees it, in headless Chromium: the profile, a link button,
// an image, and the contact form filled in and sent with the keyboard only; the thanks shows on the
// page, and the owner finds the message in the submissions list. The page trips no CSP violation
// and passes axe. Files and the API are real: the app on PGlite with the filesystem blob store.
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { openStorage } from "../support/storage.js"

const browser = sharedBrowser()
let app: RunningApp
let key: string
let drop: () => Promise<void>

beforeAll(async () => {
  const storage = await openStorage("pglite")
  drop = storage.drop
  app = await startApp({
    storage: storage.storage,
    config: { blobStore: "fs", sharingRequestsPerKey: 100_000 }
  })
  key = (await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")).key
}, 60_000)
afterAll(async () => {
  await app.close()
  await drop()
})

describe("a bio page in the browser", () => {
  it("shows the profile and blocks on a phone, and takes a message sent with the keyboard", async () => {
    const api = sharingClientOf(app.origin)
    const made = await api.call("POST", "/resources", { key, body: { type: "bio", title: "Ada" } })
    const slug = made.body.slug as string
    const pageId = ((made.body.pages as Array<Json>)[0] as Json).id as string
    const avatar = await sharp({ create: { width: 96, height: 96, channels: 3, background: "#7a4" } })
      .png()
      .toBuffer()
    const upload = new FormData()
    upload.append("file", new Blob([new Uint8Array(avatar)]), "ada.png")
    expect((await api.call("POST", `/resources/${slug}/bio/avatar`, { key, form: upload })).status).toBe(200)
    const image = new FormData()
    image.append("caption", "The engine")
    image.append("file", new Blob([new Uint8Array(avatar)]), "engine.png")
    const block = await api.call("POST", `/resources/${slug}/bio/pages/${pageId}/blocks/file`, {
      key,
      form: image
    })
    const imageId = (block.body.block as Json).id as string
    const replaced = await api.call("PATCH", `/resources/${slug}/bio`, {
      key,
      body: {
        display_name: "Ada Lovelace",
        headline: "Poet of science",
        bio: "Notes on the Analytical Engine.",
        theme: "forest",
        pages: [
          {
            id: pageId,
            slug: "home",
            title: "Home",
            blocks: [
              { type: "link", title: "Read my notes", url: "https://example.com/notes" },
              { type: "image", id: imageId, caption: "The engine" },
              {
                type: "form",
                title: "Write to me",
                fields: [
                  { name: "name", label: "Your name", kind: "text", required: true },
                  { name: "email", label: "Email", kind: "email", required: true },
                  { name: "message", label: "Message", kind: "textarea", required: false }
                ],
                submit_label: "Send message"
              }
            ]
          }
        ]
      }
    })
    expect(replaced.status).toBe(200)

    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true
    })
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/s/${slug}`)
    await page.getByRole("heading", { name: "Ada Lovelace" }).waitFor()
    expect(await page.getByText("Poet of science").isVisible()).toBe(true)
    const link = page.getByRole("link", { name: "Read my notes" })
    expect(await link.getAttribute("href")).toBe("https://example.com/notes")
    // The link button spans the column: an easy target on a phone.
    const box = await link.boundingBox()
    expect(box?.width ?? 0).toBeGreaterThan(300)
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44)
    expect(await page.locator("img.avatar").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(
      96
    )
    expect(await page.getByRole("img", { name: "The engine" }).isVisible()).toBe(true)
    // The page is wider than nothing: no horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await axeViolations(page)).toEqual([])

    // A person takes a moment; the form's time token refuses posts made faster than that.
    await page.waitForTimeout(2100)
    await page.getByLabel("Your name").focus()
    await page.keyboard.type("Charles")
    await page.keyboard.press("Tab")
    await page.keyboard.type("charles@example.com")
    await page.keyboard.press("Tab")
    await page.keyboard.type("Shall we build it?")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByRole("status").waitFor()
    expect(await page.getByRole("status").textContent()).toContain("Thanks")
    expect(await problems.problems()).toEqual([])

    const list = await api.call("GET", `/resources/${slug}/bio/form-submissions`, { key })
    expect(list.body.total).toBe(1)
    expect((list.body.items as Array<Json>)[0]).toMatchObject({
      form_title: "Write to me",
      values: { name: "Charles", email: "charles@example.com", message: "Shall we build it?" }
    })
  })
})
