// Research compliance over real HTTP on memory, PGlite and PostgreSQL: a start without every consent
// item is refused (JSON routes and the JavaScript-off post, classic and interview), the acceptance is
// stored and shown by the response read and the CSV, the private withdrawal link deletes the response
// and its files once, and the retention sweep deletes old responses so the counts drop.
import {
  BlobStore,
  purgeExpiredResponses,
  ResponseRepository,
  respondentFileKey,
  withdrawalMac
} from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { blk } from "../support/builders.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const SECRET = "test-signing-secret-0123456789abcdef"
const ITEMS = ["I am 18 or older", "I agree that my answers are used for this study"]
const compliance = (extra: Record<string, unknown> = {}) => ({
  researchCompliance: {
    purpose: "Understanding how teams plan their week",
    contact: "study@example.org",
    consentItems: ITEMS,
    retentionDays: 2,
    thirdPartyProvision: { enabled: true, details: "Shared with Example University" },
    ...extra
  }
})
const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    {
      id: blk(2),
      type: "file_upload",
      label: "Plan",
      options: { maxFiles: 1, acceptedMimeTypes: ["image/png"] }
    }
  ]
}
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
])
const label = (en: string) => ({ en })
const interviewDefinition = {
  title: "Planning interview",
  locales: { default: "en", supported: ["en"] },
  greetingByLocale: label("Hi!"),
  fields: [
    {
      id: "role",
      priority: 10,
      labelByLocale: label("your role"),
      valueType: "short_text",
      requiredness: "hard"
    }
  ]
}

