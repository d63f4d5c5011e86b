// The Mailer port in memory, for tests that need a mailer but no SMTP server: every message sent is
// kept in order; `fail` makes the next sends fail, as a mail server that refuses would.
import { type MailMessage, type MailerService, MailNotSent } from "@folio/domain"
import { Effect } from "effect"

export interface MemoryMailer extends MailerService {
  readonly sent: ReadonlyArray<MailMessage>
  /** The next `times` sends fail (retryable, as a 4xx would be). */
  readonly fail: (times: number) => void
}

export const makeMemoryMailer = (): MemoryMailer => {
  const sent: Array<MailMessage> = []
  let failures = 0
  return {
    sent,
    fail: (times) => {
      failures = times
    },
    send: (message) =>
      Effect.suspend(() => {
        if (failures > 0) {
          failures--
          return Effect.fail(new MailNotSent({ reason: "refused (memory mailer)", retryable: true }))
        }
        sent.push(message)
        return Effect.void
      })
  }
}
