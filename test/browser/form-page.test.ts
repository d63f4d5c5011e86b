// The public form page in headless Chromium: the form with every block type filled and submitted
// with the keyboard only, in each render mode, then read back over the API; accessibility (axe: no
// serious or critical violations); no CSP violation or script error on the way.
import { FORMS_SCOPES } from "@folio/domain"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { blk, everyBlockDefinition } from "../support/every-block-form.js"
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

/** Presses Tab until focus is inside `selector` (document mode walks the page this way). */
const tabInto = async (page: Page, selector: string) => {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.closest(s) !== null, selector)) return
    await page.keyboard.press("Tab")
  }
  const where = await page.evaluate(() => ({
    active: document.activeElement?.outerHTML.slice(0, 200),
    errors: Array.from(document.querySelectorAll(".q-error:not([hidden])")).map(
      (e) => `${e.id}: ${e.textContent}`
    )
  }))
  await page.screenshot({ path: "/tmp/form-page-failure.png" })
  throw new Error(`Tab never reached ${selector}: ${JSON.stringify(where)}`)
}

const q = (name: string) => `#q-${blk(name)}`

/**
 * Types into a question's input once the page has focused it. Without an intro the page focuses
 * the first question only when its response has started (a request), after the input is shown:
 * keys typed before then go nowhere, and a loaded machine once lost them so.
 */
const typeInto = async (page: Page, name: string, text: string) => {
  await page.waitForFunction((id) => document.activeElement?.id === id, `in-${blk(name)}`)
  await page.keyboard.type(text)
}

/**
 * The keyboard of one respondent, block by block. `continue` is Enter in the step modes; the
 * document mode moves on with Tab instead.
 */
const fillWithKeyboard = async (page: Page, mode: "classic" | "conversational" | "document") => {
  const kb = page.keyboard
  const step = async (selector: string, keys: () => Promise<void>, enter = true) => {
    await tabInto(page, selector)
    await keys()
    if (mode !== "document" && enter) await kb.press("Enter")
  }
  if (mode !== "document") await step(q("intro"), async () => {})
  await step(q("name"), () => kb.type("Ada Lovelace"))
  // The statement quotes the answer given just before it.
  await page.waitForFunction(
    (id) => document.querySelector(`#q-${id} span.ref`)?.textContent === "Ada Lovelace",
    blk("hello")
  )
  if (mode !== "document") await step(q("hello"), async () => {})
  await step(q("bio"), () => kb.type("Line one"), false)
  if (mode !== "document") await kb.press("Control+Enter")
  await step(q("phone"), () => kb.type("+44 20 7946 0000"))
  await step(q("site"), () => kb.type("https://example.org"))
  await step(q("email"), () => kb.type("ada@example.org"))
  await step(q("color"), async () => {
    await kb.press("Space")
    await kb.press("ArrowDown")
  })
  await step(q("why"), () => kb.type("It is calm"))
  await step(q("pets"), async () => {
    await kb.press("Space")
    await kb.press("Tab")
    await kb.press("Space")
  })
  await step(q("country"), () => kb.type("South Korea"))
  await step(q("size"), () => kb.type("Medium"))
  await step(q("rank"), () => kb.press("Alt+ArrowDown"))
  // The random group is reversed: Energy comes before Mood.
  await step(q("energy"), async () => {
    await kb.press("Space")
    await kb.press("ArrowRight")
    await kb.press("ArrowRight")
  })
  await step(q("mood"), async () => {
    await kb.press("Space")
    for (let i = 0; i < 3; i++) await kb.press("ArrowRight")
  })
  await step(q("day"), () => kb.type("05062024"))
  await step(q("when"), async () => {
    await kb.type("05062024")
    // The year segment takes up to six digits: move on to the hours with the arrow key.
    await kb.press("ArrowRight")
    await kb.type("1030A")
  })
  await step(q("time"), () => kb.type("1030A"))
  await step(q("trip"), async () => {
    await kb.type("06012024")
    // Tab walks a date input's own segments first.
    await tabInto(page, `#in-${blk("trip")}-1`)
    await kb.type("06102024")
  })
  await step(q("count"), () => kb.type("7"))
  if (mode === "document") {
    // End of the first page: its Next button.
    await tabInto(page, "button.submit")
    await kb.press("Enter")
  }
  await step("#q-mtx_service", async () => {
    await kb.press("Space")
    await kb.press("ArrowRight")
    await kb.press("Tab")
    await kb.press("Space")
    await kb.press("ArrowRight")
    await kb.press("ArrowRight")
  })
  await step(q("addr"), async () => {
    await kb.type("04524")
    await kb.press("Tab")
    await kb.type("1 Main St")
    await kb.press("Tab")
    await kb.type("Apt 2")
  })
  if (mode !== "document") {
    // The file question is optional: Tab to the Next button and press it.
    await tabInto(page, q("file"))
    await tabInto(page, "button.submit")
    await kb.press("Enter")
  }
  await step(
    q("sign"),
    async () => {
      await tabInto(page, `${q("sign")} .sig-tools button`)
      await kb.press("Enter")
      await kb.type("Ada")
    },
    true
  )
  await step(q("consent"), () => kb.press("Space"))
  // The calculated field shows mood + energy where the author placed it.
  expect(await page.locator(`#out-${blk("total")}`).textContent()).toBe("7")
  if (mode !== "document") await step(q("total"), async () => {})
  else {
    await tabInto(page, "button.submit")
    await kb.press("Enter")
  }
}

