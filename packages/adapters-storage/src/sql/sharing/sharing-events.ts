// The sharing events outbox: an event is written in the transaction of the change that causes it,
// and in the same statement fans out to one pending delivery per endpoint of the account subscribed
// to its type (a disabled one holds it); each enabled one's delivery job is queued unless one is active.
import { randomFillSync, randomUUID } from "node:crypto"
import {
  JOB_MAX_ATTEMPTS,
  JOBS_TOPIC,
  jobDedupeKey,
  resourceEvent as domainResourceEvent,
  type SharingEventRecord,
  uuidV7FromParts
} from "@folio/domain"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { currentTraceparent } from "../../runtime/trace-context.js"
import { channelOf } from "../kernel/invalidation-bus.js"
import { jsonParam } from "../json.js"

export const insertSharingEvent = (sql: SqlClient.SqlClient, e: SharingEventRecord) =>
  Effect.gen(function* () {
    // Every subscribed endpoint gets the delivery; a disabled one holds it (delivery paused, not
    // lost) and gets no job until it is enabled. The endpoints are key-share locked: a delete that
    // commits first is not seen, one that comes after waits and takes the new delivery with it.
    const endpoints = yield* sql<{ readonly endpoint_id: string }>`
      with event as (
        insert into sharing_events (id, tenant_id, type, payload, created_at)
        values (${e.id}, ${e.tenantId}, ${e.type}, ${jsonParam(e.payload)}::jsonb, ${e.createdAt})
        returning id, tenant_id, type, created_at
      ),
      subscribed as (
        select w.id, w.tenant_id, w.enabled from webhook_endpoints w join event on w.tenant_id = event.tenant_id
        where w.events ? event.type
        order by w.id
        for key share of w
      ),
      held as (
        insert into webhook_deliveries (id, tenant_id, endpoint_id, event_id, status, attempts, next_attempt_at,
                                        created_at)
        select gen_random_uuid(), s.tenant_id, s.id, event.id, 'pending', 0, event.created_at, event.created_at
        from subscribed s cross join event
        order by s.id
      )
      select id as endpoint_id from subscribed where enabled order by id`
    for (const { endpoint_id } of endpoints) {
      yield* sql`
        insert into jobs (id, tenant_id, type, resource_id, dedupe_key, payload, status, attempts, max_attempts,
                          run_at, created_at, traceparent)
        values (${uuidV7FromParts(e.createdAt.getTime(), randomFillSync(new Uint8Array(16)))}, ${e.tenantId},
                'webhook_delivery', ${endpoint_id}, ${jobDedupeKey("webhook_delivery", endpoint_id)}, '{}'::jsonb,
                'queued', 0, ${JOB_MAX_ATTEMPTS}, ${e.createdAt}, ${e.createdAt}, ${currentTraceparent()})
        on conflict (tenant_id, dedupe_key) where status in ('queued', 'running') do nothing`
    }
    // Idle workers of every instance sharing a server hear it at the commit (the invalidation bus's
    // `jobs` topic); elsewhere they find the job at their next poll.
    if (endpoints.length > 0) yield* sql`select pg_notify(${channelOf(JOBS_TOPIC)}, 'webhook_delivery')`
  })

/** A `resource.*` event with a fresh id. */
export const resourceEvent = (
  type: Parameters<typeof domainResourceEvent>[1],
  r: Parameters<typeof domainResourceEvent>[2],
  at: Date
) => domainResourceEvent(randomUUID(), type, r, at)
