// Port: outbound e-mail. A message is what a reader sees (recipient, subject, text and HTML bodies,
// a few headers); how it travels (SMTP, TLS, the sender address) is the adapter's business.
import { Context, Data, type Effect } from "effect"

export interface MailMessage {
  /** One recipient address; a message never goes to more than one. */
  readonly to: string
  /** One line: composers strip CR, LF and other control characters before it gets here. */
  readonly subject: string
  readonly text: string
  readonly html: string
  /**
   * Extra headers (`Auto-Submitted`, `List-Unsubscribe`, ...): names and values are one line each,
   * chosen by the composer, never taken from input.
   */
  readonly headers: Readonly<Record<string, string>>
  /**
   * A stable id for this message: every attempt to send the same message carries the same one, so
   * the adapter's Message-ID is the same and a receiver can drop a second copy.
   */
  readonly id: string
}

/** The message was not accepted. `retryable`: a later attempt may succeed (server down, 4xx). */
export class MailNotSent extends Data.TaggedError("MailNotSent")<{
  /** Value-free: never the address or any part of the message. */
  readonly reason: string
  readonly retryable: boolean
}> {}

export interface MailerService {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailNotSent>
}

/**
 * The deployment's mail transport, when it configures one (SMTP_URL). Null (the default): this
 * server cannot send mail; notifications are accepted, reported as unsendable and logged unsent.
 */
export const Mailer = Context.Reference<MailerService | null>("@folio/domain/Mailer", {
  defaultValue: () => null
})