const expectedAnswers = {
  [blk("name")]: "Ada Lovelace",
  [blk("bio")]: "Line one",
  [blk("phone")]: "+44 20 7946 0000",
  [blk("site")]: "https://example.org",
  [blk("email")]: "ada@example.org",
  [blk("color")]: "green",
  [blk("why")]: "It is calm",
  [blk("pets")]: ["cat", "dog"],
  [blk("country")]: "KR",
  [blk("size")]: "m",
  [blk("rank")]: ["b", "a", "c"],
  [blk("energy")]: 3,
  [blk("mood")]: 4,
  [blk("day")]: "2024-05-06",
  [blk("when")]: "2024-05-06T10:30",
  [blk("time")]: "10:30",
  [blk("trip")]: ["2024-06-01", "2024-06-10"],
  [blk("count")]: 7,
  [blk("mrow1")]: "ok",
  [blk("mrow2")]: "good",
  [blk("addr")]: ["04524", "1 Main St", "Apt 2"],
  [blk("consent")]: "y",
  [blk("total")]: 7,
  [blk("source")]: "kbd"
}

describe.each(["classic", "conversational", "document"] as const)("render mode %s", (mode) => {
  it("is answered with the keyboard only, and the response reads back over the API", async () => {
    const formId = await forms.publish(`every-${mode}`, everyBlockDefinition, { renderMode: mode })
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } })
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/every-${mode}?src=kbd`)
    expect(await axeViolations(page)).toEqual([])
    await fillWithKeyboard(page, mode)
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("done")
    const [answers, ...more] = await forms.completedAnswers(formId)
    expect(more).toEqual([])
    const { [blk("sign")]: signature, ...rest } = answers ?? {}
    expect(rest).toEqual(expectedAnswers)
    expect(String(signature)).toMatch(/^data:image\/png;base64,/)
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })
})

describe("uploads", () => {
  it("uploads a picked file with progress, lists it, and the response keeps it", async () => {
    const formId = await forms.publish(
      "upload-doc",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("who"), type: "short_text", label: "Who", required: true },
          {
            id: blk("cv"),
            type: "file_upload",
            label: "Your CV",
            required: true,
            options: { maxFiles: 2, maxSizeMb: 1 }
          }
        ]
      },
      { renderMode: "document" }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/upload-doc`)
    await page.locator(`#in-${blk("who")}`).fill("Grace")
    await page.locator(`#in-${blk("cv")}`).setInputFiles({
      name: "cv.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n% a small pdf\n")
    })
    await page.getByText("Uploaded: cv.pdf").waitFor()
    // Over the block's size limit: refused in the page before any upload.
    await page.locator(`#in-${blk("cv")}`).setInputFiles({
      name: "big.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.alloc(1024 * 1024 + 1, 65)
    })
    await expect.poll(() => page.locator(`#err-${blk("cv")}`).textContent()).toBe("This file is too large.")
    await page.locator("button.submit").click()
    await page.locator("#done").waitFor({ state: "visible" })
    const list = await forms.api("GET", `/forms/${formId}/responses?projection=full`)
    const [response = {}] = list.body.data.items ?? []
    const keys = (response.answers as Record<string, unknown>)[blk("cv")] as Array<string>
    expect(keys).toHaveLength(1)
    expect(
      (response.files as Array<{ key: string; filename: string }>).map((f) => [f.key, f.filename])
    ).toEqual([[keys[0], "cv.pdf"]])
    expect(await problems.problems()).toEqual([])
  })
})

