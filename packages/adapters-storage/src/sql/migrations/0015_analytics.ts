// Analytics: raw visits (for exports) and the daily rollups every summary reads, kept up to date in
// the transaction that writes the visits. Days are UTC dates.
import { SqlClient } from "effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // One row per counted view (or per `count` identical ones in a second: visitCompactor). No foreign keys: it takes every public view in batches, and only the
  // recorder writes it, with ids of resources it has just served. No IP is ever stored.
  yield* sql`
    create table analytics_visits (
      id bigint generated always as identity primary key,
      tenant_id uuid not null,
      resource_id uuid not null,
      at timestamptz not null,
      visitor_hash text not null,
      bot boolean not null,
      browser text,
      system text,
      device text,
      referrer_host text,
      utm_source text,
      utm_medium text,
      utm_campaign text,
      utm_term text,
      utm_content text,
      country text,
      destination text,
      count integer not null default 1 check (count >= 1)
    )`
  // The two exports' orders: one resource's visits, and the account's.
  yield* sql`create index analytics_visits_by_resource on analytics_visits (resource_id, at, id)`
  yield* sql`create index analytics_visits_by_tenant on analytics_visits (tenant_id, at, id)`
  yield* sql`
    create table analytics_daily (
      resource_id uuid not null references resources (id),
      day date not null,
      tenant_id uuid not null references workspaces (id),
      views bigint not null check (views >= 0),
      bot_views bigint not null check (bot_views >= 0),
      visitors bigint not null check (visitors >= 0),
      primary key (resource_id, day)
    )`
  yield* sql`
    create table analytics_daily_values (
      resource_id uuid not null references resources (id),
      day date not null,
      dimension text not null,
      value text not null,
      tenant_id uuid not null references workspaces (id),
      views bigint not null check (views >= 0),
      primary key (resource_id, day, dimension, value)
    )`
  // Who was already counted as a visitor of a resource on a day (the day's hash): the first visit
  // of a pair adds one visitor. Days that are over are dropped by the recorder.
  yield* sql`
    create table analytics_daily_visitors (
      resource_id uuid not null,
      day date not null,
      visitor_hash text not null,
      primary key (resource_id, day, visitor_hash)
    )`
})
