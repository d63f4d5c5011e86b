// AnalyticsStore over SQL: a batch of visits is inserted and added to the daily rollups in one
// transaction (upserts: views, bot views, values; a visitor counts when its (resource, day, hash)
// row is new). Summaries read the rollups only; exports walk raw visits in (at, id) order.
import { AnalyticsStore, type Dimension, type ExportedVisit, rollupOf, type VisitRecord } from "@folio/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"

/** Rows per insert statement (the batch's statements share one transaction). */
const CHUNK = 5000

interface VisitRow {
  readonly id: string
  readonly tenant_id: string
  readonly resource_id: string
  readonly slug: string
  readonly at: Date
  readonly visitor_hash: string
  readonly bot: boolean
  readonly browser: string | null
  readonly system: string | null
  readonly device: string | null
  readonly referrer_host: string | null
  readonly utm_source: string | null
  readonly utm_medium: string | null
  readonly utm_campaign: string | null
  readonly utm_term: string | null
  readonly utm_content: string | null
  readonly country: string | null
  readonly destination: string | null
  readonly count: number
}

const toVisit = (row: VisitRow): ExportedVisit => ({
  id: row.id,
  slug: row.slug,
  resourceId: row.resource_id,
  tenantId: row.tenant_id,
  at: row.at,
  visitorHash: row.visitor_hash,
  bot: row.bot,
  browser: row.browser,
  system: row.system,
  device: row.device,
  referrerHost: row.referrer_host,
  utmSource: row.utm_source,
  utmMedium: row.utm_medium,
  utmCampaign: row.utm_campaign,
  utmTerm: row.utm_term,
  utmContent: row.utm_content,
  country: row.country,
  destination: row.destination,
  count: row.count
})

/**
 * A column for `unnest`, sent as one binary array parameter (cheaper for both sides than JSON: the
 * recorder writes every public view). A column of nulls only goes as an empty array, which unnest
 * pads with nulls (the driver cannot type an array holding nothing but null).
 */
const column = <A>(
  visits: ReadonlyArray<VisitRecord>,
  pick: (v: VisitRecord) => A | null
): Array<A | null> => {
  const out = new Array<A | null>(visits.length)
  let any = false
  for (let i = 0; i < visits.length; i++) {
    const value = pick(visits[i] as VisitRecord)
    out[i] = value
    if (value !== null) any = true
  }
  return any ? out : []
}

