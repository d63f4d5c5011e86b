import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b))
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")

for (const target of SHARING_FILE_TARGETS) {
  describe(`collections [${target.db}, ${target.blob}]`, () => {
    const { app, owner, other, writeOnly } = sharingSuite(target, {
      owner: ALL_SHARING_SCOPES,
      other: ALL_SHARING_SCOPES,
      writeOnly: ["write"]
    })
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const uploadFile = async (bytes: Uint8Array, fields: Record<string, string> = {}, key = owner.key) => {
      const body = new FormData()
      for (const [k, v] of Object.entries(fields)) body.append(k, v)
      body.append("file", new Blob([bytes]), fields.title ?? "file.bin")
      const made = await call("POST", "/uploads", { key, form: body })
      expect(made.status).toBe(201)
      return made.body
    }
    const newCollection = async (key = owner.key) => {
      const made = await call("POST", "/resources", { key, body: { type: "collection", title: "Trip" } })
      expect(made.status).toBe(201)
      return made.body.slug as string
    }
    const used = async (key = owner.key) =>
      ((await call("GET", "/me", { key })).body.storage as Json).used_bytes as number

    it("adds copies of files and images with their own bytes, counted in the quota", async () => {
      const slug = await newCollection()
      const read = await call("GET", `/resources/${slug}`)
      expect(read.body.items).toEqual([])
      const firstEtag = read.headers.get("x-collection-etag")
      expect(firstEtag).toMatch(/^[0-9a-f]{32}$/)
      const image = await png(30, 20)
      const source = await uploadFile(image, { title: "Beach" })
      const before = await used()
      const added = await call("POST", `/resources/${slug}/collection/items`, {
        body: { resource: source.slug, caption: "Day one" },
        headers: { "x-collection-if-match": firstEtag ?? "" }
      })
      expect(added.status).toBe(201)
      expect(added.body.item).toMatchObject({
        kind: "image",
        content_type: "image/png",
        size: image.byteLength,
        caption: "Day one",
        display_name: null,
        source_resource_id: source.id
      })
      expect(added.headers.get("x-collection-etag")).not.toBe(firstEtag)
      expect(await used()).toBe(before + image.byteLength)
      // The copy stays when its source goes (and the source's bytes are given back).
      await call("DELETE", `/resources/${source.slug}`)
      expect(await used()).toBe(before)
      const item = added.body.item as Json
      const bytes = await fetch(item.content_url as string)
      expect(bytes.status).toBe(200)
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(image)
      const file = await uploadFile(PDF, { title: "Tickets" })
      const byId = await call("POST", `/resources/${slug}/collection/items`, { body: { resource: file.id } })
      expect(byId.body.item).toMatchObject({ kind: "file", content_type: "application/pdf" })
      expect(((byId.body.collection as Json).items as Array<Json>).map((i) => i.kind)).toEqual([
        "image",
        "file"
      ])
    })

    it("arranges the order, display names and captions in one call, against the collection ETag", async () => {
      const slug = await newCollection()
      const a = await uploadFile(await png(8, 8))
      const b = await uploadFile(PDF)
      const c = await uploadFile(await png(9, 9))
      for (const s of [a, b, c])
        await call("POST", `/resources/${slug}/collection/items`, { body: { resource: s.slug } })
      const read = await call("GET", `/resources/${slug}`)
      const [i1, i2, i3] = (read.body.items as Array<Json>).map((i) => i.id as string)
      const etag = read.headers.get("x-collection-etag") ?? ""
      const arranged = await call("PATCH", `/resources/${slug}/collection`, {
        headers: { "x-collection-if-match": etag },
        body: { items: [{ id: i3, display_name: "Cover" }, { id: i1, caption: "First" }, { id: i2 }] }
      })
      expect(arranged.status).toBe(200)
      expect((arranged.body.items as Array<Json>).map((i) => [i.id, i.display_name, i.caption])).toEqual([
        [i3, "Cover", null],
        [i1, null, "First"],
        [i2, null, null]
      ])
      // The old ETag is stale now: 412, nothing changed.
      const stale = await call("PATCH", `/resources/${slug}/collection`, {
        headers: { "x-collection-if-match": etag },
        body: { items: [{ id: i1 }, { id: i2 }, { id: i3 }] }
      })
      expect(stale.status).toBe(412)
      expect(stale.body).toMatchObject({ error_code: "etag_mismatch" })
      // A title change does not stale the item list (the standard If-Match works too).
      const fresh = arranged.headers.get("x-collection-etag") ?? ""
      await call("PATCH", `/resources/${slug}`, { body: { title: "Renamed" } })
      const again = await call("PATCH", `/resources/${slug}/collection`, {
        headers: { "if-match": `"${fresh}"` },
        body: { items: [{ id: i1, caption: null }, { id: i2 }, { id: i3, display_name: null }] }
      })
      expect(again.status).toBe(200)
      expect((again.body.items as Array<Json>).map((i) => [i.display_name, i.caption])).toEqual([
        [null, null],
        [null, null],
        [null, null]
      ])
      for (const items of [
        [{ id: i1 }, { id: i2 }],
        [{ id: i1 }, { id: i1 }, { id: i2 }, { id: i3 }]
      ]) {
        const wrong = await call("PATCH", `/resources/${slug}/collection`, { body: { items } })
        expect(wrong.status).toBe(400)
        expect(wrong.body).toMatchObject({ error_code: "validation_failed", field: "items" })
      }
    })

    it("lets one of two concurrent arrangements at one ETag land; the other is 412", async () => {
      const slug = await newCollection()
      for (let i = 0; i < 2; i++) {
        const s = await uploadFile(await png(5 + i, 5))
        await call("POST", `/resources/${slug}/collection/items`, { body: { resource: s.slug } })
      }
      const read = await call("GET", `/resources/${slug}`)
      const ids = (read.body.items as Array<Json>).map((i) => ({ id: i.id as string }))
      const etag = read.headers.get("x-collection-etag") ?? ""
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          call("PATCH", `/resources/${slug}/collection`, {
            headers: { "x-collection-if-match": etag },
            body: { items: n % 2 === 0 ? ids : [...ids].reverse() }
          })
        )
      )
      expect(results.filter((r) => r.status === 200).length).toBe(1)
      expect(results.filter((r) => r.status === 412).length).toBe(5)
    })

    it("removes an item and its bytes, with the delete scope", async () => {
      const slug = await newCollection()
      const s = await uploadFile(PDF)
      const added = await call("POST", `/resources/${slug}/collection/items`, { body: { resource: s.slug } })
      const item = added.body.item as Json
      const before = await used()
      const denied = await call("DELETE", `/resources/${slug}/collection/items/${item.id}`, {
        key: writeOnly.key
      })
      expect(denied.status).toBe(403)
      const removed = await call("DELETE", `/resources/${slug}/collection/items/${item.id}`)
      expect(removed.status).toBe(204)
      expect(removed.headers.get("x-collection-etag")).toMatch(/^[0-9a-f]{32}$/)
      expect(await used()).toBe(before - PDF.byteLength)
      expect((await fetch(item.download_url as string)).status).toBe(404)
      const twice = await call("DELETE", `/resources/${slug}/collection/items/${item.id}`)
      expect(twice.status).toBe(404)
    })

    it("refuses what is not the caller's file or image, another account's collection, and other types", async () => {
      const slug = await newCollection()
      const link = await call("POST", "/resources", {
        body: { type: "link", target_url: "https://example.com/" }
      })
      const notFile = await call("POST", `/resources/${slug}/collection/items`, {
        body: { resource: link.body.slug }
      })
      expect(notFile.status).toBe(400)
      expect(notFile.body).toMatchObject({ error_code: "validation_failed", field: "resource" })
      const theirs = await uploadFile(PDF, {}, other.key)
      const foreignSource = await call("POST", `/resources/${slug}/collection/items`, {
        body: { resource: theirs.slug }
      })
      expect(foreignSource.body).toMatchObject({ error_code: "validation_failed", field: "resource" })
      const mine = await uploadFile(PDF)
      const foreignCollection = await call("POST", `/resources/${slug}/collection/items`, {
        key: other.key,
        body: { resource: theirs.slug }
      })
      expect(foreignCollection.status).toBe(403)
      expect(foreignCollection.body).toMatchObject({ error_code: "forbidden" })
      const notCollection = await call("POST", `/resources/${mine.slug}/collection/items`, {
        body: { resource: mine.slug }
      })
      expect(notCollection.body).toMatchObject({ error_code: "validation_failed", field: "slug" })
      const missing = await call("PATCH", "/resources/no-such-collection/collection", { body: { items: [] } })
      expect(missing.status).toBe(404)
      const badMatch = await call("POST", `/resources/${slug}/collection/items`, {
        headers: { "x-collection-if-match": "0123" },
        body: { resource: mine.slug }
      })
      expect(badMatch.status).toBe(412)
      const extra = await call("POST", `/resources/${slug}/collection/items`, {
        body: { resource: mine.slug, colour: 1 }
      })
      expect(extra.status).toBe(400)
    })

    it("shows a public gallery, its images and downloads, under the collection's password", async () => {
      const made = await call("POST", "/resources", {
        body: { type: "collection", title: "Holiday", description: "Photos", password: "sunny day" }
      })
      const slug = made.body.slug as string
      const image = await png(12, 12)
      const s = await uploadFile(image)
      const added = await call("POST", `/resources/${slug}/collection/items`, {
        body: { resource: s.slug, display_name: "The sea", caption: "Blue" }
      })
      const item = added.body.item as Json
      const locked = await fetch(`${app.origin}/s/${slug}`)
      expect(await locked.text()).toContain("Password required")
      expect((await fetch(item.content_url as string, { redirect: "manual" })).status).toBe(303)
      const unlock = await fetch(`${app.origin}/s/${slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "password=sunny+day"
      })
      const cookie = (unlock.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const gallery = await fetch(`${app.origin}/s/${slug}`, { headers: { cookie } })
      const html = await gallery.text()
      expect(html).toContain("The sea")
      expect(html).toContain("Blue")
      expect(html).toContain(`src="/s/${slug}/items/${item.id}/preview"`)
      expect(html).toContain(`href="/s/${slug}/items/${item.id}/content"`)
      const thumb = await fetch(`${app.origin}/s/${slug}/items/${item.id}/preview`, { headers: { cookie } })
      expect(thumb.headers.get("content-type")).toBe("image/webp")
      expect((await sharp(new Uint8Array(await thumb.arrayBuffer())).metadata()).format).toBe("webp")
      expect(
        (await fetch(`${app.origin}/s/${slug}/items/${item.id}/preview`, { redirect: "manual" })).status
      ).toBe(303)
      const bytes = await fetch(item.download_url as string, { headers: { cookie } })
      expect(bytes.headers.get("content-disposition")).toMatch(/^attachment/)
      expect(bytes.headers.get("x-content-type-options")).toBe("nosniff")
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(image)
      // An item's bytes carry their validators, so a resumed download can check them with If-Range.
      const etag = bytes.headers.get("etag") ?? ""
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
      expect(bytes.headers.get("last-modified")).toBe(new Date(item.added_at as string).toUTCString())
      const resumed = await fetch(item.download_url as string, {
        headers: { cookie, range: "bytes=10-", "if-range": etag }
      })
      expect(resumed.status).toBe(206)
      expect(new Uint8Array(await resumed.arrayBuffer())).toEqual(image.subarray(10))
      expect(
        (
          await fetch(`${app.origin}/s/${slug}/items/00000000-0000-7000-8000-000000000000/content`, {
            headers: { cookie }
          })
        ).status
      ).toBe(404)
      // Deleting the collection deletes its copies' bytes and gives them back.
      const before = await used()
      await call("DELETE", `/resources/${slug}`)
      expect(await used()).toBe(before - image.byteLength)
    })
  })
}
