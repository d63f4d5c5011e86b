// Webhook endpoints, one delivery row per (endpoint, event) in the order the events happened, and
// every delivery attempt; resources remember whether their expiry was announced.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table webhook_endpoints (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      name text not null,
      url text not null,
      events jsonb not null check (jsonb_typeof(events) = 'array'),
      enabled boolean not null,
      signing_secret text not null,
      failure_count integer not null check (failure_count >= 0),
      disabled_reason text,
      row_version integer not null check (row_version >= 1),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`
  yield* sql`create index webhook_endpoints_by_tenant on webhook_endpoints (tenant_id, id)`
  yield* sql`
    create table webhook_deliveries (
      id uuid primary key,
      seq bigserial not null,
      tenant_id uuid not null references workspaces (id),
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      event_id uuid not null references sharing_events (id),
      status text not null check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null check (attempts >= 0),
      next_attempt_at timestamptz not null,
      created_at timestamptz not null,
      finished_at timestamptz,
      unique (endpoint_id, event_id)
    )`
  // What a delivery run reads: an endpoint's pending deliveries in event order.
  yield* sql`create index webhook_deliveries_pending on webhook_deliveries (endpoint_id, seq) where status = 'pending'`
  yield* sql`
    create table webhook_attempts (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      delivery_id uuid references webhook_deliveries (id) on delete cascade,
      event_id uuid not null,
      event_type text not null,
      attempted_at timestamptz not null,
      ok boolean not null,
      status_code integer,
      latency_ms integer not null,
      error text,
      response_excerpt text
    )`
  yield* sql`create index webhook_attempts_by_endpoint on webhook_attempts (endpoint_id, attempted_at desc)`
  yield* sql`alter table resources add column expiry_announced_at timestamptz`
  yield* sql`create index resources_expiring on resources (expires_at)
             where deleted_at is null and expires_at is not null and expiry_announced_at is null`
})
