// The SMTP Mailer against a real SMTP server in the process: a composed notification arrives to its
// one recipient with its headers and stable Message-ID; a 4xx is a retryable failure and a 5xx a
// final one (value-free either way); CR/LF in a title, an answer or even a subject handed straight to
// the adapter can add neither a header nor a recipient.
import { makeSmtpMailer } from "@folio/adapters-integrations"
import { composeReceipt, composeResponseEmail, type MailMessage } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addressesOf, startSmtpServer, type TestSmtpServer } from "../support/smtp.js"

describe("SMTP mailer (nodemailer) against smtp-server", () => {
  let smtp: TestSmtpServer
  let mailer: ReturnType<typeof makeSmtpMailer>
  beforeAll(async () => {
    smtp = await startSmtpServer()
    mailer = makeSmtpMailer({ url: smtp.url, from: "Folio Forms <forms@folio.test>" })
  })
  afterAll(async () => {
    mailer.close()
    await smtp.close()
  })

  const send = (message: MailMessage) => Effect.runPromise(Effect.result(mailer.service.send(message)))
  const digest = {
    locale: "en" as const,
    formTitle: "Team survey",
    completedAt: new Date("2026-11-28T10:15:30Z"),
    answers: [
      { label: "Name", value: "Ada" },
      { label: "Comment", value: "line one\nline two" }
    ]
  }

  it("delivers the owners' summary to its one recipient, with its headers and a stable Message-ID", async () => {
    const before = smtp.received.length
    const result = await send(
      composeResponseEmail(digest, {
        to: "owner@example.test",
        id: "resp-1.r0",
        responseUrl: "https://forms.example/forms/api/v1/forms/f/responses/r"
      })
    )
    expect(result._tag).toBe("Success")
    const mail = smtp.received[before]
    expect(smtp.received.length).toBe(before + 1)
    expect(mail?.envelopeTo).toEqual(["owner@example.test"])
    expect(mail?.envelopeFrom).toBe("forms@folio.test")
    expect(mail?.parsed.subject).toBe("New response: Team survey")
    expect(mail?.parsed.messageId).toBe("<resp-1.r0@folio.test>")
    expect(mail?.parsed.headers.get("auto-submitted")).toBe("auto-generated")
    expect(mail?.parsed.text).toContain("Name: Ada")
    expect(mail?.parsed.text).toContain("Comment: line one\n  line two")
    expect(mail?.parsed.text).toContain("2026-11-28 10:15 UTC")
    expect(mail?.parsed.html).toContain('<th align="left" valign="top">Name</th><td>Ada</td>')
  })

  it("answers a 4xx refusal as retryable and a 5xx as final, naming only the code", async () => {
    const message = composeReceipt(digest, { to: "someone@example.test", id: "resp-2.receipt" })
    smtp.refuse(1, 451)
    const soft = await send(message)
    expect(soft._tag).toBe("Failure")
    if (soft._tag === "Failure") {
      expect(soft.failure).toMatchObject({ retryable: true, reason: "the mail server answered 451" })
      expect(soft.failure.reason).not.toContain("someone")
    }
    smtp.refuse(1, 550)
    const hard = await send(message)
    expect(hard._tag === "Failure" && hard.failure.retryable).toBe(false)
    const before = smtp.received.length
    expect((await send(message))._tag).toBe("Success")
    expect(smtp.received.length).toBe(before + 1)
  })

  it("a server that is not there is a retryable failure", async () => {
    const nowhere = makeSmtpMailer({ url: "smtp://127.0.0.1:9", from: "forms@folio.test" })
    const result = await Effect.runPromise(
      Effect.result(nowhere.service.send(composeReceipt(digest, { to: "a@example.test", id: "x" })))
    )
    nowhere.close()
    expect(result._tag === "Failure" && result.failure.retryable).toBe(true)
  })

  it("CR/LF in a title or an answer adds no header and no recipient", async () => {
    const before = smtp.received.length
    const hostile = {
      ...digest,
      formTitle: "Survey\r\nBcc: victim@evil.test\r\nX-Injected: yes",
      answers: [
        { label: "Name\r\nCc: label@evil.test", value: "Ada\r\nBcc: answer@evil.test\r\n\r\n<b>body</b>" }
      ]
    }
    await send(
      composeResponseEmail(hostile, { to: "owner@example.test", id: "resp-3.r0", responseUrl: null })
    )
    await send(composeReceipt(hostile, { to: "resp@example.test", id: "resp-3.receipt" }))
    const mails = smtp.received.slice(before)
    expect(mails.map((m) => m.envelopeTo)).toEqual([["owner@example.test"], ["resp@example.test"]])
    for (const mail of mails) {
      expect(addressesOf(mail.parsed.bcc)).toEqual([])
      expect(addressesOf(mail.parsed.cc)).toEqual([])
      expect(mail.parsed.headers.has("x-injected")).toBe(false)
      expect(mail.parsed.subject).not.toMatch(/[\r\n]/)
      // The raw header block holds no line an input started.
      const head = mail.raw.slice(0, mail.raw.indexOf("\r\n\r\n"))
      expect(head).not.toMatch(/^(bcc|cc|x-injected):/im)
      expect(mail.parsed.html).not.toContain("<b>body</b>")
    }
    expect(mails[0]?.parsed.subject).toBe("New response: Survey Bcc: victim@evil.test X-Injected: yes")
  })

  it("even a subject and header handed straight to the adapter cannot break their line", async () => {
    const before = smtp.received.length
    await send({
      to: "owner@example.test",
      id: "raw-1",
      subject: "Hello\r\nBcc: raw@evil.test",
      text: "t",
      html: "<p>t</p>",
      headers: { "X-Note": "a\r\nBcc: header@evil.test" }
    })
    const mail = smtp.received[before]
    expect(mail?.envelopeTo).toEqual(["owner@example.test"])
    expect(addressesOf(mail?.parsed.bcc)).toEqual([])
    const head = mail?.raw.slice(0, mail.raw.indexOf("\r\n\r\n")) ?? ""
    expect(head).not.toMatch(/^bcc:/im)
  })
})
