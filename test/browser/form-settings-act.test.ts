// Form settings and block fields shown acting in headless Chromium, as a respondent sees them: the
// locale's words, the theme's colours, corners, background, density and motion, the document's
// width and layout, the completion screen, the submit label, block options the page renders or
// enforces, and a logic rule matching "any".
import { FORMS_SCOPES } from "@folio/domain"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { collectProblems, sharedBrowser } from "../support/browser.js"
import { blk } from "../support/every-block-form.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

const browser = sharedBrowser()
let app: RunningApp
let forms: FormsClient
let key: string

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
  forms = formsClient(app, key)
})
afterAll(async () => app.close())

/** One computed style property of the first element matching `selector`. */
const style = (page: Page, selector: string, property: string) =>
  page.$eval(selector, (el, p) => getComputedStyle(el).getPropertyValue(p), property)

const rect = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect()
    return { left: r.left, right: r.right, top: r.top, width: r.width, height: r.height }
  })

/** Opens the form and waits until its script has started the response and focused the first control. */
const open = async (page: Page, slug: string) => {
  await page.goto(`${app.origin}/f/${slug}`)
  await page.waitForFunction(() => document.documentElement.classList.contains("enhanced"))
}

const oneOptional = {
  schemaVersion: 1,
  blocks: [{ id: blk("only"), type: "short_text", label: "Anything to add?" }]
}

/** Two optional questions: the first step's button says Next, the last one's submits. */
const twoSteps = {
  schemaVersion: 1,
  blocks: [
    { id: blk("only"), type: "short_text", label: "Anything to add?" },
    { id: blk("more"), type: "short_text", label: "Anything else?" }
  ]
}

/** Records the behaviour of every scrollIntoView the page asks for (installed before its scripts). */
const recordScrolls = (page: Page) =>
  page.addInitScript({
    content: `window.__scrolls = [];
const scroll = Element.prototype.scrollIntoView;
Element.prototype.scrollIntoView = function (o) {
  window.__scrolls.push(typeof o === "object" && o !== null ? (o.behavior ?? "auto") : "auto");
  return scroll.call(this, o);
};`
  })
const scrolls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __scrolls: Array<string> }).__scrolls)

/** Moves from the first question to the second with the Next button. */
const toSecond = async (page: Page) => {
  expect(await page.textContent("button.submit")).toBe("Next")
  await page.click("button.submit")
  await page.waitForFunction((id) => document.activeElement?.id === id, `in-${blk("more")}`)
}

describe("settings.locale", () => {
  it.each([
    ["ko", "다음", "제출", "필수 질문입니다.", "대한민국", "일본"],
    ["ja", "次へ", "送信", "この質問は必須です。", "韓国", "日本"]
  ])(
    "%s: the page's language, its buttons, its messages and the country names are in that locale",
    async (locale, next, submit, required, korea, japan) => {
      await forms.publish(
        `locale-${locale}`,
        {
          schemaVersion: 1,
          blocks: [
            { id: blk("name"), type: "short_text", label: "Name", required: true },
            {
              id: blk("country"),
              type: "dropdown",
              label: "Country",
              options: { choices: [], dataset: "countries" }
            }
          ]
        },
        { renderMode: "classic", locale }
      )
      const page = await browser.newPage()
      const problems = await collectProblems(page)
      await open(page, `locale-${locale}`)
      expect(await page.getAttribute("html", "lang")).toBe(locale)
      expect(await page.textContent("button.submit")).toBe(next)
      expect(await page.textContent(`select#in-${blk("country")} option[value="KR"]`)).toBe(korea)
      expect(await page.textContent(`select#in-${blk("country")} option[value="JP"]`)).toBe(japan)
      // Next on the empty required question: the refusal is in the locale too.
      await page.click("button.submit")
      await expect.poll(() => page.textContent(`#err-${blk("name")}`)).toBe(required)
      await page.fill(`#in-${blk("name")}`, "Ada")
      await page.click("button.submit")
      await page.locator(`#in-${blk("country")}`).waitFor({ state: "visible" })
      // The last step's button submits, in the locale's word.
      expect(await page.textContent("button.submit")).toBe(submit)
      expect(await problems.problems()).toEqual([])
    }
  )
})

