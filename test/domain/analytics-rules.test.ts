// Analytics rules: the visitor hash (stable within a UTC day, new the next day, keyed by the secret),
// what is kept of a Referer and a query, the rollup of a batch, the summary's zero-filled series and
// the ranges of the summary and the export (defaults, bad, lone, reversed and mixed values).
import {
  addDays,
  analyticsSummaryView,
  exportRange,
  referrerHostOf,
  rollupOf,
  summaryRange,
  utmOf,
  type VisitHit,
  visitorHasher,
  visitRecordOf
} from "@folio/domain"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"

const hit = (overrides: Partial<VisitHit> = {}): VisitHit => ({
  resourceId: "00000000-0000-4000-8000-000000000001",
  tenantId: "00000000-0000-4000-8000-000000000002",
  at: Date.parse("2026-05-01T10:00:00.000Z"),
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 Chrome/124.0",
  browser: "Chrome",
  system: "Windows",
  device: "desktop",
  bot: false,
  referer: undefined,
  url: "/s/abc",
  country: undefined,
  destination: undefined,
  ...overrides
})

describe("visitor hash", () => {
  it("is the same within a day, differs across days, secrets, addresses and agents, and shows no address", () => {
    const day1 = visitorHasher("secret-a", "2026-05-01")
    const h = day1("203.0.113.7", "UA")
    expect(h).toMatch(/^[0-9a-f]{32}$/)
    expect(visitorHasher("secret-a", "2026-05-01")("203.0.113.7", "UA")).toBe(h)
    expect(visitorHasher("secret-a", "2026-05-02")("203.0.113.7", "UA")).not.toBe(h)
    expect(visitorHasher("secret-b", "2026-05-01")("203.0.113.7", "UA")).not.toBe(h)
    expect(day1("203.0.113.8", "UA")).not.toBe(h)
    expect(day1("203.0.113.7", "UA2")).not.toBe(h)
    expect(h).not.toContain("203")
  })
})

describe("what a visit keeps", () => {
  it("keeps a referrer's host only, lower case, without www, port or credentials", () => {
    expect(referrerHostOf("https://WWW.News.Example.com:8443/a/b?q=secret#x")).toBe("news.example.com")
    expect(referrerHostOf("http://user:pw@t.co/xyz")).toBe("t.co")
    expect(referrerHostOf("http://[2001:db8::1]:80/")).toBe("[2001:db8::1]")
    expect(referrerHostOf("android-app://com.slack/")).toBeNull()
    expect(referrerHostOf("not a url")).toBeNull()
    expect(referrerHostOf(undefined)).toBeNull()
    expect(referrerHostOf("")).toBeNull()
  })

  it("reads the five UTM tags (first value, trimmed, empty ones absent) and nothing else", () => {
    expect(
      utmOf(
        "/s/x?utm_source=news&utm_medium=email&utm_campaign=Spring%20Sale&utm_term=shoes&utm_content=b&utm_source=dup"
      )
    ).toEqual({ source: "news", medium: "email", campaign: "Spring Sale", term: "shoes", content: "b" })
    expect(utmOf("/s/x?utm_source=&ref=1")).toEqual({
      source: null,
      medium: null,
      campaign: null,
      term: null,
      content: null
    })
    expect(utmOf(`/s/x?utm_campaign=${"a".repeat(500)}`).campaign).toHaveLength(200)
  })

  it("makes a record with the hash, the country given and a link's destination", () => {
    const record = visitRecordOf(
      hit({ referer: "https://t.co/abc", url: "/s/x?utm_source=tw", destination: "https://a.example/" }),
      "hash",
      "DE"
    )
    expect(record).toMatchObject({
      visitorHash: "hash",
      referrerHost: "t.co",
      utmSource: "tw",
      country: "DE",
      destination: "https://a.example/",
      browser: "Chrome",
      system: "Windows",
      device: "desktop",
      bot: false
    })
    expect(JSON.stringify(record)).not.toContain("203.0.113.7")
  })
})

