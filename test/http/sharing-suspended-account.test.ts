// A disabled (suspended) account's public side over real HTTP on PGlite and PostgreSQL: its link
// (warm on the node:http fast path and cold on the route), Markdown page, file page and bytes,
// artifact origin and upload request (GET and POST) answer the unknown-slug 404 page the moment the
// account is disabled, and serve again once it is enabled. On PostgreSQL, a second instance learns
// it at once too (over LISTEN/NOTIFY, long before any cache would expire).
import { request as httpRequest } from "node:http"
import { setTenantDisabled } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { startTwoInstances } from "../support/two-instances.js"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { sharingSuite } from "../support/sharing-suite.js"
import { sharingClientOf } from "../support/sharing-client.js"
import { zipOf } from "../support/zip.js"
import { TEST_DATABASE_URL } from "../storage/targets.js"

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n")

/** A GET on an artifact deployment's origin: the Host header names it, the socket goes to the app. */
const siteGet = (app: RunningApp, siteUrl: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: new URL(app.origin).port, path, headers: { host: new URL(siteUrl).host } },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
      }
    )
    req.on("error", reject)
    req.end()
  })

/** One of each public thing of a fresh account. */
const publish = async (app: RunningApp, tag: string) => {
  const owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
  const call = (
    method: string,
    path: string,
    options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2]
  ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
  const link = await call("POST", "/resources", {
    body: { type: "link", slug: `gone-link-${tag}`, target_url: "https://example.com/dest" }
  })
  const page = await call("POST", "/resources", {
    body: { type: "markdown", slug: `gone-page-${tag}`, body_markdown: "# Still here" }
  })
  const fileForm = new FormData()
  fileForm.append("file", new Blob([PDF]), "doc.pdf")
  const file = await call("POST", "/uploads", { form: fileForm })
  const siteForm = new FormData()
  siteForm.append("metadata", JSON.stringify({ slug: `gone-site-${tag}` }))
  siteForm.append("archive", new Blob([await zipOf([["index.html", "<h1>Site</h1>"]])]), "site.zip")
  const site = await call("POST", "/artifacts", { form: siteForm })
  const upload = await call("POST", "/upload-requests", { body: { title: "Send it" } })
  for (const made of [link, page, file, site, upload]) expect(made.status).toBe(201)
  return {
    workspaceId: owner.workspaceId,
    link: link.body.slug as string,
    page: page.body.slug as string,
    file: file.body.slug as string,
    siteUrl: site.body.deployment_url as string,
    uploadToken: upload.body.token as string
  }
}

type Published = Awaited<ReturnType<typeof publish>>

/**
 * Waits (at most 2 s: well within the resource cache's minute and the suspended set's 30 s re-read)
 * until `probe` gives `expected`: the change travels over the bus, LISTEN/NOTIFY on PostgreSQL.
 */
const within = async (probe: () => Promise<unknown>, expected: unknown) => {
  const end = Date.now() + 2_000
  let seen = await probe()
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25))
    seen = await probe()
  }
  expect(seen).toEqual(expected)
}

const linkStatus = (app: RunningApp, p: Published) => async () =>
  (await fetch(`${app.origin}/s/${p.link}`, { redirect: "manual" })).status

/** What every public URL of the account answers now (status, and the body where it matters). */
const answers = async (app: RunningApp, p: Published) => {
  const get = (path: string) => fetch(`${app.origin}${path}`, { redirect: "manual" })
  const body = new FormData()
  body.append("files", new Blob([PDF]), "a.pdf")
  const responses = {
    link: await get(`/s/${p.link}`),
    page: await get(`/s/${p.page}`),
    file: await get(`/s/${p.file}`),
    fileBytes: await get(`/s/${p.file}/download`),
    site: await get(`/s/gone-site-${p.link.slice("gone-link-".length)}`),
    uploadPage: await get(`/u/${p.uploadToken}`),
    uploadPost: await fetch(`${app.origin}/u/${p.uploadToken}`, { method: "POST", body, redirect: "manual" })
  }
  const out: Record<string, { status: number; body: string }> = {}
  for (const [name, r] of Object.entries(responses)) out[name] = { status: r.status, body: await r.text() }
  const origin = await siteGet(app, p.siteUrl, "/")
  out.siteOrigin = origin
  return out
}

const SERVING = {
  link: 302,
  page: 200,
  file: 200,
  fileBytes: 200,
  site: 302,
  uploadPage: 200,
  uploadPost: 303,
  siteOrigin: 200
}

const statuses = (a: Record<string, { status: number }>) =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v.status]))

for (const target of SHARING_FILE_TARGETS) {
  describe(`a suspended account's public side [${target.db}, ${target.blob}]`, () => {
    const { app } = sharingSuite(target, {})
    it("answers the unknown-slug 404 everywhere at once when disabled, and serves again when enabled", async () => {
      const p = await publish(app, target.blob)
      // Twice: the second request of the link is the warm one, answered on the node:http fast path.
      expect(statuses(await answers(app, p))).toEqual(SERVING)
      expect(statuses(await answers(app, p))).toEqual(SERVING)
      const unknown = await (await fetch(`${app.origin}/s/no-such-slug-here`)).text()
      const other = await publish(app, `${target.blob}-other`)

      await app.run(setTenantDisabled(p.workspaceId, true))
      await within(linkStatus(app, p), 404)
      const suspended = await answers(app, p)
      expect(statuses(suspended)).toEqual({
        link: 404,
        page: 404,
        file: 404,
        fileBytes: 404,
        site: 404,
        uploadPage: 404,
        uploadPost: 404,
        siteOrigin: 404
      })
      // The same page as for nothing at all: no word of a suspension, nothing of the content.
      for (const name of ["link", "page", "file", "fileBytes", "site"] as const)
        expect(suspended[name]?.body).toBe(unknown)
      expect(suspended.uploadPage?.body).toBe(unknown)
      expect(suspended.uploadPost?.body).toBe(unknown)
      expect(JSON.stringify(suspended)).not.toMatch(/suspend|disabled|Still here|Send it/i)
      // Another account is untouched.
      expect(statuses(await answers(app, other))).toEqual(SERVING)

      await app.run(setTenantDisabled(p.workspaceId, false))
      await within(linkStatus(app, p), 302)
      expect(statuses(await answers(app, p))).toEqual(SERVING)
      expect(statuses(await answers(app, p))).toEqual(SERVING)
    }, 60_000)
  })
}

describe.skipIf(TEST_DATABASE_URL === undefined)("a suspension on two instances [postgres]", () => {
  let a: RunningApp
  let b: RunningApp
  let close = async () => {}
  beforeAll(async () => {
    ;({ a, b, close } = await startTwoInstances())
  }, 60_000)
  afterAll(() => close())

  it("reaches the other instance at once, its warm link included, and so does the re-enabling", async () => {
    const p = await publish(a, "pair")
    const onB = async () => {
      const link = await fetch(`${b.origin}/s/${p.link}`, { redirect: "manual" })
      const upload = await fetch(`${b.origin}/u/${p.uploadToken}`)
      return [link.status, upload.status]
    }
    expect(await onB()).toEqual([302, 200])
    expect(await onB()).toEqual([302, 200])
    await a.run(setTenantDisabled(p.workspaceId, true))
    await within(onB, [404, 404])
    await a.run(setTenantDisabled(p.workspaceId, false))
    await within(onB, [302, 200])
  }, 60_000)
})
