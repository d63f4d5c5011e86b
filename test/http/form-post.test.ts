// The form page's JavaScript-off submission over real HTTP, on memory, PGlite and PostgreSQL: the real
// `POST /f/{slug}` route, asked for JSON (`Accept: application/json`) so each outcome can be read as
// data, behind the app's own request guard, so body caps, the respondent budget and the error
// envelope are the real ones. The HTML it answers a browser with is tested in test/browser.
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_FORM_POST_BYTES } from "../../packages/adapters-http/src/forms/page/submit.js"
import type { RunningApp } from "../support/app.js"
import {
  allTypesDefinition,
  B,
  fullAnswers,
  fullPost,
  multipart,
  PNG,
  urlencoded
} from "../support/form-post.js"
import { blk } from "../support/builders.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"
import { freshRateWindow } from "../support/rate-window.js"

type Outcome = {
  _tag: "Completed" | "Invalid" | "Closed" | "RepeatNeedsConfirmation" | "Editing"
  responseId: string
  token: string
  status: string
  answers: Record<string, unknown>
  continuityToken?: string
  issues: Array<{ path: Array<string>; rule: string }>
  fields: Array<[string, string]>
  uploaded: Record<string, Array<{ key: string; filename: string }>>
  reason: string
  message: string | null
  respondent: { repeatCount: number }
  ok: false
  error: { code: string; details?: Record<string, unknown> }
}

