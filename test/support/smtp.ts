// A real SMTP server in the test process (smtp-server): every accepted message is kept with its
// envelope, its raw bytes and its parse (mailparser); it can refuse the next messages with a 4xx.
import { type AddressObject, type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  /** The SMTP envelope: who the server was asked to deliver to (RCPT TO), whatever the headers say. */
  readonly envelopeTo: ReadonlyArray<string>
  readonly envelopeFrom: string
  readonly raw: string
  readonly parsed: ParsedMail
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:port (no TLS: the test server offers none). */
  readonly url: string
  readonly received: Array<ReceivedMail>
  /** The next `times` messages are refused at the end of DATA (451 "try again later" unless told). */
  readonly refuse: (times: number, code?: number) => void
  /**
   * The next message is held at the end of DATA, never answered: `reached` resolves when it
   * arrives. A client that dies meanwhile leaves it undelivered (it is never kept).
   */
  readonly hold: () => { readonly reached: Promise<void> }
  /** Messages refused so far. */
  readonly refusals: () => number
  readonly close: () => Promise<void>
}

/** The addresses of a parsed To/Cc/Bcc header. */
export const addressesOf = (field: AddressObject | Array<AddressObject> | undefined): Array<string> => {
  const objects: Array<AddressObject> = field === undefined ? [] : Array.isArray(field) ? field : [field]
  return objects.flatMap((a) => a.value.map((v) => v.address ?? ""))
}

export const startSmtpServer = async (): Promise<TestSmtpServer> => {
  const received: Array<ReceivedMail> = []
  let refuseNext = 0
  let refuseCode = 451
  let holdNext: (() => void) | undefined
  let refused = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A held session must not keep close() waiting long.
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        if (holdNext !== undefined) {
          holdNext()
          holdNext = undefined
          return
        }
        if (refuseNext > 0) {
          refuseNext--
          refused++
          const error = new Error("try again later") as Error & { responseCode: number }
          error.responseCode = refuseCode
          callback(error)
          return
        }
        const raw = Buffer.concat(chunks).toString("utf8")
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              envelopeFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
              raw,
              parsed
            })
            callback()
          },
          (e: Error) => callback(e)
        )
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (times, code = 451) => {
      refuseNext = times
      refuseCode = code
    },
    hold: () => ({
      reached: new Promise<void>((resolve) => {
        holdNext = resolve
      })
    }),
    refusals: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** Waits until `done` holds (or fails the test after `timeoutMs`). */
export const until = async <A>(read: () => A | Promise<A>, done: (a: A) => boolean, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > end) throw new Error("timed out waiting")
    await new Promise((r) => setTimeout(r, 50))
  }
}
