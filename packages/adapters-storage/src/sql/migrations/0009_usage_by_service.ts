// Request usage per service: a tenant is one forms workspace and one sharing account, and each
// service's usage route reports its own API's requests. Rows from before were all forms requests
// (the sharing API came later), so they keep `forms`.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table request_minutes add column service text not null default 'forms'`
  yield* sql`alter table request_minutes alter column service drop default`
  yield* sql`alter table request_minutes drop constraint request_minutes_pkey`
  yield* sql`alter table request_minutes add primary key (workspace_id, service, minute, status_class)`
})
