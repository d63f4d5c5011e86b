// A local HTTPS webhook receiver for tests: a self-signed certificate for 127.0.0.1 made with the
// machine's openssl, every request kept (headers and raw body), and the answer chosen per request.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import type { IncomingHttpHeaders } from "node:http"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

/** A key and self-signed certificate for 127.0.0.1 and localhost; `certFile` is the CA to trust. */
export const selfSignedCertificate = () => {
  const dir = mkdtempSync(join(tmpdir(), "folio-tls-"))
  const keyFile = join(dir, "key.pem")
  const certFile = join(dir, "cert.pem")
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost"
    ],
    { stdio: "ignore" }
  )
  return {
    dir,
    certFile,
    key: readFileSync(keyFile, "utf8"),
    cert: readFileSync(certFile, "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true })
  }
}

export type Answer =
  | number
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  | "hang"

export const startHttpsReceiver = async () => {
  const tls = selfSignedCertificate()
  const received: Array<ReceivedWebhook> = []
  let answer: (request: ReceivedWebhook, index: number) => Answer = () => 200
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() }
      received.push(got)
      const a = answer(got, received.length - 1)
      if (a === "hang") return
      const { status, headers, body } = typeof a === "number" ? { status: a, headers: {}, body: "ok" } : a
      res.writeHead(status, headers)
      res.end(body ?? "")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    port,
    caFile: tls.certFile,
    ca: tls.cert,
    received,
    /** Sets how each following request is answered (its index counts every request so far). */
    answerWith: (f: (request: ReceivedWebhook, index: number) => Answer) => {
      answer = f
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      tls.remove()
    }
  }
}
