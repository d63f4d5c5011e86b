// Files and images: two more resource types, the bytes each resource holds of its account's storage,
// and the account's stored bytes as one counter row (the quota is checked against it in the
// transaction of every write that adds bytes, so concurrent uploads cannot pass it together).
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table resources drop constraint resources_type_check`
  yield* sql`alter table resources add constraint resources_type_check
    check (type in ('link', 'markdown', 'collection', 'notion', 'bio', 'file', 'image'))`
  yield* sql`alter table resources add column stored_bytes bigint not null default 0 check (stored_bytes >= 0)`
  yield* sql`
    create table storage_usage (
      tenant_id uuid primary key references workspaces (id),
      used_bytes bigint not null default 0 check (used_bytes >= 0)
    )`
})
