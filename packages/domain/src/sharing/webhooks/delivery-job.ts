// The delivery job of one endpoint: its pending deliveries sent in event order, one at a time. A
// failure stops the run (what follows waits: order per endpoint) until the head's retry time, when
// the sweep queues the endpoint's job again; the sweep also announces expiries.
import { Clock, Effect } from "effect"
import type { JobRecord } from "../../kernel/jobs/job.js"
import { enqueueDue } from "../jobs/use-cases.js"
import { type JobOutcome, skipped, storageUnavailable, succeeded } from "../../kernel/jobs/outcome.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import { type WebhookSender, WebhookStore } from "../ports/webhooks.js"
import { sendWebhookEvent, WebhookSettings } from "./use-cases.js"
import { webhookRetryDelay } from "./webhook.js"

export const runWebhookDelivery = (job: JobRecord) =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const { policy } = yield* WebhookSettings
    const endpointId = job.resourceId
    if (endpointId === null) return skipped({ reason: "endpoint_deleted" })
    let delivered = 0
    // A run drains the endpoint's queue (its lease renewed meanwhile): handing over after a batch
    // would leave the rest to the sweep. A delivery that lands as the run ends is queued again by
    // the sweep within JOBS_SCHEDULE_MS.
    for (;;) {
      // Read each time: a disable (by the owner, or by failures) stops the run at once.
      const endpoint = yield* store.get(job.tenantId, endpointId)
      if (endpoint._tag === "None") return skipped({ reason: "endpoint_deleted", delivered })
      if (!endpoint.value.enabled) return skipped({ reason: "endpoint_disabled", delivered })
      const at = new Date(yield* Clock.currentTimeMillis)
      const next = yield* store.nextDelivery(endpointId, at)
      if (next._tag === "None") return succeeded({ delivered })
      if (next._tag === "Waiting") return succeeded({ delivered, next_attempt_at: next.until.toISOString() })
      const attempt = yield* sendWebhookEvent(endpoint.value, next.event, next.deliveryId, at)
      const delay = attempt.ok ? undefined : webhookRetryDelay(next.attempts + 1, policy)
      const stillEnabled = yield* store.recordAttempt(
        { attempt, retryAt: delay === undefined ? undefined : new Date(at.getTime() + delay) },
        policy
      )
      if (!attempt.ok) {
        // A delivery given up lets the next one go at once; a retry makes the queue wait for it.
        if (delay !== undefined || !stillEnabled)
          return succeeded({ delivered, failed_event_id: next.event.id, endpoint_enabled: stillEnabled })
        continue
      }
      delivered++
    }
  }).pipe(Effect.catchTag("StorageError", storageUnavailable("webhook delivery"))) as Effect.Effect<
    JobOutcome,
    never,
    WebhookStore | WebhookSender | IdGen
  >

/**
 * The sweep every instance runs: announces expired resources, gives up what a disabled endpoint
 * has held past the policy's bound, and queues the delivery job of each endpoint with a due
 * delivery and no job active (one per endpoint, whoever queues first).
 */
export const scheduleWebhookDeliveries = Effect.gen(function* () {
  const store = yield* WebhookStore
  const { policy } = yield* WebhookSettings
  const at = new Date(yield* Clock.currentTimeMillis)
  yield* store.announceExpiries(at, 500)
  yield* store.giveUpHeld(new Date(at.getTime() - policy.holdMs), at, 1000)
  const due = yield* store.dueEndpoints(at, 200)
  return yield* enqueueDue(
    "webhook_delivery",
    due.map((d) => ({ tenantId: d.tenantId, resourceId: d.endpointId })),
    {},
    at
  )
})
