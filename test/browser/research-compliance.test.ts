// Research compliance in headless Chromium, with and without JavaScript, on real storage: the study
// and its consent items come before the first question and hold the start back until every one is
// ticked; the completion screen offers the private withdrawal link, whose confirmation page deletes
// the response. Classic and interview pages; no CSP violation or script error on the way.
import { ResponseRepository } from "@folio/domain"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { blk } from "../support/builders.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { realStorageName, startAppOn } from "../support/storage.js"

const browser = sharedBrowser()
let app: RunningApp
let forms: FormsClient
let workspaceId: string
let close: () => Promise<void> = async () => {}

beforeAll(async () => {
  const started = await startAppOn(realStorageName)
  ;({ app, workspaceId } = started)
  forms = formsClient(app, started.key)
  close = started.close
}, 120_000)
afterAll(async () => close())

const ITEMS = ["I am 18 or older", "My answers may be used for this study"]
const settings = (renderMode: "classic" | "conversational" = "classic") => ({
  renderMode,
  researchCompliance: {
    purpose: "How teams plan their week",
    contact: "study@example.org",
    consentItems: ITEMS,
    retentionDays: 30,
    thirdPartyProvision: { enabled: true, details: "Shared with Example University" }
  }
})
const definition = {
  schemaVersion: 1,
  blocks: [{ id: blk(1), type: "short_text", label: "Your name", required: true }]
}

const formIdOf = async (slug: string) => {
  const list = await forms.api("GET", "/forms?limit=100")
  const found = (list.body.data.items ?? []).find((f) => f.slug === slug)
  return String(found?.id)
}
const responseCount = (formId: string) =>
  app.run(Effect.flatMap(ResponseRepository, (r) => r.count(workspaceId, formId)))

/** Follows the completion screen's withdrawal link and confirms: the page says it is done. */
const withdraw = async (page: Page) => {
  const link = page.locator("#done a.withdraw-link")
  expect(await link.isVisible()).toBe(true)
  expect(await link.getAttribute("href")).toMatch(/^\/f\/[^/]+\/withdraw\/[0-9a-f-]{36}\/[0-9a-f]{64}$/)
  await Promise.all([page.waitForNavigation(), link.click()])
  expect(await page.locator("h1").textContent()).toBe("Withdraw your response")
  await Promise.all([page.waitForNavigation(), page.locator("button.withdraw-confirm").click()])
  expect(await page.locator("h1").textContent()).toBe("Your response was withdrawn")
  return page.url()
}

describe("research compliance on the classic page", () => {
  it("holds the questions behind the consent items with JavaScript, stores the acceptance, and withdraws", async () => {
    await forms.publish("study-js", definition, settings())
    const formId = await formIdOf("study-js")
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/study-js`)
    expect(await page.locator(".study-purpose").textContent()).toBe("How teams plan their week")
    expect(await page.locator(".study-contact").textContent()).toBe("study@example.org")
    expect(await page.locator(".study-third-party").textContent()).toBe("Shared with Example University")
    expect(await page.locator(`#q-${blk(1)}`).isVisible()).toBe(false)
    expect(await axeViolations(page)).toEqual([])
    // Continue without ticking: the error, no question, no response started.
    await page.locator("button.consent-continue").click()
    expect(await page.locator("#study .consent-error").isVisible()).toBe(true)
    expect(await page.locator(`#q-${blk(1)}`).isVisible()).toBe(false)
    await page.locator("#consent-0").check()
    await page.locator("button.consent-continue").click()
    expect(await page.locator(`#q-${blk(1)}`).isVisible()).toBe(false)
    expect(await responseCount(formId)).toBe(0)
    await page.locator("#consent-1").check()
    await page.locator("button.consent-continue").click()
    await page.locator(`#q-${blk(1)} input`).waitFor({ state: "visible" })
    expect(await page.locator("#study").isVisible()).toBe(false)
    await page.locator(`#q-${blk(1)} input`).fill("Ada")
    await page.keyboard.press("Enter")
    await page.locator("#done").waitFor({ state: "visible" })
    const [item] = (await forms.api("GET", `/forms/${formId}/responses`)).body.data.items ?? []
    const detail = await forms.api("GET", `/forms/${formId}/responses/${String(item?.id)}`)
    expect((detail.body.data.consent as { items: Array<string> }).items).toEqual(ITEMS)
    expect(await page.locator("#done a.withdraw-link").getAttribute("href")).toContain(String(item?.id))
    await withdraw(page)
    expect(await responseCount(formId)).toBe(0)
    expect(await problems.problems()).toEqual([])
  })

  it("refuses the post without the consent boxes when JavaScript is off, then completes and withdraws", async () => {
    await forms.publish("study-no-js", definition, settings())
    const formId = await formIdOf("study-no-js")
    const page = await browser.newPage({ javaScriptEnabled: false })
    await page.goto(`${app.origin}/f/study-no-js`)
    expect(await page.locator("#study").isVisible()).toBe(true)
    expect(await page.locator(`#q-${blk(1)} input`).isVisible()).toBe(true)
    await page.locator(`#q-${blk(1)} input`).fill("Ada")
    await page.locator("#consent-0").check()
    await Promise.all([page.waitForNavigation(), page.locator("button.submit").click()])
    expect(await page.locator("#study .consent-error").textContent()).toBe(
      "Please accept every item above to take part."
    )
    expect(await responseCount(formId)).toBe(0)
    // Refilled: the name stays, the ticked box stays ticked.
    expect(await page.locator(`#q-${blk(1)} input`).inputValue()).toBe("Ada")
    expect(await page.locator("#consent-0").isChecked()).toBe(true)
    await page.locator("#consent-1").check()
    await Promise.all([page.waitForNavigation(), page.locator("button.submit").click()])
    expect(await page.locator("#done").isVisible()).toBe(true)
    expect(await responseCount(formId)).toBe(1)
    const used = await withdraw(page)
    expect(await responseCount(formId)).toBe(0)
    // The used link answers the not-valid page.
    const again = await page.goto(used)
    expect(again?.status()).toBe(404)
    expect(await page.locator("h1").textContent()).toBe("This link is not valid")
  })
})

