// The interview definition's `experience` on the chat page in headless Chromium: the dark theme and
// a background image from another https origin (served here by an intercepted route), applied (computed
// styles) and allowed by the page's CSP; the live profile filled in after an answer inside a polite
// live region; starting over with the keyboard only; axe clean on the themed page; and the same
// profile and restart without JavaScript. Few page loads: one with scripts, one without.
import { FORMS_SCOPES } from "@folio/domain"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { newWorkspaceKey } from "../support/keys.js"

const browser = sharedBrowser()
let app: RunningApp
let forms: FormsClient

beforeAll(async () => {
  app = await startApp()
  forms = formsClient(app, (await newWorkspaceKey(app, [...FORMS_SCOPES])).key)
})
afterAll(async () => app.close())

const en = (text: string) => ({ en: text })

const IMAGE_ORIGIN = "https://images.folio.test"
/** A 1×1 PNG, what the intercepted image host answers. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64"
)

const definition = {
  schemaVersion: 2,
  title: "Team tools check-in",
  locales: { default: "en", supported: ["en"] },
  persona: { name: "Mina" },
  greetingByLocale: en("Hello! Thanks for taking a few minutes."),
  fields: [
    {
      id: "plan",
      priority: 90,
      labelByLocale: en("your plan"),
      questionByLocale: en("Which plan are you on?"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: en("Free") },
        { id: "pro", labelByLocale: en("Pro") }
      ]
    },
    {
      id: "renew",
      priority: 80,
      labelByLocale: en("renewal"),
      questionByLocale: en("Will you renew?"),
      valueType: "boolean",
      requiredness: "hard"
    }
  ],
  goals: [],
  policy: { maxExchanges: 20 },
  experience: {
    theme: "dark",
    backgroundImageUrl: `${IMAGE_ORIGIN}/backdrops/hills.png`,
    backgroundScrim: 0.5,
    allowRestart: true
  }
}

const publishInterview = async (slug: string): Promise<string> => {
  const created = await forms.api("POST", "/forms", {
    kind: "interview",
    title: `Interview ${slug}`,
    definition
  })
  if (created.status !== 201)
    throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`)
  const id = String(created.body.data.id)
  if ((await forms.api("PATCH", `/forms/${id}/slug`, { slug })).status !== 200) throw new Error("slug")
  const published = await forms.api("POST", `/forms/${id}/publish`, {
    expectedDraftRevision: created.body.data.draftRevision
  })
  if (published.status !== 200) throw new Error(`publish answered ${published.status}`)
  return id
}

/** The form's partial responses (newest first). */
const partials = async (formId: string) => {
  const list = await forms.api("GET", `/forms/${formId}/responses?status=partial&limit=10`)
  expect(list.status).toBe(200)
  return (list.body.data.items ?? []) as Array<{ id: string; status: string }>
}

/**
 * How long a poll waits for the page to settle: long enough for a loaded two-core CI run (the
 * interview's start once took over the default second there), and a poll still fails if it never does.
 */
const SETTLED = { timeout: 10_000 }

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "")

const tabTo = async (page: Page, selector: string) => {
  for (let i = 0; i < 30; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return
    await page.keyboard.press("Tab")
  }
  throw new Error(`Tab never reached ${selector}: focus is on ${await activeId(page)}`)
}

const profileLines = (page: Page) =>
  page
    .locator("#profile-list .profile-item")
    .evaluateAll((items) =>
      items.map((i) => `${i.querySelector("dt")?.textContent}: ${i.querySelector("dd")?.textContent}`)
    )

/** Serves the background image from its "third-party" origin; answers the URLs the page asked for. */
const serveImages = async (page: Page) => {
  const asked: Array<string> = []
  await page.route(`${IMAGE_ORIGIN}/**`, async (route) => {
    asked.push(route.request().url())
    await route.fulfill({ status: 200, contentType: "image/png", body: PIXEL })
  })
  return asked
}

