// Incrementally kept answer aggregates (see sql/forms/answer-stats.ts), backfilled from the responses
// already stored, and an index for "the newest completed responses" (samples, exports).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"
import { rebuildAnswerStats } from "../forms/answer-stats.js"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table answer_stats (
      form_id uuid not null references forms (id),
      block_id text not null,
      kind smallint not null check (kind between 0 and 3),
      token text not null,
      n bigint not null,
      num_n bigint not null default 0,
      num_sum float8 not null default 0,
      num_min float8,
      num_max float8,
      pos_sum float8 not null default 0,
      primary key (form_id, block_id, kind, token)
    )`
  yield* sql`create index responses_completed on responses (form_id, completed_at desc, id desc)
             where status = 'completed'`
  yield* rebuildAnswerStats(sql, undefined)
})
