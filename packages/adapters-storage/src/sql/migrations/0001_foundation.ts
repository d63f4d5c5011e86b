// Foundation schema: workspaces, API keys, forms and their immutable versions, responses, and the
// shared counters behind rate limits and usage. Constraints make invalid states unrepresentable.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table workspaces (
      id uuid primary key,
      name text not null check (char_length(name) between 1 and 200),
      features jsonb not null default '{}'::jsonb check (jsonb_typeof(features) = 'object'),
      created_at timestamptz not null
    )`
  yield* sql`
    create table api_keys (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id),
      name text not null check (char_length(name) <= 200),
      prefix text not null unique check (prefix ~ '^[A-Za-z0-9]{12}$'),
      hash text not null check (hash ~ '^[0-9a-f]{64}$'),
      scopes jsonb not null check (jsonb_typeof(scopes) = 'array'),
      created_at timestamptz not null,
      revoked_at timestamptz,
      last_used_at timestamptz
    )`
  yield* sql`create index api_keys_by_workspace on api_keys (workspace_id, id)`
  yield* sql`
    create table forms (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id),
      kind text not null check (kind in ('classic', 'interview')),
      title text not null,
      slug text not null,
      status text not null check (status in ('draft', 'published')),
      draft_revision integer not null check (draft_revision >= 1),
      draft_definition jsonb,
      settings jsonb,
      settings_signature text check (settings_signature ~ '^sha256:[0-9a-f]{64}$'),
      current_version_id uuid,
      version_count integer not null default 0 check (version_count >= 0),
      row_version integer not null check (row_version >= 1),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz,
      check (status = 'draft' or current_version_id is not null),
      check (version_count > 0 or current_version_id is null)
    )`
  // Public slugs are unique among live forms; a deleted form's slug can be reused.
  yield* sql`create unique index forms_slug_live on forms (slug) where deleted_at is null`
  yield* sql`create index forms_keyset on forms (workspace_id, updated_at desc, id desc) where deleted_at is null`
  yield* sql`
    create table form_versions (
      id uuid primary key,
      form_id uuid not null references forms (id),
      workspace_id uuid not null references workspaces (id),
      kind text not null check (kind in ('classic', 'interview')),
      version integer not null check (version >= 1),
      definition jsonb,
      published_at timestamptz not null,
      unique (form_id, version)
    )`
  yield* sql`
    alter table forms add constraint forms_current_version_fk
      foreign key (current_version_id) references form_versions (id)`
  yield* sql`
    create table responses (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id),
      form_id uuid not null references forms (id),
      form_version_id uuid not null references form_versions (id),
      status text not null check (status in ('partial', 'completed')),
      answers jsonb not null default '{}'::jsonb check (jsonb_typeof(answers) = 'object'),
      meta jsonb not null default '{}'::jsonb check (jsonb_typeof(meta) = 'object'),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz,
      check ((status = 'completed') = (completed_at is not null))
    )`
  yield* sql`create index responses_keyset on responses (form_id, created_at desc, id desc)`
  yield* sql`create index responses_by_status on responses (form_id, status)`
  yield* sql`
    create table rate_limit_windows (
      bucket text not null,
      window_start timestamptz not null,
      hits integer not null check (hits >= 1),
      primary key (bucket, window_start)
    )`
  // Usage is kept as per-minute counts by status class: bounded rows, cheap 24 h / 7 d sums.
  yield* sql`
    create table request_minutes (
      workspace_id uuid not null references workspaces (id),
      minute timestamptz not null,
      status_class smallint not null check (status_class between 1 and 5),
      requests integer not null check (requests >= 1),
      primary key (workspace_id, minute, status_class)
    )`
})
