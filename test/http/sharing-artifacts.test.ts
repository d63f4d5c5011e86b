// HTML artifacts over real HTTP, on PGlite with fs blobs and on PostgreSQL (PGlite without a server)
// with S3: create from a ZIP or separate files, every refusal, full and patch deployments (a patch
// writes only the changed file), the files and source reads, the share link's redirect, and each
// deployment served on its own host with its CSP; an older deployment is replaced, a password is
// handed to the deployment's origin, and a server without artifacts answers 503.
import { request as httpRequest } from "node:http"
import { describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { SHARING_FILE_TARGETS, startSharingApp } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { zipOf, zipWithRawNames } from "../support/zip.js"

const text = (s: string) => new TextEncoder().encode(s)

const SITE: ReadonlyArray<[string, Uint8Array]> = [
  [
    "index.html",
    text('<!doctype html><title>Site</title><link rel="stylesheet" href="css/site.css"><h1>Hello</h1>')
  ],
  ["css/site.css", text("h1{color:teal}")],
  ["docs/index.html", text("<h1>Docs</h1>")],
  ["logo.bin", new Uint8Array(4096).fill(7)]
]

const archiveForm = (archive: Uint8Array, metadata: Json = {}) => {
  const body = new FormData()
  body.append("metadata", JSON.stringify(metadata))
  body.append("archive", new Blob([archive]), "site.zip")
  return body
}

const filesForm = (metadata: Json, parts: ReadonlyArray<[string, Uint8Array]>) => {
  const body = new FormData()
  body.append("metadata", JSON.stringify(metadata))
  for (const [name, bytes] of parts) body.append(name, new Blob([bytes]), "ignored-name.txt")
  return body
}

/** A GET on a deployment's origin: the Host header names it, the socket goes to the app. */
const siteGet = (app: RunningApp, siteUrl: string, path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | Array<string> | undefined>; body: string }>(
    (resolve, reject) => {
      const host = new URL(siteUrl).host
      const port = new URL(app.origin).port
      const req = httpRequest(
        { host: "127.0.0.1", port, path, method: "GET", headers: { host, ...headers } },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8")
            })
          )
        }
      )
      req.on("error", reject)
      req.end()
    }
  )

