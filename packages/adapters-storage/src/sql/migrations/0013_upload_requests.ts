// Upload requests, their submissions, and the sharing events outbox (written in the transaction of
// the change that emits an event; the webhook deliveries of a later part read it).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table upload_requests (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      title text not null,
      description text,
      token_hash text not null unique,
      password_hash text,
      expires_at timestamptz,
      status text not null check (status in ('open', 'paused', 'completed')),
      revoked_at timestamptz,
      row_version integer not null check (row_version >= 1),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`
  yield* sql`create index upload_requests_by_tenant on upload_requests (tenant_id, id desc)`
  yield* sql`
    create table upload_submissions (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      request_id uuid not null references upload_requests (id),
      submitter_name text,
      message text,
      review text not null check (review in ('unreviewed', 'accepted', 'needs_changes', 'rejected')),
      file_resource_ids jsonb not null check (jsonb_typeof(file_resource_ids) = 'array'),
      created_at timestamptz not null,
      reviewed_at timestamptz
    )`
  yield* sql`create index upload_submissions_by_request on upload_submissions (request_id, id desc)`
  yield* sql`
    create table sharing_events (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      type text not null,
      payload jsonb not null check (jsonb_typeof(payload) = 'object'),
      created_at timestamptz not null
    )`
  yield* sql`create index sharing_events_by_tenant on sharing_events (tenant_id, id)`
})
