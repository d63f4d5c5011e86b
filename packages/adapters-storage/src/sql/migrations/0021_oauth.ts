// The OAuth authorization server's records (clients, grants, codes, tokens, interactions, sessions)
// in one table, keyed by the library's model name and id, its payload kept as jsonb.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // tenant_id is set on grants and their tokens and codes: a deleted workspace takes them along.
  yield* sql`
    create table oauth_records (
      model text not null check (char_length(model) between 1 and 40),
      id text not null check (char_length(id) between 1 and 2048),
      payload jsonb not null check (jsonb_typeof(payload) = 'object'),
      grant_id text,
      uid text,
      user_code text,
      tenant_id uuid references workspaces (id) on delete cascade,
      expires_at timestamptz,
      consumed_at timestamptz,
      created_at timestamptz not null,
      last_used_at timestamptz,
      primary key (model, id)
    )`
  // Revoking a grant deletes every record of it.
  yield* sql`create index oauth_records_by_grant on oauth_records (grant_id) where grant_id is not null`
  yield* sql`create index oauth_records_by_uid on oauth_records (uid) where uid is not null`
  yield* sql`create index oauth_records_by_user_code on oauth_records (user_code) where user_code is not null`
  // The console lists a workspace's connected apps.
  yield* sql`create index oauth_records_grants_of_tenant on oauth_records (tenant_id, created_at desc)
             where model = 'Grant'`
  // What the hourly sweep deletes.
  yield* sql`create index oauth_records_expiry on oauth_records (expires_at) where expires_at is not null`
})