describe("settings.theme, submission.submitLabel and completion", () => {
  it("paints the author's colours, sharp corners, a gradient, compact spacing and no motion; a custom submit label; confetti held back; no icon", async () => {
    const formId = await forms.publish("theme-a", twoSteps, {
      renderMode: "classic",
      theme: {
        primaryColor: "#0b6e4f",
        backgroundColor: "#fff8e7",
        textColor: "#2b2d42",
        accentColor: "#d7263d",
        themeKey: "forest",
        cornerStyle: "sharp",
        background: "gradient",
        density: "compact",
        reduceMotion: true
      },
      submission: { acceptingResponses: true, submitLabel: "Send it" },
      completion: { title: "Got it", icon: "none", confetti: true }
    })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await recordScrolls(page)
    await open(page, "theme-a")
    const input = `#in-${blk("only")}`
    await page.waitForFunction((id) => document.activeElement?.id === id, input.slice(1))
    // Colours: the primary button, the page's background and text, the accent of the focus ring.
    expect(await style(page, "button.submit", "background-color")).toBe("rgb(11, 110, 79)")
    expect(await style(page, "button.submit", "color")).toBe("rgb(255, 255, 255)")
    expect(await style(page, "html", "background-color")).toBe("rgb(255, 248, 231)")
    expect(await style(page, "html", "color")).toBe("rgb(43, 45, 66)")
    expect(await style(page, "h1.form-title", "color")).toBe("rgb(43, 45, 66)")
    expect(await style(page, input, "outline-color")).toBe("rgb(215, 38, 61)")
    // themeKey forest: its line colour on the field's border.
    expect(await style(page, input, "border-top-color")).toBe("rgb(95, 122, 102)")
    // cornerStyle sharp, background gradient, density compact (0.75rem of 17px).
    expect(await style(page, "button.submit", "border-top-left-radius")).toBe("0px")
    expect(await style(page, input, "border-top-left-radius")).toBe("0px")
    expect(await style(page, "body", "background-image")).toContain("linear-gradient")
    expect(await style(page, `#q-${blk("only")}`, "margin-bottom")).toBe("12.75px")
    // reduceMotion: the class, and the question does not animate in.
    expect(await page.getAttribute("body", "class")).toContain("reduce-motion")
    expect(await style(page, `#q-${blk("only")}`, "animation-name")).toBe("none")
    // ... and moving on does not scroll smoothly (nor ask for any animated scroll at all).
    await toSecond(page)
    expect(await scrolls(page)).toEqual([])
    // submitLabel on the last step.
    expect(await page.textContent("button.submit")).toBe("Send it")
    await page.click("button.submit")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await page.textContent("#done-title")).toBe("Got it")
    // icon none: no icon; confetti is there but reduceMotion keeps it from showing.
    expect(await page.locator(".done-icon").count()).toBe(0)
    expect(await page.locator("#done .confetti i").count()).toBe(24)
    expect(await style(page, "#done .confetti", "display")).toBe("none")
    // No allowAnother, no call to action.
    expect(await page.locator("#done a").count()).toBe(0)
    expect(await forms.completedAnswers(formId)).toHaveLength(1)
    expect(await problems.problems()).toEqual([])
  })

  it("with round corners, a soft background, comfortable spacing and motion: icon, call to action, confetti, and another response", async () => {
    const formId = await forms.publish("theme-b", twoSteps, {
      renderMode: "classic",
      theme: { themeKey: "warm", cornerStyle: "round", background: "soft", density: "comfortable" },
      completion: {
        icon: "heart",
        confetti: true,
        allowAnother: true,
        ctaLabel: "Read the report",
        ctaUrl: "https://example.org/report"
      }
    })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await recordScrolls(page)
    await open(page, "theme-b")
    const input = `#in-${blk("only")}`
    await page.waitForFunction((id) => document.activeElement?.id === id, input.slice(1))
    // The default colours where the theme names none.
    expect(await style(page, "button.submit", "background-color")).toBe("rgb(91, 87, 214)")
    expect(await style(page, "html", "background-color")).toBe("rgb(255, 255, 255)")
    // themeKey warm's line colour; round corners (22px × 0.6); a soft tint and no gradient.
    expect(await style(page, input, "border-top-color")).toBe("rgb(140, 122, 104)")
    expect(await style(page, "button.submit", "border-top-left-radius")).toBe("13.2px")
    expect(await style(page, "body", "background-image")).toBe("none")
    const soft = await style(page, "body", "background-color")
    expect(soft).not.toBe("rgba(0, 0, 0, 0)")
    expect(soft).not.toBe("rgb(255, 255, 255)")
    // density comfortable: 2rem between questions; motion: the question rises in.
    expect(await style(page, `#q-${blk("only")}`, "margin-bottom")).toBe("34px")
    expect(await page.getAttribute("body", "class")).not.toContain("reduce-motion")
    expect(await style(page, `#q-${blk("only")}`, "animation-name")).toBe("rise")
    await page.fill(input, "first")
    await toSecond(page)
    expect(await scrolls(page)).toContain("smooth")
    // No submitLabel: the locale's own word.
    expect(await page.textContent("button.submit")).toBe("Submit")
    await page.click("button.submit")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await page.textContent(".done-icon")).toBe("♥")
    const cta = page.getByRole("link", { name: "Read the report" })
    expect(await cta.getAttribute("href")).toBe("https://example.org/report")
    expect(await style(page, "#done .confetti", "display")).not.toBe("none")
    expect(await page.locator("#done .confetti i").count()).toBe(24)
    // allowAnother: the link opens the form again, and a second response is taken.
    await page.getByRole("link", { name: "Submit another response" }).click()
    await page.waitForURL(`${app.origin}/f/theme-b`)
    await page.locator(input).waitFor({ state: "visible" })
    await page.waitForFunction(() => document.documentElement.classList.contains("enhanced"))
    await page.fill(input, "second")
    await toSecond(page)
    await page.click("button.submit")
    await page.locator("#done").waitFor({ state: "visible" })
    const answers = await forms.completedAnswers(formId)
    expect(answers.map((a) => a[blk("only")]).sort()).toEqual(["first", "second"])
    // Coming back with the continuity cookie, the page asks to resume; a completed response is not
    // resumable, and that 404 is the expected "nothing to resume" (Chromium logs every failed fetch).
    expect(
      (await problems.problems()).filter(
        (p) => !(p.kind === "console" && /\/responses\/resume:/.test(p.location) && /404/.test(p.text))
      )
    ).toEqual([])
  })
})

