// Notification e-mails over real HTTP into a real SMTP server, on PGlite and PostgreSQL: a completion
// mails each recipient one summary (answers by label, files by name, the form's locale; an interview's
// fields); the receipt goes to the e-mail answer, rate-limited per address; a refusing server is
// retried until it accepts; a receipt naming anything but an email block is invalid; a server without
// SMTP says so.
import { JobQueue } from "@folio/domain"
import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { blk } from "../support/builders.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"
import {
  addressesOf,
  type ReceivedMail,
  startSmtpServer,
  type TestSmtpServer,
  until
} from "../support/smtp.js"

type Json = Record<string, unknown> & {
  data: Record<string, unknown>
  warnings?: Array<{ code: string; message: string }>
  error: Record<string, unknown> & { details: { issues: Array<Record<string, unknown>> } }
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
])

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    {
      id: blk(2),
      type: "multiple_choice",
      label: "Colour",
      options: {
        choices: [
          { id: "r", label: "Red" },
          { id: "g", label: "Green" }
        ]
      }
    },
    { id: blk(3), type: "email", label: "Your e-mail" },
    {
      id: blk(4),
      type: "file_upload",
      label: "Photo",
      options: { maxFiles: 1, acceptedMimeTypes: ["image/png"] }
    },
    { id: blk(5), type: "hidden_field", label: "Campaign", options: { param: "utm", defaultValue: "none" } }
  ]
}

/** Settings with both notifications on: the owners' summary to `recipients`, the receipt to blk(3). */
const notifying = (recipients: ReadonlyArray<string>, locale = "en") => ({
  locale,
  notifications: {
    responseEmail: { enabled: true, recipients },
    respondentReceipt: { enabled: true, emailBlockId: blk(3) }
  }
})

/**
 * Waits until no job is queued or running (a retry is queued until it runs), so nothing is left
 * that could still send a mail: "exactly" means exactly.
 */