describe("research compliance on the interview page", () => {
  const interview = {
    title: "Planning interview",
    locales: { default: "en", supported: ["en"] },
    fields: [
      {
        id: "role",
        priority: 10,
        labelByLocale: { en: "your role" },
        questionByLocale: { en: "What is your role?" },
        valueType: "short_text",
        requiredness: "hard"
      }
    ],
    policy: { maxExchanges: 6 }
  }
  const publishInterview = async (slug: string) => {
    const created = await forms.api("POST", "/forms", {
      kind: "interview",
      title: "Planning interview",
      definition: interview,
      settings: settings()
    })
    const id = String(created.body.data.id)
    await forms.api("PATCH", `/forms/${id}/slug`, { slug })
    await forms.api("POST", `/forms/${id}/publish`, {
      expectedDraftRevision: created.body.data.draftRevision
    })
    return id
  }

  it("starts only with every consent item ticked, with JavaScript and without", async () => {
    const formId = await publishInterview("study-chat")
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/study-chat`)
    expect(await page.locator(".study-purpose").textContent()).toBe("How teams plan their week")
    await page.locator("#start").click()
    expect(await page.locator("#study .consent-error").isVisible()).toBe(true)
    expect(await page.locator("#chat").isVisible()).toBe(false)
    expect(await responseCount(formId)).toBe(0)
    await page.locator("#consent-0").check()
    await page.locator("#consent-1").check()
    await page.locator("#start").click()
    await page.locator("#chat").waitFor({ state: "visible" })
    expect(await responseCount(formId)).toBe(1)
    expect(await problems.problems()).toEqual([])

    const plain = await browser.newPage({ javaScriptEnabled: false })
    await plain.goto(`${app.origin}/f/study-chat`)
    const start = plain.locator("form.nojs-start button[type=submit]")
    // The boxes are required: the browser itself holds the start back (the server refuses it too,
    // test/http/research-compliance.test.ts).
    await plain.locator("#consent-0").check()
    await start.click()
    await plain.waitForTimeout(500)
    expect(await plain.locator("#transcript li").count()).toBe(0)
    expect(await responseCount(formId)).toBe(1)
    await plain.locator("#consent-1").check()
    await Promise.all([
      plain.waitForNavigation(),
      plain.locator("form.nojs-start button[type=submit]").click()
    ])
    expect(await plain.locator("#transcript li").count()).toBeGreaterThan(0)
    expect(await responseCount(formId)).toBe(2)
    await plain.locator("#message").fill("I lead the design team")
    await Promise.all([plain.waitForNavigation(), plain.locator("button[value=message]").click()])
    // The one question answered, the interview may close by itself; else the respondent finishes it.
    if (!(await plain.locator("#done").isVisible()))
      await Promise.all([plain.waitForNavigation(), plain.locator("button[value=finish]").click()])
    expect(await plain.locator("#done").isVisible()).toBe(true)
    await withdraw(plain)
    expect(await responseCount(formId)).toBe(1)
  })
})