describe("resume", () => {
  it("restores saved answers after a reload and completes the same response", async () => {
    const formId = await forms.publish(
      "resume-classic",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("first"), type: "short_text", label: "First", required: true },
          {
            id: blk("pick"),
            type: "multiple_choice",
            label: "Pick",
            required: true,
            options: {
              choices: [
                { id: "a", label: "A" },
                { id: "b", label: "B" }
              ],
              randomize: { mode: "shuffle" }
            }
          },
          { id: blk("last"), type: "short_text", label: "Last", required: true }
        ]
      },
      { renderMode: "classic" }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/resume-classic`)
    await page.locator(`#in-${blk("first")}`).waitFor()
    await typeInto(page, "first", "Saved before reload")
    await page.keyboard.press("Enter")
    await page.locator(`#q-${blk("pick")}`).waitFor()
    await page.keyboard.press("Space")
    const shown = await page
      .locator(`#q-${blk("pick")} li.choice`)
      .evaluateAll((lis) => lis.map((li) => li.getAttribute("data-choice")))
    await page.getByText("Saved", { exact: true }).waitFor()
    await page.reload()
    // Back where the respondent left: the answers, the same shuffled order, the next open question.
    await page.getByText("Welcome back: your earlier answers are restored.").waitFor()
    await page.locator(`#in-${blk("last")}`).waitFor()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`in-${blk("last")}`)
    expect(await page.locator(`#in-${blk("first")}`).inputValue()).toBe("Saved before reload")
    expect(
      await page
        .locator(`#q-${blk("pick")} li.choice`)
        .evaluateAll((lis) => lis.map((li) => li.getAttribute("data-choice")))
    ).toEqual(shown)
    await page.keyboard.type("After reload")
    await page.keyboard.press("Enter")
    await page.locator("#done").waitFor({ state: "visible" })
    const list = await forms.api("GET", `/forms/${formId}/responses?status=partial&limit=10`)
    expect(list.status).toBe(200)
    expect(list.body.data.items ?? []).toEqual([])
    const answers = await forms.completedAnswers(formId)
    expect(answers).toEqual([
      { [blk("first")]: "Saved before reload", [blk("pick")]: shown[0], [blk("last")]: "After reload" }
    ])
    expect(await problems.problems()).toEqual([])
  })
})

describe("answers cleared after a save", () => {
  it("clears on the server an optional answer the respondent saved and then erased", async () => {
    const formId = await forms.publish(
      "cleared-answer",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("nick"), type: "short_text", label: "Nickname" },
          { id: blk("city"), type: "short_text", label: "City", required: true }
        ]
      },
      { renderMode: "classic" }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/cleared-answer`)
    await page.locator(`#in-${blk("nick")}`).waitFor()
    await typeInto(page, "nick", "Zed")
    await page.getByText("Saved", { exact: true }).waitFor()
    // Erased after the autosave kept it: the save and the completion say so.
    await page.locator(`#in-${blk("nick")}`).fill("")
    await page.keyboard.press("Enter")
    await page.locator(`#in-${blk("city")}`).waitFor()
    await typeInto(page, "city", "Busan")
    await page.keyboard.press("Enter")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("city")]: "Busan" }])
    expect(await problems.problems()).toEqual([])
  })
})

