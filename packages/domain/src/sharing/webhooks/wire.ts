// Webhooks on the wire: create and patch bodies, the endpoint as read (never its secret), the
// endpoint with its secret (creation and rotation only), an attempt, and an event's JSON body.
import { Schema } from "effect"
import type { SharingEventRecord } from "../ports/upload-requests.js"
import type { WebhookAttemptRecord } from "../ports/webhooks.js"
import { WebhookEvent, type WebhookEndpointRecord } from "./webhook.js"

const Name = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))
const Url = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000))
const Events = Schema.Array(WebhookEvent).check(Schema.isMinLength(1), Schema.isMaxLength(7))

export const CreateWebhookInput = Schema.Struct({
  name: Name,
  url: Url,
  events: Events,
  enabled: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "CreateWebhook" })
export type CreateWebhookInput = typeof CreateWebhookInput.Type

export const PatchWebhookInput = Schema.Struct({
  name: Schema.optionalKey(Name),
  url: Schema.optionalKey(Url),
  events: Schema.optionalKey(Events),
  enabled: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "PatchWebhook" })
export type PatchWebhookInput = typeof PatchWebhookInput.Type

export const WebhookView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEvent),
  enabled: Schema.Boolean,
  /** Failed attempts in a row; the endpoint is disabled when it reaches the server's limit. */
  failure_count: Schema.Int,
  /** Why the service turned delivery off (null when on, or turned off by the owner). */
  disabled_reason: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "Webhook" })

export const WebhookWithSecret = Schema.Struct({
  ...WebhookView.fields,
  /** Signs every delivery: shown this once (and at each rotation). */
  signing_secret: Schema.String
}).annotate({ identifier: "WebhookWithSecret" })

export const WebhookAttemptView = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  attempted_at: Schema.String,
  /** Whether the receiver answered 2xx. */
  ok: Schema.Boolean,
  status_code: Schema.NullOr(Schema.Int),
  latency_ms: Schema.Int,
  /** Why it failed, value-free: `status 500`, `redirect 302 not followed`, `timed out`, `could not deliver`. */
  error: Schema.NullOr(Schema.String),
  /** The start of the receiver's answer (at most 256 characters). */
  response_excerpt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WebhookAttempt" })

export const webhookView = (w: WebhookEndpointRecord) => ({
  id: w.id,
  name: w.name,
  url: w.url,
  events: [...w.events],
  enabled: w.enabled,
  failure_count: w.failureCount,
  disabled_reason: w.disabledReason,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString()
})

export const webhookAttemptView = (a: WebhookAttemptRecord) => ({
  id: a.id,
  event_id: a.eventId,
  event_type: a.eventType,
  attempted_at: a.attemptedAt.toISOString(),
  ok: a.ok,
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  error: a.error,
  response_excerpt: a.responseExcerpt
})

/** The JSON body a receiver gets: `id` is stable across retries (de-duplicate on it). */
export const webhookEventBody = (e: Pick<SharingEventRecord, "id" | "type" | "payload" | "createdAt">) =>
  JSON.stringify({ id: e.id, type: e.type, created_at: e.createdAt.toISOString(), data: e.payload })