type Body = {
  data: Record<string, unknown>
  error: {
    code: string
    details?: { issues?: ReadonlyArray<{ path: ReadonlyArray<unknown>; rule: string }> }
  }
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`research compliance [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let workspaceId: string
    let close: () => Promise<void> = async () => {}

    const request = async (method: string, path: string, body?: unknown, headers = {}) => {
      const response = await fetch(`${app.origin}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, text, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Body }
    }
    const api = (method: string, path: string, body?: unknown) =>
      request(method, `/forms/api/v1${path}`, body, bearer(key))
    const publish = async (settings: unknown, kind: "classic" | "interview" = "classic") => {
      const created = await api("POST", "/forms", {
        title: "Weekly planning study",
        ...(kind === "interview" ? { kind, definition: interviewDefinition } : { definition }),
        settings
      })
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string; settingsSignature: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    const count = (formId: string) =>
      app.run(Effect.flatMap(ResponseRepository, (r) => r.count(workspaceId, formId)))
    /** Starts with `consent`, uploads a file, completes: the completed response and its file key. */
    const respond = async (slug: string, consent: ReadonlyArray<string> = ITEMS) => {
      const started = await request("POST", `/f/${slug}/responses`, { consent })
      expect(started.status).toBe(201)
      const { responseId, token } = started.body.data as { responseId: string; token: string }
      const uploaded = await fetch(
        `${app.origin}/f/${slug}/responses/${responseId}/files?blockId=${blk(2)}&filename=plan.png`,
        { method: "POST", headers: { "x-response-token": token, "content-type": "image/png" }, body: PNG }
      )
      expect(uploaded.status).toBe(201)
      const file = ((await uploaded.json()) as { data: { key: string } }).data.key
      const done = await request("POST", `/f/${slug}/responses/${responseId}/complete`, {
        token,
        answers: { [blk(1)]: "Ada", [blk(2)]: [file] }
      })
      expect(done.status).toBe(200)
      return { responseId, file, done: done.body.data as { withdrawalPath?: string } }
    }
    const blobExists = (key: string) =>
      app.run(
        Effect.flatMap(BlobStore, (b) => b.get(key)).pipe(
          Effect.map((x) => Option.isSome(x)),
          Effect.orElseSucceed(() => false)
        )
      )

    beforeAll(async () => {
      const started = await startAppOn(target.name, { blobStore: "fs" })
      ;({ app, key, workspaceId } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("refuses a start without every consent item, stores the acceptance and shows it in the read and the CSV", async () => {
      const form = await publish(compliance())
      const page = await request("GET", `/f/${form.slug}/form`)
      expect((page.body.data.settings as Record<string, unknown>).researchCompliance).toMatchObject({
        consentItems: ITEMS,
        withdrawalEnabled: true
      })

      const none = await request("POST", `/f/${form.slug}/responses`, {})
      expect(none.status).toBe(400)
      expect(none.body.error.code).toBe("invalid")
      expect(none.body.error.details?.issues).toEqual([
        { path: ["consent", 0], rule: "consentRequired", expected: "this consent item accepted" },
        { path: ["consent", 1], rule: "consentRequired", expected: "this consent item accepted" }
      ])
      // Value-free: the refusal never repeats the items' text.
      expect(none.text).not.toContain(ITEMS[0])
      const one = await request("POST", `/f/${form.slug}/responses`, { consent: [ITEMS[0]] })
      expect(one.status).toBe(400)
      expect(one.body.error.details?.issues?.map((i) => i.path)).toEqual([["consent", 1]])
      // Wording the author has since changed is not the wording accepted.
      const stale = await request("POST", `/f/${form.slug}/responses`, { consent: [ITEMS[0], "I agree"] })
      expect(stale.status).toBe(400)
      expect(await count(form.id)).toBe(0)

      const { responseId } = await respond(form.slug)
      const read = await api("GET", `/forms/${form.id}/responses/${responseId}`)
      expect(read.status).toBe(200)
      const consent = read.body.data.consent as {
        items: Array<string>
        acceptedAt: string
        settingsSignature: string
      }
      expect(consent.items).toEqual(ITEMS)
      expect(consent.settingsSignature).toBe(form.settingsSignature)
      expect(Date.now() - Date.parse(consent.acceptedAt)).toBeLessThan(60_000)

      const csv = await fetch(`${app.origin}/forms/api/v1/forms/${form.id}/responses.csv`, {
        headers: bearer(key)
      })
      const [header, row] = (await csv.text()).trim().split("\r\n")
      expect(header?.split(",").slice(-3)).toEqual([
        "consent_accepted_at",
        "consent_items",
        "consent_settings_signature"
      ])
      expect(row).toContain(consent.acceptedAt)
      expect(row).toContain(form.settingsSignature)

      // A form without research compliance asks for nothing and stores nothing.
      const plain = await publish({})
      const { responseId: plainId, done } = await respond(plain.slug, [])
      expect(done.withdrawalPath).toBeUndefined()
      const plainRead = await api("GET", `/forms/${plain.id}/responses/${plainId}`)
      expect(plainRead.body.data.consent).toBeUndefined()
    })

    it("refuses a JavaScript-off post without the consent boxes, with nothing stored, and completes one with them", async () => {
      const form = await publish(compliance())
      const post = (fields: ReadonlyArray<[string, string]>) =>
        fetch(`${app.origin}/f/${form.slug}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields as Array<[string, string]>).toString()
        })
      const refused = await post([
        [blk(1), "Ada"],
        ["_consent", ITEMS[0] ?? ""]
      ])
      expect(refused.status).toBe(422)
      const html = await refused.text()
      expect(html).toContain("Please accept every item above to take part.")
      // The form comes back refilled: the ticked box stays ticked, the name stays typed.
      expect(html).toMatch(/name="_consent" value="I am 18 or older" form="form" required checked/)
      expect(html).toContain('value="Ada"')
      expect(await count(form.id)).toBe(0)

      const accepted = await post([[blk(1), "Ada"], ...ITEMS.map((i): [string, string] => ["_consent", i])])
      expect(accepted.status).toBe(200)
      const done = await accepted.text()
      const link = /href="(\/f\/[^"]+\/withdraw\/[^"]+)"/.exec(done)?.[1]
      expect(link).toBeDefined()
      const [stored] = (await api("GET", `/forms/${form.id}/responses`)).body.data.items as Array<{
        id: string
      }>
      expect(link).toContain(stored?.id)
      const read = await api("GET", `/forms/${form.id}/responses/${stored?.id}`)
      expect((read.body.data.consent as { items: Array<string> }).items).toEqual(ITEMS)
    })

    it("withdraws a response and its files through the private link, once, and never tells a bad link from a used one", async () => {
      const form = await publish(compliance())
      const { responseId, file, done } = await respond(form.slug)
      const kept = await respond(form.slug)
      const path = done.withdrawalPath ?? ""
      expect(path).toBe(
        `/f/${form.slug}/withdraw/${responseId}/${withdrawalMac(SECRET, (form as { id: string }).id, responseId)}`
      )
      expect(await blobExists(file)).toBe(true)

      const confirm = await fetch(`${app.origin}${path}`)
      expect(confirm.status).toBe(200)
      const confirmHtml = await confirm.text()
      expect(confirmHtml).toContain(`<form method="post" action="${path}">`)
      expect(confirmHtml).toContain("Delete my response")
      // Opening the page deletes nothing.
      expect(await count(form.id)).toBe(2)

      // A forged signature, another response's id under this one's signature, a malformed token.
      const mac = path.slice(path.lastIndexOf("/") + 1)
      const forged = `${path.slice(0, -4)}0000`
      const swapped = `/f/${form.slug}/withdraw/${kept.responseId}/${mac}`
      const bad = await Promise.all(
        [forged, swapped, `/f/${form.slug}/withdraw/nothing/at-all`].map((p) => fetch(`${app.origin}${p}`))
      )
      const badBodies = await Promise.all(bad.map((r) => r.text()))
      expect(bad.map((r) => r.status)).toEqual([404, 404, 404])
      for (const r of [forged, swapped])
        expect((await fetch(`${app.origin}${r}`, { method: "POST" })).status).toBe(404)
      expect(await count(form.id)).toBe(2)

      // A post from another site is refused too.
      const crossSite = await fetch(`${app.origin}${path}`, {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" }
      })
      expect(crossSite.status).toBe(404)
      expect(await count(form.id)).toBe(2)

      const withdrawn = await fetch(`${app.origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: ""
      })
      expect(withdrawn.status).toBe(200)
      expect(await withdrawn.text()).toContain("Your response was withdrawn")
      expect((await api("GET", `/forms/${form.id}/responses/${responseId}`)).status).toBe(404)
      expect(await blobExists(file)).toBe(false)
      expect(await count(form.id)).toBe(1)
      expect(await blobExists(kept.file)).toBe(true)

      // Used: the same 404 page as a link that never was.
      const again = await fetch(`${app.origin}${path}`, { method: "POST" })
      expect(again.status).toBe(404)
      const used = await (await fetch(`${app.origin}${path}`)).text()
      // The same page but for its per-response script nonce.
      const unnonced = (html: string | undefined) => html?.replaceAll(/nonce="[^"]*"/g, "")
      expect(unnonced(used)).toBe(unnonced(badBodies[0]))
      expect(used).toContain("This withdrawal link is not valid or was already used.")
    })

    it("offers no withdrawal when the form turns it off: no link, and a correctly signed one opens nothing", async () => {
      const form = await publish(compliance({ withdrawalEnabled: false }))
      const { responseId, done } = await respond(form.slug)
      expect(done.withdrawalPath).toBeUndefined()
      const path = `/f/${form.slug}/withdraw/${responseId}/${withdrawalMac(SECRET, form.id, responseId)}`
      expect((await fetch(`${app.origin}${path}`)).status).toBe(404)
      expect((await fetch(`${app.origin}${path}`, { method: "POST" })).status).toBe(404)
      expect(await count(form.id)).toBe(1)
    })

    it("races a withdrawal with an edit of the same response: the response ends deleted either way", async () => {
      const form = await publish({ ...compliance(), submission: { allowResponseEditing: true } })
      for (let trial = 0; trial < 4; trial++) {
        const started = await request("POST", `/f/${form.slug}/responses`, { consent: ITEMS })
        const { responseId, token } = started.body.data as { responseId: string; token: string }
        const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
          token,
          answers: { [blk(1)]: "Ada" }
        })
        const path = (done.body.data as { withdrawalPath: string }).withdrawalPath
        const [withdrawn, edit] = await Promise.all([
          fetch(`${app.origin}${path}`, { method: "POST" }),
          request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
            token,
            answers: { [blk(1)]: "Bo" }
          })
        ])
        expect(withdrawn.status).toBe(200)
        // The edit landed before the delete, or found the response gone.
        expect([200, 404, 409]).toContain(edit.status)
        expect(await count(form.id)).toBe(0)
      }
      const summary = await api("GET", `/forms/${form.id}/responses/summary`)
      expect(summary.status).toBe(200)
      expect(JSON.stringify(summary.body.data)).not.toContain("Ada")
    })

    it("races a withdrawal with uploads to the same response: each upload is stored or told the response is gone, never a 5xx", async () => {
      const form = await publish({ ...compliance(), submission: { allowResponseEditing: true } })
      for (let trial = 0; trial < 6; trial++) {
        const started = await request("POST", `/f/${form.slug}/responses`, { consent: ITEMS })
        const { responseId, token } = started.body.data as { responseId: string; token: string }
        const done = await request("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
          token,
          answers: { [blk(1)]: "Ada" }
        })
        const path = (done.body.data as { withdrawalPath: string }).withdrawalPath
        const upload = () =>
          fetch(
            `${app.origin}/f/${form.slug}/responses/${responseId}/files?blockId=${blk(2)}&filename=p.png`,
            {
              method: "POST",
              headers: { "x-response-token": token, "content-type": "image/png" },
              body: PNG
            }
          )
        // The uploads go first, so the withdrawal lands while some are storing their bytes.
        const pending = Array.from({ length: 4 }, upload)
        await new Promise((r) => setTimeout(r, 2 + trial * 3))
        const withdrawn = await fetch(`${app.origin}${path}`, { method: "POST" })
        const uploads = await Promise.all(pending)
        expect(withdrawn.status).toBe(200)
        for (const u of uploads) expect([201, 404]).toContain(u.status)
        expect(await count(form.id)).toBe(0)
      }
    })

    it("refuses an interview start without the consent items and stores them with one", async () => {
      const form = await publish(compliance(), "interview")
      const described = await request("GET", `/f/${form.slug}/interview`)
      expect(
        (described.body.data.researchCompliance as { consentItems: Array<string> }).consentItems
      ).toEqual(ITEMS)
      const refused = await request("POST", `/f/${form.slug}/interview`, {})
      expect(refused.status).toBe(400)
      expect(refused.body.error.details?.issues?.map((i) => i.path)).toEqual([
        ["consent", 0],
        ["consent", 1]
      ])
      expect(await count(form.id)).toBe(0)
      const started = await request("POST", `/f/${form.slug}/interview`, { consent: ITEMS })
      expect(started.status).toBe(201)
      const { responseId, token } = started.body.data as { responseId: string; token: string }
      const finished = await request("POST", `/f/${form.slug}/interview/${responseId}/finish`, { token })
      // The built-in interviewer asked for the role; an interview with nothing answered cannot finish.
      if (finished.status === 200)
        expect((finished.body.data as { withdrawalPath?: string }).withdrawalPath).toMatch(/\/withdraw\//)
      const stored = Option.getOrThrow(
        await app.run(Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, form.id, responseId)))
      )
      expect((stored.meta.consent as { items: Array<string> }).items).toEqual(ITEMS)
    })

    it("deletes responses past the retention with their files, and the reports and form counts drop", async () => {
      const form = await publish(compliance())
      const other = await publish({
        ...compliance(),
        researchCompliance: { ...compliance().researchCompliance, retentionDays: 30 }
      })
      const recent = await respond(form.slug)
      // Responses started three days ago: past the form's two days, within the other's thirty. The
      // public routes start responses now, so these are stored through the app's own repository.
      const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000)
      const old = async (f: { id: string }) => {
        const read = await api("GET", `/forms/${f.id}`)
        const formVersionId = (read.body.data as { currentVersionId: string }).currentVersionId
        const responseId = crypto.randomUUID()
        const fileId = crypto.randomUUID()
        const file = respondentFileKey(workspaceId, f.id, responseId, fileId)
        await app.run(
          Effect.gen(function* () {
            const repo = yield* ResponseRepository
            yield* repo.insert({
              id: responseId,
              workspaceId,
              formId: f.id,
              formVersionId,
              status: "completed",
              answers: { [blk(1)]: "Old", [blk(2)]: [file] },
              meta: {},
              createdAt: threeDaysAgo,
              updatedAt: threeDaysAgo,
              completedAt: threeDaysAgo
            })
            yield* Effect.flatMap(BlobStore, (b) => b.put(file, { bytes: PNG, contentType: "image/png" }))
            yield* repo.insertFile({
              id: fileId,
              workspaceId,
              formId: f.id,
              responseId,
              blockId: blk(2),
              key: file,
              filename: "plan.png",
              contentType: "image/png",
              size: PNG.byteLength,
              createdAt: threeDaysAgo
            })
          })
        )
        return { responseId, file }
      }
      const oldOnes = [await old(form), await old(form)]
      const otherOld = await old(other)
      const counts = async () => {
        const report = await api("GET", `/forms/${form.id}/reports`)
        const listed = (await api("GET", "/forms?limit=100")).body.data.items as Array<{
          id: string
          responseCount: number
        }>
        return {
          started: (report.body.data.analytics as { started: number }).started,
          completed: (report.body.data.analytics as { completed: number }).completed,
          listed: listed.find((f) => f.id === form.id)?.responseCount
        }
      }
      expect(await counts()).toEqual({ started: 3, completed: 3, listed: 3 })

      const deleted = await app.run(purgeExpiredResponses(1))
      expect(deleted).toBe(2)
      expect(await counts()).toEqual({ started: 1, completed: 1, listed: 1 })
      for (const o of oldOnes) {
        expect((await api("GET", `/forms/${form.id}/responses/${o.responseId}`)).status).toBe(404)
        expect(await blobExists(o.file)).toBe(false)
      }
      expect(await blobExists(recent.file)).toBe(true)
      expect((await api("GET", `/forms/${other.id}/responses/${otherOld.responseId}`)).status).toBe(200)
      expect(await app.run(purgeExpiredResponses())).toBe(0)
    })
  })
}
