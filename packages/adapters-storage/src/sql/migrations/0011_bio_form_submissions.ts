// What visitors send through the forms of bio pages: one row per submission, its values as one JSON
// object, listed newest first per bio page.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table bio_form_submissions (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      resource_id uuid not null references resources (id),
      block_id text not null,
      form_title text not null,
      "values" jsonb not null check (jsonb_typeof("values") = 'object'),
      created_at timestamptz not null
    )`
  yield* sql`create index bio_form_submissions_by_resource on bio_form_submissions (resource_id, id desc)`
})
