// The sharing service's first tables: resources (every type's common fields as columns, its own data
// as one jsonb value), the kept versions of Markdown pages, and idempotency keys. Tenants are the
// `workspaces` rows, as for forms.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table resources (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      type text not null check (type in ('link', 'markdown', 'collection', 'notion', 'bio')),
      slug text not null check (slug ~ '^[a-z0-9_-]{3,64}$'),
      title text,
      title_key text collate "C" not null,
      description text,
      visibility text not null check (visibility in ('public', 'unlisted', 'private')),
      password_hash text,
      starts_at timestamptz,
      expires_at timestamptz,
      labels jsonb not null default '[]'::jsonb
        check (jsonb_typeof(labels) = 'array' and jsonb_array_length(labels) <= 20),
      max_views integer check (max_views >= 1),
      archived boolean not null default false,
      pinned boolean not null default false,
      view_count bigint not null default 0 check (view_count >= 0),
      data jsonb not null check (jsonb_typeof(data) = 'object'),
      row_version integer not null check (row_version >= 1),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz,
      check (starts_at is null or expires_at is null or starts_at < expires_at)
    )`
  // Public URLs are global: a slug is unique among live resources of every tenant, and a deleted
  // resource's slug is free again at once.
  yield* sql`create unique index resources_slug_live on resources (slug) where deleted_at is null`
  // One index per sort of the owner's list (each direction walks it forwards or backwards).
  yield* sql`create index resources_by_created on resources (tenant_id, created_at, id) where deleted_at is null`
  yield* sql`create index resources_by_updated on resources (tenant_id, updated_at, id) where deleted_at is null`
  yield* sql`create index resources_by_title on resources (tenant_id, title_key, id) where deleted_at is null`
  yield* sql`create index resources_labels on resources using gin (labels jsonb_path_ops) where deleted_at is null`
  yield* sql`
    create table markdown_versions (
      id uuid primary key,
      resource_id uuid not null references resources (id),
      tenant_id uuid not null references workspaces (id),
      number integer not null check (number >= 1),
      body text not null,
      created_at timestamptz not null,
      unique (resource_id, number)
    )`
  yield* sql`
    create table idempotency_keys (
      tenant_id uuid not null references workspaces (id),
      key text not null check (char_length(key) between 1 and 255),
      request_hash text not null check (char_length(request_hash) between 1 and 200),
      token text not null,
      answer jsonb,
      claimed_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (tenant_id, key)
    )`
  yield* sql`create index idempotency_keys_expiry on idempotency_keys (expires_at)`
})
