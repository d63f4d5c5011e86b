// The owner's upload request routes over real HTTP on PGlite and PostgreSQL (PGlite without a
// server): the token shown once and kept only as a hash, patch (empty password and expiry clear),
// status, rotation (the old token stops naming the request), revoke for good, submissions listed
// with their total, one with its files, and a review recorded as an `upload_request.reviewed`
// event in the same transaction; scopes and ownership.
import { PASSWORD_ATTEMPT_WINDOW_MS, UploadRequests, uploadTokenHash } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { freshRateWindow } from "../support/rate-window.js"

for (const target of SHARING_FILE_TARGETS) {
  describe(`upload requests [${target.db}, ${target.blob}]`, () => {
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
    const byToken = (token: string) =>
      app.run(Effect.flatMap(UploadRequests, (r) => r.getByTokenHash(uploadTokenHash(token))))

    it("creates a request whose token is shown once, and changes, pauses, rotates and revokes it", async () => {
      const made = await call("POST", "/upload-requests", {
        body: {
          title: "Your photos",
          description: "From the trip",
          password: "pics",
          expires_at: "2099-01-01T00:00:00Z"
        }
      })
      expect(made.status).toBe(201)
      expect(made.body).toMatchObject({
        title: "Your photos",
        status: "open",
        accepting: true,
        has_password: true,
        revoked: false,
        expires_at: "2099-01-01T00:00:00.000Z"
      })
      const token = made.body.token as string
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(made.body.url).toBe(`${app.origin}/u/${token}`)
      const id = made.body.id as string
      const read = await call("GET", `/upload-requests/${id}`)
      expect(read.body).not.toHaveProperty("token")
      expect(Option.isSome(await byToken(token))).toBe(true)
      const listed = await call("GET", "/upload-requests")
      expect((listed.body.items as Array<Json>).map((r) => r.id)).toContain(id)
      const cleared = await call("PATCH", `/upload-requests/${id}`, {
        body: { password: "", expires_at: "" }
      })
      expect(cleared.body).toMatchObject({ has_password: false, expires_at: null, title: "Your photos" })
      const paused = await call("POST", `/upload-requests/${id}/status`, { body: { status: "paused" } })
      expect(paused.body).toMatchObject({ status: "paused", accepting: false })
      expect(
        (await call("POST", `/upload-requests/${id}/status`, { body: { status: "closed" } })).status
      ).toBe(400)
      const rotated = await call("POST", `/upload-requests/${id}/rotate-token`)
      expect(rotated.body.token).not.toBe(token)
      expect(Option.isNone(await byToken(token))).toBe(true)
      expect(Option.isSome(await byToken(rotated.body.token as string))).toBe(true)
      const revoked = await call("POST", `/upload-requests/${id}/revoke`, { key: owner.key })
      expect(revoked.body).toMatchObject({ revoked: true, accepting: false })
      const reopened = await call("POST", `/upload-requests/${id}/status`, { body: { status: "open" } })
      expect(reopened.status).toBe(400)
      expect(reopened.body).toMatchObject({ error_code: "validation_failed", field: "id" })
      expect((await call("POST", `/upload-requests/${id}/rotate-token`)).status).toBe(400)
    })

    it("answers only the owner, with the scopes each route needs", async () => {
      const made = await call("POST", "/upload-requests", { body: { title: "Mine" } })
      const id = made.body.id as string
      expect((await call("GET", `/upload-requests/${id}`, { key: other.key })).status).toBe(404)
      expect((await call("GET", "/upload-requests", { key: other.key })).body.items).toEqual([])
      expect(
        (await call("POST", "/upload-requests", { key: readOnly.key, body: { title: "x" } })).status
      ).toBe(403)
      expect((await call("POST", `/upload-requests/${id}/revoke`, { key: readOnly.key })).status).toBe(403)
      expect((await call("GET", "/upload-requests/not-an-id")).status).toBe(404)
      expect((await call("POST", "/upload-requests", { body: { title: "" } })).status).toBe(400)
    })

    it("lists submissions with their total, shows one with its files, and records each review change", async () => {
      const made = await call("POST", "/upload-requests", { body: { title: "Documents" } })
      const id = made.body.id as string
      const file = new FormData()
      file.append("visibility", "private")
      file.append("file", new Blob([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")]), "cv.pdf")
      const uploaded = await call("POST", "/uploads", { form: file })
      const at = new Date()
      const submissionIds = ["01a20000-0000-7000-8000-000000000001", "01a20000-0000-7000-8000-000000000002"]
      for (const [i, sid] of submissionIds.entries())
        await app.run(
          Effect.flatMap(UploadRequests, (r) =>
            r.insertSubmission(
              {
                id: sid,
                tenantId: owner.workspaceId,
                requestId: id,
                submitterName: `Sender ${i}`,
                message: i === 0 ? "Here it is" : null,
                review: "unreviewed",
                fileResourceIds: i === 0 ? [uploaded.body.id as string] : [],
                createdAt: at,
                reviewedAt: null
              },
              {
                id: `01a20000-0000-7000-8000-00000000010${i}`,
                tenantId: owner.workspaceId,
                type: "upload_request.submitted",
                payload: { upload_request_id: id, submission_id: sid },
                createdAt: at
              }
            )
          )
        )
      const page = await call("GET", `/upload-requests/${id}/submissions?limit=1`)
      expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 0 })
      expect((page.body.items as Array<Json>)[0]).toMatchObject({
        id: submissionIds[1],
        submitter_name: "Sender 1"
      })
      const one = await call("GET", `/upload-requests/${id}/submissions/${submissionIds[0]}`)
      expect(one.body).toMatchObject({
        submitter_name: "Sender 0",
        message: "Here it is",
        review: "unreviewed"
      })
      expect((one.body.files as Array<Json>).map((f) => f.id)).toEqual([uploaded.body.id])
      const reviewed = await call("PATCH", `/upload-requests/${id}/submissions/${submissionIds[0]}`, {
        body: { review: "accepted" }
      })
      expect(reviewed.body).toMatchObject({ review: "accepted" })
      expect(reviewed.body.reviewed_at).not.toBeNull()
      // The same value again changes nothing and records nothing.
      await call("PATCH", `/upload-requests/${id}/submissions/${submissionIds[0]}`, {
        body: { review: "accepted" }
      })
      expect(
        (
          await call("PATCH", `/upload-requests/${id}/submissions/${submissionIds[0]}`, {
            body: { review: "maybe" }
          })
        ).status
      ).toBe(400)
      expect(
        (await call("GET", `/upload-requests/${id}/submissions/01a20000-0000-7000-8000-000000000999`)).status
      ).toBe(404)
      const events = await app.run(Effect.flatMap(UploadRequests, (r) => r.events(owner.workspaceId)))
      expect(events.filter((e) => e.payload.upload_request_id === id).map((e) => e.type)).toEqual([
        "upload_request.submitted",
        "upload_request.submitted",
        "upload_request.reviewed"
      ])
    })
  })
}

for (const target of SHARING_FILE_TARGETS) {
  describe(`the public upload page [${target.db}, ${target.blob}]`, () => {
    const { app, owner } = sharingSuite(target, { owner: ALL_SHARING_SCOPES })
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const send = (
      token: string,
      fields: Record<string, string>,
      files: ReadonlyArray<[string, Uint8Array]>
    ) => {
      const body = new FormData()
      for (const [k, v] of Object.entries(fields)) body.append(k, v)
      for (const [name, bytes] of files)
        body.append("files", new Blob([bytes as Uint8Array<ArrayBuffer>]), name)
      return fetch(`${app.origin}/u/${token}`, { method: "POST", body, redirect: "manual" })
    }
    const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n")
    const TXT = new TextEncoder().encode("notes from the sender\n")

    it("takes several files with a name and a message as private files of the owner, counted and listed", async () => {
      const made = await call("POST", "/upload-requests", {
        body: { title: "Send your CV", description: "PDF please" }
      })
      const token = made.body.token as string
      const pageHtml = await (await fetch(`${app.origin}/u/${token}`)).text()
      expect(pageHtml).toContain("Send your CV")
      expect(pageHtml).toContain('name="files"')
      const before = ((await call("GET", "/me")).body.storage as Json).used_bytes as number
      const sent = await send(token, { name: "Ada", message: "Both attached" }, [
        ["cv.pdf", PDF],
        ["notes.txt", TXT]
      ])
      expect(sent.status).toBe(303)
      expect(sent.headers.get("location")).toBe(`/u/${token}?sent=1`)
      expect(await (await fetch(`${app.origin}/u/${token}?sent=1`)).text()).toContain("Thank you!")
      expect(((await call("GET", "/me")).body.storage as Json).used_bytes).toBe(
        before + PDF.byteLength + TXT.byteLength
      )
      const list = await call("GET", `/upload-requests/${made.body.id}/submissions`)
      expect(list.body).toMatchObject({ total: 1 })
      const submission = (list.body.items as Array<Json>)[0] as Json
      expect(submission).toMatchObject({
        submitter_name: "Ada",
        message: "Both attached",
        review: "unreviewed"
      })
      const detail = await call("GET", `/upload-requests/${made.body.id}/submissions/${submission.id}`)
      expect((detail.body.files as Array<Json>).map((f) => [f.type, f.file_name, f.visibility])).toEqual([
        ["file", "cv.pdf", "private"],
        ["file", "notes.txt", "private"]
      ])
      const filtered = await call("GET", `/resources?upload_request=${made.body.id}`)
      expect((filtered.body.items as Array<Json>).map((r) => r.file_name).sort()).toEqual([
        "cv.pdf",
        "notes.txt"
      ])
      const events = await app.run(Effect.flatMap(UploadRequests, (r) => r.events(owner.workspaceId)))
      expect(
        events.some(
          (e) => e.type === "upload_request.submitted" && e.payload.upload_request_id === made.body.id
        )
      ).toBe(true)
      // Private: the files are not public.
      const slug = ((detail.body.files as Array<Json>)[0] as Json).slug as string
      expect((await fetch(`${app.origin}/s/${slug}`)).status).toBe(404)
    })

    it("asks for the password, refuses bad files, and says why a closed request takes nothing", async () => {
      const made = await call("POST", "/upload-requests", { body: { title: "Locked", password: "letmein" } })
      const token = made.body.token as string
      expect(await (await fetch(`${app.origin}/u/${token}`)).text()).toContain('name="password"')
      const wrong = await send(token, { password: "nope" }, [["a.pdf", PDF]])
      expect(wrong.status).toBe(403)
      expect(await wrong.text()).toContain("password is not right")
      const elf = await send(token, { password: "letmein" }, [
        ["run.pdf", Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(64).fill(0)])]
      ])
      expect(elf.status).toBe(415)
      const none = await send(token, { password: "letmein" }, [])
      expect(none.status).toBe(400)
      const ok = await send(token, { password: "letmein" }, [["a.pdf", PDF]])
      expect(ok.status).toBe(303)
      expect((await call("GET", `/upload-requests/${made.body.id}/submissions`)).body.total).toBe(1)
      const id = made.body.id as string
      await call("POST", `/upload-requests/${id}/status`, { body: { status: "paused" } })
      expect((await fetch(`${app.origin}/u/${token}`)).status).toBe(403)
      expect((await send(token, { password: "letmein" }, [["a.pdf", PDF]])).status).toBe(403)
      await call("POST", `/upload-requests/${id}/status`, { body: { status: "completed" } })
      expect((await fetch(`${app.origin}/u/${token}`)).status).toBe(410)
      await call("POST", `/upload-requests/${id}/status`, { body: { status: "open" } })
      const rotated = await call("POST", `/upload-requests/${id}/rotate-token`)
      expect((await fetch(`${app.origin}/u/${token}`)).status).toBe(404)
      expect((await fetch(`${app.origin}/u/${rotated.body.token}`)).status).toBe(200)
      await call("POST", `/upload-requests/${id}/revoke`)
      const revoked = await fetch(`${app.origin}/u/${rotated.body.token}`)
      expect(revoked.status).toBe(410)
      expect(await revoked.text()).toContain("shut down")
      const expired = await call("POST", "/upload-requests", {
        body: { title: "Old", expires_at: "2020-01-01T00:00:00Z" }
      })
      expect((await fetch(`${app.origin}/u/${expired.body.token}`)).status).toBe(410)
      expect((await fetch(`${app.origin}/u/not-a-token`)).status).toBe(404)
    })

    it("budgets password attempts per request and client address: after 10, 429 even for the right one", async () => {
      // The budget is a fixed 10-minute window: the attempts below must not straddle two.
      await freshRateWindow(10_000, PASSWORD_ATTEMPT_WINDOW_MS)
      const made = await call("POST", "/upload-requests", { body: { title: "Guarded", password: "letmein" } })
      const token = made.body.token as string
      const attempt = (password: string, headers: Record<string, string> = {}) => {
        const body = new FormData()
        body.append("password", password)
        body.append("files", new Blob([PDF as Uint8Array<ArrayBuffer>]), "a.pdf")
        return fetch(`${app.origin}/u/${token}`, { method: "POST", body, redirect: "manual", headers })
      }
      // In parallel: the budget is spent before the hash is checked, so no guess slips past it.
      const wrong = await Promise.all(Array.from({ length: 10 }, () => attempt("nope")))
      expect(wrong.map((r) => r.status)).toEqual(Array(10).fill(403))
      const right = await attempt("letmein")
      expect(right.status).toBe(429)
      const retryAfter = Number(right.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(600)
      expect(await right.text()).toContain("Too many password attempts")
      // The address is the connection's: a made-up X-Forwarded-For is another client to nobody.
      for (const spoofed of ["203.0.113.7", "198.51.100.1, 203.0.113.9"])
        expect((await attempt("letmein", { "x-forwarded-for": spoofed })).status).toBe(429)
      expect((await call("GET", `/upload-requests/${made.body.id}/submissions`)).body.total).toBe(0)
      // Another request has its own budget.
      const other = await call("POST", "/upload-requests", { body: { title: "Other", password: "pw" } })
      expect((await send(other.body.token as string, { password: "pw" }, [["a.pdf", PDF]])).status).toBe(303)
    })
  })
}
