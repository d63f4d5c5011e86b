// WebhookStore over SQL: endpoints guarded by their row version, an endpoint's deliveries read in
// event order, and each attempt recorded with its delivery's and endpoint's new state in one
// transaction (the endpoint row locked, so concurrent attempts count failures exactly).
import {
  isUuid,
  type SharingEventRecord,
  type WebhookAttemptRecord,
  type WebhookEndpointRecord,
  type WebhookEvent,
  WebhookStore
} from "@folio/domain"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"
import { insertSharingEvent, resourceEvent } from "./sharing-events.js"

interface EndpointRow {
  readonly id: string
  readonly tenant_id: string
  readonly name: string
  readonly url: string
  readonly events: ReadonlyArray<WebhookEvent>
  readonly enabled: boolean
  readonly signing_secret: string
  readonly failure_count: number
  readonly disabled_reason: string | null
  readonly row_version: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface AttemptRow {
  readonly id: string
  readonly tenant_id: string
  readonly endpoint_id: string
  readonly delivery_id: string | null
  readonly event_id: string
  readonly event_type: string
  readonly attempted_at: Date
  readonly ok: boolean
  readonly status_code: number | null
  readonly latency_ms: number
  readonly error: string | null
  readonly response_excerpt: string | null
}

const toEndpoint = (r: EndpointRow): WebhookEndpointRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  signingSecret: r.signing_secret,
  failureCount: r.failure_count,
  disabledReason: r.disabled_reason,
  rowVersion: r.row_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const toAttempt = (r: AttemptRow): WebhookAttemptRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  endpointId: r.endpoint_id,
  deliveryId: r.delivery_id,
  eventId: r.event_id,
  eventType: r.event_type,
  attemptedAt: r.attempted_at,
  ok: r.ok,
  statusCode: r.status_code,
  latencyMs: r.latency_ms,
  error: r.error,
  responseExcerpt: r.response_excerpt
})

