// The public form page over real HTTP: the server-rendered HTML of every block type, its CSP and
// nonce, escaping of author text, the closed and not-found pages, the hashed assets, and the author's
// sandboxed custom script.
import { gunzipSync } from "node:zlib"
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { blk, everyBlockDefinition } from "../support/every-block-form.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

let app: RunningApp
let key: { key: string; workspaceId: string }

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key.key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
}

const publish = async (slug: string, definition: unknown, settings?: unknown) => {
  const created = await api("POST", "/forms", {
    title: `Form ${slug}`,
    definition,
    ...(settings === undefined ? {} : { settings })
  })
  expect(created.status).toBe(201)
  const id = String(created.body.data.id)
  expect((await api("PATCH", `/forms/${id}/slug`, { slug })).status).toBe(200)
  const published = await api("POST", `/forms/${id}/publish`, {
    expectedDraftRevision: created.body.data.draftRevision
  })
  expect(published.status).toBe(200)
  return id
}

const page = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.origin}${path}`, { headers })

beforeAll(async () => {
  app = await startApp()
  key = await newWorkspaceKey(app, [...FORMS_SCOPES])
  await publish("every-block", everyBlockDefinition)
})
afterAll(async () => app.close())

describe("GET /f/{slug}", () => {
  it("serves the published form as HTML with a nonce CSP, the script and the stylesheet", async () => {
    const response = await page("/f/every-block")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const csp = response.headers.get("content-security-policy") ?? ""
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    expect(csp).not.toContain("unsafe-inline")
    const body = await response.text()
    // Every inline script carries the nonce.
    const scripts = [...body.matchAll(/<script(?![^>]*type="application\/json")([^>]*)>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const s of scripts) expect(s[1]).toContain(`nonce="${nonce}"`)
    expect(body).not.toMatch(/ style="/)
    expect(body).toMatch(/<form id="form"[^>]* method="post" action="\/f\/every-block"/)
  })

  it("renders each block type's controls under the names a plain post carries", async () => {
    const body = await (await page("/f/every-block")).text()
    expect(body).toContain(`name="${blk("name")}" type="text"`)
    expect(body).toMatch(new RegExp(`<textarea id="in-${blk("bio")}" name="${blk("bio")}"`))
    expect(body).toContain(`name="${blk("phone")}" type="tel"`)
    expect(body).toContain(`name="${blk("site")}" type="url"`)
    expect(body).toContain(`name="${blk("email")}" type="email"`)
    expect(body).toContain(`name="${blk("color")}" value="__other__"`)
    expect(body).toContain(`name="${blk("color")}.other"`)
    expect(body).toContain(`type="checkbox" id="in-${blk("pets")}-0" name="${blk("pets")}" value="cat"`)
    expect(body).toContain("Choose 1 to 2.")
    expect(body).toContain('<option value="KR">South Korea</option>')
    expect(body).toContain(`name="${blk("rank")}.2"`)
    expect(body).toContain(`name="${blk("mood")}" value="5"`)
    expect(body).toContain(`name="${blk("when")}" type="datetime-local"`)
    expect(body).toContain(`name="${blk("trip")}.1"`)
    expect(body).toContain(`name="${blk("count")}" type="number"`)
    expect(body).toContain('<table class="matrix">')
    expect(body).toContain(`name="${blk("addr")}.2"`)
    expect(body).toContain(`type="file" id="in-${blk("file")}" name="${blk("file")}" multiple`)
    expect(body).toContain(`<input type="hidden" name="${blk("sign")}">`)
    expect(body).toContain(`name="${blk("consent")}" value="y"`)
    expect(body).toContain(`<output class="calc-value" id="out-${blk("total")}"`)
    expect(body).toContain(`<span class="ref" data-ref="${blk("name")}"></span>`)
    // Hidden fields are filled by the server from the URL, never rendered as inputs.
    expect(body).not.toContain(`name="${blk("source")}"`)
  })

  it("ties labels, descriptions and errors to their inputs", async () => {
    const body = await (await page("/f/every-block")).text()
    expect(body).toContain(`<label class="q-label" id="lbl-${blk("name")}" for="in-${blk("name")}">`)
    expect(body).toContain(`aria-describedby="desc-${blk("bio")} err-${blk("bio")}"`)
    expect(body).toContain(`<p class="q-error" id="err-${blk("bio")}" hidden>`)
    expect(body).toContain(
      `<fieldset class="q-group" aria-describedby="err-${blk("color")}"><legend class="q-label" id="lbl-${blk("color")}">Favourite colour<span class="req" title="Required" aria-hidden="true">*</span><span class="sr-only"> (Required)</span></legend>`
    )
  })

  it("carries the URL's parameters to the plain post for hidden fields", async () => {
    const body = await (await page("/f/every-block?src=newsletter&x=%3Cb%3E")).text()
    expect(body).toContain('<input type="hidden" name="_param.src" value="newsletter">')
    expect(body).toContain('<input type="hidden" name="_param.x" value="&lt;b&gt;">')
  })

  it("escapes author text everywhere", async () => {
    await publish(
      "hostile",
      {
        schemaVersion: 1,
        blocks: [
          {
            id: blk("evil"),
            type: "short_text",
            label: '<img src=x onerror=alert(1)>"',
            description: "</script><script>alert(2)</script>"
          },
          {
            id: blk("evil2"),
            type: "multiple_choice",
            label: "Pick",
            options: { choices: [{ id: 'x"><script>', label: "<b>bold</b>" }] }
          },
          {
            id: blk("evil3"),
            type: "statement",
            label: "S",
            content: [{ text: "link", href: "javascript:alert(3)" }]
          }
        ]
      },
      { intro: { title: "<h1>hi</h1>" } }
    )
    const body = await (await page("/f/hostile")).text()
    expect(body).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;")
    expect(body).toContain("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;")
    expect(body).toContain('value="x&quot;&gt;&lt;script&gt;"')
    expect(body).toContain("&lt;b&gt;bold&lt;/b&gt;")
    expect(body).toContain("&lt;h1&gt;hi&lt;/h1&gt;")
    // The unsafe link is rendered as plain text (it stays in the definition the script reads).
    expect(body.replace(/<script type="application\/json"[\s\S]*?<\/script>/, "")).not.toContain(
      "javascript:"
    )
    // The JSON the script reads cannot close its element.
    const json = /<script type="application\/json" id="folio-data">([\s\S]*?)<\/script>/.exec(body)?.[1] ?? ""
    expect(json).not.toContain("<")
    expect(JSON.parse(json).definition.blocks[0].label).toBe('<img src=x onerror=alert(1)>"')
  })

  it("answers an unknown slug with a 404 page and a closed form with a 410 page", async () => {
    const missing = await page("/f/no-such-form")
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain("Form not found")
    await publish(
      "closed-one",
      { schemaVersion: 1, blocks: [{ id: blk("q"), type: "short_text", label: "Q" }] },
      { submission: { acceptingResponses: false, closedMessage: "See you next <year>" } }
    )
    const closed = await page("/f/closed-one")
    expect(closed.status).toBe(410)
    const body = await closed.text()
    expect(body).toContain("This form is closed")
    expect(body).toContain("See you next &lt;year&gt;")
  })

  it("compresses the page for clients that accept it", async () => {
    const { request } = await import("node:http")
    const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      const req = request(
        `${app.origin}/f/every-block`,
        { headers: { "accept-encoding": "gzip" } },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () =>
            resolve({ encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) })
          )
        }
      )
      req.on("error", reject)
      req.end()
    })
    expect(raw.encoding).toBe("gzip")
    expect(gunzipSync(raw.bytes).toString("utf8")).toContain("<!doctype html>")
  })
})

describe("page assets", () => {
  it("serves the hashed script and stylesheet, immutable and precompressed", async () => {
    const body = await (await page("/f/every-block")).text()
    const script = /<script type="module" src="([^"]+)"/.exec(body)?.[1] ?? ""
    const style = /<link rel="stylesheet" href="([^"]+)"/.exec(body)?.[1] ?? ""
    expect(script).toMatch(/^\/f\/_assets\/form\.[A-Za-z0-9_-]{12}\.js$/)
    expect(style).toMatch(/^\/f\/_assets\/form\.[A-Za-z0-9_-]{12}\.css$/)
    const js = await page(script, { "accept-encoding": "br" })
    expect(js.status).toBe(200)
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(js.headers.get("content-encoding")).toBe("br")
    expect((await js.text()).length).toBeGreaterThan(1000)
    const etag = js.headers.get("etag") ?? ""
    expect((await page(script, { "if-none-match": etag })).status).toBe(304)
    expect((await page("/f/_assets/form.nothere.js")).status).toBe(404)
    expect((await page(style)).headers.get("content-type")).toBe("text/css; charset=utf-8")
  })
})

describe("custom script", () => {
  it("runs only in a sandboxed frame of its own, never inline in the page", async () => {
    await publish(
      "scripted",
      { schemaVersion: 1, blocks: [{ id: blk("q"), type: "short_text", label: "Q" }] },
      { customScript: "window.analyticsLoaded = true; // </script><b>" }
    )
    const body = await (await page("/f/scripted")).text()
    expect(body).not.toContain("analyticsLoaded")
    expect(body).toContain(
      '<iframe class="custom-script" src="/f/scripted/custom-script" sandbox="allow-scripts"'
    )
    const frame = await page("/f/scripted/custom-script")
    expect(frame.status).toBe(200)
    expect(frame.headers.get("content-security-policy")).toContain("sandbox allow-scripts")
    const doc = await frame.text()
    expect(doc).toContain("window.analyticsLoaded = true; // <\\/script><b>")
    expect((await page("/f/every-block/custom-script")).status).toBe(404)
    expect((await page("/f/every-block")).ok).toBe(true)
  })
})

describe("images on the page", () => {
  it("shows image blocks, choice images, the logo and the cover through the form's image route", async () => {
    const png = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
    ])
    const created = await api("POST", "/forms", { title: "Pictures" })
    const id = String(created.body.data.id)
    const upload = async () => {
      const response = await fetch(`${app.origin}/forms/api/v1/forms/${id}/assets`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/octet-stream" },
        body: png
      })
      return ((await response.json()) as { data: { key: string } }).data.key
    }
    const [picture, choice, logo, cover] = [await upload(), await upload(), await upload(), await upload()]
    const definition = {
      schemaVersion: 1,
      blocks: [
        {
          id: blk("pic"),
          type: "image",
          imageKey: picture,
          imageAlt: "A <picture>",
          caption: "Caption",
          width: "medium"
        },
        {
          id: blk("pick"),
          type: "multiple_choice",
          label: "Pick",
          options: { choices: [{ id: "a", label: "A", imageKey: choice, imageAlt: "Choice A" }] }
        }
      ]
    }
    const patched = await api("PATCH", `/forms/${id}`, {
      definition,
      expectedDraftRevision: created.body.data.draftRevision
    })
    const settings = await api("PATCH", `/forms/${id}/settings`, {
      settings: { theme: { logoKey: logo, coverKey: cover } },
      expectedSettingsSignature: created.body.data.settingsSignature
    })
    expect(settings.status).toBe(200)
    await api("PATCH", `/forms/${id}/slug`, { slug: "pictures" })
    expect(
      (await api("POST", `/forms/${id}/publish`, { expectedDraftRevision: patched.body.data.draftRevision }))
        .status
    ).toBe(200)
    const body = await (await page("/f/pictures")).text()
    const sources = [...body.matchAll(/<img[^>]* src="([^"]+)"[^>]*>/g)].map((m) => m[0])
    expect(sources).toHaveLength(4)
    expect(body).toContain('alt="A &lt;picture&gt;"')
    expect(body).toContain('alt="Choice A"')
    expect(body).toContain("<figcaption>Caption</figcaption>")
    for (const img of sources) {
      const src = /src="([^"]+)"/.exec(img)?.[1] ?? ""
      expect(src.startsWith("/f/pictures/images/")).toBe(true)
      const image = await page(src.replaceAll("&amp;", "&"))
      expect(image.status).toBe(200)
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(png)
    }
  })
})
