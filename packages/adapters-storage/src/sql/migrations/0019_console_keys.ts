// Keys made in the console: an optional expiry and who made them; workspaces keep the scopes their
// members may give the keys they create (per service; an absent service uses the domain's default).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table api_keys add column expires_at timestamptz, add column created_by uuid`
  yield* sql`alter table workspaces add column member_key_scopes jsonb not null default '{}'::jsonb`
})