describe("JavaScript off", () => {
  it("degrades to a plain form that posts: refusals at their questions, then the completion page", async () => {
    const formId = await forms.publish(
      "no-script",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("name"), type: "short_text", label: "Name", required: true },
          { id: blk("email"), type: "email", label: "Email", required: true },
          {
            id: blk("pets"),
            type: "checkboxes",
            label: "Pets",
            options: {
              choices: [
                { id: "cat", label: "Cat" },
                { id: "dog", label: "Dog" }
              ],
              allowOther: true
            }
          },
          {
            id: blk("rank"),
            type: "ranking",
            label: "Rank",
            options: {
              choices: [
                { id: "a", label: "Alpha" },
                { id: "b", label: "Beta" }
              ]
            }
          },
          { id: blk("trip"), type: "date_range", label: "Trip" },
          { id: blk("cv"), type: "file_upload", label: "CV", options: { maxFiles: 1, maxSizeMb: 1 } },
          { id: blk("src"), type: "hidden_field", label: "Source", options: { param: "src" } }
        ]
      },
      { renderMode: "classic", completion: { title: "Got it", body: "Thanks, <friend>." } }
    )
    const page = await browser.newPage({ javaScriptEnabled: false })
    page.setDefaultTimeout(8000)
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/no-script?src=paper`)
    // Every question is on the one page, and the script's controls are not.
    for (const id of ["name", "email", "pets", "rank", "trip", "cv"])
      expect(await page.locator(`#q-${blk(id)}`).isVisible()).toBe(true)
    expect(await page.locator("button.back").isVisible()).toBe(false)
    await page.locator(`#in-${blk("name")}`).fill("Ada")
    await page.locator(`#in-${blk("email")}`).fill("not an email")
    await page.locator(`#in-${blk("pets")}-0`).check()
    await page.locator(`#in-${blk("pets")}-other`).check()
    await page.locator(`input[name="${blk("pets")}.other"]`).fill("Parrot")
    await page.locator(`#in-${blk("rank")}-0`).selectOption("b")
    await page.locator(`#in-${blk("rank")}-1`).selectOption("a")
    await page
      .locator(`#in-${blk("cv")}`)
      .setInputFiles({ name: "cv.txt", mimeType: "text/plain", buffer: Buffer.from("my cv") })
    await page.locator("button.submit").click()
    // Refused: the email's error is at its field, what was typed is still there, the file is kept.
    await page.locator("#error-summary").waitFor()
    expect(await page.locator(`#err-${blk("email")}`).textContent()).toBe(
      "Enter an email address such as name@example.com."
    )
    expect(await page.locator(`#in-${blk("email")}`).getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`#in-${blk("name")}`).inputValue()).toBe("Ada")
    expect(await page.locator(`input[name="${blk("pets")}.other"]`).inputValue()).toBe("Parrot")
    expect(await page.locator(`input[name="${blk("cv")}.keep"]`).isChecked()).toBe(true)
    // (axe needs the page's script engine; the same markup is checked with it in the tests above.)
    await page.locator(`#in-${blk("email")}`).fill("ada@example.org")
    await page.locator("button.submit").click()
    await page.getByRole("heading", { name: "Got it" }).waitFor()
    expect(await page.locator(".done-body").textContent()).toBe("Thanks, <friend>.")
    const list = await forms.api("GET", `/forms/${formId}/responses?projection=full`)
    const items = list.body.data.items ?? []
    expect(items).toHaveLength(1)
    const answers = items[0]?.answers as Record<string, unknown>
    expect({ ...answers, [blk("cv")]: "key" }).toEqual({
      [blk("name")]: "Ada",
      [blk("email")]: "ada@example.org",
      [blk("pets")]: ["cat", "Parrot"],
      [blk("rank")]: ["b", "a"],
      [blk("cv")]: "key",
      [blk("src")]: "paper"
    })
    // The refused post answered 422 on purpose (Chromium logs any 4xx document as a failed load).
    expect(
      (await problems.problems()).filter((p) => !(p.kind === "console" && / 422 /.test(p.text)))
    ).toEqual([])
  })
})