describe("settings.document and presentation.document", () => {
  const layout = {
    schemaVersion: 1,
    blocks: [
      {
        id: blk("first"),
        type: "short_text",
        label: "First name",
        presentation: { document: { span: 6 } }
      },
      { id: blk("last"), type: "short_text", label: "Last name", presentation: { document: { span: 6 } } },
      {
        id: blk("bare"),
        type: "short_text",
        label: "Label kept for screen readers",
        presentation: { document: { fieldChrome: "field-only", controlWidth: "full" } }
      },
      { id: blk("plain"), type: "short_text", label: "Plain width" },
      {
        id: blk("later"),
        type: "short_text",
        label: "On the second page",
        presentation: { document: { breakBefore: true } }
      }
    ]
  }

  it("sets the page's width from pageWidth (narrow, normal, wide)", async () => {
    const cases = [
      ["narrow", "646px"],
      ["normal", "816px"],
      ["wide", "1122px"]
    ] as const
    await Promise.all(
      cases.map(([pageWidth]) =>
        forms.publish(`doc-${pageWidth}`, oneOptional, { renderMode: "document", document: { pageWidth } })
      )
    )
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    const widths: Array<number> = []
    for (const [pageWidth, max] of cases) {
      await open(page, `doc-${pageWidth}`)
      expect(await style(page, "main.page", "max-width")).toBe(max)
      widths.push((await rect(page, "#form")).width)
    }
    const [narrow = 0, normal = 0, wide = 0] = widths
    expect(narrow).toBeLessThan(normal)
    expect(normal).toBeLessThan(wide)
  })

  it("lays blocks side by side by span, hides a field-only label, widens a full control, breaks a page before a block, and numbers questions", async () => {
    await forms.publish("doc-layout", layout, {
      renderMode: "document",
      document: { pageWidth: "wide", showNumbers: true }
    })
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    const problems = await collectProblems(page)
    await open(page, "doc-layout")
    const form = await rect(page, "#form")
    const first = await rect(page, `#q-${blk("first")}`)
    const last = await rect(page, `#q-${blk("last")}`)
    // span 6 + span 6: one row, each half of the page.
    expect(last.top).toBe(first.top)
    expect(first.right).toBeLessThan(last.left)
    expect(first.width).toBeGreaterThan(form.width * 0.45)
    expect(first.width).toBeLessThan(form.width * 0.55)
    // fieldChrome field-only: the label takes no room but still names the control.
    expect((await rect(page, `#lbl-${blk("bare")}`)).width).toBeLessThanOrEqual(1)
    expect(await page.getByLabel("Label kept for screen readers").getAttribute("id")).toBe(
      `in-${blk("bare")}`
    )
    // controlWidth full: wider than the 32rem (544px) an ordinary control stops at.
    expect((await rect(page, `#in-${blk("plain")}`)).width).toBe(544)
    expect((await rect(page, `#in-${blk("bare")}`)).width).toBeGreaterThan(900)
    // showNumbers: input blocks numbered in order.
    expect(await page.textContent(`#lbl-${blk("first")} .q-num`)).toBe("1.")
    expect(await page.textContent(`#lbl-${blk("plain")} .q-num`)).toBe("4.")
    // breakBefore: the last block opens page 2.
    expect(await page.isVisible(`#q-${blk("later")}`)).toBe(false)
    expect(await page.textContent(".progress-text")).toBe("Page 1 of 2")
    expect(await page.textContent("button.submit")).toBe("Next")
    await page.click("button.submit")
    await page.locator(`#q-${blk("later")}`).waitFor({ state: "visible" })
    expect(await page.isVisible(`#q-${blk("first")}`)).toBe(false)
    expect(await page.textContent(".progress-text")).toBe("Page 2 of 2")
    expect(await problems.problems()).toEqual([])
  })
})