describe("rollup of a batch", () => {
  it("sums views per resource and day, bots only in views and bot views, people once per day", () => {
    const rec = (h: Partial<VisitHit>, hash: string) => visitRecordOf(hit(h), hash, undefined)
    const rollup = rollupOf([
      rec({}, "p1"),
      rec({}, "p1"),
      rec({ bot: true, browser: "Googlebot" }, "b1"),
      rec({ at: Date.parse("2026-05-02T00:00:00.000Z") }, "p1")
    ])
    expect(rollup.daily.map((d) => [d.day, d.views, d.botViews])).toEqual([
      ["2026-05-01", 3, 1],
      ["2026-05-02", 1, 0]
    ])
    expect(rollup.visitors.map((v) => [v.day, v.visitorHash])).toEqual([
      ["2026-05-01", "p1"],
      ["2026-05-02", "p1"]
    ])
    expect(
      rollup.values.filter((v) => v.dimension === "browser").map((v) => [v.day, v.value, v.views])
    ).toEqual([
      ["2026-05-01", "Chrome", 2],
      ["2026-05-02", "Chrome", 1]
    ])
  })
})

describe("summary view", () => {
  it("lists every day of the range, zeros included, with totals and tops by dimension", () => {
    const view = analyticsSummaryView({
      slug: "s",
      from: "2026-02-27",
      to: "2026-03-02",
      days: [{ day: "2026-02-28", views: 5, botViews: 1, visitors: 3 }],
      top: [{ dimension: "country", value: "DE", views: 4 }]
    })
    expect(view.series.map((d) => d.date)).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"])
    expect(view.totals).toEqual({ views: 5, visitors: 3, bot_views: 1 })
    expect(view.top.countries).toEqual([{ value: "DE", views: 4 }])
    expect(view.top.browsers).toEqual([])
  })
})

describe("ranges", () => {
  const today = "2026-05-20"
  const fieldOf = <A, E>(effect: Effect.Effect<A, E>) => {
    const exit = Effect.runSyncExit(effect)
    if (Exit.isSuccess(exit)) return undefined
    const error = exit.cause.reasons[0]
    return error !== undefined && error._tag === "Fail" ? (error.error as { field?: string }).field : "defect"
  }
  it("defaults: all time for a summary, the last 30 days for an export", () => {
    expect(Effect.runSync(summaryRange({}, today))).toEqual({ from: undefined, to: today })
    expect(Effect.runSync(summaryRange({ days: 1 }, today))).toEqual({ from: today, to: today })
    expect(Effect.runSync(summaryRange({ days: 30 }, today))).toEqual({ from: "2026-04-21", to: today })
    expect(Effect.runSync(exportRange({}, today))).toEqual({ from: addDays(today, -29), to: today })
    expect(Effect.runSync(summaryRange({ from: "2026-01-01", to: "2026-01-01" }, today))).toEqual({
      from: "2026-01-01",
      to: "2026-01-01"
    })
  })
  it("names the field of a bad, lone, reversed, mixed or too long range", () => {
    expect(fieldOf(summaryRange({ days: 0 }, today))).toBe("days")
    expect(fieldOf(summaryRange({ days: 366 }, today))).toBe("days")
    expect(fieldOf(summaryRange({ days: 7, from: "2026-01-01", to: "2026-01-02" }, today))).toBe("days")
    expect(fieldOf(summaryRange({ from: "2026-01-01" }, today))).toBe("to")
    expect(fieldOf(exportRange({ to: "2026-01-01" }, today))).toBe("from")
    expect(fieldOf(exportRange({ from: "2026-02-30", to: "2026-03-01" }, today))).toBe("from")
    expect(fieldOf(exportRange({ from: "2026-01-01", to: "01/02/2026" }, today))).toBe("to")
    expect(fieldOf(exportRange({ from: "2026-01-02", to: "2026-01-01" }, today))).toBe("to")
    expect(fieldOf(summaryRange({ from: "2000-01-01", to: "2026-01-01" }, today))).toBe("to")
  })
})
