// POST /resources/{slug}/file/optimize-original over real HTTP: the job replaces a JPEG by a
// smaller one and a HEIC by a JPEG (size, type, name, ETag and the account's stored bytes follow),
// leaves an original it cannot improve alone (skipped), and refuses other types and resources. A
// download resumed with If-Range after the file changed gets the whole new file.
import { readFileSync } from "node:fs"
import { randomBytes } from "node:crypto"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"

const HEIC = new Uint8Array(readFileSync(new URL("../fixtures/hevc-irot-exif-gps.heic", import.meta.url)))

/** A photo-like JPEG: random pixels, at `quality`. */
const noisyJpeg = async (width: number, height: number, quality: number) =>
  new Uint8Array(
    await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .blur(1.2)
      .jpeg({ quality })
      .toBuffer()
  )

const form = (file: Uint8Array, name: string, fields: Record<string, string> = {}) => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  body.append("file", new Blob([file]), name)
  return body
}

for (const target of SHARING_FILE_TARGETS) {
  describe(`optimize-original [${target.db}, ${target.blob}]`, () => {
    const { app, owner } = sharingSuite(target, { owner: ALL_SHARING_SCOPES })
    const api = () => sharingClientOf(app.origin)
    const call = (method: string, path: string, body?: unknown, key = owner.key) =>
      api().call(method, path, { key, ...(body === undefined ? {} : { body }) })
    const used = async () => ((await call("GET", "/me")).body.storage as Json).used_bytes as number
    const settle = async (jobId: string): Promise<Json> => {
      for (let i = 0; i < 200; i++) {
        const job = await call("GET", `/jobs/${jobId}`)
        if (["succeeded", "failed", "skipped"].includes(job.body.status as string)) return job.body
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error("job did not finish")
    }

    it("replaces a large JPEG by a smaller one, moving size, ETag and the stored bytes", async () => {
      const original = await noisyJpeg(900, 600, 100)
      const up = await api().call("POST", "/uploads", {
        key: owner.key,
        form: form(original, "holiday.jpeg", { slug: `photo-${target.blob}` })
      })
      expect(up.status, JSON.stringify(up.body)).toBe(201)
      const before = await used()
      const etag = up.headers.get("x-resource-etag")
      const queued = await call("POST", `/resources/photo-${target.blob}/file/optimize-original`, {})
      expect(queued.status, JSON.stringify(queued.body)).toBe(202)
      expect(queued.body).toMatchObject({ type: "optimize_original", status: "queued" })
      const again = await call("POST", `/resources/photo-${target.blob}/file/optimize-original`, {})
      // The first may already be done on a fast machine; if not, the same work is refused.
      if (again.status !== 202) expect(again.body.error_code).toBe("job_already_active")
      const done = await settle(queued.body.job_id as string)
      expect(done.status, JSON.stringify(done)).toBe("succeeded")
      const result = done.result as Json
      expect(result.original_bytes).toBe(original.byteLength)
      expect(result.optimized_bytes as number).toBeLessThan(original.byteLength * 0.95)
      expect(result).toMatchObject({
        media_type: "image/jpeg",
        width: 900,
        height: 600,
        location_kept: false
      })

      const now = await call("GET", `/resources/photo-${target.blob}`)
      expect(now.body.size).toBe(result.optimized_bytes)
      expect(now.body.content_type).toBe("image/jpeg")
      expect(now.headers.get("x-resource-etag")).not.toBe(etag)
      expect(await used()).toBe(before - original.byteLength + (result.optimized_bytes as number))
      const served = new Uint8Array(
        await (await fetch(`${app.origin}/s/photo-${target.blob}/content`)).arrayBuffer()
      )
      expect(served.byteLength).toBe(result.optimized_bytes)
      expect((await sharp(served).metadata()).format).toBe("jpeg")
    })

    it("lets a resumed download notice that optimizing changed the file (If-Range, ETag, Last-Modified)", async () => {
      const original = await noisyJpeg(900, 600, 100)
      const slug = `resume-${target.blob}`
      const up = await api().call("POST", "/uploads", {
        key: owner.key,
        form: form(original, "r.jpeg", { slug })
      })
      expect(up.status, JSON.stringify(up.body)).toBe(201)
      const url = `${app.origin}/s/${slug}/download`
      const first = await fetch(url)
      expect(new Uint8Array(await first.arrayBuffer())).toEqual(original)
      const etag = first.headers.get("etag") ?? ""
      const lastModified = first.headers.get("last-modified") ?? ""
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
      expect(new Date(lastModified).toUTCString()).toBe(lastModified)
      expect((await fetch(`${app.origin}/s/${slug}/content`)).headers.get("etag")).toBe(etag)
      const resume = async (ifRange: string) => {
        const r = await fetch(url, { headers: { range: "bytes=100-", "if-range": ifRange } })
        return { status: r.status, etag: r.headers.get("etag"), bytes: new Uint8Array(await r.arrayBuffer()) }
      }
      // Unchanged: the strong ETag or the date resumes; a weak or foreign tag gets the whole file.
      for (const validator of [etag, lastModified]) {
        const part = await resume(validator)
        expect(part.status, validator).toBe(206)
        expect(part.bytes).toEqual(original.subarray(100))
      }
      for (const validator of [`W/${etag}`, '"0123"', "not a date"]) {
        const whole = await resume(validator)
        expect(whole.status, validator).toBe(200)
        expect(whole.bytes).toEqual(original)
      }
      // HTTP dates hold whole seconds: the change lands in a later second than the first download.
      await new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000)))
      const queued = await call("POST", `/resources/${slug}/file/optimize-original`, {})
      expect((await settle(queued.body.job_id as string)).status).toBe("succeeded")
      const optimized = new Uint8Array(await (await fetch(url)).arrayBuffer())
      expect(optimized.byteLength).toBeLessThan(original.byteLength)
      // Changed: the old validators get the whole new file, with the new ETag; the new one resumes.
      for (const validator of [etag, lastModified]) {
        const whole = await resume(validator)
        expect(whole.status, validator).toBe(200)
        expect(whole.bytes).toEqual(optimized)
        expect(whole.etag).not.toBe(etag)
      }
      const fresh = await resume((await fetch(url, { method: "HEAD" })).headers.get("etag") ?? "")
      expect(fresh.status).toBe(206)
      expect(fresh.bytes).toEqual(optimized.subarray(100))
    })

    it("converts a HEIC to an upright JPEG, renaming the file", async () => {
      const up = await api().call("POST", "/uploads", {
        key: owner.key,
        form: form(HEIC, "IMG_0001.HEIC", { slug: `heic-${target.blob}` })
      })
      expect(up.status, JSON.stringify(up.body)).toBe(201)
      expect(up.body.content_type).toBe("image/heic")
      const queued = await call("POST", `/resources/heic-${target.blob}/file/optimize-original`, {
        keep_location: true
      })
      expect(queued.status).toBe(202)
      const done = await settle(queued.body.job_id as string)
      expect(done.status, JSON.stringify(done)).toBe("succeeded")
      expect(done.result).toMatchObject({
        media_type: "image/jpeg",
        width: 48,
        height: 64,
        location_kept: true
      })
      const now = await call("GET", `/resources/heic-${target.blob}`)
      expect(now.body).toMatchObject({ content_type: "image/jpeg", file_name: "IMG_0001.jpg" })
      const served = await fetch(`${app.origin}/s/heic-${target.blob}/content`)
      expect(served.headers.get("content-type")).toBe("image/jpeg")
    })

    it("skips an original it cannot improve, which a retry runs again as a new job", async () => {
      const small = await noisyJpeg(200, 150, 40)
      await api().call("POST", "/uploads", {
        key: owner.key,
        form: form(small, "small.jpg", { slug: `small-${target.blob}` })
      })
      const queued = await call("POST", `/resources/small-${target.blob}/file/optimize-original`, {})
      const done = await settle(queued.body.job_id as string)
      expect(done.status).toBe("skipped")
      expect(done.result).toMatchObject({ reason: "already_optimal", original_bytes: small.byteLength })
      const now = await call("GET", `/resources/small-${target.blob}`)
      expect(now.body.size).toBe(small.byteLength)
      const retried = await call("POST", `/jobs/${queued.body.job_id}/retry`)
      expect(retried.status).toBe(202)
      expect((await settle(retried.body.job_id as string)).status).toBe("skipped")
    })

    it("refuses a PNG (415), a resource with no file (400), another account's (403) and a missing one (404)", async () => {
      const png = new Uint8Array(
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } })
          .png()
          .toBuffer()
      )
      await api().call("POST", "/uploads", {
        key: owner.key,
        form: form(png, "a.png", { slug: `png-${target.blob}` })
      })
      const refused = await call("POST", `/resources/png-${target.blob}/file/optimize-original`, {})
      expect(refused.status).toBe(415)
      expect(refused.body).toMatchObject({ error_code: "unsupported_media", field: "file" })
      const link = await call("POST", "/resources", { type: "link", target_url: "https://example.com" })
      const noFile = await call("POST", `/resources/${link.body.slug}/file/optimize-original`, {})
      expect(noFile.status).toBe(400)
      expect(noFile.body.field).toBe("slug")
      const other = await newWorkspaceKey(app, ["read", "write"], "sharing")
      expect(
        (await call("POST", `/resources/photo-${target.blob}/file/optimize-original`, {}, other.key)).status
      ).toBe(403)
      expect((await call("POST", "/resources/nothing-here/file/optimize-original", {})).status).toBe(404)
      const bad = await call("POST", `/resources/photo-${target.blob}/file/optimize-original`, {
        keep_location: "yes"
      })
      expect(bad.body).toMatchObject({ error_code: "validation_failed", field: "keep_location" })
    })
  })
}
