// Idempotency-Key on every sharing POST that creates, over real HTTP on PGlite and PostgreSQL: the
// same key and body answer the first answer again byte for byte (same status, same bytes), another
// body is 409 idempotency_conflict, no key creates as before; a multipart form sent again (with a new
// boundary) is the same request; concurrent requests with one key create once.
import { describe, expect, it } from "vitest"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"
import { zipOf } from "../support/zip.js"

const text = (s: string) => new TextEncoder().encode(s)

for (const target of SHARING_FILE_TARGETS) {
  describe(`Idempotency-Key on creates [${target.db}, ${target.blob}]`, () => {
    const { app, owner } = sharingSuite(target, { owner: ALL_SHARING_SCOPES })
    let n = 0
    const fresh = (prefix: string) => `${prefix}-${target.blob}-${n++}`
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const idem = (key: string) => ({ "idempotency-key": key })
    const labelled = async (label: string) =>
      ((await call("GET", `/resources?label=${label}`)).body.items as Array<Json>).length
    const uploadForm = (content: string, label: string) => {
      const form = new FormData()
      form.append("labels", label)
      form.append("title", "Notes")
      form.append("file", new Blob([content]), "notes.txt")
      return form
    }

    it("replays a bulk create byte for byte, with its status", async () => {
      const key = fresh("bulk")
      const body = {
        items: [
          { target_url: "https://example.com/a", labels: [fresh("b")], title: "Zed" },
          { target_url: "nope" }
        ]
      }
      const first = await call("POST", "/resources/bulk-create", { body, headers: idem(key) })
      expect(first.status).toBe(200)
      const again = await call("POST", "/resources/bulk-create", { body, headers: idem(key) })
      expect(again.status).toBe(first.status)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(new TextDecoder().decode(again.bytes)).toBe(new TextDecoder().decode(first.bytes))
      expect(again.headers.get("content-type")).toContain("application/json")
    })

    it("creates a resource and an upload request once per key: a repeat replays, another body is 409", async () => {
      const label = fresh("once")
      const body = { type: "link", target_url: "https://example.com/once", labels: [label] }
      const key = fresh("create")
      const first = await call("POST", "/resources", { body, headers: idem(key) })
      expect(first.status).toBe(201)
      expect(first.headers.get("x-resource-etag")).toMatch(/^[0-9a-f]{32}$/)
      const again = await call("POST", "/resources", { body, headers: idem(key) })
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.headers.get("x-resource-etag")).toBe(first.headers.get("x-resource-etag"))
      expect(again.bytes).toEqual(first.bytes)
      expect(await labelled(label)).toBe(1)
      const other = await call("POST", "/resources", {
        body: { ...body, target_url: "https://example.com/other" },
        headers: idem(key)
      })
      expect(other.status).toBe(409)
      expect(other.body).toMatchObject({ error_code: "idempotency_conflict" })
      // Without the header, as before: each request creates.
      await call("POST", "/resources", { body })
      await call("POST", "/resources", { body })
      expect(await labelled(label)).toBe(3)

      const before = ((await call("GET", "/upload-requests")).body.items as Array<Json>).length
      const requestKey = fresh("request")
      const made = await call("POST", "/upload-requests", {
        body: { title: "Photos" },
        headers: idem(requestKey)
      })
      expect(made.status).toBe(201)
      const repeated = await call("POST", "/upload-requests", {
        body: { title: "Photos" },
        headers: idem(requestKey)
      })
      expect(repeated.bytes).toEqual(made.bytes)
      expect(((await call("GET", "/upload-requests")).body.items as Array<Json>).length).toBe(before + 1)
      expect(
        (await call("POST", "/upload-requests", { body: { title: "Other" }, headers: idem(requestKey) }))
          .status
      ).toBe(409)

      // A webhook's signing secret is shown once; the same key shows the same one again.
      const hooks = async () => ((await call("GET", "/webhooks")).body.items as Array<Json>).length
      const hooksBefore = await hooks()
      const hookKey = fresh("webhook")
      const hook = { name: "Hook", url: "https://example.com/hook", events: ["resource.created"] }
      const firstHook = await call("POST", "/webhooks", { body: hook, headers: idem(hookKey) })
      expect(firstHook.status).toBe(201)
      const againHook = await call("POST", "/webhooks", { body: hook, headers: idem(hookKey) })
      expect(againHook.status).toBe(201)
      expect(againHook.bytes).toEqual(firstHook.bytes)
      expect(againHook.headers.get("idempotent-replayed")).toBe("true")
      expect(await hooks()).toBe(hooksBefore + 1)
      const otherHook = await call("POST", "/webhooks", {
        body: { ...hook, name: "Other" },
        headers: idem(hookKey)
      })
      expect([otherHook.status, otherHook.body.error_code]).toEqual([409, "idempotency_conflict"])
    })

    it("takes a multipart form sent again (a new boundary) as the same request, on uploads and artifacts", async () => {
      const label = fresh("upload")
      const key = fresh("upload-key")
      const first = await call("POST", "/uploads", { form: uploadForm("hello", label), headers: idem(key) })
      expect(first.status).toBe(201)
      const again = await call("POST", "/uploads", { form: uploadForm("hello", label), headers: idem(key) })
      expect(again.status, JSON.stringify(again.body)).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.bytes).toEqual(first.bytes)
      expect(await labelled(label)).toBe(1)
      // Other bytes with the key: refused, and nothing of them is kept.
      const used = ((await call("GET", "/me")).body.storage as Json).used_bytes
      const other = await call("POST", "/uploads", { form: uploadForm("hellO", label), headers: idem(key) })
      expect(other.status).toBe(409)
      expect(other.body).toMatchObject({ error_code: "idempotency_conflict" })
      expect(((await call("GET", "/me")).body.storage as Json).used_bytes).toBe(used)
      expect(await labelled(label)).toBe(1)

      // Each page's archive made once: a ZIP made again records another time, so other bytes.
      const archives = new Map<string, Uint8Array<ArrayBuffer>>()
      const site = async (page: string) => {
        const archive = archives.get(page) ?? (await zipOf([["index.html", text(page)]]))
        archives.set(page, archive)
        const form = new FormData()
        form.append("metadata", JSON.stringify({ title: "Site" }))
        form.append("archive", new Blob([archive]), "site.zip")
        return form
      }
      const siteKey = fresh("site")
      const made = await call("POST", "/artifacts", {
        form: await site("<h1>Hi</h1>"),
        headers: idem(siteKey)
      })
      expect(made.status).toBe(201)
      const repeated = await call("POST", "/artifacts", {
        form: await site("<h1>Hi</h1>"),
        headers: idem(siteKey)
      })
      expect(repeated.status, JSON.stringify(repeated.body)).toBe(201)
      expect(repeated.bytes).toEqual(made.bytes)
      expect(
        (await call("POST", "/artifacts", { form: await site("<h1>Ho</h1>"), headers: idem(siteKey) })).status
      ).toBe(409)
    })

    it("creates once when requests with one key race: the others replay or get 409", async () => {
      for (let round = 0; round < 3; round++) {
        const label = fresh("race")
        const key = fresh("race-key")
        const body = { type: "link", target_url: "https://example.com/race", labels: [label] }
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => call("POST", "/resources", { body, headers: idem(key) }))
        )
        for (const a of answers) expect([201, 409]).toContain(a.status)
        const created = answers.filter((a) => a.status === 201)
        expect(created.length).toBeGreaterThanOrEqual(1)
        for (const a of created) expect(a.bytes).toEqual(created[0]?.bytes)
        for (const a of answers.filter((x) => x.status === 409)) {
          expect(a.body).toMatchObject({ error_code: "idempotency_conflict" })
          expect(a.headers.get("retry-after")).toBe("1")
        }
        expect(await labelled(label)).toBe(1)

        const uploadLabel = fresh("race-upload")
        const uploadKey = fresh("race-upload-key")
        const uploads = await Promise.all(
          Array.from({ length: 6 }, () =>
            call("POST", "/uploads", {
              form: uploadForm("same bytes", uploadLabel),
              headers: idem(uploadKey)
            })
          )
        )
        for (const a of uploads) expect([201, 409]).toContain(a.status)
        expect(await labelled(uploadLabel)).toBe(1)
      }
    })
  })
}
