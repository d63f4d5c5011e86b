// The sweep of interview analyses whose job died (interview-analysis-sweep.ts) looks for completed
// responses still `pending` every few seconds: a partial index holds only those rows, so the look
// costs nothing however many responses there are.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create index responses_pending_interview_analysis on responses (completed_at, id)
    where status = 'completed' and (meta -> 'interview' ->> 'analysisStatus') = 'pending'`
})
