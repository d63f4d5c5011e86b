// Analytics over real HTTP on PGlite and PostgreSQL: links, a page and a file opened with several
// user agents (Chrome, Firefox, iPhone Safari, Googlebot), referrers, UTM tags, a country header
// and (through the trusted address header) the MaxMind test database; then the summary (series,
// totals, tops, visitors without bots), the CSV exports (columns, hashes instead of addresses,
// formula-safe cells, ranges, truncation at a lowered cap), validation and ownership; and visits
// recorded just before a shutdown found by the next instance on the same storage.
import { fileURLToPath } from "node:url"
import { ResourceRepository, ViewCounter, VisitRecorder } from "@folio/domain"
import { parse } from "csv-parse/sync"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { SHARING_FILE_TARGETS, startSharingApp } from "../support/sharing-app.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { openStorage } from "../support/storage.js"

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
const GEOIP = fileURLToPath(new URL("../fixtures/GeoLite2-Country-Test.mmdb", import.meta.url))
const FORMULA = '=HYPERLINK("http://evil.example")'
const EXPORT_CAP = 7

const today = () => new Date().toISOString().slice(0, 10)

const flush = (app: RunningApp) =>
  app.run(
    Effect.andThen(
      Effect.flatMap(VisitRecorder, (r) => r.flush),
      Effect.flatMap(ViewCounter, (v) => v.flush)
    )
  )

const open = (app: RunningApp, path: string, headers: Record<string, string>, method = "GET") =>
  fetch(`${app.origin}${path}`, { method, redirect: "manual", headers })

const csvOf = (bytes: Uint8Array): Array<Record<string, string>> =>
  parse(new TextDecoder().decode(bytes), { columns: true, skip_empty_lines: true })

