// A row version on responses: every update is a compare-and-set on (status, version), so an autosave
// racing a completion, or two completions, can never overwrite each other (see ResponseRepository).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table responses add column version integer not null default 1 check (version >= 1)`
})