export const makeWebhookStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const insertAttempt = (a: WebhookAttemptRecord) =>
    sql`insert into webhook_attempts (id, tenant_id, endpoint_id, delivery_id, event_id, event_type, attempted_at,
                                      ok, status_code, latency_ms, error, response_excerpt)
        values (${a.id}, ${a.tenantId}, ${a.endpointId}, ${a.deliveryId}, ${a.eventId}, ${a.eventType},
                ${a.attemptedAt}, ${a.ok}, ${a.statusCode}, ${a.latencyMs}, ${a.error}, ${a.responseExcerpt})`

  return WebhookStore.of({
    insert: (w, max) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            // One create per account at a time (a lock on the account's key, held to the commit):
            // locking the existing rows would not stop two creates racing while there are none.
            yield* sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${w.tenantId}`}, 0))`
            const existing = yield* sql`select id from webhook_endpoints where tenant_id = ${w.tenantId}`
            if (existing.length >= max) return false
            yield* sql`insert into webhook_endpoints (id, tenant_id, name, url, events, enabled, signing_secret,
                         failure_count, disabled_reason, row_version, created_at, updated_at)
                       values (${w.id}, ${w.tenantId}, ${w.name}, ${w.url}, ${jsonParam(w.events)}::jsonb, ${w.enabled},
                         ${w.signingSecret}, ${w.failureCount}, ${w.disabledReason}, ${w.rowVersion}, ${w.createdAt},
                         ${w.updatedAt})`
            return true
          })
        )
      ),

    list: (tenantId) =>
      orStorageError(
        sql<EndpointRow>`select * from webhook_endpoints where tenant_id = ${tenantId} order by id`.pipe(
          Effect.map((rows) => rows.map(toEndpoint))
        )
      ),

    get: (tenantId, id) =>
      isUuid(id)
        ? orStorageError(
            sql<EndpointRow>`select * from webhook_endpoints where id = ${id} and tenant_id = ${tenantId}`.pipe(
              Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toEndpoint))
            )
          )
        : Effect.succeed(Option.none()),

    // The cascade takes the deliveries and attempts with it.
    remove: (tenantId, id) =>
      isUuid(id)
        ? orStorageError(
            sql`delete from webhook_endpoints where id = ${id} and tenant_id = ${tenantId} returning id`.pipe(
              Effect.map((rows) => rows.length > 0)
            )
          )
        : Effect.succeed(false),

    update: (tenantId, w) =>
      orStorageError(
        sql`update webhook_endpoints set name = ${w.name}, url = ${w.url}, events = ${jsonParam(w.events)}::jsonb,
              enabled = ${w.enabled}, signing_secret = ${w.signingSecret}, failure_count = ${w.failureCount},
              disabled_reason = ${w.disabledReason}, row_version = ${w.rowVersion}, updated_at = ${w.updatedAt}
            where id = ${w.id} and tenant_id = ${tenantId} and row_version = ${w.rowVersion - 1}
            returning id`.pipe(Effect.map((rows) => (rows.length > 0 ? "updated" : "stale")))
      ),

    attempts: (tenantId, endpointId, limit) =>
      orStorageError(
        sql<AttemptRow>`select * from webhook_attempts where endpoint_id = ${endpointId} and tenant_id = ${tenantId}
                        order by attempted_at desc, id desc limit ${limit}`.pipe(
          Effect.map((rows) => rows.map(toAttempt))
        )
      ),

    recordTestAttempt: (a) => orStorageError(Effect.asVoid(insertAttempt(a))),

    nextDelivery: (endpointId, at) =>
      orStorageError(
        sql<{
          readonly id: string
          readonly attempts: number
          readonly next_attempt_at: Date
          readonly event_id: string
          readonly tenant_id: string
          readonly type: string
          readonly payload: Readonly<Record<string, unknown>>
          readonly created_at: Date
        }>`select d.id, d.attempts, d.next_attempt_at, e.id as event_id, e.tenant_id, e.type, e.payload, e.created_at
           from webhook_deliveries d join sharing_events e on e.id = d.event_id
           where d.endpoint_id = ${endpointId} and d.status = 'pending'
           order by d.seq limit 1`.pipe(
          Effect.map((rows) => {
            const head = rows[0]
            if (head === undefined) return { _tag: "None" as const }
            if (head.next_attempt_at > at) return { _tag: "Waiting" as const, until: head.next_attempt_at }
            const event: SharingEventRecord = {
              id: head.event_id,
              tenantId: head.tenant_id,
              type: head.type,
              payload: head.payload,
              createdAt: head.created_at
            }
            return { _tag: "Due" as const, deliveryId: head.id, attempts: head.attempts, event }
          })
        )
      ),

    recordAttempt: ({ attempt: a, retryAt }, policy) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* insertAttempt(a)
            if (a.deliveryId !== null) {
              if (a.ok)
                yield* sql`update webhook_deliveries set status = 'delivered', attempts = attempts + 1,
                             finished_at = ${a.attemptedAt} where id = ${a.deliveryId}`
              else if (retryAt !== undefined)
                yield* sql`update webhook_deliveries set attempts = attempts + 1, next_attempt_at = ${retryAt}
                           where id = ${a.deliveryId}`
              else
                yield* sql`update webhook_deliveries set status = 'failed', attempts = attempts + 1,
                             finished_at = ${a.attemptedAt} where id = ${a.deliveryId}`
            }
            const [endpoint] = yield* sql<{ readonly enabled: boolean }>`
              update webhook_endpoints set
                failure_count = case when ${a.ok} then 0 else failure_count + 1 end,
                enabled = enabled and (${a.ok} or failure_count + 1 < ${policy.disableAfterFailures}),
                disabled_reason = case
                  when enabled and not ${a.ok} and failure_count + 1 >= ${policy.disableAfterFailures}
                  then ${`disabled after ${policy.disableAfterFailures} failed deliveries in a row`}
                  else disabled_reason end
              where id = ${a.endpointId}
              returning enabled`
            return endpoint?.enabled ?? false
          })
        )
      ),

    resumeDeliveries: (tenantId, endpointId, at, heldSince) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`update webhook_deliveries set status = 'failed', finished_at = ${at}
                       where endpoint_id = ${endpointId} and tenant_id = ${tenantId} and status = 'pending'
                         and created_at < ${heldSince}`
            yield* sql`update webhook_deliveries set next_attempt_at = ${at}
                       where endpoint_id = ${endpointId} and tenant_id = ${tenantId} and status = 'pending'
                         and next_attempt_at > ${at}`
          })
        )
      ),

    // Disabled endpoints are few and their pending rows are read through the pending index, oldest
    // (lowest seq) first; another instance's sweep skips what this one holds.
    giveUpHeld: (heldSince, at, limit) =>
      orStorageError(
        sql`with stale as (
              select d.id from webhook_endpoints w
              join webhook_deliveries d on d.endpoint_id = w.id and d.status = 'pending'
              where not w.enabled and d.created_at < ${heldSince}
              order by d.endpoint_id, d.seq limit ${limit}
              for update of d skip locked
            )
            update webhook_deliveries d set status = 'failed', finished_at = ${at} from stale
            where d.id = stale.id and d.status = 'pending'
            returning d.id`.pipe(Effect.map((rows) => rows.length))
      ),

    dueEndpoints: (at, limit) =>
      orStorageError(
        sql<{ readonly tenant_id: string; readonly id: string }>`
          select w.tenant_id, w.id from webhook_endpoints w
          where w.enabled
            and exists (select 1 from webhook_deliveries d where d.endpoint_id = w.id and d.status = 'pending'
                        and d.next_attempt_at <= ${at})
            and not exists (select 1 from jobs j where j.tenant_id = w.tenant_id
                            and j.dedupe_key = 'webhook_delivery:' || w.id::text and j.status in ('queued', 'running'))
          order by w.id limit ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => ({ tenantId: r.tenant_id, endpointId: r.id })))
        )
      ),

    announceExpiries: (at, limit) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const expired = yield* sql<{
              readonly id: string
              readonly tenant_id: string
              readonly slug: string
              readonly type: string
              readonly title: string | null
            }>`
              with due as (
                select id from resources
                where deleted_at is null and expires_at is not null and expires_at <= ${at}
                  and expiry_announced_at is null
                order by id limit ${limit} for update skip locked
              )
              update resources r set expiry_announced_at = ${at} from due where r.id = due.id
              returning r.id, r.tenant_id, r.slug, r.type, r.title`
            for (const r of expired)
              yield* insertSharingEvent(
                sql,
                resourceEvent("resource.expired", { ...r, tenantId: r.tenant_id }, at)
              )
            return expired.length
          })
        )
      )
  })
})
