// In-memory WebhookStore: the twin of sql/sharing/webhooks.ts.
import { ACTIVE_JOB_STATUSES, jobDedupeKey, type NextDelivery, WebhookStore } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { recordSharingEvent, resourceEvent } from "./sharing-events.js"
import { MemoryStore } from "../store.js"

export const MemoryWebhookStoreLive = Layer.effect(
  WebhookStore,
  Effect.map(Effect.service(MemoryStore), (tables) => {
    const { endpoints, deliveries, attempts, expiryAnnounced } = tables.webhooks
    return WebhookStore.of({
      insert: (w, max) =>
        Effect.sync(() => {
          if ([...endpoints.values()].filter((e) => e.tenantId === w.tenantId).length >= max) return false
          endpoints.set(w.id, w)
          return true
        }),
      list: (tenantId) =>
        Effect.sync(() =>
          [...endpoints.values()]
            .filter((w) => w.tenantId === tenantId)
            .sort((a, b) => (a.id < b.id ? -1 : 1))
        ),
      get: (tenantId, id) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(endpoints.get(id)), (w) => w.tenantId === tenantId)
        ),
      remove: (tenantId, id) =>
        Effect.sync(() => {
          if (endpoints.get(id)?.tenantId !== tenantId) return false
          endpoints.delete(id)
          const keep = <A extends { readonly endpointId: string }>(rows: Array<A>) =>
            rows.splice(0, rows.length, ...rows.filter((r) => r.endpointId !== id))
          keep(deliveries)
          keep(attempts)
          return true
        }),
      update: (tenantId, next) =>
        Effect.sync(() => {
          const current = endpoints.get(next.id)
          if (
            current === undefined ||
            current.tenantId !== tenantId ||
            current.rowVersion !== next.rowVersion - 1
          )
            return "stale" as const
          endpoints.set(next.id, next)
          return "updated" as const
        }),
      attempts: (tenantId, endpointId, limit) =>
        Effect.sync(() =>
          attempts
            .filter((a) => a.endpointId === endpointId && a.tenantId === tenantId)
            .sort((a, b) => b.attemptedAt.getTime() - a.attemptedAt.getTime() || (a.id < b.id ? 1 : -1))
            .slice(0, limit)
        ),
      recordTestAttempt: (a) => Effect.sync(() => void attempts.push(a)),
      nextDelivery: (endpointId, at) =>
        Effect.sync((): NextDelivery => {
          const head = deliveries.find((d) => d.endpointId === endpointId && d.status === "pending")
          if (head === undefined) return { _tag: "None" }
          if (head.nextAttemptAt > at) return { _tag: "Waiting", until: head.nextAttemptAt }
          return { _tag: "Due", deliveryId: head.id, attempts: head.attempts, event: head.event }
        }),
      recordAttempt: ({ attempt: a, retryAt }, policy) =>
        Effect.sync(() => {
          attempts.push(a)
          const delivery = deliveries.find((d) => d.id === a.deliveryId)
          if (delivery !== undefined) {
            delivery.attempts++
            if (a.ok) delivery.status = "delivered"
            else if (retryAt !== undefined) delivery.nextAttemptAt = retryAt
            else delivery.status = "failed"
          }
          const w = endpoints.get(a.endpointId)
          if (w === undefined) return false
          const failures = a.ok ? 0 : w.failureCount + 1
          const off = w.enabled && !a.ok && failures >= policy.disableAfterFailures
          endpoints.set(w.id, {
            ...w,
            failureCount: failures,
            enabled: w.enabled && !off,
            disabledReason: off
              ? `disabled after ${policy.disableAfterFailures} failed deliveries in a row`
              : w.disabledReason
          })
          return w.enabled && !off
        }),
      resumeDeliveries: (tenantId, endpointId, at, heldSince) =>
        Effect.sync(() => {
          if (endpoints.get(endpointId)?.tenantId !== tenantId) return
          for (const d of deliveries)
            if (d.endpointId === endpointId && d.status === "pending") {
              if (d.event.createdAt < heldSince) d.status = "failed"
              else if (d.nextAttemptAt > at) d.nextAttemptAt = at
            }
        }),
      giveUpHeld: (heldSince, _at, limit) =>
        Effect.sync(() => {
          const stale = deliveries
            .filter(
              (d) =>
                d.status === "pending" &&
                d.event.createdAt < heldSince &&
                endpoints.get(d.endpointId)?.enabled === false
            )
            .slice(0, limit)
          for (const d of stale) d.status = "failed"
          return stale.length
        }),
      dueEndpoints: (at, limit) =>
        Effect.sync(() =>
          [...endpoints.values()]
            .filter(
              (w) =>
                w.enabled &&
                deliveries.some(
                  (d) => d.endpointId === w.id && d.status === "pending" && d.nextAttemptAt <= at
                ) &&
                ![...tables.jobs.values()].some(
                  (j) =>
                    j.dedupeKey === jobDedupeKey("webhook_delivery", w.id) &&
                    ACTIVE_JOB_STATUSES.includes(j.status)
                )
            )
            .slice(0, limit)
            .map((w) => ({ tenantId: w.tenantId, endpointId: w.id }))
        ),
      announceExpiries: (at, limit) =>
        Effect.sync(() => {
          const due = [...tables.resources.values()]
            .filter(
              (r) =>
                r.deletedAt === null &&
                r.expiresAt !== null &&
                r.expiresAt <= at &&
                !expiryAnnounced.has(r.id)
            )
            .slice(0, limit)
          for (const r of due) {
            expiryAnnounced.add(r.id)
            recordSharingEvent(tables, resourceEvent("resource.expired", r, at))
          }
          return due.length
        })
    })
  })
)