export const makeAnalyticsStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const insertVisits = (visits: ReadonlyArray<VisitRecord>) =>
    sql`insert into analytics_visits (tenant_id, resource_id, at, visitor_hash, bot, browser, system, device,
          referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, destination,
          count)
        select * from unnest(
          ${column(visits, (v) => v.tenantId)}::uuid[], ${column(visits, (v) => v.resourceId)}::uuid[],
          ${column(visits, (v) => v.at)}::timestamptz[], ${column(visits, (v) => v.visitorHash)}::text[],
          ${column(visits, (v) => v.bot)}::boolean[], ${column(visits, (v) => v.browser)}::text[],
          ${column(visits, (v) => v.system)}::text[], ${column(visits, (v) => v.device)}::text[],
          ${column(visits, (v) => v.referrerHost)}::text[], ${column(visits, (v) => v.utmSource)}::text[],
          ${column(visits, (v) => v.utmMedium)}::text[], ${column(visits, (v) => v.utmCampaign)}::text[],
          ${column(visits, (v) => v.utmTerm)}::text[], ${column(visits, (v) => v.utmContent)}::text[],
          ${column(visits, (v) => v.country)}::text[], ${column(visits, (v) => v.destination)}::text[],
          ${column(visits, (v) => v.count)}::int4[])`

  const append = (visits: ReadonlyArray<VisitRecord>) =>
    Effect.gen(function* () {
      for (let i = 0; i < visits.length; i += CHUNK) yield* insertVisits(visits.slice(i, i + CHUNK))
      const rollup = rollupOf(visits)
      // The day's visitors not seen before. Every statement writes in key order, so two instances
      // flushing at once lock rows alike and cannot deadlock.
      const fresh = new Map<string, number>()
      for (let i = 0; i < rollup.visitors.length; i += CHUNK) {
        const rows = rollup.visitors.slice(i, i + CHUNK)
        const added = yield* sql<{ readonly resource_id: string; readonly day: string }>`
          insert into analytics_daily_visitors (resource_id, day, visitor_hash)
          select * from unnest(${rows.map((v) => v.resourceId)}::uuid[], ${rows.map((v) => v.day)}::date[],
                               ${rows.map((v) => v.visitorHash)}::text[]) as x(r, d, h)
          order by r, d, h
          on conflict do nothing
          returning resource_id, day::text as day`
        for (const a of added)
          fresh.set(`${a.resource_id}|${a.day}`, (fresh.get(`${a.resource_id}|${a.day}`) ?? 0) + 1)
      }
      const daily = rollup.daily.map((d) => ({
        r: d.resourceId,
        d: d.day,
        t: d.tenantId,
        v: d.views,
        b: d.botViews,
        u: fresh.get(`${d.resourceId}|${d.day}`) ?? 0
      }))
      // Rollups only of resources that exist (a visit of an unknown id must not poison the batch).
      yield* sql`
        insert into analytics_daily (resource_id, day, tenant_id, views, bot_views, visitors)
        select x.r, x.d, x.t, x.v, x.b, x.u
        from jsonb_to_recordset(${JSON.stringify(daily)}::jsonb) as x(r uuid, d date, t uuid, v bigint, b bigint, u bigint)
        join resources res on res.id = x.r and res.tenant_id = x.t
        order by x.r, x.d
        on conflict (resource_id, day) do update set
          views = analytics_daily.views + excluded.views,
          bot_views = analytics_daily.bot_views + excluded.bot_views,
          visitors = analytics_daily.visitors + excluded.visitors`
      for (let i = 0; i < rollup.values.length; i += CHUNK) {
        const rows = rollup.values
          .slice(i, i + CHUNK)
          .map((v) => ({ r: v.resourceId, d: v.day, k: v.dimension, x: v.value, t: v.tenantId, v: v.views }))
        yield* sql`
          insert into analytics_daily_values (resource_id, day, dimension, value, tenant_id, views)
          select y.r, y.d, y.k, y.x, y.t, y.v
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as y(r uuid, d date, k text, x text, t uuid, v bigint)
          join resources res on res.id = y.r and res.tenant_id = y.t
          order by y.r, y.d, y.k, y.x
          on conflict (resource_id, day, dimension, value) do update set
            views = analytics_daily_values.views + excluded.views`
      }
    })

  return AnalyticsStore.of({
    append: (visits) =>
      visits.length === 0 ? Effect.void : orStorageError(sql.withTransaction(append(visits))),

    rollups: (tenantId, resourceId, range, limit) =>
      orStorageError(
        Effect.gen(function* () {
          const bounds = sql`${range.from === undefined ? sql`` : sql`and day >= ${range.from}::date`}
                             ${range.to === undefined ? sql`` : sql`and day <= ${range.to}::date`}`
          const days = yield* sql<{
            readonly day: string
            readonly views: string | number
            readonly bot_views: string | number
            readonly visitors: string | number
          }>`select day::text as day, views, bot_views, visitors from analytics_daily
             where resource_id = ${resourceId} and tenant_id = ${tenantId} ${bounds}
             order by day`
          const top = yield* sql<{
            readonly dimension: string
            readonly value: string
            readonly views: string | number
          }>`
            select dimension, value, views from (
              select dimension, value, sum(views) as views,
                     row_number() over (partition by dimension order by sum(views) desc, value) as rank
              from analytics_daily_values
              where resource_id = ${resourceId} and tenant_id = ${tenantId} ${bounds}
              group by dimension, value
            ) ranked where rank <= ${limit} order by dimension, rank`
          return {
            days: days.map((d) => ({
              day: d.day,
              views: Number(d.views),
              botViews: Number(d.bot_views),
              visitors: Number(d.visitors)
            })),
            top: top.map((t) => ({
              dimension: t.dimension as Dimension,
              value: t.value,
              views: Number(t.views)
            }))
          }
        })
      ),

    countVisits: (tenantId, filter, cap) =>
      orStorageError(
        Effect.map(
          filter.resourceId === undefined
            ? sql<{ readonly n: string | number }>`
                select coalesce(sum(count), 0) as n from (
                  select v.count from analytics_visits v join resources r on r.id = v.resource_id and r.deleted_at is null
                  where v.tenant_id = ${tenantId} and v.at >= ${filter.from} and v.at < ${filter.to}
                  limit ${cap}) capped`
            : sql<{ readonly n: string | number }>`
                select coalesce(sum(count), 0) as n from (
                  select v.count from analytics_visits v
                  where v.resource_id = ${filter.resourceId} and v.tenant_id = ${tenantId}
                    and v.at >= ${filter.from} and v.at < ${filter.to}
                  limit ${cap}) capped`,
          (rows) => Number(rows[0]?.n ?? 0)
        )
      ),

    visits: (tenantId, filter, page) =>
      orStorageError(
        Effect.map(
          sql<VisitRow>`
            select v.id::text as id, v.tenant_id, v.resource_id, r.slug, v.at, v.visitor_hash, v.bot, v.browser,
                   v.system, v.device, v.referrer_host, v.utm_source, v.utm_medium, v.utm_campaign, v.utm_term,
                   v.utm_content, v.country, v.destination, v.count
            from analytics_visits v join resources r on r.id = v.resource_id and r.deleted_at is null
            where v.tenant_id = ${tenantId}
              ${filter.resourceId === undefined ? sql`` : sql`and v.resource_id = ${filter.resourceId}`}
              and v.at >= ${filter.from} and v.at < ${filter.to}
              ${page.after === undefined ? sql`` : sql`and (v.at, v.id) > (${page.after.at}, ${page.after.id}::bigint)`}
            order by v.at, v.id
            limit ${page.limit}`,
          (rows) => rows.map(toVisit)
        )
      ),

    forgetVisitorsBefore: (day) =>
      orStorageError(sql`delete from analytics_daily_visitors where day < ${day}::date`.pipe(Effect.asVoid))
  })
})
