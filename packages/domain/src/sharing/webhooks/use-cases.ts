// The owner's webhook routes: create (the secret shown once), list, read one, patch, delete, rotate
// the secret, enable (the failure count reset), disable, a signed test event sent now, and the
// latest attempts.
import { Clock, Context, Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { toBase64Url } from "../../kernel/digest.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  ResourceChanged,
  ResourceNotFound,
  WebhookEndpointLimitReached,
  WebhookUrlRefused
} from "../errors.js"
import { enqueueDue } from "../jobs/use-cases.js"
import type { SharingEventRecord } from "../ports/upload-requests.js"
import { type WebhookAttemptRecord, WebhookSender, WebhookStore } from "../ports/webhooks.js"
import {
  signWebhook,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER
} from "./signature.js"
import {
  DEFAULT_WEBHOOK_POLICY,
  endpointUrlProblem,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_ATTEMPTS_PAGE,
  WEBHOOK_TEST_EVENT,
  type WebhookEndpointRecord,
  type WebhookPolicy
} from "./webhook.js"
import { type CreateWebhookInput, type PatchWebhookInput, webhookEventBody } from "./wire.js"

/** The server's webhook settings: the retry policy, and whether loopback receivers are allowed. */
export const WebhookSettings = Context.Reference<{
  readonly policy: WebhookPolicy
  readonly allowLoopback: boolean
}>("@folio/domain/WebhookSettings", {
  defaultValue: () => ({ policy: DEFAULT_WEBHOOK_POLICY, allowLoopback: false })
})

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const newSecret = Effect.map(
  Effect.flatMap(Effect.service(IdGen), (ids) => ids.randomBytes(32)),
  (bytes) => `whsec_${toBase64Url(bytes)}`
)

const checkUrl = (url: string) =>
  Effect.flatMap(Effect.service(WebhookSettings), (settings) => {
    const problem = endpointUrlProblem(url, settings.allowLoopback)
    return problem === undefined ? Effect.void : Effect.fail(new WebhookUrlRefused({ problem }))
  })

const owned = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const found = yield* (yield* WebhookStore).get(principal.tenant, id)
    if (Option.isNone(found)) return yield* new ResourceNotFound()
    return found.value
  })

/**
 * Writes `change(current)` with a CAS on the row version, re-reading after a lost race. When the
 * write turns delivery on, delivery resumes: what was held while it was off is sent, in order.
 */
const write = (
  id: string,
  change: (current: WebhookEndpointRecord) => Effect.Effect<WebhookEndpointRecord, WebhookUrlRefused>
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const store = yield* WebhookStore
    // No webhook write takes a precondition: a lost race is read again, never answered 412.
    const next = yield* retryOnStale(
      LOST_RACE_TRIES,
      () =>
        Effect.gen(function* () {
          const current = yield* owned(id)
          const changed = yield* change(current)
          const next = { ...changed, rowVersion: current.rowVersion + 1, updatedAt: yield* now }
          if ((yield* store.update(principal.tenant, next)) !== "updated") return Option.none()
          return Option.some({ next, resumed: !current.enabled && next.enabled })
        }),
      () => new ResourceChanged()
    )
    if (next.resumed) yield* resumeDelivery(next.next)
    return next.next
  })

/**
 * "Delivery resumes" (the spec's enable): held deliveries older than the policy's bound are given
 * up, the rest are due now (a retry wait from before the pause is dropped), and the endpoint's
 * job is queued. Run after the endpoint's write: a pause that lands in between stops the job at
 * its first read, and a crash in between leaves the sweep to queue it.
 */
const resumeDelivery = (endpoint: WebhookEndpointRecord) =>
  Effect.gen(function* () {
    const { policy } = yield* WebhookSettings
    const at = yield* now
    yield* (yield* WebhookStore).resumeDeliveries(
      endpoint.tenantId,
      endpoint.id,
      at,
      new Date(at.getTime() - policy.holdMs)
    )
    yield* enqueueDue("webhook_delivery", [{ tenantId: endpoint.tenantId, resourceId: endpoint.id }], {}, at)
  })

/** `POST /webhooks`. */
export const createWebhook = (input: CreateWebhookInput) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    yield* checkUrl(input.url)
    const at = yield* now
    const endpoint: WebhookEndpointRecord = {
      id: yield* (yield* IdGen).uuidV7,
      tenantId: principal.tenant,
      name: input.name,
      url: input.url,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      signingSecret: yield* newSecret,
      failureCount: 0,
      disabledReason: null,
      rowVersion: 1,
      createdAt: at,
      updatedAt: at
    }
    const inserted = yield* (yield* WebhookStore).insert(endpoint, MAX_WEBHOOK_ENDPOINTS)
    if (!inserted) return yield* new WebhookEndpointLimitReached({ maxEndpoints: MAX_WEBHOOK_ENDPOINTS })
    return endpoint
  })

