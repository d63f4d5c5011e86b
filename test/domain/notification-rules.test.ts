// The notification rules without I/O: which e-mails a completion asks for, what a receipt may name,
// the warning, and that no input can make a header line break (a property over every string).
import {
  composeReceipt,
  composeResponseEmail,
  decodeFormSettings,
  isDeliverableAddress,
  notificationIssues,
  notificationWarnings,
  oneLine,
  plannedNotifications
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blk } from "../support/builders.js"

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

const settings = (input: unknown) => Result.getOrThrow(decodeFormSettings(input))
const blocks = [
  { id: blk(1), type: "short_text", label: "Name" },
  { id: blk(2), type: "email", label: "Mail" }
] as never

describe("notification rules", () => {
  it("plans one e-mail per distinct recipient and a receipt only to an answered email block", () => {
    const s = settings({
      notifications: {
        responseEmail: { enabled: true, recipients: ["A@x.test", "b@x.test", "a@X.test"] },
        respondentReceipt: { enabled: true, emailBlockId: blk(2) }
      }
    })
    expect(plannedNotifications(s, { blocks }, { [blk(2)]: "me@y.test" })).toEqual([
      { kind: "response", slot: "r0", to: "A@x.test" },
      { kind: "response", slot: "r1", to: "b@x.test" },
      { kind: "receipt", slot: "receipt", blockId: blk(2) }
    ])
    // Unanswered: no receipt. Notifications off: nothing.
    expect(plannedNotifications(s, { blocks }, {}).map((p) => p.kind)).toEqual(["response", "response"])
    expect(plannedNotifications(settings({}), { blocks }, { [blk(2)]: "me@y.test" })).toEqual([])
  })

  it("lets a receipt name only an email block, and an enabled one must name one", () => {
    const receipt = (r: unknown) => settings({ notifications: { respondentReceipt: r } })
    const path = ["notifications", "respondentReceipt", "emailBlockId"]
    expect(notificationIssues(receipt({ enabled: true, emailBlockId: blk(2) }), { blocks })).toEqual([])
    expect(notificationIssues(receipt({ enabled: false, emailBlockId: blk(1) }), { blocks })).toMatchObject([
      { path, rule: "notAnEmailBlock" }
    ])
    expect(notificationIssues(receipt({ enabled: true, emailBlockId: blk(9) }), { blocks })).toMatchObject([
      { path, rule: "danglingReference" }
    ])
    expect(notificationIssues(receipt({ enabled: true }), { blocks })).toMatchObject([
      { path, rule: "required" }
    ])
    expect(notificationIssues(receipt({ enabled: false }), { blocks })).toEqual([])
    // No definition (an interview): nothing can be an email block.
    expect(notificationIssues(receipt({ enabled: true, emailBlockId: blk(2) }), null)).toMatchObject([
      { rule: "danglingReference" }
    ])
  })

  it("warns only when a notification is on and the server cannot send mail", () => {
    const on = settings({ notifications: { responseEmail: { enabled: true, recipients: ["a@x.test"] } } })
    expect(notificationWarnings(on, false).map((w) => w.code)).toEqual(["email_not_configured"])
    expect(notificationWarnings(on, true)).toEqual([])
    expect(notificationWarnings(settings({}), false)).toEqual([])
  })

  it("accepts only plain local@domain addresses for sending", () => {
    expect(isDeliverableAddress("ada.l+forms@example.co.uk")).toBe(true)
    for (const bad of [
      "a@b",
      "Ada <a@b.test>",
      "a@b.test,c@d.test",
      "a@b.test\r\nBcc: c@d.test",
      "a b@c.test"
    ])
      expect(isDeliverableAddress(bad)).toBe(false)
  })

  it("never lets a title or label break a header line, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (title, label) => {
        expect(oneLine(title)).not.toMatch(/[\r\n\u2028\u2029]/)
        const digest = {
          locale: "ja" as const,
          formTitle: title,
          completedAt: new Date(0),
          answers: [{ label, value: title }]
        }
        for (const message of [
          composeResponseEmail(digest, { to: "a@x.test", id: "i", responseUrl: null }),
          composeReceipt(digest, { to: "a@x.test", id: "i" })
        ]) {
          expect(message.subject).not.toMatch(CONTROL)
          for (const value of Object.values(message.headers)) expect(value).not.toMatch(/[\r\n]/)
          expect(message.html).not.toMatch(/<(?!\/?(?:!doctype|html|body|p|table|tr|th|td|br)\b)/i)
        }
      })
    )
  })
})
