// The browser harness itself, on pages served under a strict CSP (no 'unsafe-inline'; scripts by
// nonce or from the origin): axe runs in such a page without tripping the policy, finds a seeded
// violation (an input without a label) and none on the fixed page; the collector reports an inline
// script without the nonce as a CSP violation (and the script does not run), and reports console
// errors and uncaught exceptions, while a clean page has no problem at all.
import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"

const csp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")

const page = (nonce: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Harness</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" nonce="${nonce}" defer></script>
</head>
<body>
<main>
<h1>Harness</h1>
${body}
</main>
<script nonce="${nonce}">document.body.dataset.nonced = "ran"</script>
</body>
</html>`

const PAGES: Readonly<Record<string, string>> = {
  "/fixed": `<form method="post" action="/fixed"><label for="name">Name</label>
<input id="name" name="name" type="text"><button type="submit">Send</button></form>`,
  "/seeded": `<form method="post" action="/seeded"><p>Name</p>
<input id="name" name="name" type="text"><button type="submit">Send</button></form>`,
  "/inline": `<p>An inline script without the nonce follows.</p>
<script>document.body.dataset.inline = "ran"</script>`,
  "/broken": `<p>Its script logs an error and throws.</p><script src="/broken.js" nonce="NONCE"></script>`
}

const ASSETS: Readonly<Record<string, readonly [string, string]>> = {
  "/app.css": ["text/css", "body { font-family: sans-serif; color: #111; background: #fff }"],
  "/app.js": ["text/javascript", `document.body.dataset.external = "ran"`],
  "/broken.js": [
    "text/javascript",
    `console.error("something broke"); throw new Error("uncaught in broken.js")`
  ]
}

let server: Server
let origin: string

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/"
    const asset = ASSETS[path]
    if (asset !== undefined) {
      response.writeHead(200, { "content-type": asset[0] })
      response.end(asset[1])
      return
    }
    const body = PAGES[path]
    if (body === undefined) {
      response.writeHead(404, { "content-type": "text/plain" })
      response.end("not found")
      return
    }
    const nonce = randomBytes(16).toString("base64")
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp(nonce)
    })
    response.end(page(nonce, body.replaceAll("NONCE", nonce)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const browser = sharedBrowser()

/** A page of the server opened in a fresh context, with its problems collected from the start. */
const open = async (path: string) => {
  const tab = await browser.newPage()
  const collector = await collectProblems(tab)
  const response = await tab.goto(`${origin}${path}`)
  expect(response?.status()).toBe(200)
  return { tab, collector }
}

const marker = (tab: Awaited<ReturnType<typeof open>>["tab"], name: string) =>
  tab.evaluate((key) => {
    const body = (globalThis as unknown as { document: { body: { dataset: Record<string, string> } } })
      .document.body
    return body.dataset[key] ?? null
  }, name)

describe("the browser harness", () => {
  it("runs axe under a strict CSP: no violation on the fixed page, and no problem added", async () => {
    const { tab, collector } = await open("/fixed")
    expect(await marker(tab, "nonced")).toBe("ran")
    expect(await marker(tab, "external")).toBe("ran")
    expect(await axeViolations(tab)).toEqual([])
    expect(await collector.problems()).toEqual([])
  })

  it("finds the seeded violation: an input without a label", async () => {
    const { tab, collector } = await open("/seeded")
    const violations = await axeViolations(tab)
    expect(violations.map((v) => [v.id, v.impact])).toEqual([["label", "critical"]])
    expect(violations[0]?.nodes).toEqual([{ target: "#name", html: expect.stringContaining("<input") }])
    expect(await collector.problems()).toEqual([])
  })

  it("reports an inline script without the nonce as a CSP violation, and it does not run", async () => {
    const { tab, collector } = await open("/inline")
    expect(await marker(tab, "inline")).toBeNull()
    expect(await marker(tab, "nonced")).toBe("ran")
    expect(await collector.problems()).toEqual([
      {
        kind: "csp",
        directive: "script-src-elem",
        blocked: "inline",
        source: expect.stringContaining(`${origin}/inline:`),
        disposition: "enforce"
      }
    ])
  })

  it("reports console errors and uncaught exceptions", async () => {
    const { tab, collector } = await open("/broken")
    const problems = await collector.problems()
    expect(problems).toEqual(
      expect.arrayContaining([
        { kind: "console", text: "something broke", location: `${origin}/broken.js:0` },
        { kind: "pageerror", text: "uncaught in broken.js" }
      ])
    )
    expect(problems).toHaveLength(2)
    await tab.close()
  })

  it("gives each test a context of its own", async () => {
    const first = await browser.newPage()
    const second = await browser.newPage()
    expect(first.context()).not.toBe(second.context())
    await first.goto(`${origin}/fixed`)
    await first.context().addCookies([{ name: "seen", value: "1", url: origin }])
    expect(await second.context().cookies(origin)).toEqual([])
  })
})
