// WebhookSender over node:https: the host is resolved first and every address checked by the
// domain's rule (no private, loopback, link-local or special-purpose address however it is spelled:
// SSRF), the connection is pinned to the checked address (no second lookup a DNS rebinding could
// answer differently), redirects are never followed, the whole attempt is bounded by its timeout,
// and only a short excerpt of the answer is kept. Until a TLS session with the named host exists,
// every failure reads the same (WEBHOOK_UNDELIVERABLE), so attempts cannot map ports.
import { Agent, request } from "node:https"
import type { TLSSocket } from "node:tls"
import { WEBHOOK_UNDELIVERABLE, WebhookSender, type WebhookResponse } from "@folio/domain"
import { Effect, Layer } from "effect"
import { clientSpan, peerOf } from "../outbound/client-span.js"
import { makeOutboundResolver, pinnedLookup, type ResolveName } from "../outbound/pinned-address.js"

export interface HttpsWebhookSenderOptions {
  /** Let 127.0.0.0/8 and ::1 through (an operator setting the tests use for their local receiver). */
  readonly allowLoopback?: boolean
  /** Extra trusted CA certificates (PEM), e.g. a private CA; the system's stay trusted. */
  readonly ca?: string | undefined
  /** How a name is resolved (every address of it): the system's resolver unless a test says. */
  readonly resolveName?: ResolveName | undefined
}

const EXCERPT_CHARS = 256

const failure = (error: string, started: number, statusCode: number | null = null): WebhookResponse => ({
  ok: false,
  statusCode,
  latencyMs: Math.round(performance.now() - started),
  error,
  excerpt: null
})

export const makeHttpsWebhookSender = (options: HttpsWebhookSenderOptions = {}) => {
  const allowLoopback = options.allowLoopback === true
  // Connections to a receiver are kept and reused: a TLS handshake per delivery would cost more
  // than the delivery. Sockets are keyed by host and port, and each is pinned to a checked address.
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 16,
    timeout: 30_000,
    ...(options.ca === undefined ? {} : { ca: options.ca })
  })

  // The host's checked address; a name that does not resolve reads like a refused one.
  const resolve = makeOutboundResolver({ allowLoopback, resolveName: options.resolveName })

  const send = (req: {
    url: string
    headers: Readonly<Record<string, string>>
    body: string
    timeoutMs: number
  }) =>
    new Promise<WebhookResponse>((done) => {
      const started = performance.now()
      let url: URL
      try {
        url = new URL(req.url)
      } catch {
        return done(failure("invalid URL", started))
      }
      if (url.protocol !== "https:") return done(failure("not https", started))
      const signal = AbortSignal.timeout(req.timeoutMs)
      resolve(url.hostname)
        .then((target) => {
          if (target === undefined) return done(failure(WEBHOOK_UNDELIVERABLE, started))
          const outgoing = request(
            url,
            {
              method: "POST",
              headers: { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
              lookup: pinnedLookup(target),
              signal,
              agent
            },
            (response) => {
              const status = response.statusCode ?? 0
              let excerpt = ""
              response.setEncoding("utf8")
              response.on("data", (chunk: string) => {
                if (excerpt.length < EXCERPT_CHARS) excerpt += chunk
                if (excerpt.length >= EXCERPT_CHARS) response.destroy()
              })
              const finish = () =>
                done({
                  ok: status >= 200 && status < 300,
                  statusCode: status,
                  latencyMs: Math.round(performance.now() - started),
                  error:
                    status >= 200 && status < 300
                      ? null
                      : status >= 300 && status < 400
                        ? `redirect ${status} not followed`
                        : `status ${status}`,
                  excerpt: excerpt === "" ? null : excerpt.slice(0, EXCERPT_CHARS)
                })
              response.on("end", finish)
              response.on("close", finish)
              response.on("error", finish)
            }
          )
          // Only once a TLS session with the URL's host is up (its certificate verified) may a
          // failure say more: before that, refused, reset, silent and TLS errors are one answer.
          let secured = false
          outgoing.on("socket", (socket) => {
            if ((socket as TLSSocket).authorized) secured = true
            else socket.once("secureConnect", () => (secured = true))
          })
          outgoing.on("error", () =>
            done(failure(secured && signal.aborted ? "timed out" : WEBHOOK_UNDELIVERABLE, started))
          )
          outgoing.end(req.body)
        })
        .catch(() => done(failure(WEBHOOK_UNDELIVERABLE, started)))
    })

  // A client span per delivery: the receiver's host, the status; never its path (it may hold a
  // secret), the signature header or the body.
  return WebhookSender.of({
    send: (req) =>
      clientSpan(
        "POST",
        { "http.request.method": "POST", "folio.outbound": "webhook", ...peerOf(req.url) },
        (status) =>
          Effect.promise(() =>
            send(req).then((response) => {
              if (response.statusCode !== null) status(response.statusCode)
              return response
            })
          )
      )
  })
}

export const HttpsWebhookSenderLive = (options: HttpsWebhookSenderOptions = {}) =>
  Layer.succeed(WebhookSender, makeHttpsWebhookSender(options))
