// The durable job queue, and the cached pages and assets of Notion mirrors.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table jobs (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      type text not null,
      resource_id uuid,
      dedupe_key text not null,
      payload jsonb not null check (jsonb_typeof(payload) = 'object'),
      status text not null check (status in ('queued', 'running', 'succeeded', 'failed', 'skipped')),
      attempts integer not null check (attempts >= 0),
      max_attempts integer not null check (max_attempts >= 1),
      run_at timestamptz not null,
      lease_owner text,
      lease_expires_at timestamptz,
      result jsonb,
      error jsonb,
      retry_of uuid,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`
  // The same work is queued or running at most once: the queue's de-duplication, race-free.
  yield* sql`create unique index jobs_one_active on jobs (tenant_id, dedupe_key)
             where status in ('queued', 'running')`
  // What a claim scans: due queued jobs in order, and running jobs by lease end.
  yield* sql`create index jobs_due on jobs (run_at) where status = 'queued'`
  yield* sql`create index jobs_leased on jobs (lease_expires_at) where status = 'running'`
  yield* sql`create index jobs_by_tenant on jobs (tenant_id, id desc)`
  yield* sql`create index jobs_by_resource on jobs (resource_id, type, id desc)`

  yield* sql`
    create table notion_mirrors (
      resource_id uuid primary key references resources (id),
      tenant_id uuid not null references workspaces (id),
      last_refreshed_at timestamptz,
      last_attempt_at timestamptz
    )`
  yield* sql`
    create table notion_pages (
      resource_id uuid not null references resources (id),
      page_id text not null,
      tenant_id uuid not null references workspaces (id),
      parent_page_id text,
      position integer not null,
      depth integer not null,
      title text not null,
      icon text,
      blocks jsonb not null check (jsonb_typeof(blocks) = 'array'),
      notion_edited_at timestamptz,
      refreshed_at timestamptz not null,
      primary key (resource_id, page_id)
    )`
  yield* sql`
    create table notion_assets (
      id uuid primary key,
      resource_id uuid not null references resources (id),
      tenant_id uuid not null references workspaces (id),
      page_id text not null,
      block_id text not null,
      blob_key text not null,
      content_type text not null,
      bytes bigint not null check (bytes >= 0),
      name text,
      fingerprint text not null,
      created_at timestamptz not null,
      unique (resource_id, block_id)
    )`
})
