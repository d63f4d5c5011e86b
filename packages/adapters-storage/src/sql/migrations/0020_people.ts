// People who sign in to the console: accounts, their workspace memberships, console sessions,
// passkeys, one-time links (stored as SHA-256 hashes only) and the workspace audit log.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table users (
      id uuid primary key,
      email text not null unique check (char_length(email) between 3 and 254),
      display_name text not null check (char_length(display_name) between 1 and 100),
      password_hash text,
      created_at timestamptz not null
    )`
  yield* sql`
    create table memberships (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('owner', 'admin', 'member')),
      created_at timestamptz not null,
      primary key (workspace_id, user_id)
    )`
  // The workspace switcher lists a person's memberships.
  yield* sql`create index memberships_by_user on memberships (user_id)`
  yield* sql`
    create table console_sessions (
      id uuid primary key,
      token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
      user_id uuid not null references users (id) on delete cascade,
      csrf_token text not null,
      workspace_id uuid references workspaces (id) on delete set null,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      ip text,
      user_agent text check (char_length(user_agent) <= 200)
    )`
  yield* sql`create index console_sessions_by_user on console_sessions (user_id, created_at desc)`
  // What the hourly sweep deletes: past the absolute lifetime, or idle.
  yield* sql`create index console_sessions_expiry on console_sessions (expires_at)`
  yield* sql`create index console_sessions_idle on console_sessions (last_seen_at)`
  yield* sql`
    create table passkeys (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      credential_id text not null unique,
      public_key text not null,
      counter bigint not null check (counter >= 0),
      transports jsonb not null default '[]'::jsonb check (jsonb_typeof(transports) = 'array'),
      name text not null check (char_length(name) between 1 and 100),
      created_at timestamptz not null,
      last_used_at timestamptz
    )`
  yield* sql`create index passkeys_by_user on passkeys (user_id, created_at)`
  yield* sql`
    create table one_time_tokens (
      id uuid primary key,
      kind text not null check (kind in ('invitation', 'password_reset', 'setup', 'passkey_challenge')),
      token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
      workspace_id uuid references workspaces (id) on delete cascade,
      email text,
      role text check (role in ('owner', 'admin', 'member')),
      user_id uuid references users (id) on delete cascade,
      data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`
  yield* sql`create index one_time_tokens_invitations on one_time_tokens (workspace_id, created_at desc)
             where kind = 'invitation' and used_at is null`
  yield* sql`create index one_time_tokens_resets on one_time_tokens (user_id)
             where kind = 'password_reset' and used_at is null`
  yield* sql`create index one_time_tokens_expiry on one_time_tokens (expires_at)`
  // actor_user_id has no foreign key: an event outlives the account (its e-mail is kept beside it).
  yield* sql`
    create table audit_events (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      action text not null,
      actor_user_id uuid,
      actor_email text,
      target text,
      ip text,
      details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
      at timestamptz not null
    )`
  yield* sql`create index audit_events_by_workspace on audit_events (workspace_id, id desc)`
  yield* sql`create index audit_events_by_time on audit_events (at)`
})