describe("block options on the page", () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])

  it("renders and enforces text, rating, number, date-time, signature, consent, statement and image options", async () => {
    const created = await forms.api("POST", "/forms", { title: "Block options" })
    const formId = String(created.body.data.id)
    const upload = await fetch(`${app.origin}/forms/api/v1/forms/${formId}/assets`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/octet-stream" },
      body: png
    })
    const imageKey = ((await upload.json()) as { data: { key: string } }).data.key
    const definition = {
      schemaVersion: 1,
      blocks: [
        {
          id: blk("pic"),
          type: "image",
          imageKey,
          imageAlt: "Small picture",
          width: "small",
          imageWidth: 400,
          imageHeight: 200
        },
        {
          id: blk("banner"),
          type: "image",
          imageKey,
          imageAlt: "Full picture",
          imageWidth: 300,
          imageHeight: 100
        },
        {
          id: blk("code"),
          type: "short_text",
          label: "Code",
          options: {
            minLength: 3,
            placeholder: "ABC-123",
            autoComplete: "one-time-code",
            inputMode: "numeric"
          }
        },
        {
          id: blk("story"),
          type: "long_text",
          label: "Story",
          options: { minLength: 5, maxLength: 20, placeholder: "Once upon a time" }
        },
        { id: blk("mail"), type: "email", label: "E-mail", options: { placeholder: "you@example.org" } },
        {
          id: blk("stars"),
          type: "rating",
          label: "Stars",
          options: { scale: 5, shape: "star", lowLabel: "Poor", highLabel: "Great" }
        },
        { id: blk("dots"), type: "rating", label: "Dots", options: { scale: 3, shape: "circle" } },
        { id: blk("plainrate"), type: "rating", label: "Numbers", options: { scale: 3 } },
        {
          id: blk("weight"),
          type: "number",
          label: "Weight",
          options: { placeholder: "70", prefix: "≈", suffix: "kg" }
        },
        {
          id: blk("when"),
          type: "datetime",
          label: "When",
          options: { min: "2026-01-01T09:00", max: "2026-01-31T17:00" }
        },
        { id: blk("time"), type: "time", label: "Time", options: { min: "09:00", max: "17:30" } },
        {
          id: blk("trip"),
          type: "date_range",
          label: "Trip",
          options: { min: "2026-06-01", max: "2026-06-30" }
        },
        { id: blk("sign"), type: "signature", label: "Sign", options: { width: 500, height: 120 } },
        {
          id: blk("consent"),
          type: "privacy_consent",
          label: "Consent",
          options: {
            items: ["Your name", "Your e-mail"],
            purpose: "To answer your question",
            retentionPeriod: "Six months",
            refusalNotice: "Without consent we cannot answer."
          }
        },
        {
          id: blk("note"),
          type: "statement",
          label: "Read this",
          level: 1,
          align: "center",
          variant: "callout",
          content: [
            { text: "bold", bold: true },
            { text: "italic", italic: true },
            { text: "under", underline: true },
            { text: "struck", strike: true },
            { text: "mono", code: true },
            { text: "link", href: "https://example.org/more" },
            { text: "red", color: "#b00020", bg: "#ffee00" }
          ]
        },
        {
          id: blk("steps"),
          type: "statement",
          label: "",
          variant: "quote",
          align: "right",
          listStyle: "number",
          content: [{ text: "one\ntwo\nthree" }]
        },
        { id: blk("bullets"), type: "statement", label: "", listStyle: "bullet", content: [{ text: "a\nb" }] }
      ]
    }
    const patched = await forms.api("PATCH", `/forms/${formId}`, {
      definition,
      expectedDraftRevision: created.body.data.draftRevision
    })
    expect(patched.status).toBe(200)
    const settings = await forms.api("PATCH", `/forms/${formId}/settings`, {
      settings: { renderMode: "document" },
      expectedSettingsSignature: created.body.data.settingsSignature
    })
    expect(settings.status).toBe(200)
    await forms.api("PATCH", `/forms/${formId}/slug`, { slug: "block-options" })
    expect(
      (
        await forms.api("POST", `/forms/${formId}/publish`, {
          expectedDraftRevision: patched.body.data.draftRevision
        })
      ).status
    ).toBe(200)

    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } })
    // Images are held back while the layout is measured: the space they take comes from the
    // declared imageWidth and imageHeight alone.
    const held: Array<() => Promise<void>> = []
    await page.route(/\/f\/block-options\/images\//, (route) => {
      held.push(() => route.fulfill({ status: 204 }))
    })
    await open(page, "block-options")
    const small = await rect(page, `#q-${blk("pic")} img`)
    const figure = await rect(page, `#q-${blk("pic")} figure`)
    // width small: 40% of the column, in the declared 2:1 proportion.
    expect(small.width).toBeCloseTo(figure.width * 0.4, 0)
    expect(small.height).toBeCloseTo(small.width / 2, 0)
    const full = await rect(page, `#q-${blk("banner")} img`)
    expect(full.width).toBe(300)
    expect(full.height).toBe(100)
    for (const release of held.splice(0)) await release()

    // short_text: placeholder, autocomplete, input mode and minimum length.
    const code = page.locator(`#in-${blk("code")}`)
    expect(await code.getAttribute("placeholder")).toBe("ABC-123")
    expect(await code.getAttribute("autocomplete")).toBe("one-time-code")
    expect(await code.evaluate((e) => (e as HTMLInputElement).inputMode)).toBe("numeric")
    expect(await page.getAttribute(`#in-${blk("mail")}`, "placeholder")).toBe("you@example.org")
    // long_text: the browser stops typing at maxLength.
    const story = page.locator(`#in-${blk("story")}`)
    expect(await story.getAttribute("placeholder")).toBe("Once upon a time")
    await story.pressSequentially("x".repeat(25))
    expect((await story.inputValue()).length).toBe(20)
    // rating: shapes and end labels.
    expect(await page.locator(`#q-${blk("stars")} .rate-mark`).allTextContents()).toEqual(Array(5).fill("★"))
    expect(await style(page, `#q-${blk("stars")} .rating label`, "border-top-left-radius")).toBe("50%")
    expect(await page.locator(`#q-${blk("dots")} .rate-mark`).allTextContents()).toEqual(["●", "●", "●"])
    expect(await page.locator(`#q-${blk("plainrate")} .rate-mark`).allTextContents()).toEqual(["1", "2", "3"])
    const labels = await page.locator(`#rl-${blk("stars")} span`).allTextContents()
    expect(labels).toEqual(["Poor", "Great"])
    expect((await rect(page, `#rl-${blk("stars")} span:first-child`)).left).toBeLessThan(
      (await rect(page, `#rl-${blk("stars")} span:last-child`)).left
    )
    // number: placeholder, and the prefix and suffix either side of the field.
    const weight = `#in-${blk("weight")}`
    expect(await page.getAttribute(weight, "placeholder")).toBe("70")
    const affixes = page.locator(`#q-${blk("weight")} .affix`)
    expect(await affixes.allTextContents()).toEqual(["≈", "kg"])
    expect((await affixes.first().boundingBox())?.x ?? 0).toBeLessThan((await rect(page, weight)).left)
    expect((await affixes.last().boundingBox())?.x ?? 0).toBeGreaterThan((await rect(page, weight)).right - 1)
    // Bounds of datetime, time and date_range on the inputs.
    expect(await page.getAttribute(`#in-${blk("when")}`, "min")).toBe("2026-01-01T09:00")
    expect(await page.getAttribute(`#in-${blk("when")}`, "max")).toBe("2026-01-31T17:00")
    expect(await page.getAttribute(`#in-${blk("time")}`, "min")).toBe("09:00")
    expect(await page.getAttribute(`#in-${blk("time")}`, "max")).toBe("17:30")
    for (const end of [0, 1]) {
      expect(await page.getAttribute(`#in-${blk("trip")}-${end}`, "min")).toBe("2026-06-01")
      expect(await page.getAttribute(`#in-${blk("trip")}-${end}`, "max")).toBe("2026-06-30")
    }
    // signature: the pad is as wide and tall as the block says.
    const pad = await rect(page, `#q-${blk("sign")} canvas.sig-pad`)
    expect(Math.round(pad.width)).toBe(500)
    expect(Math.round(pad.height)).toBe(120)
    // privacy_consent: the purpose, the items, the retention and the refusal notice.
    const consent = (await page.textContent(`#q-${blk("consent")}`)) ?? ""
    for (const text of [
      "To answer your question",
      "Your name",
      "Your e-mail",
      "Six months",
      "Without consent we cannot answer."
    ])
      expect(consent).toContain(text)
    // statement: heading level, alignment, variant, and each run's formatting.
    const note = `#q-${blk("note")}`
    expect(await page.textContent(`${note} h2.statement-title`)).toBe("Read this")
    expect(await style(page, `${note} .statement`, "text-align")).toBe("center")
    expect(await style(page, `${note} .statement`, "background-color")).not.toBe("rgba(0, 0, 0, 0)")
    expect(await style(page, `${note} strong`, "font-weight")).toBe("700")
    expect(await style(page, `${note} em`, "font-style")).toBe("italic")
    expect(await style(page, `${note} u`, "text-decoration-line")).toBe("underline")
    expect(await style(page, `${note} s`, "text-decoration-line")).toBe("line-through")
    expect(await style(page, `${note} code`, "font-family")).toContain("monospace")
    expect(await page.getByRole("link", { name: "link" }).getAttribute("href")).toBe(
      "https://example.org/more"
    )
    const red = page.getByText("red", { exact: true })
    expect(await red.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(176, 0, 32)")
    expect(await red.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe("rgb(255, 238, 0)")
    const steps = `#q-${blk("steps")}`
    expect(await page.locator(`${steps} ol li`).allTextContents()).toEqual(["one", "two", "three"])
    expect(await style(page, `${steps} .statement`, "text-align")).toBe("right")
    expect(await style(page, `${steps} .statement`, "border-left-style")).toBe("solid")
    expect(await page.locator(`#q-${blk("bullets")} ul li`).allTextContents()).toEqual(["a", "b"])

    // The page refuses a too-short text, a too-short story and a time out of range before submitting.
    await code.fill("12")
    await story.fill("abc")
    await page.fill(`#in-${blk("time")}`, "08:00")
    await page.check(`#in-${blk("consent")}-y`)
    await page.click("button.submit")
    await expect.poll(() => page.textContent(`#err-${blk("code")}`)).toBe("This answer is too short.")
    expect(await page.textContent(`#err-${blk("story")}`)).toBe("This answer is too short.")
    expect(await page.textContent(`#err-${blk("time")}`)).toBe("This value is outside the allowed range.")
    expect(await page.isVisible("#done")).toBe(false)
    await code.fill("123")
    await story.fill("abcde")
    await page.fill(`#in-${blk("time")}`, "09:30")
    await page.click("button.submit")
    await page.locator("#done").waitFor({ state: "visible" })
    const [answers] = await forms.completedAnswers(formId)
    expect(answers).toMatchObject({ [blk("code")]: "123", [blk("story")]: "abcde", [blk("time")]: "09:30" })
  })
})

