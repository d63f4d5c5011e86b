// HTML artifacts: a resource type, and one immutable row per deployment holding its file list (each
// file named by the SHA-256 of its bytes, which the blob store keeps once per artifact).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table resources drop constraint resources_type_check`
  yield* sql`alter table resources add constraint resources_type_check
    check (type in ('link', 'markdown', 'collection', 'notion', 'bio', 'file', 'image', 'artifact'))`
  yield* sql`
    create table artifact_deployments (
      id uuid primary key,
      tenant_id uuid not null references workspaces (id),
      resource_id uuid not null,
      number integer not null check (number >= 1),
      base_deployment_id uuid,
      files jsonb not null check (jsonb_typeof(files) = 'array'),
      entry_path text not null,
      site_bytes bigint not null check (site_bytes >= 0),
      created_at timestamptz not null,
      unique (resource_id, number)
    )`
})