const keepField = (n: number) => `${blk(n)}.keep`

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`JavaScript-off form post [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let close: () => Promise<void> = async () => {}

    beforeAll(async () => {
      const started = await startAppOn(target.name, {})
      app = started.app
      key = started.key
      close = started.close
    })
    afterAll(() => close())

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
        method,
        headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
    }
    const publish = async (definition: unknown = allTypesDefinition, settings?: unknown) => {
      const created = await api("POST", "/forms", {
        title: "No script",
        definition,
        ...(settings === undefined ? {} : { settings })
      })
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    /** Posts to the form page; `cookie` is a browser's cookie jar of one cookie, updated from the answer. */
    const post = async (slug: string, init: RequestInit, jar?: { cookie?: string }) => {
      const response = await fetch(`${app.origin}/f/${slug}`, {
        ...init,
        headers: {
          accept: "application/json",
          ...(init.headers as Record<string, string> | undefined),
          ...(jar?.cookie === undefined ? {} : { cookie: jar.cookie })
        }
      })
      const setCookie = response.headers.get("set-cookie")
      if (jar !== undefined && setCookie !== null) jar.cookie = setCookie.split(";")[0] ?? ""
      const json = (await response.json()) as { data?: Outcome } & Outcome
      return { status: response.status, setCookie, body: json.data ?? json }
    }
    const responsesOf = async (formId: string, status: "completed" | "partial") =>
      (
        (await api("GET", `/forms/${formId}/responses?status=${status}&projection=full`)).body.data as {
          items: Array<{ id: string; answers: Record<string, unknown> }>
        }
      ).items
    const detailOf = async (formId: string, responseId: string) =>
      (await api("GET", `/forms/${formId}/responses/${responseId}`)).body.data as {
        status: string
        answers: Record<string, unknown>
        files: Array<{ key: string; filename: string }>
      }

    it("completes a urlencoded post of every input block type, read back exactly over the API", async () => {
      const form = await publish()
      const sent = await post(form.slug, urlencoded(fullPost))
      expect(sent.status).toBe(200)
      expect(sent.body._tag).toBe("Completed")
      // The continuity cookie, set exactly as the JSON start route sets it.
      expect(sent.setCookie).toMatch(
        /^folio_rt=[A-Za-z0-9_-]{32}; Path=\/f\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/
      )
      expect(sent.setCookie).toContain(`folio_rt=${sent.body.continuityToken};`)
      const detail = await detailOf(form.id, sent.body.responseId)
      expect(detail.status).toBe("completed")
      expect(detail.answers).toEqual(fullAnswers)
    })

    it("completes the same form posted as multipart, with a file and an empty file input", async () => {
      const form = await publish()
      const sent = await post(
        form.slug,
        multipart(fullPost, [
          { name: blk(B.files), filename: "", type: "application/octet-stream", bytes: new Uint8Array() },
          { name: blk(B.files), filename: "me.png", type: "image/png", bytes: PNG },
          // A file part under a name that is no upload block is read past.
          { name: blk(B.name), filename: "stray.png", type: "image/png", bytes: PNG }
        ])
      )
      expect(sent.body._tag).toBe("Completed")
      const detail = await detailOf(form.id, sent.body.responseId)
      expect(detail.files.map((f) => f.filename)).toEqual(["me.png"])
      expect(detail.answers).toEqual({ ...fullAnswers, [blk(B.files)]: [detail.files[0]?.key] })
      // Chunked, with no Content-Length: the guard buffers it and the route reads the same form.
      const init = multipart(fullPost)
      const body = init.body as Uint8Array
      const chunked = await post(form.slug, {
        ...init,
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < body.byteLength; at += 100) controller.enqueue(body.slice(at, at + 100))
            controller.close()
          }
        }),
        duplex: "half"
      } as RequestInit)
      expect(chunked.body._tag).toBe("Completed")
      expect((await detailOf(form.id, chunked.body.responseId)).answers).toEqual(fullAnswers)
    })

    it("answers a missing required answer Invalid, keeps what was valid, and completes the same response on the next post", async () => {
      const form = await publish()
      const first = await post(
        form.slug,
        urlencoded(
          fullPost
            .filter(([name]) => name !== blk(B.name))
            .map(([name, value]) => [name, name === blk(B.count) ? "500" : value] as const)
        )
      )
      expect(first.body._tag).toBe("Invalid")
      expect(first.body.issues).toHaveLength(2)
      expect(first.body.issues).toEqual(
        expect.arrayContaining([
          { path: ["answers", blk(B.count)], rule: "outOfRange" },
          { path: ["answers", blk(B.name)], rule: "required" }
        ])
      )
      // The fields come back to refill the form.
      expect(first.body.fields).toContainEqual([blk(B.count), "500"])
      // The response is partial, with every valid answer saved and the refused one left out.
      const saved = await detailOf(form.id, first.body.responseId)
      expect(saved.status).toBe("partial")
      const { [blk(B.name)]: _name, [blk(B.count)]: _count, ...valid } = fullAnswers
      expect(saved.answers).toEqual(valid)

      const second = await post(
        form.slug,
        urlencoded([
          ["_response", first.body.responseId],
          ["_token", first.body.token],
          ...fullPost.filter(([name]) => name !== blk(B.bio))
        ])
      )
      expect(second.body._tag).toBe("Completed")
      expect(second.body.responseId).toBe(first.body.responseId)
      // The post is the whole form: the answer it no longer sends is gone.
      const { [blk(B.bio)]: _bio, ...rest } = fullAnswers
      expect(second.body.answers).toEqual(rest)
      expect((await responsesOf(form.id, "completed")).map((r) => r.id)).toEqual([first.body.responseId])
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })

    it("keeps a file uploaded in a failed attempt through .keep, and refuses a file of the wrong type at its block", async () => {
      const form = await publish()
      const withoutName = fullPost.filter(([name]) => name !== blk(B.name))
      const first = await post(
        form.slug,
        multipart(withoutName, [{ name: blk(B.files), filename: "me.png", type: "image/png", bytes: PNG }])
      )
      expect(first.body._tag).toBe("Invalid")
      expect(first.body.issues).toEqual([{ path: ["answers", blk(B.name)], rule: "required" }])
      const kept = first.body.uploaded[blk(B.files)] ?? []
      expect(kept.map((f) => f.filename)).toEqual(["me.png"])

      // Second attempt: the name, the kept file, and a file the block does not accept.
      const gif = new TextEncoder().encode("GIF89a....")
      const second = await post(
        form.slug,
        multipart(
          [
            ["_response", first.body.responseId],
            ["_token", first.body.token],
            ...fullPost,
            [keepField(B.files), kept[0]?.key ?? ""],
            // Another response's key cannot be kept.
            [keepField(B.files), "workspaces/x/forms/y/responses/z/w"]
          ],
          [{ name: blk(B.files), filename: "anim.gif", type: "image/gif", bytes: gif }]
        )
      )
      expect(second.body._tag).toBe("Invalid")
      expect(second.body.issues).toEqual([{ path: ["answers", blk(B.files)], rule: "fileType" }])
      expect(second.body.responseId).toBe(first.body.responseId)
      expect(second.body.uploaded).toEqual({ [blk(B.files)]: kept })
      // Nothing refused but the file: everything else is saved, the kept file included.
      expect((await detailOf(form.id, first.body.responseId)).answers).toEqual({
        ...fullAnswers,
        [blk(B.files)]: [kept[0]?.key]
      })

      const third = await post(
        form.slug,
        urlencoded([
          ["_response", second.body.responseId],
          ["_token", second.body.token],
          ...fullPost,
          [keepField(B.files), kept[0]?.key ?? ""]
        ])
      )
      expect(third.body._tag).toBe("Completed")
      expect(third.body.responseId).toBe(first.body.responseId)
      const detail = await detailOf(form.id, first.body.responseId)
      expect(detail.answers[blk(B.files)]).toEqual([kept[0]?.key])
      expect(detail.files).toEqual([expect.objectContaining({ key: kept[0]?.key, filename: "me.png" })])
    })

    it("starts a fresh response when the token does not own the response", async () => {
      const form = await publish()
      const first = await post(form.slug, urlencoded(fullPost.filter(([name]) => name !== blk(B.name))))
      expect(first.body._tag).toBe("Invalid")
      const forged = await post(
        form.slug,
        urlencoded([["_response", first.body.responseId], ["_token", "not-the-token"], ...fullPost])
      )
      expect(forged.body._tag).toBe("Completed")
      expect(forged.body.responseId).not.toBe(first.body.responseId)
      expect(forged.setCookie).toMatch(/^folio_rt=/)
      expect((await responsesOf(form.id, "completed")).map((r) => r.id)).toEqual([forged.body.responseId])
      expect((await responsesOf(form.id, "partial")).map((r) => r.id)).toEqual([first.body.responseId])
      // Another response's token does not own a completed response either.
      const again = await post(
        form.slug,
        urlencoded([["_response", forged.body.responseId], ["_token", first.body.token], ...fullPost])
      )
      expect(again.body._tag).toBe("Completed")
      expect(again.body.responseId).not.toBe(forged.body.responseId)
    })

    it("answers a completed response posted again with its own token as it stands, writing nothing", async () => {
      const form = await publish()
      const first = await post(form.slug, urlencoded(fullPost.filter(([name]) => name !== blk(B.name))))
      const continuation: Array<[string, string]> = [
        ["_response", first.body.responseId],
        ["_token", first.body.token]
      ]
      const done = await post(form.slug, urlencoded([...continuation, ...fullPost]))
      expect(done.body._tag).toBe("Completed")
      const resent = await post(
        form.slug,
        urlencoded([...continuation, ...fullPost.filter(([name]) => name !== blk(B.bio))])
      )
      expect(resent.body).toMatchObject({ _tag: "Completed", responseId: first.body.responseId })
      expect(resent.setCookie).toBeNull()
      expect((await detailOf(form.id, first.body.responseId)).answers).toEqual(fullAnswers)
      expect((await responsesOf(form.id, "completed")).map((r) => r.id)).toEqual([first.body.responseId])
    })

    it("on a form that allows editing, reopens a completed response with _edit and takes the next post as its edit", async () => {
      const form = await publish(allTypesDefinition, {
        submission: { acceptingResponses: true, allowResponseEditing: true }
      })
      const first = await post(form.slug, urlencoded(fullPost.filter(([name]) => name !== blk(B.name))))
      const continuation: Array<[string, string]> = [
        ["_response", first.body.responseId],
        ["_token", first.body.token]
      ]
      expect((await post(form.slug, urlencoded([...continuation, ...fullPost]))).body._tag).toBe("Completed")
      const reopened = await post(form.slug, urlencoded([["_edit", "1"], ...continuation]))
      expect(reopened.body).toMatchObject({ _tag: "Editing", responseId: first.body.responseId })
      // The refilled fields post back to exactly the answers they came from.
      const same = await post(form.slug, urlencoded([...continuation, ...reopened.body.fields]))
      expect(same.body._tag).toBe("Completed")
      expect((await detailOf(form.id, first.body.responseId)).answers).toEqual(fullAnswers)
      // An edit: one answer changed, one cleared; the response stays the one completed response.
      const edited = reopened.body.fields
        .filter(([name]) => name !== blk(B.bio))
        .map(([name, value]): [string, string] => [name, name === blk(B.name) ? "Edited name" : value])
      const saved = await post(form.slug, urlencoded([...continuation, ...edited]))
      expect(saved.body).toMatchObject({ _tag: "Completed", status: "completed" })
      const { [blk(B.bio)]: _bio, ...rest } = fullAnswers
      expect((await detailOf(form.id, first.body.responseId)).answers).toEqual({
        ...rest,
        [blk(B.name)]: "Edited name"
      })
      // A refused edit writes nothing.
      const refused = await post(
        form.slug,
        urlencoded([...continuation, ...edited.filter(([name]) => name !== blk(B.name))])
      )
      expect(refused.body._tag).toBe("Invalid")
      expect((await detailOf(form.id, first.body.responseId)).answers[blk(B.name)]).toBe("Edited name")
      expect((await responsesOf(form.id, "completed")).map((r) => r.id)).toEqual([first.body.responseId])
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })

    it("completes a response once when posts continuing it race, valid and invalid alike", async () => {
      const form = await publish()
      const withoutName = fullPost.filter(([name]) => name !== blk(B.name))
      const responseIds: Array<string> = []
      for (let trial = 0; trial < 4; trial++) {
        const first = await post(form.slug, urlencoded(withoutName))
        expect(first.body._tag).toBe("Invalid")
        const continuation: Array<[string, string]> = [
          ["_response", first.body.responseId],
          ["_token", first.body.token]
        ]
        const sent = await Promise.all(
          [fullPost, withoutName, fullPost, withoutName, fullPost].map((fields) =>
            post(form.slug, urlencoded([...continuation, ...fields]))
          )
        )
        for (const answer of sent) {
          expect(answer.status).toBe(200)
          expect(["Completed", "Invalid"]).toContain(answer.body._tag)
          expect(answer.body.responseId).toBe(first.body.responseId)
        }
        // The complete posts all answer Completed: one wrote it, the others found it written.
        expect(sent.filter((_, i) => i % 2 === 0).map((a) => a.body._tag)).toEqual([
          "Completed",
          "Completed",
          "Completed"
        ])
        expect((await detailOf(form.id, first.body.responseId)).answers).toEqual(fullAnswers)
        responseIds.push(first.body.responseId)
      }
      expect((await responsesOf(form.id, "completed")).map((r) => r.id).sort()).toEqual(responseIds.sort())
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })

    it("answers a closed form Closed with the author's message, starting nothing", async () => {
      const form = await publish(allTypesDefinition, {
        submission: { acceptingResponses: false, closedMessage: "See you next year" }
      })
      const sent = await post(form.slug, urlencoded(fullPost))
      expect(sent.body).toEqual({ _tag: "Closed", reason: "not_accepting", message: "See you next year" })
      expect(sent.setCookie).toBeNull()
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })

    it("asks a soft_block repeat respondent to confirm, and takes the answers once confirmed", async () => {
      const form = await publish(allTypesDefinition, { submission: { repeatResponsePolicy: "soft_block" } })
      const browser: { cookie?: string } = {}
      expect((await post(form.slug, urlencoded(fullPost), browser)).body._tag).toBe("Completed")
      expect(browser.cookie).toMatch(/^folio_rt=/)
      const repeat = await post(form.slug, urlencoded(fullPost), browser)
      expect(repeat.body._tag).toBe("RepeatNeedsConfirmation")
      expect(repeat.body.respondent.repeatCount).toBe(1)
      expect(await responsesOf(form.id, "partial")).toEqual([])
      const confirmed = await post(form.slug, urlencoded([...fullPost, ["_confirmRepeat", "1"]]), browser)
      expect(confirmed.body._tag).toBe("Completed")
      expect(await responsesOf(form.id, "completed")).toHaveLength(2)
    })

    it("answers an unknown slug 404 and a body that is not a form 400, in the envelope", async () => {
      const missing = await post("no-such-form", urlencoded(fullPost))
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ ok: false, error: { code: "not_found" } })
      const form = await publish()
      const json = await post(form.slug, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      expect(json.status).toBe(400)
      expect(json.body).toMatchObject({ ok: false, error: { code: "invalid" } })
      const nul = await post(form.slug, urlencoded([[blk(B.name), "a\u0000b"]]))
      expect(nul.status).toBe(400)
      expect(nul.body.error.details).toEqual({ issues: [{ path: [blk(B.name)], rule: "nulCharacter" }] })
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })

    it("answers bodies over the caps 413 with the envelope", async () => {
      const form = await publish()
      // Over the route's cap: refused from its Content-Length, before anything is read.
      const huge = await post(
        form.slug,
        multipart(fullPost, [
          {
            name: blk(B.files),
            filename: "big.png",
            type: "image/png",
            bytes: new Uint8Array(MAX_FORM_POST_BYTES + 1)
          }
        ])
      )
      expect(huge.status).toBe(413)
      expect(huge.body).toMatchObject({ ok: false, error: { code: "payload_too_large" } })
      // Over the text cap, urlencoded and multipart alike.
      const text = "x".repeat(5 * 1024 * 1024)
      for (const init of [urlencoded([[blk(B.bio), text]]), multipart([[blk(B.bio), text]])]) {
        const sent = await post(form.slug, init)
        expect(sent.status).toBe(413)
        expect(sent.body).toMatchObject({ ok: false, error: { code: "payload_too_large" } })
      }
      // Chunked, with no Content-Length, past the route's cap.
      const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${app.origin}/f/${form.slug}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" }
        })
        req.on("response", (res) => {
          let body = ""
          res.setEncoding("utf8")
          res.on("data", (d) => {
            body += d
          })
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
          res.on("error", reject)
        })
        req.on("error", reject)
        const chunk = Buffer.alloc(1024 * 1024, 0x61)
        let sent = 0
        const pump = () => {
          while (sent < MAX_FORM_POST_BYTES / chunk.length + 1) {
            sent += 1
            if (!req.write(chunk)) return void req.once("drain", pump)
          }
          req.end()
        }
        pump()
      })
      expect(chunked.status).toBe(413)
      expect(JSON.parse(chunked.body)).toMatchObject({ ok: false, error: { code: "payload_too_large" } })
      expect(await responsesOf(form.id, "partial")).toEqual([])
    })
  })
}

describe("JavaScript-off form post and the respondent budget", () => {
  let app: RunningApp
  let key: string
  let close: () => Promise<void> = async () => {}
  beforeAll(async () => {
    const started = await startAppOn("memory", { respondentRequestsPerIp: 3 })
    app = started.app
    key = started.key
    close = started.close
  })
  afterAll(() => close())

  it("counts every post against the address's budget, then answers 429 before reading it", async () => {
    const definition = { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Name" }] }
    const created = await fetch(`${app.origin}/forms/api/v1/forms`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ title: "Budget", definition })
    })
    const form = ((await created.json()) as { data: { id: string; slug: string } }).data
    await fetch(`${app.origin}/forms/api/v1/forms/${form.id}/publish`, {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ expectedDraftRevision: 1 })
    })
    await freshRateWindow()
    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++) {
      const init = urlencoded([[blk(1), "Ann"]])
      const sent = await fetch(`${app.origin}/f/${form.slug}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), accept: "application/json" }
      })
      statuses.push(sent.status)
      if (sent.status === 429) {
        expect(sent.headers.get("retry-after")).toMatch(/^\d+$/)
        expect(await sent.json()).toMatchObject({ ok: false, error: { code: "rate_limited" } })
      } else await sent.json()
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
