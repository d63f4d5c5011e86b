// Respondent uploads and continuity: files committed to a response (one row each, so concurrent
// uploads never overwrite each other's metadata), and indexes for the repeat-respondent estimate.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table response_files (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id),
      form_id uuid not null references forms (id),
      response_id uuid not null references responses (id),
      block_id text not null check (char_length(block_id) between 1 and 64),
      key text not null unique check (char_length(key) between 1 and 1024),
      filename text not null check (char_length(filename) between 1 and 255),
      content_type text not null check (char_length(content_type) between 1 and 150),
      size integer not null check (size >= 0),
      created_at timestamptz not null
    )`
  yield* sql`create index response_files_by_response on response_files (response_id, created_at, id)`
  yield* sql`create index responses_by_respondent on responses (form_id, (meta ->> 'respondentKey'))
             where meta ? 'respondentKey'`
  yield* sql`create index responses_by_client on responses (form_id, (meta ->> 'clientHash'), created_at)
             where meta ? 'clientHash'`
})
