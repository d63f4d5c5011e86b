// The Mailer port over SMTP with nodemailer: SMTP_URL says where and how (smtps:// is TLS from the
// first byte, smtp:// upgrades with STARTTLS when offered), MAIL_FROM who sends; one pooled transport.
import { Mailer, type MailerService, MailNotSent } from "@folio/domain"
import { Effect, Layer } from "effect"
import type { Transporter } from "nodemailer"
import { clientSpan, peerOf } from "../outbound/client-span.js"

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://...; nodemailer's URL options (e.g. ?requireTLS=true) apply. */
  readonly url: string
  /** The From address, bare or with a name ("Folio <forms@example.com>"). */
  readonly from: string
}

/** The address part of a From value (what the envelope and the Message-ID's domain use). */
export const addressOf = (from: string): string => {
  const angled = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from)
  return (angled?.[1] ?? from).trim()
}

/**
 * Whether a later attempt may succeed: an SMTP 4xx reply (greylisting, a full queue) or no reply at
 * all (connection refused or dropped, a timeout); a 5xx is the server's final word.
 */
const retryable = (error: { readonly responseCode?: number | undefined }) =>
  error.responseCode === undefined || error.responseCode < 500

/**
 * A value-free reason: the SMTP reply code or the failure's code, never nodemailer's message (it
 * quotes recipients and the server's reply text).
 */
const reasonOf = (error: {
  readonly responseCode?: number | undefined
  readonly code?: string | undefined
}) =>
  error.responseCode !== undefined
    ? `the mail server answered ${error.responseCode}`
    : `the mail server could not be reached (${error.code ?? "unknown"})`

/** nodemailer (~0.1 s to load), loaded at a process's first message: most starts send none. */
let library: Promise<typeof import("nodemailer")> | undefined
const nodemailerLibrary = () => (library ??= import("nodemailer"))

export const makeSmtpMailer = (options: SmtpMailerOptions) => {
  const fromAddress = addressOf(options.from)
  const domain = fromAddress.slice(fromAddress.lastIndexOf("@") + 1) || "folio.invalid"
  // One pooled transport, made at the first message.
  let transport: Promise<Transporter> | undefined
  const transportNow = () =>
    (transport ??= nodemailerLibrary().then(({ default: nodemailer }) =>
      // The URL's own settings win over these defaults (nodemailer merges them so).
      nodemailer.createTransport({
        url: options.url,
        pool: true,
        maxConnections: 2,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        // The message never names a file or URL to read, and never should.
        disableFileAccess: true,
        disableUrlAccess: true
      })
    ))
  // smtp://user:pass@host:port: only the host and port are read.
  const smtpPeer = peerOf(options.url.replace(/^smtps?:/i, "http:"))
  const service: MailerService = {
    // A client span per message: the SMTP server's host; never the recipient, subject or body.
    send: (message) =>
      clientSpan("smtp send", { "folio.outbound": "smtp", ...smtpPeer }, () =>
        Effect.tryPromise({
          try: async () =>
            (await transportNow()).sendMail({
              from: options.from,
              // One structured recipient and an explicit envelope: nothing in a header value is ever
              // parsed as another address.
              to: { name: "", address: message.to },
              envelope: { from: fromAddress, to: [message.to] },
              subject: message.subject,
              text: message.text,
              html: message.html,
              headers: { ...message.headers },
              messageId: `<${message.id}@${domain}>`
            }),
          catch: (cause) => {
            const error = (cause ?? {}) as { responseCode?: number; code?: string }
            return new MailNotSent({ reason: reasonOf(error), retryable: retryable(error) })
          }
        })
      ).pipe(Effect.asVoid)
  }
  return {
    service,
    close: (): void => {
      void transport?.then((t) => t.close())
    }
  }
}

/** The Mailer over SMTP for the layer's lifetime (the pool's connections closed at shutdown). */
export const SmtpMailerLive = (options: SmtpMailerOptions) =>
  Layer.effect(
    Mailer,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => makeSmtpMailer(options)),
        (mailer) => Effect.sync(mailer.close)
      ),
      (mailer) => mailer.service
    )
  )
