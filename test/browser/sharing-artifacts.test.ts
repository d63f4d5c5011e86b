// HTML artifacts in headless Chromium: a deployed site renders with its own stylesheet and script;
// its script cannot read the app origin's cookies or storage, nor call the app; and two deployments
// of one site are two origins that share no storage. The app runs on 127.0.0.1; each deployment on
// `{id}.localhost`, which Chromium resolves to loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { collectProblems, sharedBrowser } from "../support/browser.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { zipOf } from "../support/zip.js"

const browser = sharedBrowser()
let app: RunningApp
let key: string

beforeAll(async () => {
  app = await startApp({ config: { sharingRequestsPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")).key
}, 60_000)
afterAll(() => app.close())

const site = (appOrigin: string, version: string): ReadonlyArray<[string, string]> => [
  [
    "index.html",
    `<!doctype html><html lang="en"><head><title>Site ${version}</title><link rel="stylesheet" href="style.css"></head>
<body><h1 id="title">Version ${version}</h1><p id="cookie"></p><p id="storage"></p><p id="call">pending</p>
<script src="app.js"></script></body></html>`
  ],
  ["style.css", "h1{color:rgb(0, 128, 128)}"],
  [
    "app.js",
    `document.getElementById("cookie").textContent = "cookie:" + document.cookie
document.getElementById("storage").textContent = "storage:" + (localStorage.getItem("app-secret") ?? "none")
fetch(${JSON.stringify(appOrigin)} + "/share/api/v1/me", { credentials: "include" })
  .then((r) => r.text().then((t) => { document.getElementById("call").textContent = "answered:" + t.slice(0, 40) }))
  .catch(() => { document.getElementById("call").textContent = "blocked" })`
  ]
]

const deployForm = (archive: Uint8Array, metadata: Json = {}) => {
  const body = new FormData()
  body.append("metadata", JSON.stringify(metadata))
  body.append("archive", new Blob([archive as Uint8Array<ArrayBuffer>]), "site.zip")
  return body
}

describe("an artifact in the browser", () => {
  it("renders, cannot reach the app origin's cookies, storage or API, and each deployment is its own origin", async () => {
    const api = sharingClientOf(app.origin)
    const made = await api.call("POST", "/artifacts", {
      key,
      form: deployForm(await zipOf(site(app.origin, "1")))
    })
    expect(made.status).toBe(201)
    const page = await browser.newPage()
    // The app origin holds a cookie and a stored secret.
    await page.context().addCookies([{ name: "app_session", value: "secret-cookie", url: app.origin }])
    await page.goto(`${app.origin}/s/not-a-resource`)
    await page.evaluate(() => localStorage.setItem("app-secret", "secret-storage"))

    const problems = await collectProblems(page)
    await page.goto(`${app.origin}/s/${made.body.slug}`)
    await page.locator("#title").waitFor()
    expect(new URL(page.url()).origin).toBe(made.body.deployment_url)
    expect(await page.locator("#title").textContent()).toBe("Version 1")
    expect(await page.locator("#title").evaluate((h) => getComputedStyle(h).color)).toBe("rgb(0, 128, 128)")
    expect(await page.locator("#cookie").textContent()).toBe("cookie:")
    expect(await page.locator("#storage").textContent()).toBe("storage:none")
    await page.waitForFunction(() => document.getElementById("call")?.textContent !== "pending")
    expect(await page.locator("#call").textContent()).toBe("blocked")
    // The call was stopped by the site's CSP (connect-src 'self'), nothing else went wrong.
    const found = await problems.problems()
    expect(found.filter((p) => p.kind === "csp").map((p) => (p.kind === "csp" ? p.directive : ""))).toEqual([
      "connect-src"
    ])
    await page.evaluate(() => localStorage.setItem("site", "version-1"))

    const next = await api.call("POST", `/resources/${made.body.slug}/artifact/deployments`, {
      key,
      form: deployForm(await zipOf(site(app.origin, "2")))
    })
    expect(next.body.deployment_url).not.toBe(made.body.deployment_url)
    await page.goto(`${app.origin}/s/${made.body.slug}`)
    await page.locator("#title").waitFor()
    expect(await page.locator("#title").textContent()).toBe("Version 2")
    expect(new URL(page.url()).origin).toBe(next.body.deployment_url)
    expect(await page.evaluate(() => localStorage.getItem("site"))).toBeNull()
  })
})