describe('logic match "any"', () => {
  it("hides a block when only one of the rule's two conditions holds, and the response leaves it out", async () => {
    const formId = await forms.publish(
      "logic-any",
      {
        schemaVersion: 1,
        blocks: [
          {
            id: blk("pick"),
            type: "multiple_choice",
            label: "Pick",
            options: {
              choices: [
                { id: "a", label: "Alpha" },
                { id: "b", label: "Beta" }
              ]
            }
          },
          { id: blk("word"), type: "short_text", label: "Word" },
          { id: blk("asked"), type: "short_text", label: "Asked unless a rule hides it", required: true }
        ],
        logic: [
          {
            id: "lgc_either",
            from: blk("word"),
            match: "any",
            conditions: [
              { blk: blk("pick"), op: "eq", value: "a" },
              { blk: blk("word"), op: "eq", value: "skip" }
            ],
            actions: [{ type: "hide", target: blk("asked") }]
          }
        ]
      },
      { renderMode: "document" }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await open(page, "logic-any")
    const asked = page.locator(`#q-${blk("asked")}`)
    await page.getByLabel("Beta").check()
    await page.fill(`#in-${blk("word")}`, "go")
    await asked.waitFor({ state: "visible" })
    // Only the second condition holds.
    await page.fill(`#in-${blk("word")}`, "skip")
    await asked.waitFor({ state: "hidden" })
    // Only the first condition holds.
    await page.fill(`#in-${blk("word")}`, "go")
    await asked.waitFor({ state: "visible" })
    await page.getByLabel("Alpha").check()
    await asked.waitFor({ state: "hidden" })
    // The required block stays hidden and unanswered, and the server takes the response.
    await page.click("button.submit")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("pick")]: "a", [blk("word")]: "go" }])
    expect(await problems.problems()).toEqual([])
  })
})
