// A job's trace context (issue 34): the W3C traceparent of the span that queued it, so the job's run
// is a child of the request's trace. Null for jobs queued with tracing off (and every older job).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table jobs add column traceparent text check (char_length(traceparent) <= 64)`
})
