// Webhook endpoints and their deliveries: the events one can subscribe to, the records, the rule
// for an endpoint's URL, the retry schedule of a delivery and when an endpoint is turned off.
import { Schema } from "effect"

export const WEBHOOK_EVENTS = [
  "resource.created",
  "resource.updated",
  "resource.deleted",
  "resource.expired",
  "link.clicked",
  "upload_request.submitted",
  "upload_request.reviewed"
] as const
export const WebhookEvent = Schema.Literals(WEBHOOK_EVENTS)
export type WebhookEvent = typeof WebhookEvent.Type

/** The test event `POST /webhooks/{id}/test` sends (never stored in the outbox). */
export const WEBHOOK_TEST_EVENT = "webhook.test"

/** Endpoints an account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20

/** How many of an endpoint's latest attempts a read lists. */
export const WEBHOOK_ATTEMPTS_PAGE = { default: 50, max: 200 } as const

export interface WebhookEndpointRecord {
  readonly id: string
  readonly tenantId: string
  readonly name: string
  /** https only. */
  readonly url: string
  readonly events: ReadonlyArray<WebhookEvent>
  readonly enabled: boolean
  /** What signs deliveries; shown only at creation and rotation. */
  readonly signingSecret: string
  /** Failed attempts in a row (any delivery); reset by a success or `enable`. */
  readonly failureCount: number
  /** Why delivery was turned off by the service (null when the owner did, or it is on). */
  readonly disabledReason: string | null
  readonly rowVersion: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** How deliveries are retried and when an endpoint is turned off. */
export interface WebhookPolicy {
  /** The waits before a delivery's 2nd, 3rd, ... attempt; after the last, it is given up. */
  readonly retryDelaysMs: ReadonlyArray<number>
  /** Failed attempts in a row after which the endpoint is disabled. */
  readonly disableAfterFailures: number
  /** Each attempt waits at most this long for an answer. */
  readonly timeoutMs: number
}

const MINUTE = 60_000
/**
 * 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 10 h: eight attempts over about 25 hours, so a receiver down
 * for a day still gets every event; with `disableAfterFailures` 15, an endpoint failing everything
 * is turned off after about two deliveries' worth of attempts.
 */
export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  retryDelaysMs: [1, 5, 30, 120, 300, 480, 600].map((m) => m * MINUTE),
  disableAfterFailures: 15,
  timeoutMs: 10_000
}

/** The wait after a delivery's `attempts`-th failure, or undefined when it is given up. */
export const webhookRetryDelay = (attempts: number, policy: WebhookPolicy): number | undefined =>
  policy.retryDelaysMs[attempts - 1]

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/**
 * Whether an IP address (v4 or v6, as text) is one a webhook must never reach: private, loopback,
 * link-local, unique-local, carrier-grade NAT, unspecified, multicast or reserved, and IPv4 mapped
 * into IPv6. `allowLoopback` lets 127.0.0.0/8 and ::1 through (the tests' receiver).
 */
export const isForbiddenAddress = (address: string, allowLoopback = false): boolean => {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, "")
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped?.[1] !== undefined) return isForbiddenAddress(mapped[1], allowLoopback)
  const v4 = IPV4.exec(lower)
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    if ([a, b, Number(v4[3]), Number(v4[4])].some((n) => n > 255)) return true
    if (a === 127) return !allowLoopback
    return (
      a === 0 ||
      a === 10 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    )
  }
  if (!lower.includes(":")) return true
  if (lower === "::1") return !allowLoopback
  return (
    lower === "::" ||
    /^f[cd]/.test(lower) ||
    /^fe[89ab]/.test(lower) ||
    /^ff/.test(lower) ||
    lower.startsWith("64:ff9b:") ||
    lower.startsWith("2001:db8:")
  )
}

/**
 * Why a URL cannot be an endpoint (undefined when it can): https, a host, no credentials, and not
 * an address literal we refuse. Names are checked again when each delivery resolves them.
 */
export const endpointUrlProblem = (url: string, allowLoopback = false): string | undefined => {
  const match = /^https:\/\/([^/?#]+)([/?#].*)?$/i.exec(url)
  if (match === null) return "must be an https:// URL"
  const authority = match[1] ?? ""
  if (authority.includes("@")) return "must not carry credentials"
  const host = authority.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1")
  if (host === "") return "must name a host"
  if (url.length > 2000) return "is too long"
  const literal = IPV4.test(host) || host.includes(":")
  if (literal && isForbiddenAddress(host, allowLoopback))
    return "must not point at a private or local address"
  if (!literal && /^localhost\.?$/i.test(host) && !allowLoopback) return "must not point at a local address"
  return undefined
}
