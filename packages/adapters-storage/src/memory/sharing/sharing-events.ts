// The in-memory outbox: the twin of sql/sharing/sharing-events.ts (an event, its deliveries to the
// subscribed endpoints, held by disabled ones, and each enabled one's delivery job unless one is active).
import { randomFillSync, randomUUID } from "node:crypto"
import {
  ACTIVE_JOB_STATUSES,
  JOB_MAX_ATTEMPTS,
  jobDedupeKey,
  resourceEvent as domainResourceEvent,
  type SharingEventRecord,
  uuidV7FromParts,
  type WebhookEvent
} from "@folio/domain"
import { newJobRecord } from "../kernel/jobs.js"
import type { MemoryTables } from "../store.js"

export const recordSharingEvent = (tables: MemoryTables, e: SharingEventRecord): void => {
  tables.sharingEvents.push(e)
  const endpoints = [...tables.webhooks.endpoints.values()]
    .filter((w) => w.tenantId === e.tenantId && w.events.includes(e.type as WebhookEvent))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
  for (const w of endpoints) {
    tables.webhooks.deliveries.push({
      id: randomUUID(),
      endpointId: w.id,
      event: e,
      status: "pending",
      attempts: 0,
      nextAttemptAt: e.createdAt
    })
    // A disabled endpoint holds the delivery; its job is queued when it is enabled.
    if (!w.enabled) continue
    const key = jobDedupeKey("webhook_delivery", w.id)
    const active = [...tables.jobs.values()].some(
      (j) => j.tenantId === e.tenantId && j.dedupeKey === key && ACTIVE_JOB_STATUSES.includes(j.status)
    )
    if (!active) {
      const id = uuidV7FromParts(e.createdAt.getTime(), randomFillSync(new Uint8Array(16)))
      tables.jobs.set(
        id,
        newJobRecord({
          id,
          tenantId: e.tenantId,
          type: "webhook_delivery",
          resourceId: w.id,
          dedupeKey: key,
          payload: {},
          maxAttempts: JOB_MAX_ATTEMPTS,
          runAt: e.createdAt,
          retryOf: null,
          createdAt: e.createdAt
        })
      )
    }
  }
}

/** A `resource.*` event with a fresh id. */
export const resourceEvent = (
  type: Parameters<typeof domainResourceEvent>[1],
  r: Parameters<typeof domainResourceEvent>[2],
  at: Date
) => domainResourceEvent(randomUUID(), type, r, at)