for (const target of SHARING_FILE_TARGETS) {
  describe(`HTML artifacts [${target.db}, ${target.blob}]`, () => {
    const { app, owner, other } = sharingSuite(target, {
      owner: ALL_SHARING_SCOPES,
      other: ALL_SHARING_SCOPES
    })
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const used = async () => ((await call("GET", "/me")).body.storage as Json).used_bytes as number

    it("creates a site from a ZIP, serves it on its own origin, and redirects the share link there", async () => {
      const before = await used()
      const made = await call("POST", "/artifacts", {
        form: archiveForm(await zipOf(SITE), { slug: `site-${target.blob}`, title: "My site" })
      })
      expect(made.status).toBe(201)
      expect(made.body).toMatchObject({
        type: "artifact",
        entry_path: "index.html",
        file_count: 4,
        deployment_number: 1
      })
      const siteUrl = made.body.deployment_url as string
      expect(siteUrl).toMatch(/^http:\/\/[0-9a-f-]{36}\.localhost:\d+$/)
      const siteBytes = SITE.reduce((n, [, b]) => n + b.byteLength, 0)
      expect(made.body.site_bytes).toBe(siteBytes)
      expect(await used()).toBe(before + siteBytes)
      const home = await siteGet(app, siteUrl, "/")
      expect(home.status).toBe(200)
      expect(home.body).toContain("<h1>Hello</h1>")
      expect(home.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(home.headers["content-security-policy"]).toContain("connect-src 'self'")
      expect(home.headers["set-cookie"]).toBeUndefined()
      expect((await siteGet(app, siteUrl, "/css/site.css")).headers["content-type"]).toBe(
        "text/css; charset=utf-8"
      )
      expect((await siteGet(app, siteUrl, "/docs/")).body).toBe("<h1>Docs</h1>")
      expect((await siteGet(app, siteUrl, "/docs")).body).toBe("<h1>Docs</h1>")
      expect((await siteGet(app, siteUrl, "/nope.html")).status).toBe(404)
      const again = await siteGet(app, siteUrl, "/", { "if-none-match": home.headers.etag as string })
      expect(again.status).toBe(304)
      const share = await fetch(`${app.origin}/s/site-${target.blob}`, { redirect: "manual" })
      expect(share.status).toBe(302)
      expect(share.headers.get("location")).toBe(`${siteUrl}/`)
      // The app's own routes are not served on a deployment's host, the warm link redirect neither.
      expect((await siteGet(app, siteUrl, "/share/api/v1/me")).status).toBe(404)
      const link = await call("POST", "/resources", {
        body: { type: "link", target_url: "https://example.com/" }
      })
      expect((await fetch(`${app.origin}/s/${link.body.slug}`, { redirect: "manual" })).status).toBe(302)
      const onSite = await siteGet(app, siteUrl, `/s/${link.body.slug}`)
      expect(onSite.status).toBe(404)
      expect(onSite.headers["set-cookie"]).toBeUndefined()
    })

    it("creates a site from separate files, paths from the metadata", async () => {
      const made = await call("POST", "/artifacts", {
        form: filesForm(
          {
            files: [
              { part: "a", path: "index.html" },
              { part: "b", path: "js/app.js" }
            ]
          },
          [
            ["a", text("<script src=js/app.js></script>")],
            ["b", text("document.title='ok'")]
          ]
        )
      })
      expect(made.status).toBe(201)
      const files = await call("GET", `/resources/${made.body.slug}/artifact/files`)
      expect(files.body.items).toEqual([
        { path: "index.html", size: 31, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), editable: true },
        { path: "js/app.js", size: 19, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), editable: true }
      ])
      const source = await call("GET", `/resources/${made.body.slug}/artifact/source?path=js/app.js`)
      expect(source.body).toEqual({ path: "js/app.js", size: 19, source: "document.title='ok'" })
      expect((await call("GET", `/resources/${made.body.slug}/artifact/source?path=missing.js`)).status).toBe(
        404
      )
    })

    it("refuses every bad body with its code, and keeps nothing of it", async () => {
      const before = await used()
      const cases: ReadonlyArray<[FormData, number, string]> = [
        [
          filesForm({ files: [{ part: "a", path: "../index.html" }] }, [["a", text("<p>x</p>")]]),
          400,
          "artifact_path_invalid"
        ],
        [
          filesForm({ files: [{ part: "a", path: "a\\\\b.html" }] }, [["a", text("<p>x</p>")]]),
          400,
          "artifact_path_invalid"
        ],
        [
          filesForm({ files: [{ part: "a", path: ".auth/x.html" }] }, [["a", text("<p>x</p>")]]),
          400,
          "artifact_path_invalid"
        ],
        [
          filesForm(
            {
              files: [
                { part: "a", path: "Index.html" },
                { part: "b", path: "index.html" }
              ]
            },
            [
              ["a", text("<p>x</p>")],
              ["b", text("<p>y</p>")]
            ]
          ),
          400,
          "artifact_path_invalid"
        ],
        [
          filesForm({ files: [{ part: "a", path: "style.css" }] }, [["a", text("p{}")]]),
          400,
          "artifact_index_missing"
        ],
        [
          filesForm({ files: [{ part: "a", path: "index.html" }] }, [["a", new Uint8Array(0)]]),
          400,
          "artifact_index_missing"
        ],
        [
          // A backslash inside a ZIP entry's name is refused as sent, not read as a folder.
          archiveForm(
            await zipWithRawNames([
              ["index.html", text("<h1>Hi</h1>")],
              ["a\\b.html", text("<p>x</p>")]
            ])
          ),
          400,
          "artifact_path_invalid"
        ],
        [archiveForm(text("not a zip")), 400, "artifact_archive_invalid"],
        [
          archiveForm(
            await zipOf([
              ["index.html", text("x")],
              ["zeros.bin", new Uint8Array(20 * 1024 * 1024)]
            ])
          ),
          400,
          "artifact_archive_invalid"
        ],
        [filesForm({ files: [{ part: "a", path: "index.html" }] }, []), 400, "validation_failed"],
        [filesForm({}, [["a", text("<p>x</p>")]]), 400, "validation_failed"]
      ]
      for (const [body, status, code] of cases) {
        const refused = await call("POST", "/artifacts", { form: body })
        expect(refused.status, code).toBe(status)
        expect(refused.body.error_code, code).toBe(code)
      }
      const mixed = archiveForm(await zipOf(SITE))
      mixed.append("a", new Blob([text("<p>x</p>")]), "x.html")
      expect((await call("POST", "/artifacts", { form: mixed })).body).toMatchObject({
        error_code: "validation_failed"
      })
      expect(await used()).toBe(before)
    })

    it("deploys a full version and patches one file, writing only that file; a stale base is 412", async () => {
      const made = await call("POST", "/artifacts", { form: archiveForm(await zipOf(SITE)) })
      const slug = made.body.slug as string
      const first = made.body.deployment_id as string
      const firstUrl = made.body.deployment_url as string
      const before = await used()
      const newCss = text("h1{color:crimson}")
      const patched = await call("POST", `/resources/${slug}/artifact/deployments`, {
        form: filesForm(
          {
            mode: "patch",
            base_deployment_id: first,
            files: [{ part: "css", path: "css/site.css" }],
            delete_paths: ["logo.bin"]
          },
          [["css", newCss]]
        )
      })
      expect(patched.status).toBe(201)
      expect(patched.body).toMatchObject({ deployment_number: 2, file_count: 3 })
      // Only the changed file's bytes were added.
      expect(await used()).toBe(before + newCss.byteLength)
      const secondUrl = patched.body.deployment_url as string
      expect(secondUrl).not.toBe(firstUrl)
      expect((await siteGet(app, secondUrl, "/css/site.css")).body).toBe("h1{color:crimson}")
      expect((await siteGet(app, secondUrl, "/logo.bin")).status).toBe(404)
      expect((await siteGet(app, secondUrl, "/")).body).toContain("<h1>Hello</h1>")
      expect((await siteGet(app, firstUrl, "/")).status).toBe(410)
      const stale = await call("POST", `/resources/${slug}/artifact/deployments`, {
        form: filesForm(
          { mode: "patch", base_deployment_id: first, files: [{ part: "c", path: "c.html" }] },
          [["c", text("c")]]
        )
      })
      expect(stale.status).toBe(412)
      expect(stale.body).toMatchObject({ error_code: "etag_mismatch" })
      const full = await call("POST", `/resources/${slug}/artifact/deployments`, {
        form: archiveForm(await zipOf([["index.html", text("<h1>Fresh</h1>")]]))
      })
      expect(full.body).toMatchObject({ deployment_number: 3, file_count: 1 })
      expect((await siteGet(app, full.body.deployment_url as string, "/")).body).toBe("<h1>Fresh</h1>")
      const badDelete = await call("POST", `/resources/${slug}/artifact/deployments`, {
        form: filesForm(
          {
            mode: "patch",
            base_deployment_id: full.body.deployment_id as string,
            delete_paths: ["nope.html"]
          },
          []
        )
      })
      expect(badDelete.body).toMatchObject({
        error_code: "validation_failed",
        field: "metadata.delete_paths.0"
      })
      const foreign = await call("POST", `/resources/${slug}/artifact/deployments`, {
        key: other.key,
        form: archiveForm(await zipOf(SITE))
      })
      expect(foreign.status).toBe(403)
      // Deleting the artifact stops its origin and gives its bytes back.
      const held = await used()
      await call("DELETE", `/resources/${slug}`)
      expect(await used()).toBeLessThan(held)
      expect((await siteGet(app, full.body.deployment_url as string, "/")).status).toBe(404)
    })

    it("races deployments: of six patches on one base one lands and five get 412, six full ones all land in turn", async () => {
      const made = await call("POST", "/artifacts", { form: archiveForm(await zipOf(SITE)) })
      const slug = made.body.slug as string
      const base = made.body.deployment_id as string
      const before = await used()
      // The same new bytes in every patch: a loser must not take away the object the winner uses.
      const css = text("h1{color:navy}")
      const patches = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call("POST", `/resources/${slug}/artifact/deployments`, {
            form: filesForm(
              {
                mode: "patch",
                base_deployment_id: base,
                files: [
                  { part: "css", path: "css/site.css" },
                  { part: "own", path: `own-${i}.html` }
                ]
              },
              [
                ["css", css],
                ["own", text(`<p>${i}</p>`)]
              ]
            )
          })
        )
      )
      expect(patches.map((p) => p.status).sort()).toEqual([201, 412, 412, 412, 412, 412])
      for (const lost of patches.filter((p) => p.status === 412))
        expect(lost.body.error_code).toBe("etag_mismatch")
      const won = patches.find((p) => p.status === 201)?.body as Json
      expect(won.deployment_number).toBe(2)
      const wonUrl = won.deployment_url as string
      expect((await siteGet(app, wonUrl, "/css/site.css")).body).toBe("h1{color:navy}")
      // Only the winner's bytes are kept and counted: the css and its own page.
      expect(await used()).toBe(before + css.byteLength + text("<p>0</p>").byteLength)

      const fulls = await Promise.all(
        Array.from({ length: 6 }, async (_, i) =>
          call("POST", `/resources/${slug}/artifact/deployments`, {
            form: archiveForm(
              await zipOf([
                ["index.html", text("<h1>Same</h1>")],
                [`page-${i}.html`, text(`<p>full ${i}</p>`)]
              ])
            )
          })
        )
      )
      expect(fulls.map((f) => f.status)).toEqual([201, 201, 201, 201, 201, 201])
      expect(fulls.map((f) => f.body.deployment_number as number).sort()).toEqual([3, 4, 5, 6, 7, 8])
      const current = await call("GET", `/resources/${slug}`)
      const last = fulls.find((f) => f.body.deployment_number === 8)?.body as Json
      expect(current.body.deployment_id).toBe(last.deployment_id)
      expect((await siteGet(app, last.deployment_url as string, "/")).body).toBe("<h1>Same</h1>")
      // Every deployment's distinct bytes counted once: the shared index page and six own pages.
      const added = text("<h1>Same</h1>").byteLength + 6 * text("<p>full 0</p>").byteLength
      expect(await used()).toBe(before + css.byteLength + text("<p>0</p>").byteLength + added)
    })

    it("hands a password unlock to the deployment's origin", async () => {
      const made = await call("POST", "/artifacts", {
        form: archiveForm(await zipOf(SITE), { password: "open up" })
      })
      const slug = made.body.slug as string
      const siteUrl = made.body.deployment_url as string
      const locked = await siteGet(app, siteUrl, "/")
      expect(locked.status).toBe(303)
      expect(locked.headers.location).toBe(`${app.origin}/s/${slug}`)
      const unlock = await fetch(`${app.origin}/s/${slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "password=open+up"
      })
      const appCookie = (unlock.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const share = await fetch(`${app.origin}/s/${slug}`, {
        redirect: "manual",
        headers: { cookie: appCookie }
      })
      const handoff = new URL(share.headers.get("location") ?? "")
      expect(handoff.pathname).toBe("/_bidama/unlock")
      const taken = await siteGet(app, siteUrl, `${handoff.pathname}${handoff.search}`)
      expect(taken.status).toBe(303)
      const siteCookie = String(taken.headers["set-cookie"] ?? "").split(";")[0] ?? ""
      expect(siteCookie.startsWith("_bidama_unlock=")).toBe(true)
      expect((await siteGet(app, siteUrl, "/", { cookie: siteCookie })).body).toContain("<h1>Hello</h1>")
      // A made-up handoff opens nothing.
      expect((await siteGet(app, siteUrl, "/_bidama/unlock?token=1.forged")).headers.location).toBe(
        `${app.origin}/s/${slug}`
      )
    })
  })
}

describe("HTML artifacts turned off", () => {
  it("answers 503 artifacts_disabled and says so in /me", async () => {
    const app = await startApp({ config: { artifactsEnabled: false, sharingRequestsPerKey: 100_000 } })
    try {
      const { key } = await newWorkspaceKey(app, ["read", "write"], "sharing")
      const client = sharingClientOf(app.origin)
      const refused = await client.call("POST", "/artifacts", { key, form: archiveForm(await zipOf(SITE)) })
      expect(refused.status).toBe(503)
      expect(refused.body).toMatchObject({ error_code: "artifacts_disabled" })
      const me = await client.call("GET", "/me", { key })
      expect(me.body.features).toMatchObject({ artifacts_enabled: false })
      expect(me.body.creatable_types).not.toContain("artifact")
    } finally {
      await app.close()
    }
  })
})

describe("HTML artifacts on a server with lower limits", () => {
  it("answers 413 artifact_too_many_files and artifact_too_large, over HTTP", async () => {
    const started = await startSharingApp(
      { db: "pglite", blob: "fs" },
      { artifactLimits: { siteBytes: 300, files: 2, fileBytes: 200, zipBytes: 100_000 } }
    )
    try {
      const { key } = await newWorkspaceKey(started.app, ["read", "write"], "sharing")
      const client = sharingClientOf(started.app.origin)
      const three = await client.call("POST", "/artifacts", {
        key,
        form: archiveForm(
          await zipOf([
            ["index.html", text("a")],
            ["b.html", text("b")],
            ["c.html", text("c")]
          ])
        )
      })
      expect(three.status).toBe(413)
      expect(three.body).toMatchObject({ error_code: "artifact_too_many_files" })
      const big = await client.call("POST", "/artifacts", {
        key,
        form: filesForm({ files: [{ part: "a", path: "index.html" }] }, [
          ["a", new Uint8Array(201).fill(0x61)]
        ])
      })
      expect(big.status).toBe(413)
      expect(big.body).toMatchObject({ error_code: "artifact_too_large" })
      const site = await client.call("POST", "/artifacts", {
        key,
        form: filesForm(
          {
            files: [
              { part: "a", path: "index.html" },
              { part: "b", path: "b.html" }
            ]
          },
          [
            ["a", new Uint8Array(200).fill(0x61)],
            ["b", new Uint8Array(200).fill(0x62)]
          ]
        )
      })
      expect(site.status).toBe(413)
      expect(site.body).toMatchObject({ error_code: "artifact_too_large" })
    } finally {
      await started.close()
    }
  })
})