/** `GET /webhooks/{id}` (an extension of the spec): one endpoint, without its secret. */
export const getWebhook = (id: string) => owned(id)

/**
 * `DELETE /webhooks/{id}` (an extension of the spec): the endpoint, its pending deliveries and its
 * attempts go; its slot under MAX_WEBHOOK_ENDPOINTS is free again.
 */
export const deleteWebhook = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    if (!(yield* (yield* WebhookStore).remove(principal.tenant, id))) return yield* new ResourceNotFound()
  })

export const listWebhooks = Effect.gen(function* () {
  const principal = yield* Principal
  return yield* (yield* WebhookStore).list(principal.tenant)
})

/** `PATCH /webhooks/{id}`: the fields sent. Turning it on resets the failure count, as `enable` does. */
export const patchWebhook = (id: string, input: PatchWebhookInput) =>
  Effect.gen(function* () {
    if (input.url !== undefined) yield* checkUrl(input.url)
    return yield* write(id, (current) =>
      Effect.succeed({
        ...current,
        name: input.name ?? current.name,
        url: input.url ?? current.url,
        events: input.events === undefined ? current.events : [...new Set(input.events)],
        ...(input.enabled === undefined ? {} : enabledState(current, input.enabled))
      })
    )
  })

const enabledState = (current: WebhookEndpointRecord, enabled: boolean) =>
  enabled
    ? { enabled: true, failureCount: 0, disabledReason: null }
    : { enabled: false, failureCount: current.failureCount, disabledReason: null }

export const enableWebhook = (id: string) =>
  write(id, (c) => Effect.succeed({ ...c, ...enabledState(c, true) }))
export const disableWebhook = (id: string) =>
  write(id, (c) => Effect.succeed({ ...c, ...enabledState(c, false) }))

/** `POST /webhooks/{id}/rotate-secret`: the old secret stops signing at once. */
export const rotateWebhookSecret = (id: string) =>
  Effect.gen(function* () {
    const secret = yield* newSecret
    return yield* write(id, (c) => Effect.succeed({ ...c, signingSecret: secret }))
  })

/** `GET /webhooks/{id}/deliveries`: the latest attempts, newest first. */
export const webhookAttempts = (id: string, limit?: number) =>
  Effect.gen(function* () {
    const endpoint = yield* owned(id)
    return yield* (yield* WebhookStore).attempts(
      endpoint.tenantId,
      endpoint.id,
      Math.min(limit ?? WEBHOOK_ATTEMPTS_PAGE.default, WEBHOOK_ATTEMPTS_PAGE.max)
    )
  })

/** The headers of one signed delivery. */
export const signedHeaders = (secret: string, eventId: string, body: string, atMs: number) => {
  const timestamp = String(Math.floor(atMs / 1000))
  return {
    "content-type": "application/json",
    "user-agent": "Folio-Webhooks/1",
    [WEBHOOK_EVENT_ID_HEADER]: eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, timestamp, body)
  }
}

/**
 * Sends `event` to the endpoint now, signed with its current secret, and answers the attempt as it
 * is recorded (`deliveryId`: the delivery it belongs to, null for the test event).
 */
export const sendWebhookEvent = (
  endpoint: WebhookEndpointRecord,
  event: Pick<SharingEventRecord, "id" | "type" | "payload" | "createdAt">,
  deliveryId: string | null,
  at: Date
) =>
  Effect.gen(function* () {
    const { policy } = yield* WebhookSettings
    const body = webhookEventBody(event)
    const response = yield* (yield* WebhookSender).send({
      url: endpoint.url,
      headers: signedHeaders(endpoint.signingSecret, event.id, body, at.getTime()),
      body,
      timeoutMs: policy.timeoutMs
    })
    const attempt: WebhookAttemptRecord = {
      id: yield* (yield* IdGen).uuidV7,
      tenantId: endpoint.tenantId,
      endpointId: endpoint.id,
      deliveryId,
      eventId: event.id,
      eventType: event.type,
      attemptedAt: at,
      ok: response.ok,
      statusCode: response.statusCode,
      latencyMs: response.latencyMs,
      error: response.error,
      responseExcerpt: response.excerpt
    }
    return attempt
  })

/**
 * `POST /webhooks/{id}/test`: a signed `webhook.test` event sent now (even to a disabled endpoint:
 * it is how an owner checks a fix), recorded among the attempts; it never moves the failure count.
 */
export const testWebhook = (id: string) =>
  Effect.gen(function* () {
    const endpoint = yield* owned(id)
    const at = yield* now
    const event = {
      id: yield* (yield* IdGen).uuidV7,
      type: WEBHOOK_TEST_EVENT,
      payload: { webhook: { id: endpoint.id, name: endpoint.name } },
      createdAt: at
    }
    const attempt = yield* sendWebhookEvent(endpoint, event, null, at)
    yield* (yield* WebhookStore).recordTestAttempt(attempt)
    return attempt
  })
