// Idempotent answers kept as sent: the body as the text that went on the wire (jsonb reordered its
// keys, so a replay was not the same bytes), its status and headers beside it. A streamed request's
// digest is known only once its body is read, so a claim may hold none until it completes.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table idempotency_keys alter column request_hash drop not null`
  yield* sql`alter table idempotency_keys
    add column answer_status integer check (answer_status between 100 and 599),
    add column answer_headers jsonb,
    add column answer_body text`
  // Answers stored before keep their content (their key order is already lost).
  yield* sql`update idempotency_keys
    set answer_status = (answer ->> 'status')::integer, answer_headers = answer -> 'headers',
        answer_body = (answer -> 'body')::text
    where answer is not null`
  yield* sql`alter table idempotency_keys drop column answer`
  yield* sql`alter table idempotency_keys add constraint idempotency_keys_answer_whole
    check ((answer_status is null) = (answer_body is null) and (answer_status is null) = (answer_headers is null))`
  yield* sql`alter table idempotency_keys add constraint idempotency_keys_answered_hash
    check (answer_status is null or request_hash is not null)`
})