for (const target of SHARING_FILE_TARGETS) {
  describe(`analytics [${target.db}, ${target.blob}]`, () => {
    let app: RunningApp
    let close: () => Promise<void> = async () => {}
    let owner: { key: string; workspaceId: string }
    let other: { key: string; workspaceId: string }
    let writeOnly: { key: string; workspaceId: string }
    const client = () => sharingClientOf(app.origin)
    const call = (path: string, key = owner.key) => client().call("GET", path, { key })
    let link: { slug: string; id: string }
    let page: { slug: string; id: string }
    let file: { slug: string; id: string }

    beforeAll(async () => {
      const started = await startSharingApp(target, {
        analyticsExportMaxRows: EXPORT_CAP,
        geoipDbPath: Option.some(GEOIP),
        analyticsIpHeader: Option.some("x-real-ip")
      })
      app = started.app
      close = started.close
      owner = await newWorkspaceKey(app, ["read", "write"], "sharing")
      other = await newWorkspaceKey(app, ["read", "write"], "sharing")
      writeOnly = await newWorkspaceKey(app, ["write"], "sharing")
      const created = await client().call("POST", "/resources", {
        key: owner.key,
        body: {
          type: "link",
          target_url: "https://example.com/target",
          redirect_rules: [{ conditions: { device: ["mobile"] }, target_url: "https://m.example.com/" }],
          test_variants: [
            { url: "https://a.example.com/", weight: 1 },
            { url: "https://b.example.com/", weight: 1 }
          ]
        }
      })
      expect(created.status).toBe(201)
      link = created.body as { slug: string; id: string }
      page = (
        await client().call("POST", "/resources", {
          key: owner.key,
          body: { type: "markdown", body_markdown: "# Hello" }
        })
      ).body as { slug: string; id: string }
      const form = new FormData()
      form.append(
        "file",
        new Blob([new TextEncoder().encode("hello, file")], { type: "text/plain" }),
        "notes.txt"
      )
      const uploaded = await client().call("POST", "/uploads", { key: owner.key, form })
      expect(uploaded.status).toBe(201)
      file = uploaded.body as { slug: string; id: string }

      const L = `/s/${link.slug}`
      // 1: a cold slug, through the Effect route (which warms it for the fast path after it).
      const first = await open(app, `${L}?utm_source=news&utm_medium=email&utm_campaign=spring`, {
        "user-agent": CHROME,
        referer: "https://www.google.com/search?q=private+words",
        "cf-ipcountry": "DE"
      })
      expect(first.status).toBe(302)
      // 2..5 and 8: the warm redirect on node:http.
      await open(app, L, { "user-agent": FIREFOX, referer: "https://t.co/abc", "cf-ipcountry": "FR" })
      await open(app, L, { "user-agent": IPHONE, "x-real-ip": "2.125.160.217" })
      await open(app, L, { "user-agent": GOOGLEBOT, "cf-ipcountry": "US" })
      await open(app, L, { "user-agent": CHROME, "cf-ipcountry": "DE" })
      // 6: a reload within the visit (its cookies) and 7: a HEAD are no views, so no visits.
      const cookies = first.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ")
      expect((await open(app, L, { "user-agent": CHROME, cookie: cookies })).status).toBe(302)
      expect((await open(app, L, { "user-agent": CHROME }, "HEAD")).status).toBe(302)
      await open(app, `${L}?utm_source=${encodeURIComponent(FORMULA)}`, {
        "user-agent": FIREFOX,
        "x-real-ip": "89.160.20.113"
      })
      // A Markdown page and a file's download are views too.
      expect((await open(app, `/s/${page.slug}`, { "user-agent": CHROME })).status).toBe(200)
      expect((await open(app, `/s/${file.slug}/download`, { "user-agent": FIREFOX })).status).toBe(200)
      await flush(app)
    }, 120_000)
    afterAll(async () => close())

    it("summarizes a link: daily series, totals, tops by people, visitors without bots", async () => {
      const summary = await call(`/analytics/resources/${link.slug}`)
      expect(summary.status).toBe(200)
      const body = summary.body as Json & { top: Record<string, Array<{ value: string; views: number }>> }
      // Created today: all time is today only.
      expect(body).toMatchObject({ slug: link.slug, from: today(), to: today() })
      expect(body.series).toEqual([{ date: today(), views: 6, visitors: 4, bot_views: 1 }])
      expect(body.totals).toEqual({ views: 6, visitors: 4, bot_views: 1 })
      expect(body.top.browsers).toEqual([
        { value: "Chrome", views: 2 },
        { value: "Firefox", views: 2 },
        { value: "Safari", views: 1 }
      ])
      expect(body.top.systems).toEqual([
        { value: "Linux", views: 2 },
        { value: "Windows", views: 2 },
        { value: "iOS", views: 1 }
      ])
      expect(body.top.devices).toEqual([
        { value: "desktop", views: 4 },
        { value: "mobile", views: 1 }
      ])
      expect(body.top.referrers).toEqual([
        { value: "google.com", views: 1 },
        { value: "t.co", views: 1 }
      ])
      expect(body.top.countries).toEqual([
        { value: "DE", views: 2 },
        { value: "FR", views: 1 },
        { value: "GB", views: 1 },
        { value: "SE", views: 1 }
      ])
      expect(body.top.utm_sources).toEqual([
        { value: FORMULA, views: 1 },
        { value: "news", views: 1 }
      ])
      expect(body.top.utm_mediums).toEqual([{ value: "email", views: 1 }])
      expect(body.top.utm_campaigns).toEqual([{ value: "spring", views: 1 }])
      expect(body.top.utm_terms).toEqual([])
      const destinations = body.top.destinations ?? []
      expect(destinations).toContainEqual({ value: "https://m.example.com/", views: 1 })
      expect(destinations.every((d) => /^https:\/\/[mab]\.example\.com\/$/.test(d.value))).toBe(true)
      expect(destinations.reduce((n, d) => n + d.views, 0)).toBe(5)
      // The same views as the counter `max_views` reads.
      const stored = await app.run(
        Effect.flatMap(ResourceRepository, (r) => r.get(owner.workspaceId, link.id))
      )
      expect(Option.getOrThrow(stored).viewCount).toBe(6)
    })

    it("covers the last `days` or a from..to range, days without views as zeros", async () => {
      const week = (await call(`/analytics/resources/${link.slug}?days=3`)).body as Json & {
        series: Array<Json>
      }
      expect(week.series.map((d) => d.date)).toHaveLength(3)
      expect(week.series.at(-1)).toEqual({ date: today(), views: 6, visitors: 4, bot_views: 1 })
      expect(week.series[0]).toMatchObject({ views: 0, visitors: 0 })
      const past = await call(`/analytics/resources/${link.slug}?from=2026-01-01&to=2026-01-10`)
      expect(past.status).toBe(200)
      expect((past.body.series as Array<Json>).length).toBe(10)
      expect(past.body.totals).toEqual({ views: 0, visitors: 0, bot_views: 0 })
      expect((past.body.top as Json).browsers).toEqual([])
      const markdown = await call(`/analytics/resources/${page.slug}`)
      expect(markdown.body.totals).toEqual({ views: 1, visitors: 1, bot_views: 0 })
      expect((markdown.body.top as Json).destinations).toEqual([])
      const download = await call(`/analytics/resources/${file.slug}`)
      expect(download.body.totals).toEqual({ views: 1, visitors: 1, bot_views: 0 })
    })

    it("refuses bad, lone, reversed and mixed ranges, naming the field", async () => {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["days=0", "days"],
        ["days=366", "days"],
        ["days=x", "days"],
        ["from=2026-01-01", "to"],
        ["to=2026-01-01", "from"],
        ["from=2026-02-30&to=2026-03-01", "from"],
        ["from=2026-03-02&to=2026-03-01", "to"],
        ["days=7&from=2026-01-01&to=2026-01-02", "days"]
      ]
      for (const [query, field] of cases) {
        const r = await call(`/analytics/resources/${link.slug}?${query}`)
        expect([query, r.status, r.body]).toMatchObject([
          query,
          400,
          { error_code: "validation_failed", field }
        ])
      }
      for (const path of [`/analytics/resources/${link.slug}/export`, "/analytics/export"]) {
        const r = await call(`${path}?from=2026-01-01`)
        expect(r.status).toBe(400)
        expect(r.body).toMatchObject({ error_code: "validation_failed", field: "to" })
      }
    })

    it("answers 403 for another account's resource, 404 for none, and needs the read scope", async () => {
      for (const path of [`/analytics/resources/${link.slug}`, `/analytics/resources/${link.slug}/export`]) {
        expect((await call(path, other.key)).body).toMatchObject({ error_code: "forbidden" })
        expect((await call(path, other.key)).status).toBe(403)
        expect((await call(path.replace(link.slug, "no-such-slug"))).status).toBe(404)
        expect((await call(path, writeOnly.key)).body).toMatchObject({ error_code: "insufficient_scope" })
      }
      expect((await call("/analytics/export", writeOnly.key)).status).toBe(403)
      // Another account's export holds only its own (no) visits.
      const theirs = await call("/analytics/export", other.key)
      expect(theirs.status).toBe(200)
      expect(csvOf(theirs.bytes)).toEqual([])
    })

    it("exports one resource's visits as CSV: hashed visitors, no address, formula-safe cells", async () => {
      const r = await call(`/analytics/resources/${link.slug}/export`)
      expect(r.status).toBe(200)
      expect(r.headers.get("content-type")).toContain("text/csv")
      expect(r.headers.get("x-svc-truncated")).toBe("false")
      expect(r.headers.get("content-disposition")).toContain(`${link.slug}-analytics-`)
      const text = new TextDecoder().decode(r.bytes)
      expect(text.split("\r\n")[0]).toBe(
        "time,resource_id,slug,visitor,bot,browser,system,device,referrer,utm_source,utm_medium,utm_campaign,utm_term,utm_content,country,destination"
      )
      expect(text).not.toContain("127.0.0.1")
      expect(text).not.toContain("2.125.160.217")
      expect(text).not.toContain("private+words")
      const rows = csvOf(r.bytes)
      expect(rows).toHaveLength(6)
      expect(rows.every((row) => row.slug === link.slug && row.resource_id === link.id)).toBe(true)
      expect(rows.every((row) => /^[0-9a-f]{32}$/.test(row.visitor ?? ""))).toBe(true)
      const times = rows.map((row) => row.time ?? "")
      expect([...times].sort()).toEqual(times)
      expect(rows[0]).toMatchObject({
        browser: "Chrome",
        referrer: "google.com",
        utm_source: "news",
        utm_medium: "email",
        utm_campaign: "spring",
        country: "DE",
        bot: "false"
      })
      // The same address and agent on the same day are the same visitor.
      const chrome = rows.filter((row) => row.browser === "Chrome")
      expect(chrome).toHaveLength(2)
      expect(chrome[0]?.visitor).toBe(chrome[1]?.visitor)
      expect(rows.find((row) => row.country === "GB")).toMatchObject({
        system: "iOS",
        device: "mobile",
        destination: "https://m.example.com/"
      })
      expect(rows.filter((row) => row.bot === "true").map((row) => row.browser)).toEqual(["Googlebot"])
      expect(rows.find((row) => row.country === "SE")?.utm_source).toBe(`'${FORMULA}`)
    })

    it("exports the whole account up to the cap, saying it stopped there; ranges narrow it", async () => {
      const all = await call("/analytics/export")
      expect(all.status).toBe(200)
      expect(all.headers.get("x-svc-truncated")).toBe("true")
      const rows = csvOf(all.bytes)
      expect(rows).toHaveLength(EXPORT_CAP)
      expect(rows.every((row) => [link.slug, page.slug, file.slug].includes(row.slug ?? ""))).toBe(true)
      const day = today()
      const ranged = await call(`/analytics/export?from=${day}&to=${day}`)
      expect(ranged.headers.get("x-svc-truncated")).toBe("true")
      const past = await call("/analytics/export?from=2026-01-01&to=2026-01-31")
      expect(past.headers.get("x-svc-truncated")).toBe("false")
      expect(csvOf(past.bytes)).toEqual([])
      expect(past.headers.get("content-disposition")).toContain("analytics-2026-01-01-2026-01-31.csv")
    })
  })
}

