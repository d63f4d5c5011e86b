// Analytics at scale on PostgreSQL: 1,000,000 visits of one link spread over 365 days, written
// through AnalyticsStore.append (the recorder's own write path: raw rows and rollup upserts, one
// transaction per 10,000 visits), then, against a server in its own process: the summary route
// all time and days=30 (target < 100 ms), and the CSV export at about 10,000 and at 100,000 rows
// (the cap; the year holds more) with the server's peak RSS growth, which must stay flat.
import { PgStorageLive } from "@folio/adapters-storage"
import { AnalyticsStore, dayOf, type VisitRecord } from "@folio/domain"
import { Effect, ManagedRuntime } from "effect"
import pg from "pg"
import { createTempDatabase } from "../test/storage/targets.js"
import { provision, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, resetPeak, rssKb, summarize, timed, writeResult } from "./_stats.js"

const VISITS = Number(process.env.BENCH_VISITS ?? 1_000_000)
const DAYS = 365
const BATCH = 10_000
const SLUG = "bench-analytics"

const pick = <A>(values: ReadonlyArray<A>, n: number): A => values[n % values.length] as A
const BROWSERS = ["Chrome", "Safari", "Firefox", "Microsoft Edge", "Samsung Internet for Android", "Opera"]
const SYSTEMS = ["Windows", "iOS", "Android", "macOS", "Linux"]
const DEVICES = ["desktop", "mobile", "tablet"]
const REFERRERS = [
  null,
  "google.com",
  "t.co",
  "news.ycombinator.com",
  ...Array.from({ length: 27 }, (_, i) => `site${i}.example`)
]
const COUNTRIES = [
  "US",
  "DE",
  "FR",
  "GB",
  "NL",
  "SE",
  "JP",
  "BR",
  "IN",
  "CA",
  ...Array.from({ length: 30 }, (_, i) => `Q${String.fromCharCode(65 + (i % 26))}`)
]
const DESTINATIONS = ["https://a.example.com/", "https://b.example.com/", "https://m.example.com/"]
const SOURCES = [null, null, "newsletter", "twitter", "facebook", "linkedin", "reddit", "mastodon"]