describe("policies and screens", () => {
  const oneQuestion = {
    schemaVersion: 1,
    blocks: [{ id: blk("only"), type: "short_text", label: "Only", required: true }]
  }

  const answerOnce = async (page: Page) => {
    await page.locator(`#in-${blk("only")}`).waitFor()
    await page.locator(`#in-${blk("only")}`).fill("hi")
    await page.keyboard.press("Enter")
    await page.locator("#done").waitFor({ state: "visible" })
  }

  it("asks a browser that already answered a soft_block form to confirm, then takes the second answer", async () => {
    const formId = await forms.publish("soft-block", oneQuestion, {
      renderMode: "classic",
      submission: { acceptingResponses: true, repeatResponsePolicy: "soft_block" }
    })
    const page = await browser.newPage()
    await page.goto(`${app.origin}/f/soft-block`)
    await answerOnce(page)
    await page.goto(`${app.origin}/f/soft-block`)
    await page.getByText("You have already answered this form. Do you want to answer it again?").waitFor()
    expect(await page.locator("#form").isVisible()).toBe(false)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Answer again")
    await page.keyboard.press("Enter")
    await answerOnce(page)
    expect(await forms.completedAnswers(formId)).toHaveLength(2)
  })

  it("warns a browser that already answered a warn form", async () => {
    await forms.publish("warn-form", oneQuestion, {
      renderMode: "classic",
      submission: { acceptingResponses: true, repeatResponsePolicy: "warn" }
    })
    const page = await browser.newPage()
    await page.goto(`${app.origin}/f/warn-form`)
    await answerOnce(page)
    await page.goto(`${app.origin}/f/warn-form`)
    await page.getByText("You have already answered this form from this browser.").waitFor()
    await answerOnce(page)
  })

  it("shows the intro, then the completion screen, and follows the completion redirect", async () => {
    await forms.publish("intro-redirect", oneQuestion, {
      renderMode: "conversational",
      intro: { title: "Before you start", body: "Two minutes.", buttonLabel: "Let's go" },
      completion: { redirectUrl: `${app.origin}/healthz` }
    })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/intro-redirect`)
    await page.getByRole("heading", { name: "Before you start" }).waitFor()
    expect(await page.locator(`#in-${blk("only")}`).isVisible()).toBe(false)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Let's go")
    await page.keyboard.press("Enter")
    await page.locator(`#in-${blk("only")}`).waitFor()
    await typeInto(page, "only", "hello")
    await Promise.all([page.waitForURL(`${app.origin}/healthz`), page.keyboard.press("Enter")])
    expect(await problems.problems()).toEqual([])
  })

  it("runs the author's script sandboxed: it hears the page's events, never an answer or the page", async () => {
    await forms.publish("with-script", oneQuestion, {
      renderMode: "classic",
      customScript: `window.addEventListener("message", (e) => { document.body.append(JSON.stringify(e.data) + ";") });
let reach = "none"; try { reach = parent.document.title } catch { reach = "blocked" }
try { document.cookie; reach += "/cookie-ok" } catch { reach += "/no-cookie" }
document.documentElement.dataset.reach = reach`
    })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/with-script`)
    await answerOnce(page)
    const frame = page.frames().find((f) => f.url().endsWith("/f/with-script/custom-script"))
    expect(frame).toBeDefined()
    await expect.poll(() => frame?.evaluate(() => document.body.textContent)).toContain('"folio":"complete"')
    const heard = (await frame?.evaluate(() => document.body.textContent)) ?? ""
    expect(heard).toContain('"folio":"view"')
    expect(heard).not.toContain("hi")
    expect(await frame?.evaluate(() => document.documentElement.dataset.reach)).toBe("blocked/no-cookie")
    expect(await problems.problems()).toEqual([])
  })
})

describe("branching and dragging", () => {
  it("skips and hides as the server's rules say, and a ranking can be reordered by dragging", async () => {
    const formId = await forms.publish(
      "branching",
      {
        schemaVersion: 1,
        blocks: [
          {
            id: blk("route"),
            type: "multiple_choice",
            label: "Route",
            required: true,
            options: {
              choices: [
                { id: "long", label: "Long" },
                { id: "short", label: "Short" }
              ]
            }
          },
          { id: blk("detail"), type: "short_text", label: "Details", required: true },
          { id: blk("extra"), type: "short_text", label: "Extra", required: true },
          {
            id: blk("order"),
            type: "ranking",
            label: "Order",
            options: {
              choices: [
                { id: "x", label: "Xylophone" },
                { id: "y", label: "Yacht" },
                { id: "z", label: "Zebra" }
              ]
            }
          },
          { id: blk("end"), type: "short_text", label: "End" }
        ],
        logic: [
          {
            id: "lgc_short1",
            from: blk("route"),
            conditions: [{ blk: blk("route"), op: "eq", value: "short" }],
            actions: [{ type: "skip_to", target: blk("order") }]
          },
          {
            id: "lgc_hide01",
            from: blk("route"),
            conditions: [{ blk: blk("route"), op: "eq", value: "long" }],
            actions: [{ type: "hide", target: blk("extra") }]
          }
        ]
      },
      { renderMode: "document" }
    )
    const page = await browser.newPage()
    await page.goto(`${app.origin}/f/branching`)
    await page.locator(`#in-${blk("route")}-1`).check()
    // "short" skips Details and Extra.
    await expect.poll(() => page.locator(`#q-${blk("detail")}`).isVisible()).toBe(false)
    expect(await page.locator(`#q-${blk("extra")}`).isVisible()).toBe(false)
    await page.locator(`#in-${blk("route")}-0`).check()
    // "long" shows Details again and hides Extra.
    await expect.poll(() => page.locator(`#q-${blk("detail")}`).isVisible()).toBe(true)
    expect(await page.locator(`#q-${blk("extra")}`).isVisible()).toBe(false)
    await page.locator(`#in-${blk("detail")}`).fill("Scenic")
    // Drag Zebra above Xylophone.
    const zebra = page.locator(`#q-${blk("order")} li[data-choice="z"]`)
    const first = page.locator(`#q-${blk("order")} li[data-choice="x"]`)
    const from = await zebra.boundingBox()
    const to = await first.boundingBox()
    if (from === null || to === null) throw new Error("ranking items are not laid out")
    await page.mouse.move(from.x + 20, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(to.x + 20, to.y + 4, { steps: 8 })
    await page.mouse.up()
    expect(
      await page
        .locator(`#q-${blk("order")} li.rank-item`)
        .evaluateAll((lis) => lis.map((li) => li.getAttribute("data-choice")))
    ).toEqual(["z", "x", "y"])
    await page.locator("button.submit").click()
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await forms.completedAnswers(formId)).toEqual([
      { [blk("route")]: "long", [blk("detail")]: "Scenic", [blk("order")]: ["z", "x", "y"] }
    ])
  })
})

