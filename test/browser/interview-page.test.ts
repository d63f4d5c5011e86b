// The interview chat page in headless Chromium, against the built-in (deterministic) interviewer: a
// whole interview held with the keyboard only, then read back over the API (completed, transcript,
// extracted fields); resume after a reload; finishing early; the page without JavaScript;
// accessibility (axe: no serious or critical violations) on the intro and the conversation; no CSP
// violation or script error on the way.
import { FORMS_SCOPES } from "@folio/domain"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, type PageProblem, sharedBrowser } from "../support/browser.js"
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

/** Three typed fields and one goal: what the built-in interviewer asks in priority order. */
const definition = (disclosure: boolean) => ({
  schemaVersion: 2,
  title: "Team tools check-in",
  locales: { default: "en", supported: ["en"] },
  persona: { name: "Mina" },
  greetingByLocale: en("Hello! Thanks for taking a few minutes."),
  ...(disclosure
    ? {
        disclosure: {
          version: "2024-01",
          required: true,
          purposeTextByLocale: en("To improve <our> product."),
          retentionTextByLocale: en("Kept for 90 days.")
        }
      }
    : {}),
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
    },
    {
      id: "recommend",
      priority: 70,
      labelByLocale: en("recommendation"),
      questionByLocale: en("How likely are you to recommend us?"),
      valueType: "nps_0_10",
      requiredness: "hard"
    }
  ],
  goals: [
    {
      id: "pain",
      priority: 60,
      labelByLocale: en("Pain"),
      publicPromptHintByLocale: en("What is hardest about reporting?"),
      allowedProbeKinds: ["why", "example"]
    }
  ],
  policy: { maxExchanges: 20 }
})

const expectedFields = { plan: "pro", renew: true, recommend: 9 }

