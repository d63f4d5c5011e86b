// Bio pages over real HTTP on PGlite with fs blobs and on PostgreSQL (PGlite without a server) with
// S3: PATCH .../bio replacing profile, pages and blocks; avatar, cover, file blocks, block files and
// thumbnails (uploads counted in the quota, replaced files deleted); the public page and its media;
// the visitor form with its honeypot, time token and budget; and the owner's submissions (list with
// total, CSV export escaped against formulas, delete), with scopes, ownership and ETags.
import { parse } from "csv-parse/sync"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { freshRateWindow } from "../support/rate-window.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"

const png = (width: number) =>
  sharp({ create: { width, height: width, channels: 3, background: { r: 240, g: 180, b: 20 } } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b))
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")

const fileForm = (bytes: Uint8Array, fields: Record<string, string> = {}, name = "upload.bin") => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  body.append("file", new Blob([bytes]), name)
  return body
}

const CONTACT = {
  type: "form",
  title: "Say hello",
  fields: [
    { name: "name", label: "Your name", kind: "text", required: true },
    { name: "email", label: "Email", kind: "email", required: true },
    { name: "message", label: "Message", kind: "textarea", required: false }
  ]
}

for (const target of SHARING_FILE_TARGETS) {
  describe(`bio pages [${target.db}, ${target.blob}]`, () => {
    const { app, owner, other, readOnly } = sharingSuite(target, {
      owner: ALL_SHARING_SCOPES,
      other: ALL_SHARING_SCOPES,
      readOnly: ["read"]
    })
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const used = async () => ((await call("GET", "/me")).body.storage as Json).used_bytes as number
    const newBio = async (body: Json = {}) => {
      const made = await call("POST", "/resources", { body: { type: "bio", title: "Ada", ...body } })
      expect(made.status).toBe(201)
      return made.body
    }
    const replace = (slug: string, body: Json, headers: Record<string, string> = {}) =>
      call("PATCH", `/resources/${slug}/bio`, { body, headers })

    it("replaces the whole profile and pages; omitted profile fields are cleared; ETags guard it", async () => {
      const bio = await newBio({ settings: { display_name: "Ada L.", headline: "Engineer" } })
      const slug = bio.slug as string
      expect(bio).toMatchObject({
        display_name: "Ada L.",
        headline: "Engineer",
        pages: [{ slug: "home", blocks: [] }]
      })
      const etag = (await call("GET", `/resources/${slug}`)).headers.get("x-resource-etag") ?? ""
      const replaced = await replace(
        slug,
        {
          display_name: "Ada Lovelace",
          theme: "ocean",
          pages: [
            {
              slug: "home",
              title: "Home",
              blocks: [
                { type: "heading", text: "Find me" },
                { type: "link", title: "My site", url: "https://example.com/" },
                { type: "text", text: "Line one\nLine two" },
                CONTACT
              ]
            },
            { slug: "talks", title: "Talks", blocks: [] }
          ]
        },
        { "x-resource-if-match": etag }
      )
      expect(replaced.status).toBe(200)
      expect(replaced.body).toMatchObject({
        display_name: "Ada Lovelace",
        headline: null,
        bio: null,
        theme: "ocean",
        root_page_slug: "home"
      })
      const pages = replaced.body.pages as Array<Json>
      expect(pages.map((p) => p.slug)).toEqual(["home", "talks"])
      const pageIds = pages.map((p) => p.id as string)
      expect(((pages[0] as Json).blocks as Array<Json>).map((b) => b.type)).toEqual([
        "heading",
        "link",
        "text",
        "form"
      ])
      const stale = await replace(
        slug,
        { pages: [{ slug: "home", title: "Home", blocks: [] }] },
        { "x-resource-if-match": etag }
      )
      expect(stale.status).toBe(412)
      const cases: ReadonlyArray<[Json, string]> = [
        [{}, "pages"],
        [{ pages: [] }, "pages"],
        [
          {
            pages: [
              { slug: "a-b", title: "A", blocks: [] },
              { slug: "a-b", title: "B", blocks: [] }
            ]
          },
          "pages.1.slug"
        ],
        [
          { pages: [{ slug: "home", title: "H", blocks: [{ type: "image", id: "nope" }] }] },
          "pages.0.blocks.0.id"
        ],
        [
          {
            pages: [
              { slug: "home", title: "H", blocks: [{ type: "link", title: "x", url: "javascript:alert(1)" }] }
            ]
          },
          "pages.0.blocks.0.url"
        ],
        [{ pages: [{ id: "no-such-page", slug: "home", title: "H", blocks: [] }] }, "pages.0.id"],
        [
          { pages: [{ slug: "home", title: "H", blocks: [{ id: "a/b", type: "heading", text: "x" }] }] },
          "pages.0.blocks.0.id"
        ],
        [
          {
            pages: [
              { id: pageIds[0], slug: "one", title: "One", blocks: [] },
              { id: pageIds[0], slug: "two", title: "Two", blocks: [] }
            ]
          },
          "pages.1.id"
        ]
      ]
      for (const [body, field] of cases) {
        const refused = await replace(slug, body)
        expect(refused.status, field).toBe(400)
        expect(refused.body, field).toMatchObject({ error_code: "validation_failed", field })
      }
      expect(
        await replace(slug, { pages: [{ slug: "home", title: "H", blocks: [] }] }, {}).then((r) => r.status)
      ).toBe(200)
      const foreign = await call("PATCH", `/resources/${slug}/bio`, {
        key: other.key,
        body: { pages: [{ slug: "home", title: "H", blocks: [] }] }
      })
      expect(foreign.status).toBe(403)
      const scoped = await call("PATCH", `/resources/${slug}/bio`, {
        key: readOnly.key,
        body: { pages: [{ slug: "home", title: "H", blocks: [] }] }
      })
      expect(scoped.status).toBe(403)
      const link = await call("POST", "/resources", {
        body: { type: "link", target_url: "https://example.com/" }
      })
      const notBio = await replace(link.body.slug as string, {
        pages: [{ slug: "home", title: "H", blocks: [] }]
      })
      expect(notBio.body).toMatchObject({ error_code: "validation_failed", field: "slug" })
    })

    it("takes an avatar and a cover (images only), counts them, and deletes what it replaces", async () => {
      const bio = await newBio()
      const slug = bio.slug as string
      const before = await used()
      const avatar = await png(64)
      const set = await call("POST", `/resources/${slug}/bio/avatar`, {
        form: fileForm(avatar, {}, "me.png")
      })
      expect(set.status).toBe(200)
      expect(set.body.avatar).toMatchObject({ content_type: "image/png", size: avatar.byteLength })
      expect(await used()).toBe(before + avatar.byteLength)
      const notImage = await call("POST", `/resources/${slug}/bio/cover`, { form: fileForm(PDF) })
      expect(notImage.status).toBe(415)
      const newer = await png(32)
      const replaced = await call("POST", `/resources/${slug}/bio/avatar`, { form: fileForm(newer) })
      expect(await used()).toBe(before + newer.byteLength)
      const url = (replaced.body.avatar as Json).url as string
      const shown = await fetch(url)
      expect(shown.headers.get("content-type")).toBe("image/png")
      expect(new Uint8Array(await shown.arrayBuffer())).toEqual(newer)
      expect((await fetch((set.body.avatar as Json).url as string)).status).toBe(404)
      const cover = await call("POST", `/resources/${slug}/bio/cover`, { form: fileForm(avatar) })
      expect(cover.body.cover).not.toBeNull()
      const denied = await call("DELETE", `/resources/${slug}/bio/cover`, { key: readOnly.key })
      expect(denied.status).toBe(403)
      const removed = await call("DELETE", `/resources/${slug}/bio/cover`)
      expect(removed.status).toBe(200)
      expect(removed.body.cover).toBeNull()
      await call("DELETE", `/resources/${slug}/bio/avatar`)
      expect(await used()).toBe(before)
    })

    it("adds image and file blocks by upload, replaces their files, sets thumbnails, and keeps them through a PATCH that names them", async () => {
      const bio = await newBio()
      const slug = bio.slug as string
      const pageId = ((bio.pages as Array<Json>)[0] as Json).id as string
      const before = await used()
      const image = await png(20)
      const addedImage = await call("POST", `/resources/${slug}/bio/pages/${pageId}/blocks/file`, {
        form: fileForm(image, { caption: "Sunflower" })
      })
      expect(addedImage.status).toBe(201)
      expect(addedImage.body.block).toMatchObject({ type: "image", caption: "Sunflower" })
      const addedFile = await call("POST", `/resources/${slug}/bio/pages/${pageId}/blocks/file`, {
        form: fileForm(PDF, { title: "CV" }, "cv.pdf")
      })
      expect(addedFile.body.block).toMatchObject({
        type: "file",
        title: "CV",
        file: { content_type: "application/pdf" }
      })
      const imageId = (addedImage.body.block as Json).id as string
      const fileId = (addedFile.body.block as Json).id as string
      const noPage = await call("POST", `/resources/${slug}/bio/pages/nope/blocks/file`, {
        form: fileForm(PDF)
      })
      expect(noPage.status).toBe(404)
      const wrongKind = await call("POST", `/resources/${slug}/bio/blocks/${imageId}/file`, {
        form: fileForm(PDF)
      })
      expect(wrongKind.status).toBe(415)
      const newPdf = new TextEncoder().encode("%PDF-1.5\nnewer\n%%EOF\n")
      const swapped = await call("POST", `/resources/${slug}/bio/blocks/${fileId}/file`, {
        form: fileForm(newPdf, {}, "cv2.pdf")
      })
      expect(swapped.status).toBe(200)
      const thumb = await png(16)
      const withThumb = await call("POST", `/resources/${slug}/bio/blocks/${fileId}/thumbnail`, {
        form: fileForm(thumb)
      })
      expect(withThumb.status).toBe(200)
      expect(await used()).toBe(before + image.byteLength + newPdf.byteLength + thumb.byteLength)
      // A PATCH that names the image block keeps it (and changes its caption); the file block it
      // leaves out goes, with its file and thumbnail.
      const kept = await replace(slug, {
        pages: [
          {
            id: pageId,
            slug: "home",
            title: "Home",
            blocks: [{ type: "image", id: imageId, caption: "Bloom" }]
          }
        ]
      })
      expect(kept.status).toBe(200)
      const blocks = ((kept.body.pages as Array<Json>)[0] as Json).blocks as Array<Json>
      expect(blocks).toMatchObject([{ id: imageId, type: "image", caption: "Bloom" }])
      expect(await used()).toBe(before + image.byteLength)
      const noThumb = await replace(slug, {
        pages: [{ id: pageId, slug: "home", title: "Home", blocks: [{ type: "heading", text: "Hi" }] }]
      })
      const headingId = (((noThumb.body.pages as Array<Json>)[0] as Json).blocks as Array<Json>)[0]?.id
      const refused = await call("POST", `/resources/${slug}/bio/blocks/${headingId}/thumbnail`, {
        form: fileForm(thumb)
      })
      expect(refused.body).toMatchObject({ error_code: "validation_failed", field: "blockID" })
      expect(await used()).toBe(before)
    })

    it("shows the public page, takes a visitor's form, guards it, and lists, exports and deletes submissions", async () => {
      const bio = await newBio({ settings: { display_name: "Ada", headline: "Poet of science" } })
      const slug = bio.slug as string
      const replaced = await replace(slug, {
        display_name: "Ada",
        headline: "Poet of science",
        pages: [
          {
            slug: "home",
            title: "Home",
            blocks: [{ type: "link", title: "Notes", url: "https://example.com/notes" }, CONTACT]
          }
        ]
      })
      const formId = ((((replaced.body.pages as Array<Json>)[0] as Json).blocks as Array<Json>)[1] as Json)
        .id as string
      // The posts below spend a budget counted in fixed 10-minute windows (the adapter's
      // FORM_WINDOW_MS): they must not straddle two, or the sixth lands in a fresh window. The wait
      // comes before the page is read, since its form token dates the "too fast" check.
      await freshRateWindow(10_000, 10 * 60_000)
      const pageHtml = await (await fetch(`${app.origin}/s/${slug}`)).text()
      expect(pageHtml).toContain("Poet of science")
      expect(pageHtml).toContain('href="https://example.com/notes"')
      expect(pageHtml).toContain(`action="/s/${slug}/forms/${formId}"`)
      const token = /name="form_token" value="([^"]+)"/.exec(pageHtml)?.[1] ?? ""
      const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(`${app.origin}/s/${slug}/forms/${formId}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: new URLSearchParams({ form_token: token, ...fields }).toString()
        })
      // Sent faster than a person fills a form: refused, the answers kept on the page.
      const tooFast = await post({ name: "Quick", email: "q@example.com" })
      expect(tooFast.status).toBe(400)
      expect(await tooFast.text()).toContain('value="Quick"')
      await new Promise((r) => setTimeout(r, 2100))
      const sent = await post({
        name: "Grace",
        email: "grace@example.com",
        message: '=HYPERLINK("http://evil")'
      })
      expect(sent.status).toBe(303)
      expect(sent.headers.get("location")).toBe(`/s/${slug}?sent=${formId}#block-${formId}`)
      expect(await (await fetch(`${app.origin}${sent.headers.get("location")}`)).text()).toContain("Thanks!")
      const bot = await post({ name: "Bot", email: "bot@example.com", website: "http://spam" })
      expect(bot.status).toBe(303)
      const wrong = await post({ name: "No email", email: "not-an-email" })
      expect(wrong.status).toBe(400)
      expect(await wrong.text()).toContain("email")
      // A made-up block id (not a block of this page) never breaks the answer, even with the honeypot.
      const elsewhere = (await newBio()).slug as string
      const odd = await fetch(`${app.origin}/s/${elsewhere}/forms/%E6%97%A5%0D%0Ax`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "website=spam"
      })
      expect(odd.status).toBe(303)
      const forged = await fetch(`${app.origin}/s/${slug}/forms/${formId}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ form_token: "1.forged", name: "F", email: "f@example.com" }).toString()
      })
      expect(forged.status).toBe(400)
      // Every post spends the address's budget (five in ten minutes): the sixth is 429.
      const over = await post({ name: "Over", email: "over@example.com" })
      expect(over.status).toBe(429)
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)

      const list = await call("GET", `/resources/${slug}/bio/form-submissions?limit=1`)
      expect(list.status).toBe(200)
      expect(list.body).toMatchObject({ total: 1, limit: 1, offset: 0 })
      const grace = (list.body.items as Array<Json>)[0] as Json
      expect(grace).toMatchObject({ block_id: formId, form_title: "Say hello" })
      expect(grace.values).toEqual({
        name: "Grace",
        email: "grace@example.com",
        message: '=HYPERLINK("http://evil")'
      })
      const past = await call("GET", `/resources/${slug}/bio/form-submissions?limit=1&offset=1`)
      expect(past.body).toMatchObject({ items: [], total: 1, offset: 1 })
      const csv = await call("GET", `/resources/${slug}/bio/form-submissions/export`)
      expect(csv.headers.get("content-type")).toContain("text/csv")
      const rows = parse(new TextDecoder().decode(csv.bytes)) as Array<Array<string>>
      expect(rows[0]).toEqual(["submitted_at", "form", "name", "email", "message"])
      expect(rows).toHaveLength(2)
      expect(rows[1]?.[4]).toBe(`'=HYPERLINK("http://evil")`)
      const foreign = await call("GET", `/resources/${slug}/bio/form-submissions`, { key: other.key })
      expect(foreign.status).toBe(403)
      const deleted = await call("DELETE", `/resources/${slug}/bio/form-submissions/${grace.id}`)
      expect(deleted.status).toBe(204)
      expect((await call("DELETE", `/resources/${slug}/bio/form-submissions/${grace.id}`)).status).toBe(404)
      expect((await call("GET", `/resources/${slug}/bio/form-submissions`)).body.total).toBe(0)
    })
  })
}
