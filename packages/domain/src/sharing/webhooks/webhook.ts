// Webhook endpoints and their deliveries: the events one can subscribe to, the records, the rule
// for an endpoint's URL, the retry schedule of a delivery and when an endpoint is turned off.
import { Schema } from "effect"
import type { WebhookUrlProblem } from "../errors/webhooks.js"
import { isAddressLiteral, isForbiddenAddress } from "./address.js"

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
  /**
   * How long events are held for a disabled endpoint: older ones are given up when it is enabled
   * again (and by the sweep), as a delivery is given up after its retries.
   */
  readonly holdMs: number
}

const MINUTE = 60_000
/**
 * 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 10 h: eight attempts over about 25 hours, so a receiver down
 * for a day still gets every event; with `disableAfterFailures` 15, an endpoint failing everything
 * is turned off after about two deliveries' worth of attempts.
 */
const RETRY_DELAYS_MS = [1, 5, 30, 120, 300, 480, 600].map((m) => m * MINUTE)

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  retryDelaysMs: RETRY_DELAYS_MS,
  disableAfterFailures: 15,
  timeoutMs: 10_000,
  // The retry horizon: a paused endpoint keeps what a failing one would still be retrying.
  holdMs: RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)
}

/** The wait after a delivery's `attempts`-th failure, or undefined when it is given up. */
export const webhookRetryDelay = (attempts: number, policy: WebhookPolicy): number | undefined =>
  policy.retryDelaysMs[attempts - 1]

/**
 * What an attempt says when nothing was exchanged with a receiver: an address refused by policy,
 * a name that does not resolve, a refused, reset or silent connection, a failed TLS handshake.
 * One text for all, so the attempts list cannot tell an open port from a closed one (a scanner).
 */
export const WEBHOOK_UNDELIVERABLE = "could not deliver"

/**
 * Why a URL cannot be an endpoint (undefined when it can): https, a host, no credentials, and not
 * an address we refuse. The host is read as the WHATWG URL parser (and so the sender) reads it, so
 * `https://0x7f.1/` is judged as 127.0.0.1. Names are checked again when each delivery resolves them.
 */
export const endpointUrlProblem = (url: string, allowLoopback = false): WebhookUrlProblem | undefined => {
  if (url.length > 2000) return "is too long"
  if (!/^https:\/\/[^/?#]/i.test(url) || !URL.canParse(url)) return "must be an https:// URL"
  // An https URL that parses has a host: the pattern asked for one, and the parser refuses an empty one.
  const parsed = new URL(url)
  if (parsed.username !== "" || parsed.password !== "") return "must not carry credentials"
  const host = parsed.hostname
  if (isAddressLiteral(host))
    return isForbiddenAddress(host, allowLoopback)
      ? "must not point at a private or local address"
      : undefined
  if (/(^|\.)localhost\.?$/i.test(host) && !allowLoopback) return "must not point at a local address"
  return undefined
}