/** Creates, names and publishes an interview form; answers its id. */
const publishInterview = async (slug: string, def: unknown, settings?: unknown): Promise<string> => {
  const created = await forms.api("POST", "/forms", {
    kind: "interview",
    title: `Interview ${slug}`,
    definition: def,
    ...(settings === undefined ? {} : { settings })
  })
  if (created.status !== 201)
    throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`)
  const id = String(created.body.data.id)
  const named = await forms.api("PATCH", `/forms/${id}/slug`, { slug })
  if (named.status !== 200) throw new Error(`slug answered ${named.status}`)
  const published = await forms.api("POST", `/forms/${id}/publish`, {
    expectedDraftRevision: created.body.data.draftRevision
  })
  if (published.status !== 200)
    throw new Error(`publish answered ${published.status}: ${JSON.stringify(published.body)}`)
  return id
}

interface TranscriptTurn {
  readonly role: string
  readonly content: string
}

/** The form's one response, in full over the API. */
const onlyResponse = async (formId: string) => {
  const list = await forms.api("GET", `/forms/${formId}/responses?limit=10`)
  expect(list.status).toBe(200)
  const items = list.body.data.items ?? []
  expect(items).toHaveLength(1)
  const detail = await forms.api("GET", `/forms/${formId}/responses/${String(items[0]?.id)}`)
  expect(detail.status).toBe(200)
  return detail.body.data as {
    status: string
    interview: {
      transcript: Array<TranscriptTurn>
      extractedFields: Record<string, unknown>
      quality: { completionReason: string | null }
    }
  }
}

/**
 * The page's problems but the refusals a test provoked on purpose (Chromium logs every 4xx answer
 * of a fetch as a failed load): `expected` are [status, path ending] pairs.
 */
const unexpected = (
  problems: ReadonlyArray<PageProblem>,
  expected: ReadonlyArray<readonly [number, RegExp]>
) =>
  problems.filter(
    (p) =>
      !(
        p.kind === "console" &&
        expected.some(
          ([status, path]) =>
            p.text.includes(`status of ${status} `) && path.test(p.location.replace(/:\d+$/, ""))
        )
      )
  )

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "")

/** Presses Tab until the focus is on `selector`. */
const tabTo = async (page: Page, selector: string) => {
  for (let i = 0; i < 30; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return
    await page.keyboard.press("Tab")
  }
  throw new Error(`Tab never reached ${selector}: focus is on ${await activeId(page)}`)
}

const bubbles = (page: Page) =>
  page.locator("#transcript li").evaluateAll((lis) =>
    lis.map((li) => ({
      role: li.classList.contains("msg-user") ? "user" : "assistant",
      content: li.querySelector(".msg-text")?.textContent ?? ""
    }))
  )

const lastQuestion = async (page: Page) =>
  (await page.locator("#transcript li.msg-assistant .msg-text").last().textContent()) ?? ""

/** What the respondent says to a question. */
const answerFor = (question: string): string => {
  if (/Is that right\?/.test(question)) return "Yes"
  if (/Which plan/.test(question)) return "Pro"
  if (/renew/.test(question)) return "Yes, definitely"
  if (/recommend/.test(question)) return "9"
  return "Exporting the monthly numbers takes a full day"
}

/** Types the message and presses Enter; waits for the interviewer's whole reply. */
const say = async (page: Page, keys: () => Promise<void>) => {
  const before = await page.locator("#transcript li").count()
  await keys()
  await page.keyboard.press("Enter")
  await page.waitForFunction(
    (n) =>
      document.getElementById("transcript")?.getAttribute("aria-busy") === "false" &&
      document.querySelectorAll("#transcript li").length >= n + 2,
    before
  )
}

/** Answers every question with the keyboard until the done screen shows. */
const answerToTheEnd = async (page: Page, multiline = false) => {
  let usedNewline = !multiline
  for (let turn = 0; turn < 20; turn++) {
    if (await page.locator("#done").isVisible()) return
    expect(await activeId(page)).toBe("message")
    const answer = answerFor(await lastQuestion(page))
    await say(page, async () => {
      if (!usedNewline && answer.startsWith("Exporting")) {
        // Shift+Enter is a new line in the message, not a send.
        await page.keyboard.type("Exporting the monthly numbers")
        await page.keyboard.press("Shift+Enter")
        await page.keyboard.type("It takes a full day")
        expect(await page.locator("#message").inputValue()).toBe(
          "Exporting the monthly numbers\nIt takes a full day"
        )
        usedNewline = true
      } else await page.keyboard.type(answer)
    })
  }
  await page.locator("#done").waitFor({ state: "visible" })
}

describe("the interview chat page", () => {
  it("is held with the keyboard only to the done screen, and the response reads back over the API", async () => {
    const formId = await publishInterview("chat-keyboard", definition(true))
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } })
    const problems = await collectProblems(page)
    const accepts: Array<string | undefined> = []
    page.on("request", (r) => {
      if (r.url().endsWith("/messages")) accepts.push(r.headers().accept)
    })
    await page.goto(`${app.origin}/f/chat-keyboard?src=kbd`)
    // The intro: the title, the interviewer, the disclosure (escaped), the consent and Start.
    await page.getByRole("heading", { name: "A conversation with Mina" }).waitFor()
    expect(await page.title()).toBe("Team tools check-in")
    expect(await page.locator("h1").textContent()).toBe("Team tools check-in")
    expect(await page.locator(".disclosure").textContent()).toBe(
      "PurposeTo improve <our> product.RetentionKept for 90 days."
    )
    expect(await page.locator("#chat").isVisible()).toBe(false)
    expect(await axeViolations(page)).toEqual([])
    const kb = page.keyboard
    // Start without agreeing: refused in the page, the focus on the consent.
    await tabTo(page, "#start")
    await kb.press("Enter")
    await page.getByText("Please agree to the terms above to start.").waitFor()
    expect(await activeId(page)).toBe("agree")
    expect(await page.locator("#agree").getAttribute("aria-invalid")).toBe("true")
    await kb.press("Space")
    await tabTo(page, "#start")
    await kb.press("Enter")
    // The conversation: the greeting and the first question, the focus in the composer.
    await page.locator("#chat").waitFor({ state: "visible" })
    await expect.poll(() => activeId(page)).toBe("message")
    expect(await page.locator("#intro").isVisible()).toBe(false)
    expect(await page.locator("#transcript").getAttribute("role")).toBe("log")
    expect(await lastQuestion(page)).toMatch(/^Which plan are you on\?/)
    // Focus is visible on the composer (keyboard users see where they are).
    expect(
      await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)
    ).not.toBe("none")
    // An empty message is not sent.
    await kb.press("Enter")
    await page.getByText("Type your answer first.").waitFor()
    expect(await page.locator("#transcript li.msg-user").count()).toBe(0)
    await answerToTheEnd(page, true)
    // The done screen has the focus; the bar is full; the token was kept in memory only.
    expect(await activeId(page)).toBe("done")
    expect(await page.locator("#composer").isVisible()).toBe(false)
    expect(await page.locator("#progress .progress-bar").getAttribute("aria-valuenow")).toBe("100")
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
      0,
      0,
      ""
    ])
    // Every reply was asked for as a stream of server-sent events.
    expect(accepts.length).toBeGreaterThan(3)
    expect(new Set(accepts)).toEqual(new Set(["text/event-stream"]))
    const shown = await bubbles(page)
    expect(shown.at(-1)).toEqual({
      role: "assistant",
      content: "Thank you, that is everything I wanted to ask."
    })
    expect(shown.filter((b) => b.role === "user").map((b) => b.content)).toContain(
      "Exporting the monthly numbers\nIt takes a full day"
    )
    // Over the API: completed, the transcript as the page showed it, and the typed values.
    const response = await onlyResponse(formId)
    expect(response.status).toBe("completed")
    expect(response.interview.transcript.map((t) => ({ role: t.role, content: t.content }))).toEqual(shown)
    expect(response.interview.extractedFields).toEqual(expectedFields)
    expect(response.interview.quality.completionReason).not.toBe("respondent_ended")
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })

  it("passes axe in the middle of the conversation", async () => {
    await publishInterview("chat-axe", definition(false))
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/chat-axe`)
    await page.locator("#start").click()
    await expect.poll(() => activeId(page)).toBe("message")
    await say(page, () => page.keyboard.type("Pro"))
    expect(await page.locator("#transcript li").count()).toBeGreaterThanOrEqual(3)
    expect(await axeViolations(page)).toEqual([])
    expect(await problems.problems()).toEqual([])
  })

  it("brings the whole transcript back after a reload, and the interview goes on to the end", async () => {
    const formId = await publishInterview("chat-resume", definition(true))
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/chat-resume`)
    await page.locator("#agree").check()
    await page.locator("#start").click()
    await expect.poll(() => activeId(page)).toBe("message")
    await say(page, () => page.keyboard.type("Pro"))
    const before = await bubbles(page)
    expect(before.filter((b) => b.role === "user")).toEqual([{ role: "user", content: "Pro" }])
    await page.reload()
    // Straight back into the conversation, with everything said so far.
    await page.getByText("Welcome back: your conversation is restored.").waitFor()
    await expect.poll(() => activeId(page)).toBe("message")
    expect(await page.locator("#intro").isVisible()).toBe(false)
    expect(await bubbles(page)).toEqual(before)
    await answerToTheEnd(page)
    const shown = await bubbles(page)
    expect(shown.slice(0, before.length)).toEqual(before)
    const response = await onlyResponse(formId)
    expect(response.status).toBe("completed")
    expect(response.interview.transcript.map((t) => ({ role: t.role, content: t.content }))).toEqual(shown)
    expect(response.interview.extractedFields).toEqual(expectedFields)
    // A visit after the end starts afresh: nothing is left to resume.
    await page.reload()
    await page.locator("#intro").waitFor({ state: "visible" })
    expect(await page.locator("#chat").isVisible()).toBe(false)
    expect(unexpected(await problems.problems(), [[404, /\/interview\/resume$/]])).toEqual([])
  })

  it("finishes early on request, once something is answered", async () => {
    const formId = await publishInterview("chat-finish", definition(false))
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/f/chat-finish`)
    await tabTo(page, "#start")
    await page.keyboard.press("Enter")
    await expect.poll(() => activeId(page)).toBe("message")
    await tabTo(page, "#finish")
    await page.keyboard.press("Enter")
    await page.getByText("Answer at least one question before finishing.").waitFor()
    expect(await activeId(page)).toBe("message")
    await say(page, () => page.keyboard.type("Free"))
    await tabTo(page, "#finish")
    await page.keyboard.press("Enter")
    await page.locator("#done").waitFor({ state: "visible" })
    expect(await activeId(page)).toBe("done")
    const response = await onlyResponse(formId)
    expect(response.status).toBe("completed")
    expect(response.interview.quality.completionReason).toBe("respondent_ended")
    expect(response.interview.extractedFields).toMatchObject({ plan: "free" })
    expect((await bubbles(page)).at(-1)?.role).toBe("assistant")
    expect(unexpected(await problems.problems(), [[409, /\/finish$/]])).toEqual([])
  })

  it("shows a closed interview's message instead of the chat", async () => {
    await publishInterview("chat-closed", definition(false), {
      submission: { acceptingResponses: false, closedMessage: "Back in <May>." }
    })
    const page = await browser.newPage()
    const answer = await page.goto(`${app.origin}/f/chat-closed`)
    expect(answer?.status()).toBe(410)
    await page.getByRole("heading", { name: "This form is closed" }).waitFor()
    expect(await page.getByText("Back in <May>.").isVisible()).toBe(true)
    expect(await page.locator("#chat").count()).toBe(0)
  })

  it("is held without JavaScript too: each message posts the page, which comes back with the reply", async () => {
    const formId = await publishInterview("chat-no-script", definition(true))
    const page = await browser.newPage({ javaScriptEnabled: false })
    await page.goto(`${app.origin}/f/chat-no-script?source=mail`)
    expect(await page.locator("#start").isVisible()).toBe(false)
    // The required consent holds the start back until it is given.
    const start = page.locator("form.nojs-start button[type=submit]")
    await start.click()
    expect(await page.locator("#transcript li").count()).toBe(0)
    await page.locator("#agree-nojs").check()
    await Promise.all([page.waitForNavigation(), start.click()])
    for (let turn = 0; turn < 20; turn++) {
      if (await page.locator("#done").isVisible()) break
      const question = await lastQuestion(page)
      await page.locator("#message").fill(answerFor(question))
      await Promise.all([page.waitForNavigation(), page.locator("button[value=message]").click()])
    }
    expect(await page.locator("#done").isVisible()).toBe(true)
    expect(await page.locator("#composer").count()).toBe(0)
    const response = await onlyResponse(formId)
    expect(response.status).toBe("completed")
    expect(response.interview.extractedFields).toMatchObject({ plan: "pro", renew: true, recommend: 9 })
    expect(response.interview.transcript.map((t) => [t.role, t.content])).toEqual(
      (await bubbles(page)).map((b) => [b.role, b.content])
    )
  })
})