const settle = (app: RunningApp) =>
  until(
    () => app.run(Effect.flatMap(JobQueue, (queue) => queue.depth())),
    (depth) => depth.every((d) => d.count === 0)
  )

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`notification e-mail [${target.name}]`, () => {
    let smtp: TestSmtpServer
    let started: Awaited<ReturnType<typeof startAppOn>>
    const origin = () => started.app.origin

    beforeAll(async () => {
      smtp = await startSmtpServer()
      started = await startAppOn(target.name, {
        smtpUrl: Option.some(Redacted.make(smtp.url)),
        jobsPollMs: 50,
        jobsRetryBaseMs: 50
      })
    }, 180_000)
    afterAll(async () => {
      await started?.close()
      await smtp?.close()
    })

    const call = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {}
    ) => {
      const response = await fetch(`${origin()}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Json }
    }
    const api = (method: string, path: string, body?: unknown) =>
      call(method, `/forms/api/v1${path}`, body, bearer(started.key))

    const publish = async (title: string, settings: unknown) => {
      const created = await api("POST", "/forms", { title, definition, settings })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }

    /** Starts and completes a response; answers the response id. */
    const respond = async (slug: string, answers: Record<string, unknown>, withPhoto = false) => {
      const s = await call("POST", `/f/${slug}/responses`, { params: { utm: "spring" } })
      const { responseId, token } = s.body.data as { responseId: string; token: string }
      let photo: Record<string, unknown> = {}
      if (withPhoto) {
        const uploaded = await fetch(
          `${origin()}/f/${slug}/responses/${responseId}/files?blockId=${blk(4)}&filename=holiday.png`,
          {
            method: "POST",
            headers: { "x-response-token": token, "content-type": "application/octet-stream" },
            body: PNG
          }
        )
        expect(uploaded.status).toBe(201)
        photo = { [blk(4)]: [((await uploaded.json()) as { data: { key: string } }).data.key] }
      }
      const done = await call("POST", `/f/${slug}/responses/${responseId}/complete`, {
        token,
        answers: { ...answers, ...photo }
      })
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      return responseId
    }

    const mailsAbout = (responseId: string) =>
      smtp.received.filter((m) => (m.parsed.messageId ?? "").startsWith(`<${responseId}.`))
    const to = (m: ReceivedMail) => m.envelopeTo.join(",")

    it("mails each recipient exactly one summary of the completed response, answers by label", async () => {
      const form = await publish("Holiday survey", notifying(["a@owners.test", "b@owners.test"]))
      const id = await respond(
        form.slug,
        { [blk(1)]: "Ada Lovelace", [blk(2)]: "g", [blk(3)]: "ada@people.test" },
        true
      )
      await until(
        () => mailsAbout(id).length,
        (n) => n >= 3
      )
      await settle(started.app)
      const mails = mailsAbout(id)
      expect(mails.map(to).sort()).toEqual(["a@owners.test", "ada@people.test", "b@owners.test"])
      for (const owner of mails.filter((m) => to(m).endsWith("@owners.test"))) {
        expect(addressesOf(owner.parsed.to)).toEqual([to(owner)])
        expect(owner.parsed.subject).toBe("New response: Holiday survey")
        expect(owner.parsed.headers.get("auto-submitted")).toBe("auto-generated")
        const text = owner.parsed.text ?? ""
        expect(text).toContain("Name: Ada Lovelace")
        expect(text).toContain("Colour: Green")
        expect(text).toContain("Photo: holiday.png")
        expect(text).toContain("Campaign: spring")
        expect(text).toContain(`${origin()}/forms/api/v1/forms/${form.id}/responses/${id}`)
        // The link names the response, never the respondent's token or a signed file URL.
        expect(text).not.toMatch(/token|signature|expires=/i)
      }
      const receipt = mails.find((m) => to(m) === "ada@people.test")
      expect(receipt?.parsed.subject).toBe("Your response to Holiday survey")
      expect(receipt?.parsed.text).toContain("Name: Ada Lovelace")
      // What the respondent did not type (a hidden field from the URL) is not in their copy.
      expect(receipt?.parsed.text).not.toContain("Campaign")
    })

    it("writes in the form's locale", async () => {
      const form = await publish("만족도 조사", notifying(["ko@owners.test"], "ko"))
      const id = await respond(form.slug, { [blk(1)]: "하늘" })
      const [mail] = await until(
        () => mailsAbout(id),
        (m) => m.length >= 1
      )
      expect(mail?.parsed.subject).toBe("새 응답: 만족도 조사")
      expect(mail?.parsed.text).toContain("제출되었습니다")
      expect(mail?.parsed.text).toContain("Your e-mail: (응답 없음)")
    })

    it("gives a research form's respondent the private withdrawal link in the receipt, and it works", async () => {
      const form = await publish("Study", {
        notifications: { respondentReceipt: { enabled: true, emailBlockId: blk(3) } },
        researchCompliance: {
          purpose: "A study",
          contact: "lab@uni.test",
          consentItems: ["I agree"],
          retentionDays: 30
        }
      })
      const s = await call("POST", `/f/${form.slug}/responses`, { consent: ["I agree"] })
      const { responseId, token } = s.body.data as { responseId: string; token: string }
      const done = await call("POST", `/f/${form.slug}/responses/${responseId}/complete`, {
        token,
        answers: { [blk(1)]: "Grace", [blk(3)]: "grace@people.test" }
      })
      expect(done.status).toBe(200)
      const [receipt] = await until(
        () => mailsAbout(responseId),
        (m) => m.length >= 1
      )
      const link = /https?:\/\/\S+\/withdraw\/\S+/.exec(receipt?.parsed.text ?? "")?.[0]
      expect(link).toBe(`${origin()}${(done.body.data as { withdrawalPath: string }).withdrawalPath}`)
      expect((await fetch(link ?? "")).status).toBe(200)
      const withdrawn = await fetch(link ?? "", { method: "POST", headers: { origin: origin() } })
      expect(withdrawn.status).toBe(200)
      expect((await api("GET", `/forms/${form.id}/responses/${responseId}`)).status).toBe(404)
    })

    it("retries a mail server that refuses, then sends exactly once", async () => {
      const form = await publish("Retry survey", {
        notifications: { responseEmail: { enabled: true, recipients: ["retry@owners.test"] } }
      })
      const before = smtp.refusals()
      smtp.refuse(2)
      const id = await respond(form.slug, { [blk(1)]: "Grace" })
      await until(
        () => mailsAbout(id).length,
        (n) => n >= 1
      )
      await settle(started.app)
      expect(smtp.refusals() - before).toBe(2)
      expect(mailsAbout(id).map(to)).toEqual(["retry@owners.test"])
    })

    it("sends at most three receipts an hour to one address from one form", async () => {
      const form = await publish("Bomb survey", {
        notifications: { respondentReceipt: { enabled: true, emailBlockId: blk(3) } }
      })
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++)
        ids.push(await respond(form.slug, { [blk(1)]: `n${i}`, [blk(3)]: "victim@people.test" }))
      // Another address is not held back by the first one's budget.
      const other = await respond(form.slug, { [blk(1)]: "x", [blk(3)]: "other@people.test" })
      await until(
        () => mailsAbout(other).length,
        (n) => n >= 1
      )
      await until(
        () => ids.flatMap(mailsAbout).length,
        (n) => n >= 3
      )
      await settle(started.app)
      expect(ids.flatMap(mailsAbout).map(to)).toEqual(Array(3).fill("victim@people.test"))
    })

    it("refuses a receipt naming anything but an email block, in settings and in the draft", async () => {
      const created = await api("POST", "/forms", { title: "Checks", definition })
      const form = created.body.data as { id: string; settingsSignature: string }
      const path = ["notifications", "respondentReceipt", "emailBlockId"]
      for (const emailBlockId of [blk(1), "blk_missing01"]) {
        const refused = await api("PATCH", `/forms/${form.id}/settings`, {
          settings: { notifications: { respondentReceipt: { enabled: true, emailBlockId } } },
          expectedSettingsSignature: form.settingsSignature
        })
        expect(refused.status).toBe(400)
        expect(refused.body.error.code).toBe("invalid")
        expect(refused.body.error.details.issues).toEqual([
          expect.objectContaining({
            path,
            rule: emailBlockId === blk(1) ? "notAnEmailBlock" : "danglingReference"
          })
        ])
      }
      const enabledWithout = await api("PATCH", `/forms/${form.id}/settings`, {
        settings: { notifications: { respondentReceipt: { enabled: true } } },
        expectedSettingsSignature: form.settingsSignature
      })
      expect(enabledWithout.status).toBe(400)
      // A creation naming a non-email block is refused the same way.
      const badCreate = await api("POST", "/forms", {
        title: "Bad",
        definition,
        settings: { notifications: { respondentReceipt: { enabled: false, emailBlockId: blk(2) } } }
      })
      expect(badCreate.status).toBe(400)

      const ok = await api("PATCH", `/forms/${form.id}/settings`, {
        settings: { notifications: { respondentReceipt: { enabled: true, emailBlockId: blk(3) } } },
        expectedSettingsSignature: form.settingsSignature
      })
      expect(ok.status).toBe(200)
      // This server sends mail: nothing to warn about.
      expect(ok.body.warnings).toBeUndefined()
      // The draft may not drop (or retype) the block the receipt names while the settings name it.
      const retyped = await api("PATCH", `/forms/${form.id}`, {
        definition: {
          ...definition,
          blocks: definition.blocks.map((b) =>
            b.id === blk(3) ? { id: blk(3), type: "short_text", label: "Mail" } : b
          )
        },
        expectedDraftRevision: 1
      })
      expect(retyped.status).toBe(400)
      // A definition write names the settings it disagrees with.
      expect(retyped.body.error.details.issues).toEqual([
        expect.objectContaining({ path: ["settings", ...path], rule: "notAnEmailBlock" })
      ])
      const read = await api("GET", `/forms/${form.id}`)
      expect(read.body.data.draftRevision).toBe(1)
    })

    it("mails the owners a summary of a finished interview, its fields by label", async () => {
      const created = await api("POST", "/forms", {
        kind: "interview",
        title: "Plan interview",
        definition: {
          schemaVersion: 2,
          fields: [
            {
              id: "plan",
              labelByLocale: { en: "Your plan" },
              valueType: "single_select",
              requiredness: "hard",
              options: [
                { id: "free", labelByLocale: { en: "Free" } },
                { id: "pro", labelByLocale: { en: "Pro" } }
              ]
            }
          ]
        },
        settings: { notifications: { responseEmail: { enabled: true, recipients: ["iv@owners.test"] } } }
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      const s = await call("POST", `/f/${form.slug}/interview`, {})
      expect(s.status, JSON.stringify(s.body)).toBe(201)
      const { responseId, token } = s.body.data as { responseId: string; token: string }
      const turn = await call("POST", `/f/${form.slug}/interview/${responseId}/messages`, {
        token,
        text: "Pro"
      })
      expect(turn.status).toBe(200)
      // The one hard field answered may end the interview by itself; else the respondent ends it.
      if (turn.body.data.done !== true) {
        const finished = await call("POST", `/f/${form.slug}/interview/${responseId}/finish`, { token })
        expect(finished.status, JSON.stringify(finished.body)).toBe(200)
      }
      await until(
        () => mailsAbout(responseId).length,
        (n) => n >= 1
      )
      await settle(started.app)
      const mails = mailsAbout(responseId)
      expect(mails.map(to)).toEqual(["iv@owners.test"])
      expect(mails[0]?.parsed.subject).toBe("New response: Plan interview")
      expect(mails[0]?.parsed.text).toContain("Your plan: Pro")
    })

    it("mails an interview's custom answer marked as the respondent's own", async () => {
      const created = await api("POST", "/forms", {
        kind: "interview",
        title: "Custom plan interview",
        definition: {
          schemaVersion: 2,
          fields: [
            {
              id: "plan",
              labelByLocale: { en: "Your plan" },
              valueType: "single_select",
              requiredness: "hard",
              options: [{ id: "pro", labelByLocale: { en: "Pro" } }],
              extraction: { allowCustomAnswer: true, confirmation: "never" }
            }
          ]
        },
        settings: { notifications: { responseEmail: { enabled: true, recipients: ["iv@owners.test"] } } }
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      const s = await call("POST", `/f/${form.slug}/interview`, {})
      const { responseId, token } = s.body.data as { responseId: string; token: string }
      const turn = await call("POST", `/f/${form.slug}/interview/${responseId}/messages`, {
        token,
        text: "We use Enterprise"
      })
      expect(turn.body.data.done).toBe(true)
      await until(
        () => mailsAbout(responseId).length,
        (n) => n >= 1
      )
      expect(mailsAbout(responseId)[0]?.parsed.text).toContain("Your plan: We use Enterprise (other)")
    })

    it("reports e-mail as available in the capabilities", async () => {
      const caps = await api("GET", "/capabilities")
      expect(caps.body.data.notifications).toEqual({ email: true })
    })
  })
}

describe("notification e-mail on a server without SMTP_URL", () => {
  let started: Awaited<ReturnType<typeof startAppOn>>
  beforeAll(async () => {
    started = await startAppOn("pglite", { jobsPollMs: 50 })
  }, 180_000)
  afterAll(() => started?.close())
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${started.app.origin}/forms/api/v1${path}`, {
      method,
      headers: {
        ...bearer(started.key),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as Json }
  }

  it("says so: capabilities report no e-mail, and enabling a notification is accepted with a warning", async () => {
    expect((await api("GET", "/capabilities")).body.data.notifications).toEqual({ email: false })
    const created = await api("POST", "/forms", { title: "Quiet", definition })
    const form = created.body.data as { id: string; settingsSignature: string; draftRevision: number }
    const enabled = await api("PATCH", `/forms/${form.id}/settings`, {
      settings: notifying(["a@owners.test"]),
      expectedSettingsSignature: form.settingsSignature
    })
    expect(enabled.status).toBe(200)
    expect(enabled.body.warnings).toEqual([{ code: "email_not_configured", message: expect.any(String) }])
    // The draft's answer carries it too while a notification is on.
    const draft = await api("PATCH", `/forms/${form.id}`, { definition, expectedDraftRevision: 1 })
    expect(draft.status).toBe(200)
    expect(draft.body.warnings?.map((w) => w.code)).toEqual(["email_not_configured"])
    // Off again: no warning.
    const off = await api("PATCH", `/forms/${form.id}/settings`, {
      settings: {},
      expectedSettingsSignature: enabled.body.data.settingsSignature
    })
    expect(off.status).toBe(200)
    expect(off.body.warnings).toBeUndefined()
  })
})
