// POST /uploads over real HTTP, on PGlite with the filesystem blob store and on PostgreSQL (PGlite
// without a server) with S3 (s3rver): the type decided from the content, every refusal and what it
// leaves behind (nothing), the storage quota under concurrent uploads, /me, previews, and the public
// page and bytes of files and images (Content-Disposition, nosniff, sandbox, ranges, passwords, view
// limits), and delete giving the bytes back.
import { readdirSync } from "node:fs"
import { request } from "node:http"
import { BlobStore, ResourceRepository } from "@folio/domain"
import { Effect, Option, Stream } from "effect"
import sharp from "sharp"
import { describe, expect, it, vi } from "vitest"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, SHARING_API, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"

const KIB = 1024
const MAX_UPLOAD = 256 * KIB
const QUOTA = 1024 * KIB

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b))

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n")
const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(120).fill(0)])

/** `size` bytes of text: `line` repeated. */
const textOf = (size: number, line: string) =>
  new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size))

const form = (
  file: Uint8Array | undefined,
  fields: Record<string, string | ReadonlyArray<string>> = {},
  name = "upload.bin",
  partType = "application/octet-stream"
) => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields))
    for (const value of typeof v === "string" ? [v] : v) body.append(k, value)
  if (file !== undefined) body.append("file", new Blob([file], { type: partType }), name)
  return body
}

