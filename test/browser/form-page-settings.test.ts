// The public form page in headless Chromium, for settings and block fields that were once stored and
// ignored (issue 30): the theme's font, the intro of a document, matrix numbering, layout, row order,
// column images and row descriptions, the labels of image, divider and page_break blocks, and the
// editing of a completed response (with the script, after a reload, and without the script).
import { FORMS_SCOPES } from "@folio/domain"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { blk } from "../support/every-block-form.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

const browser = sharedBrowser()
let app: RunningApp
let forms: FormsClient
let key: string

beforeAll(async () => {
  app = await startApp()
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
  forms = formsClient(app, key)
})
afterAll(async () => app.close())

/** A 2×2 PNG, so an image that loads has a natural width. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64"
)

const matrixRows = (names: ReadonlyArray<string>, extra: Record<string, unknown> = {}) =>
  names.map((name, i) => ({
    id: blk(name),
    type: "multiple_choice",
    label: i === 0 ? "Rate the service" : `Row ${name}`,
    ...(i === 0 ? extra : {}),
    options: {
      matrixGroupId: "mtx_grid01",
      rowLabel: `Row ${name}`,
      choices: [
        { id: "bad", label: "Bad" },
        { id: "ok", label: "OK" }
      ]
    }
  }))

const rowOrder = (page: Page) =>
  page.locator("tr.matrix-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-block")))

describe("theme and layout", () => {
  it("sets the page in the theme's font", async () => {
    const definition = {
      schemaVersion: 1,
      blocks: [{ id: blk("only"), type: "short_text", label: "Only" }]
    }
    await forms.publish("font-system", definition, { renderMode: "classic" })
    await forms.publish("font-serif", definition, { renderMode: "classic", theme: { fontKey: "serif" } })
    // One page per form: a second form in the same tab would ask to resume first (a 404).
    const fontOf = async (slug: string) => {
      const page = await browser.newPage()
      const problems = await collectProblems(page)
      await page.goto(`${app.origin}/f/${slug}`)
      await page.locator(`#in-${blk("only")}`).waitFor()
      const fonts = await page.evaluate(() => ({
        label: getComputedStyle(document.querySelector(".q-label") as Element).fontFamily,
        input: getComputedStyle(document.querySelector("input:not([type=hidden])") as Element).fontFamily
      }))
      expect(await problems.problems()).toEqual([])
      return fonts
    }
    const plain = await fontOf("font-system")
    expect(plain.label).toMatch(/^system-ui/)
    const serif = await fontOf("font-serif")
    expect(serif.label).toMatch(/^Georgia/)
    expect(serif.input).toMatch(/^Georgia/)
  })

  it("shows a document's intro above its questions, and numbers a matrix as one question", async () => {
    await forms.publish(
      "doc-numbers",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("name"), type: "short_text", label: "Name" },
          ...matrixRows(["r1", "r2"]),
          { id: blk("after"), type: "short_text", label: "After the grid" }
        ]
      },
      {
        renderMode: "document",
        document: { pageWidth: "normal", showNumbers: true },
        intro: { title: "Read me first", body: "Three questions." }
      }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/doc-numbers`)
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.getByRole("heading", { name: "Read me first" }).isVisible()).toBe(true)
    expect(await page.getByText("Three questions.").isVisible()).toBe(true)
    // The intro has no Start button in a document: the questions are already there.
    expect(await page.locator("button.start").isVisible()).toBe(false)
    expect(await page.locator(`#lbl-${blk("name")}`).textContent()).toBe("1. Name")
    expect(await page.locator("#q-mtx_grid01 legend").textContent()).toBe("2. Rate the service")
    expect(await page.locator(`#lbl-${blk("after")}`).textContent()).toBe("3. After the grid")
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })

  it("lays a matrix out as its presentation.document says: a page break before it, its span", async () => {
    await forms.publish(
      "doc-matrix-layout",
      {
        schemaVersion: 1,
        blocks: [
          { id: blk("name"), type: "short_text", label: "Name" },
          ...matrixRows(["r1", "r2"], {
            presentation: { document: { span: 6, breakBefore: true, controlWidth: "full" } }
          })
        ]
      },
      { renderMode: "document" }
    )
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } })
    await page.goto(`${app.origin}/f/doc-matrix-layout`)
    await page.locator(`#in-${blk("name")}`).waitFor()
    // The break puts the grid on a second page.
    expect(await page.locator("#q-mtx_grid01").isVisible()).toBe(false)
    expect(await page.locator(".progress-text").textContent()).toBe("Page 1 of 2")
    await page.locator("button.submit").click()
    await page.locator("#q-mtx_grid01").waitFor()
    expect(await page.locator(`#q-${blk("name")}`).isVisible()).toBe(false)
    // Half the document's width (6 of 12 columns).
    const [grid, questions] = await Promise.all([
      page.locator("#q-mtx_grid01").boundingBox(),
      page.locator(".questions").boundingBox()
    ])
    expect(grid?.width ?? 0).toBeLessThan((questions?.width ?? 0) * 0.6)
    expect(grid?.width ?? 0).toBeGreaterThan((questions?.width ?? 0) * 0.4)
  })
})

describe("matrices", () => {
  it("shows the rows of a random group in the order the response recorded", async () => {
    const rows = ["r1", "r2", "r3", "r4", "r5"]
    const formId = await forms.publish(
      "matrix-random",
      {
        schemaVersion: 1,
        blocks: matrixRows(rows),
        randomGroups: [{ id: "rng_rows01", blockIds: rows.map(blk), mode: "shuffle" }]
      },
      { renderMode: "classic", submission: { acceptingResponses: true, allowResponseEditing: true } }
    )
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    const started = page.waitForResponse(
      (r) => r.url().endsWith("/f/matrix-random/responses") && r.request().method() === "POST"
    )
    await page.goto(`${app.origin}/f/matrix-random`)
    const recorded = (
      (await (await started).json()) as { data: { presentation: { groups: Record<string, string[]> } } }
    ).data.presentation.groups.rng_rows01
    await expect.poll(() => rowOrder(page)).toEqual(recorded)
    const shown = await rowOrder(page)
    // Each row is followed by its own error row.
    expect(
      await page
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((t) => t.getAttribute("data-block") ?? t.getAttribute("data-for")))
    ).toEqual(shown.flatMap((id) => [id, id]))
    for (const [i] of rows.entries())
      await page
        .locator(`tr.matrix-row[data-block="${blk(rows[i] as string)}"] input`)
        .first()
        .check()
    await page.locator("button.submit").click()
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await forms.completedAnswers(formId)).toHaveLength(1)
    // The stored presentation, as the resume route of this browser reads it back.
    const resumed = await page.request.post(`${app.origin}/f/matrix-random/responses/resume`, { data: {} })
    expect(resumed.status()).toBe(200)
    const stored = (
      (await resumed.json()) as { data: { presentation: { groups: Record<string, string[]> } } }
    ).data.presentation
    expect(stored.groups.rng_rows01).toEqual(shown)
    expect([...shown].sort()).toEqual(rows.map(blk).sort())
    expect(await problems.problems()).toEqual([])
  })

  it("shows column images through the form's image route and each row's description", async () => {
    const created = await forms.api("POST", "/forms", { title: "Grid pictures" })
    const id = String(created.body.data.id)
    const upload = await fetch(`${app.origin}/forms/api/v1/forms/${id}/assets`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "image/png" },
      body: PNG
    })
    const picture = ((await upload.json()) as { data: { key: string } }).data.key
    const rows = matrixRows(["r1", "r2"]).map((row, i) => ({
      ...row,
      description: i === 0 ? "About the whole grid" : "Only about row two",
      options: {
        ...row.options,
        choices: [
          { id: "bad", label: "Bad", imageKey: picture, imageAlt: "A frown" },
          { id: "ok", label: "OK" }
        ]
      }
    }))
    const patched = await forms.api("PATCH", `/forms/${id}`, {
      definition: { schemaVersion: 1, blocks: rows },
      expectedDraftRevision: created.body.data.draftRevision
    })
    expect(patched.status).toBe(200)
    await forms.api("PATCH", `/forms/${id}/slug`, { slug: "grid-pictures" })
    const published = await forms.api("POST", `/forms/${id}/publish`, {
      expectedDraftRevision: patched.body.data.draftRevision
    })
    expect(published.status).toBe(200)
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/grid-pictures`)
    const img = page.locator('#q-mtx_grid01 thead th img[alt="A frown"]')
    await img.waitFor()
    expect(await img.getAttribute("src")).toMatch(/^\/f\/grid-pictures\/images\//)
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(2)
    expect(await page.getByText("About the whole grid").isVisible()).toBe(true)
    const second = page.locator(`tr.matrix-row[data-block="${blk("r2")}"] th`)
    expect(await second.textContent()).toContain("Only about row two")
    // The second row's controls are described by its own description.
    expect(
      await page
        .locator(`tr.matrix-row[data-block="${blk("r2")}"] input`)
        .first()
        .evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent)
    ).toBe("Only about row two")
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })
})

describe("labels of layout blocks", () => {
  const layoutBlocks = {
    schemaVersion: 1,
    blocks: [
      { id: blk("name"), type: "short_text", label: "Name" },
      { id: blk("div"), type: "divider", label: "Part two", description: "About your week" },
      { id: blk("week"), type: "short_text", label: "Your week" },
      { id: blk("pb"), type: "page_break", label: "Last part", description: "Nearly done" },
      { id: blk("pic"), type: "image", label: "A picture", description: "Look closely" },
      { id: blk("end"), type: "short_text", label: "Anything else" }
    ]
  }

  it("shows a divider's title, a page break's heading and an image's label in a document", async () => {
    await forms.publish("layout-doc", layoutBlocks, { renderMode: "document" })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/layout-doc`)
    await page.getByRole("heading", { name: "Part two" }).waitFor()
    expect(await page.getByText("About your week").isVisible()).toBe(true)
    // The page break's heading opens the second page.
    expect(await page.getByRole("heading", { name: "Last part" }).isVisible()).toBe(false)
    await page.locator("button.submit").click()
    await page.getByRole("heading", { name: "Last part" }).waitFor()
    expect(await page.getByText("Nearly done").isVisible()).toBe(true)
    expect(await page.getByText("A picture").isVisible()).toBe(true)
    expect(await page.getByText("Look closely").isVisible()).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })

  it("shows a titled divider or page break above the step it opens, one question at a time", async () => {
    await forms.publish("layout-classic", layoutBlocks, { renderMode: "classic" })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/layout-classic`)
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.getByRole("heading", { name: "Part two" }).isVisible()).toBe(false)
    await page.keyboard.press("Enter")
    await page.locator(`#in-${blk("week")}`).waitFor()
    expect(await page.getByRole("heading", { name: "Part two" }).isVisible()).toBe(true)
    expect(await page.getByText("About your week").isVisible()).toBe(true)
    await page.keyboard.press("Enter")
    // The image is the step after the titled page break.
    await page.getByText("Look closely").waitFor()
    expect(await page.getByRole("heading", { name: "Last part" }).isVisible()).toBe(true)
    expect(await page.getByRole("heading", { name: "Part two" }).isVisible()).toBe(false)
    expect(await page.getByText("A picture").isVisible()).toBe(true)
    expect(await problems.problems()).toEqual([])
  })
})

describe("editing a completed response", () => {
  const editable = {
    renderMode: "classic",
    submission: { acceptingResponses: true, allowResponseEditing: true }
  }
  const twoQuestions = {
    schemaVersion: 1,
    blocks: [
      { id: blk("name"), type: "short_text", label: "Name", required: true },
      { id: blk("note"), type: "short_text", label: "Note" }
    ]
  }

  const answerStep = async (page: Page, id: string, text: string) => {
    const input = page.locator(`#in-${blk(id)}`)
    await input.waitFor()
    await input.fill(text)
    await page.keyboard.press("Enter")
  }

  it("reopens the submitted answers from the completion screen, also after a reload", async () => {
    const formId = await forms.publish("edit-me", twoQuestions, editable)
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/edit-me`)
    await answerStep(page, "name", "Ada")
    await answerStep(page, "note", "first note")
    await page.locator("#done").waitFor({ state: "visible" })
    const edit = page.getByRole("button", { name: "Edit your response" })
    await edit.click()
    // The form again, with what was submitted.
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.locator(`#in-${blk("name")}`).inputValue()).toBe("Ada")
    await answerStep(page, "name", "Ada Lovelace")
    expect(await page.locator("button.submit").textContent()).toBe("Save changes")
    await answerStep(page, "note", "")
    await page.locator("#done").waitFor({ state: "visible" })
    // One response, edited in place; the cleared note is gone.
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("name")]: "Ada Lovelace" }])

    await page.reload()
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await page.locator("#form").isVisible()).toBe(false)
    await edit.click()
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.locator(`#in-${blk("name")}`).inputValue()).toBe("Ada Lovelace")
    await answerStep(page, "name", "Countess")
    await answerStep(page, "note", "after a reload")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await forms.completedAnswers(formId)).toEqual([
      { [blk("name")]: "Countess", [blk("note")]: "after a reload" }
    ])
    const all = await forms.api("GET", `/forms/${formId}/responses?limit=10`)
    expect(all.body.data.items).toHaveLength(1)
    expect(await problems.problems()).toEqual([])
  })

  it("offers no edit where the form does not allow it, and a reload starts afresh", async () => {
    const formId = await forms.publish("no-edit", twoQuestions, { renderMode: "classic" })
    const page = await browser.newPage()
    await page.goto(`${app.origin}/f/no-edit`)
    await answerStep(page, "name", "Ada")
    await answerStep(page, "note", "x")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await page.getByRole("button", { name: "Edit your response" }).count()).toBe(0)
    await page.reload()
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.locator(`#in-${blk("name")}`).inputValue()).toBe("")
    expect(await forms.completedAnswers(formId)).toHaveLength(1)
  })

  it("edits without JavaScript: the completion page reopens the form refilled, and its post saves", async () => {
    const formId = await forms.publish("edit-plain", twoQuestions, editable)
    const page = await browser.newPage({ javaScriptEnabled: false })
    page.setDefaultTimeout(8000)
    await page.goto(`${app.origin}/f/edit-plain`)
    await page.locator(`#in-${blk("name")}`).fill("Grace")
    await page.locator(`#in-${blk("note")}`).fill("plain")
    await page.locator("button.submit").click()
    await page.locator("#done").waitFor()
    await page.getByRole("button", { name: "Edit your response" }).click()
    await page.locator(`#in-${blk("name")}`).waitFor()
    expect(await page.locator(`#in-${blk("name")}`).inputValue()).toBe("Grace")
    expect(await page.locator(`#in-${blk("note")}`).inputValue()).toBe("plain")
    await page.locator(`#in-${blk("name")}`).fill("Grace Hopper")
    await page.locator(`#in-${blk("note")}`).fill("")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.locator("#done").waitFor()
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("name")]: "Grace Hopper" }])
    // A refused edit leaves the response as it was.
    await page.getByRole("button", { name: "Edit your response" }).click()
    await page.locator(`#in-${blk("name")}`).fill("")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.locator("#error-summary").waitFor()
    expect(await forms.completedAnswers(formId)).toEqual([{ [blk("name")]: "Grace Hopper" }])
    const all = await forms.api("GET", `/forms/${formId}/responses?limit=10`)
    expect(all.body.data.items).toHaveLength(1)
  })
})
