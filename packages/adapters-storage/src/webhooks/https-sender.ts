// WebhookSender over node:https: the host is resolved first and every address checked (no private,
// loopback, link-local or reserved address: SSRF), the connection is pinned to the checked address
// (no second lookup a DNS rebinding could answer differently), redirects are never followed, the
// whole attempt is bounded by its timeout, and only a short excerpt of the answer is kept.
import { lookup } from "node:dns/promises"
import { Agent, request } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { isForbiddenAddress, WebhookSender, type WebhookResponse } from "@folio/domain"
import { Effect, Layer } from "effect"

export interface HttpsWebhookSenderOptions {
  /** Let 127.0.0.0/8 and ::1 through (an operator setting the tests use for their local receiver). */
  readonly allowLoopback?: boolean
  /** Extra trusted CA certificates (PEM), e.g. a private CA; the system's stay trusted. */
  readonly ca?: string | undefined
}

const EXCERPT_CHARS = 256

const failure = (error: string, started: number, statusCode: number | null = null): WebhookResponse => ({
  ok: false,
  statusCode,
  latencyMs: Math.round(performance.now() - started),
  error,
  excerpt: null
})

/** Why a connection failed, in words that carry no value from the request. */
const reasonOf = (error: unknown): string => {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused"
    case "ECONNRESET":
      return "connection reset"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found"
    case "ETIMEDOUT":
    case "ABORT_ERR":
      return "timed out"
    default:
      return (typeof code === "string" && code.startsWith("ERR_TLS")) || /CERT|SSL/.test(String(code))
        ? "TLS handshake failed"
        : "request failed"
  }
}

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

  /** The host's addresses, refused whole when any is one we never reach. */
  const resolve = async (host: string): Promise<{ address: string; family: number } | string> => {
    const bare = host.replace(/^\[(.*)\]$/, "$1")
    const family = isIP(bare)
    const found =
      family !== 0 ? [{ address: bare, family }] : await lookup(bare, { all: true, verbatim: true })
    if (found.length === 0) return "host not found"
    if (found.some((a) => isForbiddenAddress(a.address, allowLoopback))) return "address not allowed"
    return found[0] as { address: string; family: number }
  }

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
          if (typeof target === "string") return done(failure(target, started))
          const pinned: LookupFunction = (_host, _opts, callback) =>
            // biome-ignore lint/suspicious/noExplicitAny: node's overloaded callback (address, family)
            (callback as any)(null, target.address, target.family)
          const outgoing = request(
            url,
            {
              method: "POST",
              headers: { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
              lookup: pinned,
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
          outgoing.on("error", (error) =>
            done(failure(signal.aborted ? "timed out" : reasonOf(error), started))
          )
          outgoing.end(req.body)
        })
        .catch((error: unknown) => done(failure(reasonOf(error), started)))
    })

  return WebhookSender.of({ send: (req) => Effect.promise(() => send(req)) })
}

export const HttpsWebhookSenderLive = (options: HttpsWebhookSenderOptions = {}) =>
  Layer.succeed(WebhookSender, makeHttpsWebhookSender(options))