/** A deterministic spread: the n-th visit's day, hour, visitor and values. */
const visitOf = (tenantId: string, resourceId: string, start: number, n: number): VisitRecord => {
  const day = n % DAYS
  const at = new Date(start + day * 86_400_000 + ((n * 7919) % 86_400_000))
  const bot = n % 23 === 0
  const source = pick(SOURCES, n * 3)
  return {
    resourceId,
    tenantId,
    at,
    // About 60% of a day's views are new visitors.
    visitorHash: `${day.toString(16).padStart(4, "0")}${((n * 2654435761) % 1_700).toString(16).padStart(28, "0")}`,
    bot,
    browser: bot ? "Googlebot" : pick(BROWSERS, n),
    system: bot ? null : pick(SYSTEMS, n * 5),
    device: bot ? "bot" : pick(DEVICES, n * 11),
    referrerHost: pick(REFERRERS, n * 13),
    utmSource: source,
    utmMedium: source === null ? null : pick(["email", "social", "cpc", "referral"], n),
    utmCampaign: source === null ? null : `campaign-${n % 20}`,
    utmTerm: n % 9 === 0 ? `term-${n % 10}` : null,
    utmContent: n % 17 === 0 ? `variant-${n % 5}` : null,
    country: pick(COUNTRIES, n * 17),
    destination: pick(DESTINATIONS, n * 19),
    count: 1
  }
}

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  const rows: Array<Record<string, string | number>> = []
  const result: Record<string, unknown> = { at: new Date().toISOString(), visits: VISITS, days: DAYS }
  try {
    const env = { DATABASE_URL: db.url }
    const { ws, key } = await provision(env, "analytics-bench", "sharing")
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    const today = Date.parse(`${dayOf(Date.now())}T00:00:00.000Z`)
    const start = today - (DAYS - 1) * 86_400_000
    const resourceId = crypto.randomUUID()
    await client.query(
      `insert into resources (id, tenant_id, type, slug, title, title_key, visibility, data, row_version, created_at, updated_at)
       values ($1, $2, 'link', $3, 'Bench link', 'bench link', 'public', $4::jsonb, 1, $5, $5)`,
      [
        resourceId,
        ws,
        SLUG,
        JSON.stringify({
          targetUrl: "https://example.com/",
          redirectRules: [],
          testVariants: [],
          fallbackUrl: null,
          webhookClicks: false,
          ogTitle: null,
          ogDescription: null,
          ogImageUrl: null
        }),
        new Date(start)
      ]
    )

    // Seed through the store's own append (raw visits + rollups per transaction).
    const runtime = ManagedRuntime.make(PgStorageLive({ url: db.url, maxConnections: 2 }))
    const seeded = await timed(async () => {
      for (let from = 0; from < VISITS; from += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, VISITS - from) }, (_, i) =>
          visitOf(ws, resourceId, start, from + i)
        )
        await runtime.runPromise(Effect.flatMap(AnalyticsStore, (s) => s.append(batch)))
      }
    })
    await runtime.dispose()
    await client.query("analyze")
    const counts = (
      await client.query<{ visits: string; daily: string; values: string }>(
        `select (select count(*) from analytics_visits) as visits, (select count(*) from analytics_daily) as daily,
                (select count(*) from analytics_daily_values) as values`
      )
    ).rows[0]
    await client.end()
    process.stdout.write(
      `seeded ${VISITS} visits over ${DAYS} days in ${(seeded.ms / 1000).toFixed(1)} s through AnalyticsStore.append (${Math.round(VISITS / (seeded.ms / 1000))} visits/s); rows: ${counts?.visits} visits, ${counts?.daily} daily, ${counts?.values} daily values\n`
    )
    result.seed = { seconds: seeded.ms / 1000, visitsPerSecond: VISITS / (seeded.ms / 1000), rows: counts }

    const server = await startServer(env)
    const pid = server.child.pid ?? 0
    try {
      const headers = { authorization: `Bearer ${key}` }
      const get = (path: string) => fetch(`${server.origin}/share/api/v1${path}`, { headers })
      for (const [name, query] of [
        ["all time", ""],
        ["days=30", "?days=30"]
      ] as const) {
        const path = `/analytics/resources/${SLUG}${query}`
        const warm = await get(path)
        if (warm.status !== 200) throw new Error(`summary answered ${warm.status}: ${await warm.text()}`)
        const body = (await warm.json()) as {
          totals: { views: number; visitors: number }
          series: Array<unknown>
        }
        const times: Array<number> = []
        for (let i = 0; i < 30; i++)
          times.push(
            (
              await timed(async () => {
                const r = await get(path)
                await r.arrayBuffer()
              })
            ).ms
          )
        const s = summarize(times)
        rows.push({
          what: `GET /analytics/resources/{slug} (${name})`,
          "median ms": Number(s.median.toFixed(1)),
          "p99 ms": Number(s.p99.toFixed(1)),
          extra: `${body.series.length} days, ${body.totals.views} views, ${body.totals.visitors} visitors (target < 100 ms)`
        })
        result[`summary ${name}`] = {
          medianMs: s.median,
          p99Ms: s.p99,
          days: body.series.length,
          totals: body.totals
        }
      }

      // The export: a few days (about 10,000 rows) and the whole year (stops at 100,000).
      for (const [name, query] of [
        ["4 days", `?from=${dayOf(today - 3 * 86_400_000)}&to=${dayOf(today)}`],
        ["365 days (capped)", `?from=${dayOf(start)}&to=${dayOf(today)}`]
      ] as const) {
        const before = rssKb(pid, "VmRSS")
        const reset = resetPeak(pid)
        const { ms, value } = await timed(async () => {
          const r = await get(`/analytics/resources/${SLUG}/export${query}`)
          let bytes = 0
          let lines = 0
          for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
            bytes += chunk.byteLength
            for (const b of chunk) if (b === 10) lines++
          }
          return { bytes, lines, truncated: r.headers.get("x-svc-truncated") }
        })
        const peak = rssKb(pid, reset ? "VmHWM" : "VmRSS")
        const growthMb = Math.max(0, peak - before) / 1024
        rows.push({
          what: `GET .../export (${name})`,
          "median ms": Math.round(ms),
          "p99 ms": Math.round(ms),
          extra: `${value.lines - 1} rows, ${(value.bytes / 1024 / 1024).toFixed(1)} MB, X-Svc-Truncated ${value.truncated}, server peak RSS +${growthMb.toFixed(1)} MB${reset ? "" : " (RSS after; peak not resettable)"}`
        })
        result[`export ${name}`] = {
          ms,
          rows: value.lines - 1,
          bytes: value.bytes,
          truncated: value.truncated,
          rssGrowthMb: growthMb
        }
      }
    } finally {
      await stop(server.child)
    }
  } finally {
    if (process.env.BENCH_KEEP_DB === "1") process.stdout.write(`kept database ${db.url}\n`)
    else await db.drop()
  }
  printTable(rows)
  process.stdout.write(`written ${writeResult("analytics", { ...result, rows })}\n`)
}
