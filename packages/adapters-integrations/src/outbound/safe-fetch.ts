// An SSRF-safe `fetch` for GETs of documents named by outsiders (an OAuth client's metadata
// document): https only, the host resolved and checked by the webhook sender's address rule and the
// connection pinned to the checked address, redirects never followed, bounded in time and size.
// It answers a WHATWG Response, so a library's `fetch` option can take it.
import { Agent, request } from "node:https"
import { makeOutboundResolver, type OutboundAddressOptions, pinnedLookup } from "./pinned-address.js"

export type { ResolvedAddress, ResolveName } from "./pinned-address.js"

export interface SafeFetchOptions extends OutboundAddressOptions {
  /** Extra trusted CA certificates (PEM), e.g. a private CA; the system's stay trusted. */
  readonly ca?: string | undefined
  /** How long a fetch may take when the caller gives no signal (default 5 s). */
  readonly timeoutMs?: number | undefined
  /** The most body bytes read (default 1 MiB): past it the body's stream fails. */
  readonly maxBodyBytes?: number | undefined
}

export type SafeFetch = (url: string | URL, init?: RequestInit) => Promise<Response>

const DEFAULT_TIMEOUT_MS = 5_000
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/**
 * Rejections read like WHATWG fetch's (a TypeError "fetch failed"); the cause says why, for logs.
 * A refused address, a name that does not resolve and a failed connection are told apart only there.
 */
const failed = (reason: string | Error): TypeError =>
  new TypeError("fetch failed", { cause: typeof reason === "string" ? new Error(reason) : reason })

const headersOf = (init: RequestInit["headers"]): Record<string, string> => {
  const out: Record<string, string> = {}
  new Headers(init).forEach((value, name) => {
    out[name] = value
  })
  return out
}

export const makeSafeFetch = (options: SafeFetchOptions = {}): SafeFetch => {
  const resolve = makeOutboundResolver(options)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // No pooled connections: these fetches are rare, and each is pinned to its own checked address.
  const agent = new Agent({ keepAlive: false, ...(options.ca === undefined ? {} : { ca: options.ca }) })

  return async (input, init = {}) => {
    let url: URL
    try {
      url = new URL(input)
    } catch {
      throw failed("invalid URL")
    }
    if (url.protocol !== "https:") throw failed("only https is fetched")
    const method = (init.method ?? "GET").toUpperCase()
    if (method !== "GET" && method !== "HEAD") throw failed("only GET and HEAD are fetched")
    const signal = init.signal ?? AbortSignal.timeout(timeoutMs)
    if (signal.aborted) throw failed("aborted")
    // A name that does not resolve reads like a refused one: the answers must not tell which
    // internal names exist.
    const target = await resolve(url.hostname).catch(() => undefined)
    if (target === undefined) throw failed("forbidden address")
    const headers = headersOf(init.headers)

    return new Promise<Response>((done, fail) => {
      const outgoing = request(
        url,
        { method, headers, lookup: pinnedLookup(target), signal, agent },
        (incoming) => {
          const status = incoming.statusCode ?? 0
          if (status < 200 || status > 599) {
            incoming.destroy()
            return fail(failed(`status ${status}`))
          }
          if (status >= 300 && status < 400 && init.redirect === "error") {
            incoming.destroy()
            return fail(failed("redirect refused"))
          }
          const responseHeaders = new Headers()
          for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
            try {
              responseHeaders.append(incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string)
            } catch {
              // A header value WHATWG Headers will not hold is left out.
            }
          }
          let body: ReadableStream<Uint8Array> | null = null
          if (method === "HEAD" || NULL_BODY.has(status)) incoming.resume()
          else
            body = new ReadableStream<Uint8Array>({
              start: (controller) => {
                let received = 0
                let settled = false
                const settle = (error?: Error) => {
                  if (settled) return
                  settled = true
                  if (error === undefined) controller.close()
                  else controller.error(failed(error))
                }
                incoming.on("data", (chunk: Buffer) => {
                  if (settled) return
                  received += chunk.length
                  if (received > maxBodyBytes) {
                    settle(new Error("response too large"))
                    incoming.destroy()
                    return
                  }
                  controller.enqueue(new Uint8Array(chunk))
                })
                incoming.on("end", () => settle())
                incoming.on("error", (error) => settle(error))
                incoming.on("close", () => {
                  if (!incoming.complete) settle(new Error("connection closed before the body ended"))
                })
              },
              cancel: () => {
                incoming.destroy()
              }
            })
          done(
            new Response(body, { status, statusText: incoming.statusMessage ?? "", headers: responseHeaders })
          )
        }
      )
      outgoing.on("error", (error) => fail(failed(signal.aborted ? new Error("timed out") : error)))
      outgoing.end()
    })
  }
}
