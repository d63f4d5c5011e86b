// Responses at scale on PostgreSQL, server in its own process: a 30-block form with 100,000
// completed responses (and a 10,000 one beside it). Prints the time of responses/summary, the time
// and the server's peak RSS growth of the full CSV export (10k vs 100k: it must stay flat), the
// latency of the first list page vs a page deep in the cursor chain, and public submissions/s at
// 32 concurrent respondents (start + complete each).
import pg from "pg"
import { createTempDatabase } from "../test/storage/targets.js"
import { cli, provision, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, resetPeak, rssKb, summarize, timed, writeResult } from "./_stats.js"

const DURATION = Number(process.env.BENCH_SECONDS ?? 6)
const RESPONDENTS = 32
const LARGE = Number(process.env.BENCH_RESPONSES ?? 100_000)
const SMALL = LARGE / 10

const blk = (n: number) => `blk_${String(n).padStart(8, "0")}`
const abc = [
  { id: "a", label: "Alpha" },
  { id: "b", label: "Beta" },
  { id: "c", label: "Gamma" }
]
const KINDS = ["short_text", "multiple_choice", "checkboxes", "rating", "number", "ranking"] as const
const definition = {
  schemaVersion: 1,
  blocks: Array.from({ length: 30 }, (_, i) => {
    const type = KINDS[i % 6] ?? "short_text"
    const options =
      type === "rating"
        ? { scale: 5 }
        : type === "multiple_choice" || type === "checkboxes" || type === "ranking"
          ? { choices: abc }
          : type === "number"
            ? { min: 0, max: 1000 }
            : {}
    return { id: blk(i), type, label: `Question ${i}`, options }
  }),
  scales: [{ id: "wellbeing", label: "Wellbeing", blocks: [blk(3), blk(9), blk(15)], aggregation: "sum" }]
}

/** SQL for one generated answer per block; `g` is the series row. */
const answerSql = (i: number) => {
  switch (KINDS[i % 6]) {
    case "short_text":
      return `'answer text number ' || (g % 997)`
    case "multiple_choice":
      return `(array['a','b','c'])[1 + ((g + ${i}) % 3)]`
    case "checkboxes":
      return `case when (g + ${i}) % 2 = 0 then '["a","b"]'::jsonb else '["c"]'::jsonb end`
    case "rating":
      return `1 + ((g + ${i}) % 5)`
    case "number":
      return `(g * 7 + ${i}) % 1000`
    default:
      return `(array['["a","b","c"]','["b","c","a"]','["c","a","b"]'])[1 + (g % 3)]::jsonb`
  }
}
const SEED_SQL = `
  insert into responses (id, workspace_id, form_id, form_version_id, status, answers, meta, created_at, updated_at, completed_at)
  select gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'completed',
         jsonb_build_object(${definition.blocks.map((b, i) => `'${b.id}', ${answerSql(i)}`).join(", ")}),
         jsonb_build_object('scores', jsonb_build_array(jsonb_build_object('id', 'wellbeing', 'kind', 'scale', 'score', 3 + g % 13))),
         t.at, t.at, t.at + interval '3 minutes'
  from generate_series($4::int, $5::int) g, lateral (select now() - make_interval(secs => g) as at) t`

