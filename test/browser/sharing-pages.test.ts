// The sharing service's pages in a real Chromium, served with their real headers: hostile Markdown
// runs nothing (with the CSP, and without it, so the sanitizer alone is shown to hold), the page
// trips no CSP violation (its stylesheet applies by hash), a link that lost its javascript: URL does
// nothing when clicked, the pages pass axe, and the password form posts its field back to us.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  PASSWORD_FIELD,
  renderExpiredPage,
  renderMarkdownPage,
  renderPasswordPage,
  SHARING_PAGE_HEADERS
} from "../../packages/adapters-http/src/sharing/pages/page.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"

const PWN = "document.documentElement.dataset.pwned='1'"
const BROKEN_IMAGE = "data:image/png;base64,AAAA"

const HOSTILE_MARKDOWN = `Some **text** before, and a [fine link](https://example.com/).

| a | b |
|:-:|--:|
| 1 | 2 |

<script>${PWN}</script>

<img src="${BROKEN_IMAGE}" onerror="${PWN}" alt="broken">

<a href="javascript:${PWN}">click me</a> and [md link](javascript:${PWN})

<svg onload="${PWN}"><script>${PWN}</script></svg>

<iframe srcdoc="<script>parent.${PWN}</script>"></iframe>

<details open ontoggle="${PWN}"><summary>More</summary>Hidden</details>

<div onmouseover="${PWN}" style="position:fixed;inset:0">cover</div>

<math><mtext><table><mglyph><style><img src="${BROKEN_IMAGE}" onerror="${PWN}">

<noscript><p title="</noscript><img src='${BROKEN_IMAGE}' onerror='${PWN}'>"></noscript>
`

const markdownPage = renderMarkdownPage({
  title: "Hostile <b>page</b>",
  markdown: HOSTILE_MARKDOWN,
  description: "A page that tries everything",
  url: "https://folio.example/s/hostile"
}).text

let posted: string | undefined
let server: Server
let origin: string

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/"
    if (request.method === "POST" && path === "/s/locked") {
      let body = ""
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8")
      })
      request.on("end", () => {
        posted = body
        response.writeHead(200, SHARING_PAGE_HEADERS)
        response.end(renderExpiredPage().text)
      })
      return
    }
    const pages: Readonly<Record<string, readonly [string, Readonly<Record<string, string>>]>> = {
      "/s/hostile": [markdownPage, SHARING_PAGE_HEADERS],
      "/s/hostile-without-csp": [markdownPage, { "content-type": "text/html; charset=utf-8" }],
      "/s/locked": [renderPasswordPage({ action: "/s/locked" }).text, SHARING_PAGE_HEADERS],
      "/s/wrong": [
        renderPasswordPage({ action: "/s/locked", error: "wrong_password" }).text,
        SHARING_PAGE_HEADERS
      ]
    }
    const page = pages[path]
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" })
      response.end("not found")
      return
    }
    response.writeHead(200, page[1])
    response.end(page[0])
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const browser = sharedBrowser()

const open = async (path: string) => {
  const tab = await browser.newPage()
  const collector = await collectProblems(tab)
  const response = await tab.goto(`${origin}${path}`)
  expect(response?.status()).toBe(200)
  await tab.waitForLoadState("load")
  return { tab, collector }
}

type Tab = Awaited<ReturnType<typeof open>>["tab"]

const pwned = (tab: Tab) =>
  tab.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }
    ).document.documentElement
    return root.dataset.pwned ?? null
  })

const computed = (tab: Tab, selector: string, property: string) =>
  tab.evaluate(
    ([s, p]) => {
      const g = globalThis as unknown as {
        document: { querySelector: (s: string) => unknown }
        getComputedStyle: (e: unknown) => { getPropertyValue: (p: string) => string }
      }
      return g.getComputedStyle(g.document.querySelector(s)).getPropertyValue(p)
    },
    [selector, property] as const
  )

describe("the sharing pages in Chromium", () => {
  it("run none of a hostile Markdown page's script, and trip no CSP violation", async () => {
    const { tab, collector } = await open("/s/hostile")
    await tab.hover("main")
    await tab.getByText("click me").click()
    await tab.waitForTimeout(200)
    expect(await pwned(tab)).toBeNull()
    // Nothing reached the CSP: the sanitizer left it nothing to block, and the stylesheet applies.
    expect(await collector.problems()).toEqual([])
    expect(await computed(tab, "main", "max-width")).toBe("704px")
    expect(await computed(tab, "td:last-child", "text-align")).toBe("right")
    expect(await tab.title()).toBe("Hostile <b>page</b>")
    expect(await tab.locator("script, iframe, svg, math, style:not(head style)").count()).toBe(0)
    expect(
      await tab.locator("[onerror], [onload], [onclick], [onmouseover], [ontoggle], [style]").count()
    ).toBe(0)
    expect(await axeViolations(tab)).toEqual([])
  })

  it("run none of it without the CSP either: the sanitizer holds on its own", async () => {
    const { tab } = await open("/s/hostile-without-csp")
    await tab.hover("main")
    await tab.getByText("click me").click()
    await tab.waitForTimeout(200)
    expect(await pwned(tab)).toBeNull()
  })

  it("post the password field of the password page back to the page's address", async () => {
    const { tab, collector } = await open("/s/locked")
    expect(await axeViolations(tab)).toEqual([])
    posted = undefined
    await tab.getByLabel("Password").fill("s3cret & more")
    await Promise.all([
      tab.waitForURL(`${origin}/s/locked`),
      tab.getByRole("button", { name: "Open" }).click()
    ])
    expect(posted).toBe(`${PASSWORD_FIELD}=s3cret+%26+more`)
    expect(await tab.locator("h1").textContent()).toBe("This page has expired")
    expect(await collector.problems()).toEqual([])
  })

  it("show a wrong password as an alert tied to the field", async () => {
    const { tab, collector } = await open("/s/wrong")
    expect(await tab.getByRole("alert").textContent()).toBe("That password is not right. Try again.")
    expect(await tab.getByLabel("Password").getAttribute("aria-invalid")).toBe("true")
    expect(await axeViolations(tab)).toEqual([])
    expect(await collector.problems()).toEqual([])
  })
})
