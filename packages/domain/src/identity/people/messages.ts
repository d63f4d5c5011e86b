// The e-mails of people's links (an invitation, a password reset) and their sending through the
// Mailer when the deployment has one. A failed send is logged without the address or the link: the
// link is still answered to whoever asked (the console shows it, the CLI prints it).
import { Effect } from "effect"
import { Mailer, type MailMessage } from "../../kernel/ports/mailer.js"
import type { Role } from "./roles.js"

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** One line: a subject or a name inside one, with control characters and line breaks removed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim()

const paragraphs = (lines: ReadonlyArray<string>, url: string) => ({
  text: `${lines.join("\n\n")}\n\n${url}\n`,
  html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
})

const HEADERS = { "Auto-Submitted": "auto-generated" }

export const composeInvitationEmail = (input: {
  readonly id: string
  readonly to: string
  readonly workspaceName: string
  readonly role: Role
  readonly url: string
  readonly expiresInDays: number
}): MailMessage => ({
  id: input.id,
  to: input.to,
  subject: oneLine(`You are invited to ${input.workspaceName} on Folio`),
  headers: HEADERS,
  ...paragraphs(
    [
      `You are invited to join the workspace "${oneLine(input.workspaceName)}" on Folio as ${input.role === "admin" ? "an admin" : `a ${input.role}`}.`,
      `Open this link to accept; it works once, within ${input.expiresInDays} days. If you did not expect it, ignore this e-mail.`
    ],
    input.url
  )
})

export const composeResetEmail = (input: {
  readonly id: string
  readonly to: string
  readonly url: string
  readonly expiresInMinutes: number
}): MailMessage => ({
  id: input.id,
  to: input.to,
  subject: "Reset your Folio password",
  headers: HEADERS,
  ...paragraphs(
    [
      "Someone (hopefully you) asked to reset the password of your Folio account.",
      `Open this link to choose a new one; it works once, within ${input.expiresInMinutes} minutes. If you did not ask, ignore this e-mail: your password stays as it is.`
    ],
    input.url
  )
})

/** Sends the message when a Mailer is configured; whether it went. */
export const sendLinkMail = (message: MailMessage): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const mailer = yield* Mailer
    if (mailer === null) return false
    return yield* mailer.send(message).pipe(
      Effect.as(true),
      Effect.catchTag("MailNotSent", (e) =>
        Effect.as(
          Effect.logWarning("link e-mail not sent", { reason: e.reason, retryable: e.retryable }),
          false
        )
      )
    )
  })