for (const target of SHARING_FILE_TARGETS) {
  describe(`POST /uploads [${target.db}, ${target.blob}]`, () => {
    const { app, owner, other, readOnly } = sharingSuite(
      target,
      { owner: ALL_SHARING_SCOPES, other: ALL_SHARING_SCOPES, readOnly: ["read"] },
      {
        sharingUploadMaxBytes: MAX_UPLOAD,
        sharingStorageQuotaBytes: QUOTA
      }
    )
    const client = () => sharingClientOf(app.origin)
    const upload = (body: FormData, key = owner.key) => client().call("POST", "/uploads", { key, form: body })
    const me = async (key = owner.key) =>
      ((await client().call("GET", "/me", { key })).body.storage as Json).used_bytes

    it("stores an image, typed from its bytes, with the common fields, and counts it in /me", async () => {
      const image = await png(64, 48)
      const before = await me()
      const created = await upload(
        form(
          image,
          { title: "A red square", slug: `img-${target.blob}`, labels: ["one", "two,three"] },
          "photo.pdf",
          "application/pdf"
        )
      )
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        type: "image",
        slug: `img-${target.blob}`,
        title: "A red square",
        labels: ["one", "two", "three"],
        file_name: "photo.pdf",
        content_type: "image/png",
        size: image.byteLength,
        download_url: `${app.origin}/s/img-${target.blob}/download`
      })
      expect(created.headers.get("x-resource-etag")).toMatch(/^[0-9a-f]{32}$/)
      const read = await client().call("GET", `/resources/img-${target.blob}`, { key: owner.key })
      expect(read.body).toEqual(created.body)
      expect(await me()).toBe((before as number) + image.byteLength)
    })

    it("stores other allowed types as files, text as text/plain, and refuses what is not allowed", async () => {
      const pdf = await upload(form(PDF, { max_views: "3" }, "C:\\fakepath\\report.pdf"))
      expect(pdf.status).toBe(201)
      expect(pdf.body).toMatchObject({
        type: "file",
        content_type: "application/pdf",
        file_name: "report.pdf",
        max_views: 3
      })
      const text = await upload(
        form(new TextEncoder().encode("name,email\nAda,ada@example.com\n"), {}, "list.csv", "text/csv")
      )
      expect(text.body).toMatchObject({ type: "file", content_type: "text/plain" })
      const used = await me()
      const elf = await upload(form(ELF, {}, "run.png", "image/png"))
      expect(elf.status).toBe(415)
      expect(elf.body).toMatchObject({ error_code: "unsupported_media", field: "file" })
      const notImage = await upload(form(PDF, { type: "image" }))
      expect(notImage.status).toBe(415)
      expect(notImage.body).toMatchObject({ error_code: "unsupported_media", field: "type" })
      const notFile = await upload(form(await png(8, 8), { type: "file" }))
      expect(notFile.body).toMatchObject({ error_code: "unsupported_media", field: "type" })
      expect(await me()).toBe(used)
    })

    it("names the field it refuses, and stores nothing", async () => {
      const used = await me()
      const image = await png(8, 8)
      const cases: ReadonlyArray<[FormData, string]> = [
        [form(image, { max_views: "2" }), "max_views"],
        [form(PDF, { starts_at: "2030-01-01T00:00:00Z" }), "starts_at"],
        [form(PDF, { colour: "red" }), "colour"],
        [form(PDF, { visibility: "secret" }), "visibility"],
        [form(PDF, { slug: "NO" }), "slug"],
        [form(PDF, { expires_at: "tomorrow" }), "expires_at"],
        [form(PDF, { title: ["a", "b"] }), "title"],
        [form(undefined, { title: "no file" }), "file"],
        [form(new Uint8Array(0)), "file"]
      ]
      for (const [body, field] of cases) {
        const refused = await upload(body)
        expect(refused.status, field).toBe(400)
        expect(refused.body, field).toMatchObject({ error_code: "validation_failed", field })
      }
      const twoFiles = form(PDF)
      twoFiles.append("file", new Blob([PDF]), "second.pdf")
      expect((await upload(twoFiles)).body).toMatchObject({ error_code: "validation_failed", field: "file" })
      const taken = await upload(form(PDF, { slug: `img-${target.blob}` }))
      expect(taken.status).toBe(409)
      expect(taken.body).toMatchObject({ error_code: "slug_taken", field: "slug" })
      expect(await me()).toBe(used)
    })

    it("answers a body that is not multipart, a key without write, and a key of no account", async () => {
      const json = await client().call("POST", "/uploads", { key: owner.key, body: { file: "x" } })
      expect(json.status).toBe(400)
      expect(json.body).toMatchObject({ error_code: "request_body_invalid" })
      const truncated = await fetch(`${app.origin}${SHARING_API}/uploads`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${owner.key}`,
          "content-type": "multipart/form-data; boundary=xyz"
        },
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'
      })
      expect(truncated.status).toBe(400)
      expect(await truncated.json()).toMatchObject({ error_code: "request_body_invalid" })
      const scoped = await upload(form(PDF), readOnly.key)
      expect(scoped.status).toBe(403)
      expect(scoped.body).toMatchObject({ error_code: "insufficient_scope" })
      const nobody = await upload(form(PDF), "svc_nope")
      expect(nobody.status).toBe(401)
    })

    it("refuses an upload over the limit with 413, chunked ones too, and keeps nothing of it", async () => {
      const used = await me()
      const big = new Uint8Array(MAX_UPLOAD + 1).fill(0x61)
      const sized = await upload(form(big))
      expect(sized.status).toBe(413)
      expect(sized.body).toMatchObject({ error_code: "payload_too_large" })
      // The same body sent chunked (no Content-Length): stopped while it streams.
      const encoded = new Response(form(big))
      const type = encoded.headers.get("content-type") ?? ""
      const bytes = new Uint8Array(await encoded.arrayBuffer())
      const chunked = await fetch(`${app.origin}${SHARING_API}/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.key}`, "content-type": type },
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < bytes.byteLength; at += 16 * KIB)
              controller.enqueue(bytes.subarray(at, at + 16 * KIB))
            controller.close()
          }
        }),
        duplex: "half"
      } as RequestInit)
      expect(chunked.status).toBe(413)
      expect(await chunked.json()).toMatchObject({ error_code: "payload_too_large" })
      // Exactly at the limit is fine.
      const atLimit = await upload(form(new Uint8Array(MAX_UPLOAD).fill(0x62)))
      expect(atLimit.status).toBe(201)
      expect(await me()).toBe((used as number) + MAX_UPLOAD)
      await client().call("DELETE", `/resources/${atLimit.body.slug}`, { key: owner.key })
      expect(await me()).toBe(used)
    })

    it("stores a body byte for byte whatever pieces it arrives in, and nothing of one cut off midway", async () => {
      const used = await me()
      const objects = () =>
        app.run(
          Effect.flatMap(Effect.service(BlobStore), (blobs) =>
            Stream.runFold(
              blobs.list(),
              () => 0,
              (n) => n + 1
            )
          )
        )
      // Numbered lines, so a piece lost, doubled or out of order changes the bytes.
      const lines = Array.from({ length: 7_500 }, (_, i) => `line ${i} of the pieces test\n`).join("")
      const text = new TextEncoder().encode(lines)
      expect(text.byteLength).toBeGreaterThan(200 * KIB)
      expect(text.byteLength).toBeLessThan(MAX_UPLOAD)
      const encoded = new Response(form(text, {}, "pieces.txt", "text/plain"))
      const type = encoded.headers.get("content-type") ?? ""
      const bytes = new Uint8Array(await encoded.arrayBuffer())
      const sizes = [1, 7, 4099, 16 * KIB - 1, 65 * KIB + 3, 3]
      const sent = await fetch(`${app.origin}${SHARING_API}/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.key}`, "content-type": type },
        body: new ReadableStream({
          start(controller) {
            for (let at = 0, i = 0; at < bytes.byteLength; i++) {
              const size = sizes[i % sizes.length] as number
              controller.enqueue(bytes.slice(at, at + size))
              at += size
            }
            controller.close()
          }
        }),
        duplex: "half"
      } as RequestInit)
      expect(sent.status).toBe(201)
      const slug = ((await sent.json()) as Json).slug as string
      const stored = await fetch(`${app.origin}/s/${slug}/download`)
      expect(new Uint8Array(await stored.arrayBuffer())).toEqual(text)
      expect(await me()).toBe((used as number) + text.byteLength)

      // A client that goes away halfway through its file: no resource, no bytes, no temp file.
      const before = await objects()
      const origin = new URL(app.origin)
      const cut = request({
        host: origin.hostname,
        port: origin.port,
        method: "POST",
        path: `${SHARING_API}/uploads`,
        headers: { authorization: `Bearer ${owner.key}`, "content-type": type }
      })
      const closed = new Promise<void>((resolve) => cut.on("close", () => resolve()))
      cut.on("error", () => undefined)
      cut.write(bytes.subarray(0, bytes.byteLength / 2))
      await new Promise((resolve) => setTimeout(resolve, 200))
      cut.destroy()
      await closed
      await vi.waitFor(async () => expect(await objects()).toBe(before), { timeout: 10_000 })
      expect(await me()).toBe((used as number) + text.byteLength)
      await client().call("DELETE", `/resources/${slug}`, { key: owner.key })
      expect(await me()).toBe(used)
    })

    it("holds the quota exactly under concurrent uploads, and gives bytes back on delete", async () => {
      const account = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      const size = 200 * KIB
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => upload(form(textOf(size, `upload ${i}\n`)), account.key))
      )
      const created = results.filter((r) => r.status === 201)
      const refused = results.filter((r) => r.status === 409)
      expect(created.length).toBe(Math.floor(QUOTA / size))
      expect(refused.length).toBe(8 - created.length)
      for (const r of refused) expect(r.body).toMatchObject({ error_code: "quota_exceeded" })
      expect(await me(account.key)).toBe(created.length * size)
      const listed = await client().call("GET", "/resources?type=file", { key: account.key })
      expect((listed.body.items as Array<Json>).length).toBe(created.length)
      // The stored bytes match the count: nothing of a refused upload stayed.
      const stored = await app.run(
        Effect.gen(function* () {
          const repo = yield* ResourceRepository
          return yield* repo.storageUsed(account.workspaceId)
        })
      )
      expect(stored).toBe(created.length * size)
      const full = await upload(form(textOf(size, "full\n")), account.key)
      expect(full.status).toBe(409)
      await client().call("DELETE", `/resources/${created[0]?.body.slug}`, { key: account.key })
      expect(await me(account.key)).toBe((created.length - 1) * size)
      expect((await upload(form(textOf(size, "again\n")), account.key)).status).toBe(201)
    })

    it("serves an image's page, its bytes inline and as a download, with ranges", async () => {
      const image = await png(40, 30)
      const made = await upload(form(image, { title: "Served", description: "a test image" }, "red dot.png"))
      const slug = made.body.slug as string
      const pageResponse = await fetch(`${app.origin}/s/${slug}`)
      expect(pageResponse.status).toBe(200)
      const html = await pageResponse.text()
      expect(html).toContain(`src="/s/${slug}/content"`)
      expect(html).toContain(`href="/s/${slug}/download"`)
      const content = await fetch(`${app.origin}/s/${slug}/content`)
      expect(content.status).toBe(200)
      expect(content.headers.get("content-type")).toBe("image/png")
      expect(content.headers.get("x-content-type-options")).toBe("nosniff")
      expect(content.headers.get("content-security-policy")).toContain("sandbox")
      expect(content.headers.get("content-disposition")).toMatch(/^inline; filename="red dot.png"/)
      expect(new Uint8Array(await content.arrayBuffer())).toEqual(image)
      const download = await fetch(`${app.origin}/s/${slug}/download`)
      expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="red dot.png"/)
      expect(Number(download.headers.get("content-length"))).toBe(image.byteLength)
      await download.arrayBuffer()
      const part = await fetch(`${app.origin}/s/${slug}/download`, { headers: { range: "bytes=4-11" } })
      expect(part.status).toBe(206)
      expect(part.headers.get("content-range")).toBe(`bytes 4-11/${image.byteLength}`)
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(image.subarray(4, 12))
      const tail = await fetch(`${app.origin}/s/${slug}/download`, { headers: { range: "bytes=-5" } })
      expect(new Uint8Array(await tail.arrayBuffer())).toEqual(image.subarray(image.byteLength - 5))
      const past = await fetch(`${app.origin}/s/${slug}/download`, {
        headers: { range: `bytes=${image.byteLength}-` }
      })
      expect(past.status).toBe(416)
      expect(past.headers.get("content-range")).toBe(`bytes */${image.byteLength}`)
      // A HEAD reads no bytes, and holds nothing open: 200 of them leave the open files as they were.
      const openFiles = () => readdirSync("/proc/self/fd").length
      const before = openFiles()
      for (let i = 0; i < 200; i++) {
        const head = await fetch(`${app.origin}/s/${slug}/download`, { method: "HEAD" })
        expect(Number(head.headers.get("content-length"))).toBe(image.byteLength)
      }
      expect(openFiles() - before).toBeLessThan(40)
    })

    it("never serves an upload as active content: HTML arrives as sandboxed plain text", async () => {
      const made = await upload(
        form(
          new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>"),
          {},
          "x.html",
          "text/html"
        )
      )
      expect(made.body).toMatchObject({ content_type: "text/plain" })
      const content = await fetch(`${app.origin}/s/${made.body.slug}/content`)
      expect(content.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(content.headers.get("content-security-policy")).toContain("sandbox")
      const pdf = await upload(form(PDF))
      const inline = await fetch(`${app.origin}/s/${pdf.body.slug}/content`)
      expect(inline.headers.get("content-disposition")).toMatch(/^attachment/)
    })

    it("guards bytes with the password and the view limit, as the page", async () => {
      const locked = await upload(form(PDF, { password: "open sesame" }))
      const slug = locked.body.slug as string
      const blocked = await fetch(`${app.origin}/s/${slug}/download`, { redirect: "manual" })
      expect(blocked.status).toBe(303)
      expect(blocked.headers.get("location")).toBe(`/s/${slug}`)
      const unlock = await fetch(`${app.origin}/s/${slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "password=open+sesame"
      })
      const cookie = (unlock.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const opened = await fetch(`${app.origin}/s/${slug}/download`, { headers: { cookie } })
      expect(opened.status).toBe(200)
      expect(new Uint8Array(await opened.arrayBuffer())).toEqual(PDF)

      const once = await upload(form(PDF, { max_views: "1" }))
      const onceSlug = once.body.slug as string
      // HEAD requests (link checkers, download managers) read nothing and count no view.
      for (const path of [`/s/${onceSlug}`, `/s/${onceSlug}/download`]) {
        const head = await fetch(`${app.origin}${path}`, { method: "HEAD" })
        expect(head.status).toBe(200)
      }
      const viewed = await fetch(`${app.origin}/s/${onceSlug}`)
      expect(viewed.status).toBe(200)
      const seen = viewed.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ")
      await viewed.text()
      // The visit that used the view takes its file; a new visitor finds the limit reached.
      const take = await fetch(`${app.origin}/s/${onceSlug}/download`, { headers: { cookie: seen } })
      expect(take.status).toBe(200)
      await take.arrayBuffer()
      const late = await fetch(`${app.origin}/s/${onceSlug}/download`)
      expect(late.status).toBe(410)
      // The mark of a counted view is no pass: made up by another client, it opens nothing.
      const forged = await fetch(`${app.origin}/s/${onceSlug}/download`, {
        headers: { cookie: `svc_seen=${once.body.id}` }
      })
      expect(forged.status).toBe(410)
    })

    it("draws previews: a thumbnail of an image, a card of a file; by id or slug; another account's is 403; never a view", async () => {
      const image = await png(1200, 600)
      const made = await upload(form(image))
      const preview = await client().call("GET", `/resources/${made.body.id}/preview`, { key: owner.key })
      expect(preview.status).toBe(200)
      expect(preview.headers.get("content-type")).toBe("image/webp")
      const meta = await sharp(preview.bytes).metadata()
      expect(meta.format).toBe("webp")
      expect(meta.width).toBe(320)
      expect(meta.height).toBe(160)
      const again = await client().call("GET", `/resources/${made.body.slug}/preview`, { key: owner.key })
      expect(again.bytes).toEqual(preview.bytes)
      const file = await upload(form(PDF, { title: "Quarterly report" }))
      const card = await client().call("GET", `/resources/${file.body.id}/preview`, { key: owner.key })
      expect((await sharp(card.bytes).metadata()).width).toBe(320)
      const link = await client().call("POST", "/resources", {
        key: owner.key,
        body: { type: "link", target_url: "https://example.com/x" }
      })
      expect(
        (await client().call("GET", `/resources/${link.body.id}/preview`, { key: owner.key })).status
      ).toBe(200)
      const read = await client().call("GET", `/resources/${made.body.slug}`, { key: owner.key })
      expect(read.body.view_count).toBe(0)
      const foreign = await client().call("GET", `/resources/${made.body.id}/preview`, { key: other.key })
      expect(foreign.status).toBe(403)
      expect(foreign.body).toMatchObject({ error_code: "forbidden" })
      const unknown = await client().call("GET", "/resources/00000000-0000-7000-8000-000000000000/preview", {
        key: owner.key
      })
      expect(unknown.status).toBe(404)
      const foreignSlug = await client().call("GET", `/resources/${made.body.slug}/preview`, {
        key: other.key
      })
      expect(foreignSlug.status).toBe(403)
      expect(foreignSlug.body).toMatchObject({ error_code: "forbidden" })
    })

    it("deletes the resource with its bytes: the URLs stop and the quota is given back", async () => {
      const made = await upload(form(PDF))
      const slug = made.body.slug as string
      const key = await app.run(
        Effect.gen(function* () {
          const repo = yield* ResourceRepository
          const found = yield* repo.get(owner.workspaceId, made.body.id as string)
          const r = Option.getOrThrow(found)
          return r.type === "file" ? r.data.blobKey : ""
        })
      )
      await client().call("GET", `/resources/${made.body.id}/preview`, { key: owner.key })
      const used = await me()
      const deleted = await client().call("DELETE", `/resources/${slug}`, { key: owner.key })
      expect(deleted.status).toBe(204)
      expect(await me()).toBe((used as number) - PDF.byteLength)
      expect((await fetch(`${app.origin}/s/${slug}/download`)).status).toBe(404)
      expect((await fetch(`${app.origin}/s/${slug}`)).status).toBe(404)
      const gone = await app.run(Effect.flatMap(Effect.service(BlobStore), (blobs) => blobs.head(key)))
      expect(Option.isNone(gone)).toBe(true)
    })
  })
}