const validAnswers = (n: number) =>
  Object.fromEntries(
    definition.blocks.map((b, i) => {
      switch (KINDS[i % 6]) {
        case "short_text":
          return [b.id, `typed answer ${n}`]
        case "multiple_choice":
          return [b.id, "b"]
        case "checkboxes":
          return [b.id, ["a", "c"]]
        case "rating":
          return [b.id, 1 + (n % 5)]
        case "number":
          return [b.id, n % 1000]
        default:
          return [b.id, ["c", "a", "b"]]
      }
    })
  )

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  const url = db.url
  const rows: Array<Record<string, string | number>> = []
  const result: Record<string, unknown> = { at: new Date().toISOString(), responses: LARGE }
  try {
    const env = { DATABASE_URL: url }
    const { ws, key } = await provision(env, "responses-bench")
    const server = await startServer(env)
    const pid = server.child.pid ?? 0
    try {
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`${server.origin}/forms/api/v1${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return (await r.json()) as { data: Record<string, unknown> }
      }
      const makeForm = async (title: string) => {
        const form = (await api("POST", "/forms", { title, definition })).data as { id: string; slug: string }
        const published = (await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 }))
          .data as {
          currentVersionId: string
        }
        return { ...form, versionId: published.currentVersionId }
      }
      const large = await makeForm("Large")
      const small = await makeForm("Small")
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const seedStart = performance.now()
      for (let from = 1; from <= LARGE; from += 20_000) {
        await client.query(SEED_SQL, [ws, large.id, large.versionId, from, Math.min(LARGE, from + 19_999)])
      }
      await client.query(SEED_SQL, [ws, small.id, small.versionId, 1, SMALL])
      await client.query("analyze responses")
      await client.end()
      // Rows written by SQL bypass the kept aggregates; the operator command recomputes them.
      await cli(env, ["stats", "rebuild", "--form", large.id])
      await cli(env, ["stats", "rebuild", "--form", small.id])
      process.stdout.write(
        `seeded ${LARGE + SMALL} responses in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`
      )

      // responses/summary
      for (const [name, form] of [
        [SMALL.toLocaleString("en"), small],
        [LARGE.toLocaleString("en"), large]
      ] as const) {
        await api("GET", `/forms/${form.id}/responses/summary`) // warm
        const times: Array<number> = []
        for (let i = 0; i < 5; i++)
          times.push((await timed(() => api("GET", `/forms/${form.id}/responses/summary`))).ms)
        const s = summarize(times)
        rows.push({
          what: `GET responses/summary (${name})`,
          "median ms": Math.round(s.median),
          "max ms": Math.round(Math.max(...times)),
          extra: ""
        })
        result[`summary_${name}_ms`] = s.median
      }

      // CSV export: time and server peak RSS growth.
      for (const [name, form] of [
        [SMALL.toLocaleString("en"), small],
        [LARGE.toLocaleString("en"), large]
      ] as const) {
        const before = rssKb(pid, "VmRSS")
        const reset = resetPeak(pid)
        const { ms, value } = await timed(async () => {
          const r = await fetch(`${server.origin}/forms/api/v1/forms/${form.id}/responses.csv`, { headers })
          let bytes = 0
          let lines = 0
          for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
            bytes += chunk.byteLength
            for (const b of chunk) if (b === 10) lines++
          }
          return { bytes, lines }
        })
        const peak = rssKb(pid, reset ? "VmHWM" : "VmRSS")
        const growthMb = Math.max(0, peak - before) / 1024
        rows.push({
          what: `GET responses.csv (${name})`,
          "median ms": Math.round(ms),
          "max ms": Math.round(ms),
          extra: `${value.lines - 1} rows, ${(value.bytes / 1024 / 1024).toFixed(1)} MB, server peak RSS +${growthMb.toFixed(1)} MB${reset ? "" : " (RSS after; peak not resettable)"}`
        })
        result[`csv_${name}`] = { ms, rows: value.lines - 1, bytes: value.bytes, rssGrowthMb: growthMb }
      }

      // List pages: the first vs one deep in the cursor chain (walked with limit 100).
      const listPath = (cursor?: string) =>
        `/forms/${large.id}/responses?limit=100${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
      let cursor: string | undefined
      let deep: string | undefined
      let pages = 0
      const walk = await timed(async () => {
        do {
          const page = (await api("GET", listPath(cursor))).data as { nextCursor: string | null }
          pages++
          cursor = page.nextCursor ?? undefined
          if (pages === Math.floor((LARGE / 100) * 0.95)) deep = cursor
        } while (cursor !== undefined)
      })
      const sample = async (c?: string) => {
        const times: Array<number> = []
        for (let i = 0; i < 50; i++) times.push((await timed(() => api("GET", listPath(c)))).ms)
        return summarize(times)
      }
      const first = await sample()
      const deepStats = await sample(deep)
      rows.push({
        what: "list page 1 (100 items)",
        "median ms": first.median,
        "max ms": first.p99,
        extra: "p99 in max column"
      })
      rows.push({
        what: `list page ${Math.floor((LARGE / 100) * 0.95) + 1} (100 items)`,
        "median ms": deepStats.median,
        "max ms": deepStats.p99,
        extra: `full walk of ${pages} pages: ${(walk.ms / 1000).toFixed(1)} s`
      })
      result.list = { first, deep: deepStats, walkPages: pages, walkMs: walk.ms }

      // Public submissions at 32 concurrent respondents.
      const json = { "content-type": "application/json" }
      const latencies: Array<number> = []
      let failures = 0
      const deadline = performance.now() + DURATION * 1000
      await Promise.all(
        Array.from({ length: RESPONDENTS }, async (_, w) => {
          let n = w
          while (performance.now() < deadline) {
            n += RESPONDENTS
            const t0 = performance.now()
            const started = await fetch(`${server.origin}/f/${large.slug}/responses`, {
              method: "POST",
              headers: json,
              body: "{}"
            })
            const s = (await started.json()) as { data?: { responseId: string; token: string } }
            if (s.data === undefined) {
              failures++
              continue
            }
            const done = await fetch(
              `${server.origin}/f/${large.slug}/responses/${s.data.responseId}/complete`,
              {
                method: "POST",
                headers: json,
                body: JSON.stringify({ token: s.data.token, answers: validAnswers(n) })
              }
            )
            await done.arrayBuffer()
            if (done.status === 200) latencies.push(performance.now() - t0)
            else failures++
          }
        })
      )
      const sub = summarize(latencies)
      rows.push({
        what: `public submissions (start + complete), ${RESPONDENTS} respondents`,
        "median ms": Math.round(sub.median),
        "max ms": Math.round(sub.p99),
        extra: `${Math.round(latencies.length / DURATION)} submissions/s, p99 in max column, ${failures} failures`
      })
      result.submissions = { perSecond: latencies.length / DURATION, p50: sub.median, p99: sub.p99, failures }
    } finally {
      await stop(server.child)
    }
  } finally {
    // BENCH_KEEP_DB=1 leaves the seeded database for EXPLAIN sessions.
    if (process.env.BENCH_KEEP_DB === "1") process.stdout.write(`kept database ${url}\n`)
    else await db.drop()
  }
  printTable(rows)
  process.stdout.write(`written ${writeResult("responses", { ...result, rows })}\n`)
}
