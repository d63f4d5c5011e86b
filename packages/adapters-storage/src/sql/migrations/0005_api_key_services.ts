// API keys are issued per service: each key opens the forms API or the sharing API, never both.
// Every key issued before this migration was a forms key; from now on each insert names its service.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table api_keys
      add column service text not null default 'forms' check (service in ('forms', 'sharing'))`
  yield* sql`alter table api_keys alter column service drop default`
})
