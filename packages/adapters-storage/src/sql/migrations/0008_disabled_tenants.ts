// An account (tenant) can be disabled from the CLI: its keys then answer user_disabled (sharing) or
// forbidden (forms) until it is enabled again. Null is enabled.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table workspaces add column disabled_at timestamptz`
})