describe("analytics through a shutdown", () => {
  it("finds the visits of the last requests before a stop in the next instance on the same storage", async () => {
    const storage = await openStorage(SHARING_FILE_TARGETS[1]?.db ?? "pglite")
    const first = await startApp({ storage: storage.storage, config: { sharingRequestsPerKey: 100_000 } })
    let firstOpen = true
    try {
      const owner = await newWorkspaceKey(first, ["read", "write"], "sharing")
      const created = await sharingClientOf(first.origin).call("POST", "/resources", {
        key: owner.key,
        body: { type: "link", target_url: "https://example.com/" }
      })
      const slug = (created.body as { slug: string }).slug
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          open(first, `/s/${slug}`, { "user-agent": `${CHROME} test/${i}`, "cf-ipcountry": "NL" })
        )
      )
      expect(answers.every((a) => a.status === 302)).toBe(true)
      // No flush: the stop writes what is waiting.
      firstOpen = false
      await first.close()
      const second = await startApp({ storage: storage.storage, config: { sharingRequestsPerKey: 100_000 } })
      try {
        const summary = await sharingClientOf(second.origin).call("GET", `/analytics/resources/${slug}`, {
          key: owner.key
        })
        expect(summary.body.totals).toEqual({ views: 30, visitors: 30, bot_views: 0 })
        expect((summary.body.top as Json).countries).toEqual([{ value: "NL", views: 30 }])
      } finally {
        await second.close()
      }
    } finally {
      if (firstOpen) await first.close()
      await storage.drop()
    }
  }, 120_000)
})