describe("answer patterns and quiz feedback", () => {
  const quizForm = {
    schemaVersion: 1,
    blocks: [
      {
        id: blk("code"),
        type: "short_text",
        label: "Booking code",
        required: true,
        options: { pattern: "[A-Z]{2}\\d{3}" }
      },
      {
        id: blk("second"),
        type: "multiple_choice",
        label: "Which letter is second?",
        required: true,
        options: {
          choices: [
            { id: "a", label: "Letter A" },
            { id: "b", label: "Letter B" }
          ]
        }
      }
    ],
    quizzes: [
      {
        id: "letters",
        label: "Letters",
        items: [
          {
            blockId: blk("second"),
            answer: "b",
            points: 2,
            feedbackCorrect: "Right: B comes second.",
            feedbackIncorrect: "B comes second."
          }
        ],
        cutoffs: [
          { min: 0, label: "Keep practising" },
          { min: 2, label: "Alphabet master" }
        ]
      }
    ]
  }

  it("refuses an answer off the pattern before submitting, then shows the quiz feedback on completion", async () => {
    const formId = await forms.publish("quiz-pattern", quizForm, { renderMode: "classic" })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    const completions: Array<string> = []
    page.on("request", (r) => {
      if (r.url().endsWith("/complete")) completions.push(r.url())
    })
    await page.goto(`${app.origin}/f/quiz-pattern`)
    const code = page.locator(`#in-${blk("code")}`)
    await code.waitFor()
    await code.fill("ab1234")
    await page.keyboard.press("Enter")
    const error = page.locator(`#err-${blk("code")}`)
    await error.waitFor({ state: "visible" })
    expect(await error.textContent()).toBe("Enter the answer in the format this question asks for.")
    expect(await code.getAttribute("aria-invalid")).toBe("true")
    // Still on the code: the next question is not shown and nothing was submitted.
    expect(await page.getByText("Which letter is second?").isVisible()).toBe(false)
    await code.fill("AB123")
    await page.keyboard.press("Enter")
    await page.getByLabel("Letter B").check()
    await page.keyboard.press("Enter")
    const done = page.locator("#done")
    await done.waitFor({ state: "visible" })
    expect(completions).toHaveLength(1)
    const results = done.locator(".quiz-results")
    await results.waitFor()
    expect(await results.locator(".quiz-score").textContent()).toBe("Letters: 2 of 2 points")
    expect(await results.locator(".quiz-cutoff").textContent()).toBe("Alphabet master")
    expect(await results.locator(".quiz-feedback li").textContent()).toBe(
      "Which letter is second? Correct Right: B comes second."
    )
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("code")]: "AB123", [blk("second")]: "b" }])
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })
})
