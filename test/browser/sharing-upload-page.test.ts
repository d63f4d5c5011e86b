// An upload request's public page in headless Chromium: a sender without an account types a name
// and a message, picks two files, and sends them; the page's script shows progress and lands on the
// thanks; the owner sees the submission and its two files over the API. No CSP violation, no
// serious axe finding.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { axeViolations, collectProblems, sharedBrowser } from "../support/browser.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"

const browser = sharedBrowser()
let app: RunningApp
let key: string

beforeAll(async () => {
  app = await startApp({ config: { sharingRequestsPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")).key
}, 60_000)
afterAll(() => app.close())

describe("an upload request's page in the browser", () => {
  it("sends two files with a name and a message, and the owner sees them", async () => {
    const api = sharingClientOf(app.origin)
    const made = await api.call("POST", "/upload-requests", {
      key,
      body: { title: "Photos from the party", description: "Drop them here" }
    })
    const page = await browser.newPage()
    const problems = await collectProblems(page)
    await page.goto(made.body.url as string)
    await page.getByRole("heading", { name: "Photos from the party" }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel("Your name").fill("Grace")
    await page.getByLabel("Message").fill("Two for you")
    await page.getByLabel("Files").setInputFiles([
      { name: "first.txt", mimeType: "text/plain", buffer: Buffer.from("the first file\n".repeat(2000)) },
      { name: "second.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }
    ])
    await page.getByRole("button", { name: "Send files" }).click()
    await page.getByText("Thank you! Your files were sent.").waitFor()
    expect(page.url()).toContain("sent=1")
    expect(await problems.problems()).toEqual([])

    const list = await api.call("GET", `/upload-requests/${made.body.id}/submissions`, { key })
    expect(list.body.total).toBe(1)
    const submission = (list.body.items as Array<Json>)[0] as Json
    expect(submission).toMatchObject({ submitter_name: "Grace", message: "Two for you" })
    const detail = await api.call("GET", `/upload-requests/${made.body.id}/submissions/${submission.id}`, {
      key
    })
    expect((detail.body.files as Array<Json>).map((f) => f.file_name)).toEqual(["first.txt", "second.pdf"])
  })
})
