// The webhook signature (sharing-api.md, Events): `X-Svc-Webhook-Signature: v1=<hex HMAC-SHA256>`
// of `timestamp + "." + raw body`, keyed with the endpoint's signing secret, the timestamp being the
// `X-Svc-Webhook-Timestamp` header. `verifyWebhookSignature` is what a receiver runs.
import { constantTimeEqual, hmacSha256Hex } from "../../kernel/digest.js"

export const WEBHOOK_SIGNATURE_HEADER = "x-svc-webhook-signature"
export const WEBHOOK_TIMESTAMP_HEADER = "x-svc-webhook-timestamp"
export const WEBHOOK_EVENT_ID_HEADER = "x-svc-webhook-id"

/** `v1=` and the hex HMAC-SHA256 of `timestamp.body` under `secret`. */
export const signWebhook = (secret: string, timestamp: string, body: string): string =>
  `v1=${hmacSha256Hex(secret, `${timestamp}.${body}`)}`

export interface WebhookVerification {
  readonly secret: string
  /** The `X-Svc-Webhook-Timestamp` header (Unix seconds). */
  readonly timestamp: string | null | undefined
  /** The `X-Svc-Webhook-Signature` header; several `v1=` values (a rotation) may be comma-separated. */
  readonly signature: string | null | undefined
  /** The raw request body, exactly as received (before any JSON parsing). */
  readonly body: string
  /** Refuse timestamps further than this from `nowSeconds` (replays); default 300. */
  readonly toleranceSeconds?: number
  /** The receiver's current time (Unix seconds): the domain reads no clock of its own. */
  readonly nowSeconds: number
}

/**
 * Whether a delivery is ours and fresh: the signature matches the body under the secret (compared in
 * constant time) and the timestamp is within the tolerance. Use it before trusting any event.
 */
export const verifyWebhookSignature = (input: WebhookVerification): boolean => {
  const { timestamp, signature } = input
  if (typeof timestamp !== "string" || typeof signature !== "string" || !/^\d{1,12}$/.test(timestamp))
    return false
  if (Math.abs(input.nowSeconds - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false
  const expected = signWebhook(input.secret, timestamp, input.body)
  return signature
    .split(",")
    .map((s) => s.trim())
    .some((s) => constantTimeEqual(s, expected))
}