describe("the interview page's experience settings", () => {
  it("applies the theme and background under its CSP, keeps the live profile current, and starts over by keyboard", async () => {
    const formId = await publishInterview("experience-js")
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } })
    const problems = await collectProblems(page)
    const asked = await serveImages(page)
    await page.goto(`${app.origin}/f/experience-js`)
    await page.locator("#start").waitFor()

    // The dark palette and the background with its scrim, as computed; the image was fetched.
    const styles = await page.evaluate(() => {
      const root = getComputedStyle(document.documentElement)
      const panel = getComputedStyle(document.getElementById("main") as HTMLElement)
      return {
        image: root.backgroundImage,
        attachment: root.backgroundAttachment,
        panel: panel.backgroundColor,
        text: getComputedStyle(document.body).color
      }
    })
    expect(styles.image).toContain("linear-gradient(rgba(0, 0, 0, 0.5), rgba(0, 0, 0, 0.5))")
    expect(styles.image).toContain(`url("${IMAGE_ORIGIN}/backdrops/hills.png")`)
    expect(styles.attachment).toBe("fixed, fixed")
    expect(styles.panel).toBe("rgb(18, 19, 24)")
    expect(styles.text).toBe("rgb(236, 236, 241)")
    await expect.poll(() => asked, SETTLED).toEqual([`${IMAGE_ORIGIN}/backdrops/hills.png`])
    // With reduced motion asked for, the image scrolls with the page.
    await page.emulateMedia({ reducedMotion: "reduce" })
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundAttachment)).toBe(
      "scroll, scroll"
    )
    expect(await axeViolations(page)).toEqual([])

    // Start with the keyboard; the profile is empty until something is understood.
    await tabTo(page, "#start")
    await page.keyboard.press("Enter")
    await expect.poll(() => activeId(page), SETTLED).toBe("message")
    expect(await page.locator("#profile-empty").isVisible()).toBe(true)
    expect(await profileLines(page)).toEqual([])
    // The profile's list is the polite live region: what a turn adds is read once the reply is.
    expect(await page.locator("#profile-list").getAttribute("aria-live")).toBe("polite")
    await page.keyboard.type("Pro")
    await page.keyboard.press("Enter")
    await expect.poll(() => profileLines(page), SETTLED).toEqual(["your plan: Pro"])
    expect(await page.locator("#profile-empty").isVisible()).toBe(false)
    expect(
      await page
        .locator("#profile-list .profile-item")
        .evaluate((item) => item.closest("[aria-live]")?.getAttribute("aria-live"))
    ).toBe("polite")
    await page.locator("#transcript").and(page.locator("[aria-busy=false]")).waitFor()
    expect(await axeViolations(page)).toEqual([])

    // Start over with Tab and Enter: a new conversation from the greeting, the profile cleared.
    const before = await partials(formId)
    expect(before).toHaveLength(1)
    await tabTo(page, "#restart")
    await page.keyboard.press("Enter")
    await page.getByText("A new conversation has started.").waitFor()
    await expect.poll(() => page.locator("#transcript li").count(), SETTLED).toBe(2)
    expect(await page.locator("#transcript li.msg-user").count()).toBe(0)
    expect(await profileLines(page)).toEqual([])
    expect(await page.locator("#profile-empty").isVisible()).toBe(true)
    expect(await activeId(page)).toBe("message")
    // Over the API: two partial responses, the one left as it was.
    const after = await partials(formId)
    expect(after.map((r) => r.id)).toEqual([expect.not.stringMatching(before[0]?.id ?? ""), before[0]?.id])
    // The new interview goes on as any other.
    await page.keyboard.type("Free")
    await page.keyboard.press("Enter")
    await expect.poll(() => profileLines(page), SETTLED).toEqual(["your plan: Free"])
    expect(await problems.problems()).toEqual([])
  })

  it("shows the profile and starts over without JavaScript", async () => {
    const formId = await publishInterview("experience-no-script")
    const page = await browser.newPage({ javaScriptEnabled: false })
    await serveImages(page)
    await page.goto(`${app.origin}/f/experience-no-script`)
    await Promise.all([page.waitForNavigation(), page.locator("form.nojs-start button[type=submit]").click()])
    expect(await page.locator("#profile-empty").isVisible()).toBe(true)
    await page.locator("#message").fill("Pro")
    await Promise.all([page.waitForNavigation(), page.locator("button[value=message]").click()])
    expect(await profileLines(page)).toEqual(["your plan: Pro"])
    expect(await page.locator("#profile-list").getAttribute("aria-live")).toBe("polite")
    const left = await partials(formId)
    await Promise.all([page.waitForNavigation(), page.locator("button[value=restart]").click()])
    expect(await page.getByText("A new conversation has started.").isVisible()).toBe(true)
    expect(await profileLines(page)).toEqual([])
    expect(await page.locator("#transcript li").count()).toBe(2)
    const now = await partials(formId)
    expect(now).toHaveLength(2)
    expect(now[1]?.id).toBe(left[0]?.id)
  })
})
