// Where a visit of a link goes and why: the redirect_rules / test_variants schemas (wire shape and
// value-free issues), first-match rule order, sticky weighted variants, time windows at their
// boundaries (in a time zone, across midnight and DST), availability and the fallback, query passthrough.
import {
  chooseDestination,
  forwardQuery,
  inTimeWindow,
  issuesOf,
  LinkDestination,
  LinkRouting,
  pickVariant,
  type RedirectRule,
  type RoutableLink,
  STRICT_ALL,
  type TimeWindow,
  type Visit
} from "@folio/domain"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const visit = (overrides: Partial<Visit> = {}): Visit => ({
  device: "desktop",
  os: "windows",
  languages: ["en"],
  country: "US",
  query: [],
  at: new Date("2025-06-04T12:00:00Z"),
  visitor_id: "visitor-1",
  ...overrides
})

const link = (overrides: Partial<RoutableLink> = {}): RoutableLink => ({
  key: "res_0001",
  target_url: "https://target.example/",
  ...overrides
})

const decodeRouting = Schema.decodeUnknownResult(LinkRouting)
const issuesOfRouting = (input: unknown) => {
  const r = decodeRouting(input, STRICT_ALL)
  return Result.isFailure(r) ? issuesOf(r.failure) : []
}
const rule = (
  conditions: RedirectRule["conditions"],
  target_url = "https://rule.example/"
): RedirectRule => ({
  conditions,
  target_url
})

describe("link routing schema", () => {
  const full = {
    target_url: "https://example.com/landing?x=1",
    redirect_rules: [
      {
        conditions: {
          device: ["mobile", "tablet"],
          os: ["ios"],
          language: ["de", "fr"],
          country: ["DE", "AT"],
          query: [
            { param: "utm_source", op: "equals", value: "newsletter" },
            { param: "ref", op: "present" }
          ],
          time: {
            from: "2025-06-01T00:00:00+02:00",
            to: "2025-07-01T00:00:00Z",
            days: ["mon", "fri"],
            hours: { from: "22:00", to: "06:00" },
            time_zone: "Europe/Berlin"
          }
        },
        target_url: "https://example.de/app"
      }
    ],
    test_variants: [
      { url: "https://a.example/", weight: 3 },
      { url: "http://b.example/path#frag", weight: 1 }
    ],
    fallback_url: "https://example.com/gone"
  }

  it("decodes every condition kind and encodes back to the same JSON", () => {
    const r = decodeRouting(full, STRICT_ALL)
    expect(Result.isSuccess(r)).toBe(true)
    if (Result.isSuccess(r)) expect(Schema.encodeSync(LinkRouting)(r.success)).toEqual(full)
  })

  it("takes a null fallback_url (clears it) and no rules or variants at all", () => {
    expect(issuesOfRouting({ target_url: "https://x.example", fallback_url: null })).toEqual([])
    expect(
      issuesOfRouting({ target_url: "https://x.example", redirect_rules: [], test_variants: [] })
    ).toEqual([])
  })

  it.each([
    ["javascript:alert(1)", "httpUrl"],
    ["data:text/html,hi", "httpUrl"],
    ["/relative/path", "httpUrl"],
    ["ftp://files.example/x", "httpUrl"],
    ["https://", "httpUrl"],
    ["https://exa mple.com", "httpUrl"],
    ["https://example.com/\u0000", "httpUrl"],
    [`https://example.com/${"a".repeat(5000)}`, "maxLength"]
  ])("refuses the destination %j with rule %s, at its path", (url, ruleName) => {
    expect(issuesOfRouting({ target_url: url })).toMatchObject([{ path: ["target_url"], rule: ruleName }])
    expect(
      issuesOfRouting({
        target_url: "https://ok.example",
        redirect_rules: [rule({ device: ["mobile"] }, url)]
      })
    ).toMatchObject([{ path: ["redirect_rules", 0, "target_url"], rule: ruleName }])
    expect(
      issuesOfRouting({ target_url: "https://ok.example", test_variants: [{ url, weight: 1 }] })
    ).toMatchObject([{ path: ["test_variants", 0, "url"], rule: ruleName }])
    expect(issuesOfRouting({ target_url: "https://ok.example", fallback_url: url })).toMatchObject([
      { path: ["fallback_url"] }
    ])
  })

  const at = (conditions: unknown) =>
    issuesOfRouting({
      target_url: "https://ok.example",
      redirect_rules: [{ conditions, target_url: "https://r.example" }]
    })
  const C = ["redirect_rules", 0, "conditions"]

  it.each([
    [{}, C, "noConditions"],
    [{ device: [] }, [...C, "device"], "minItems"],
    [{ device: ["phone"] }, [...C, "device", 0], "enum"],
    [{ os: ["ios", "beos"] }, [...C, "os", 1], "enum"],
    [{ language: ["EN"] }, [...C, "language", 0], "pattern"],
    [{ language: ["en-US"] }, [...C, "language", 0], "pattern"],
    [{ country: ["de"] }, [...C, "country", 0], "pattern"],
    [{ country: ["DEU"] }, [...C, "country", 0], "pattern"],
    [{ query: [{ param: "", op: "present" }] }, [...C, "query", 0, "param"], "minLength"],
    [{ query: [{ param: "a", op: "equals" }] }, [...C, "query", 0, "value"], "required"],
    [{ time: {} }, [...C, "time"], "emptyWindow"],
    [{ time: { from: "2025-06-02T00:00:00Z", to: "2025-06-01T00:00:00Z" } }, [...C, "time"], "windowOrder"],
    [{ time: { from: "2025-06-01T00:00:00Z", to: "2025-06-01T00:00:00Z" } }, [...C, "time"], "windowOrder"],
    [{ time: { from: "2025-06-01T00:00:00" } }, [...C, "time", "from"], "dateTime"],
    [{ time: { from: "2025-02-30T00:00:00Z" } }, [...C, "time", "from"], "dateTime"],
    [{ time: { days: [] } }, [...C, "time", "days"], "minItems"],
    [{ time: { days: ["monday"] } }, [...C, "time", "days", 0], "enum"],
    [{ time: { hours: { from: "24:00", to: "06:00" } } }, [...C, "time", "hours", "from"], "time"],
    [{ time: { hours: { from: "9:00", to: "17:00" } } }, [...C, "time", "hours", "from"], "time"],
    [{ time: { hours: { from: "09:00", to: "09:00" } } }, [...C, "time", "hours"], "emptyHours"],
    [{ time: { days: ["mon"], time_zone: "Mars/Olympus_Mons" } }, [...C, "time", "time_zone"], "timeZone"]
  ])("refuses conditions %j at %j with rule %s", (conditions, path, ruleName) => {
    expect(at(conditions)).toMatchObject([{ path, rule: ruleName }])
  })

  it("refuses weights that are not positive integers, too many variants and too many rules", () => {
    const v = (weight: unknown) =>
      issuesOfRouting({
        target_url: "https://ok.example",
        test_variants: [{ url: "https://a.example", weight }]
      })
    expect(v(0)).toMatchObject([{ path: ["test_variants", 0, "weight"], rule: "range" }])
    expect(v(1.5)).toMatchObject([{ path: ["test_variants", 0, "weight"], rule: "integer" }])
    expect(v(10_001)).toMatchObject([{ path: ["test_variants", 0, "weight"], rule: "range" }])
    expect(v(10_000)).toEqual([])
    const variants = Array.from({ length: 21 }, () => ({ url: "https://a.example", weight: 1 }))
    expect(issuesOfRouting({ target_url: "https://ok.example", test_variants: variants })).toMatchObject([
      { path: ["test_variants"], rule: "maxItems" }
    ])
    const rules = Array.from({ length: 51 }, () => rule({ device: ["bot"] }))
    expect(issuesOfRouting({ target_url: "https://ok.example", redirect_rules: rules })).toMatchObject([
      { path: ["redirect_rules"], rule: "maxItems" }
    ])
  })

  it("refuses unknown keys (a misspelt condition would otherwise match everyone)", () => {
    expect(at({ devices: ["mobile"] })).toContainEqual(expect.objectContaining({ rule: "unknownKey" }))
  })

  it("states its patterns in the JSON Schema the OpenAPI document derives from it", () => {
    const defs = Schema.toJsonSchemaDocument(LinkRouting).definitions as Record<string, { pattern?: string }>
    expect(defs.LanguageTag?.pattern).toBe("^[a-z]{2,3}$")
    expect(defs.CountryCode?.pattern).toBe("^[A-Z]{2}$")
    expect(defs.DestinationUrl?.pattern).toBe("^[Hh][Tt][Tt][Pp][Ss]?://")
  })

  it("describes the decision's answer as a schema (the simulate routes' body)", () => {
    const encode = Schema.encodeSync(LinkDestination)
    expect(encode({ destination: "https://a.example/", matched: { kind: "variant", index: 1 } })).toEqual({
      destination: "https://a.example/",
      matched: { kind: "variant", index: 1 }
    })
    expect(encode({ destination: null, matched: { kind: "unavailable", reason: "expired" } })).toEqual({
      destination: null,
      matched: { kind: "unavailable", reason: "expired" }
    })
  })
})

describe("chooseDestination: rules", () => {
  const rules: ReadonlyArray<RedirectRule> = [
    rule({ device: ["mobile"], os: ["ios"] }, "https://ios.example/"),
    rule({ device: ["mobile", "tablet"] }, "https://mobile.example/"),
    rule({ language: ["de"] }, "https://de.example/"),
    rule({ country: ["FR", "BE"] }, "https://fr.example/"),
    rule(
      {
        query: [
          { param: "src", op: "equals", value: "mail" },
          { param: "vip", op: "present" }
        ]
      },
      "https://q.example/"
    )
  ]
  const choose = (v: Partial<Visit>) => chooseDestination(link({ redirect_rules: rules }), visit(v))

  it("sends each visit to the first rule whose every condition holds", () => {
    expect(choose({ device: "mobile", os: "ios" })).toEqual({
      destination: "https://ios.example/",
      matched: { kind: "rule", index: 0 }
    })
    expect(choose({ device: "mobile", os: "android" }).matched).toEqual({ kind: "rule", index: 1 })
    expect(choose({ device: "tablet", os: "ios" }).matched).toEqual({ kind: "rule", index: 1 })
    expect(choose({ languages: ["de", "en"] }).matched).toEqual({ kind: "rule", index: 2 })
    expect(choose({ country: "BE" }).matched).toEqual({ kind: "rule", index: 3 })
    expect(choose({}).matched).toEqual({ kind: "target" })
  })

  it("matches the most preferred language only", () => {
    expect(choose({ languages: ["en", "de"] }).matched).toEqual({ kind: "target" })
    expect(choose({ languages: [] }).matched).toEqual({ kind: "target" })
  })

  it("never matches a country condition when the country is unknown", () => {
    expect(choose({ country: undefined }).matched).toEqual({ kind: "target" })
  })

  it("needs every query condition; equals compares any repeat of the parameter, present takes an empty value", () => {
    expect(choose({ query: [["src", "mail"]] }).matched).toEqual({ kind: "target" })
    expect(
      choose({
        query: [
          ["src", "web"],
          ["src", "mail"],
          ["vip", ""]
        ]
      }).matched
    ).toEqual({
      kind: "rule",
      index: 4
    })
    expect(
      choose({
        query: [
          ["SRC", "mail"],
          ["vip", ""]
        ]
      }).matched
    ).toEqual({ kind: "target" })
    expect(
      choose({
        query: [
          ["src", "Mail"],
          ["vip", "1"]
        ]
      }).matched
    ).toEqual({ kind: "target" })
  })

  it("takes a rule before any variant, and a variant before the target", () => {
    const variants = [{ url: "https://v.example/", weight: 1 }]
    expect(
      chooseDestination(link({ redirect_rules: rules, test_variants: variants }), visit({ device: "mobile" }))
        .matched
    ).toEqual({ kind: "rule", index: 1 })
    expect(
      chooseDestination(link({ redirect_rules: rules, test_variants: variants }), visit()).matched
    ).toEqual({
      kind: "variant",
      index: 0
    })
  })

  it("property: the chosen rule is the first one that matches", () => {
    // Rule i matches exactly when the visit carries query parameter `r<i>`: any subset may match.
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 12 })
          .chain((n) => fc.tuple(fc.constant(n), fc.subarray([...Array(n).keys()]))),
        fc.boolean(),
        ([n, matching], withVariants) => {
          const redirect_rules = Array.from({ length: n }, (_, i) =>
            rule({ query: [{ param: `r${i}`, op: "present" }] }, `https://r${i}.example/`)
          )
          const test_variants = withVariants ? [{ url: "https://v.example/", weight: 1 }] : []
          const result = chooseDestination(
            link({ redirect_rules, test_variants }),
            visit({ query: matching.map((i) => [`r${i}`, ""] as const).reverse() })
          )
          const first = Math.min(...matching)
          if (matching.length > 0) {
            expect(result.matched).toEqual({ kind: "rule", index: first })
            expect(result.destination).toMatch(new RegExp(`^https://r${first}\\.example/\\?`))
          } else
            expect(result.matched).toEqual(withVariants ? { kind: "variant", index: 0 } : { kind: "target" })
        }
      )
    )
  })
})

describe("chooseDestination: A/B variants", () => {
  const variants = [
    { url: "https://a.example/", weight: 1 },
    { url: "https://b.example/", weight: 2 },
    { url: "https://c.example/", weight: 7 }
  ]

  it("property: a visitor always gets the same variant of a link, whatever else the visit says", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom("mobile", "desktop", "bot" as const),
        fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
        (key, visitorId, weights, device, at) => {
          const test_variants = weights.map((weight, i) => ({ url: `https://v${i}.example/`, weight }))
          const first = chooseDestination(link({ key, test_variants }), visit({ visitor_id: visitorId }))
          const again = chooseDestination(
            link({ key, test_variants }),
            visit({ visitor_id: visitorId, device, at })
          )
          expect(again).toEqual(first)
          expect(first.matched.kind).toBe("variant")
          expect(pickVariant(key, visitorId, test_variants)).toBe(
            first.matched.kind === "variant" ? first.matched.index : -1
          )
        }
      )
    )
  })

  it("spreads many visitors by the weights (within 1.5 points of each share)", () => {
    const counts = [0, 0, 0]
    const n = 30_000
    for (let i = 0; i < n; i++) {
      const index = pickVariant("res_0001", `visitor-${i}`, variants)
      if (index !== undefined) counts[index] = (counts[index] ?? 0) + 1
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n)
    counts.forEach((count, i) => {
      expect(Math.abs(count / n - (variants[i]?.weight ?? 0) / 10)).toBeLessThan(0.015)
    })
  })

  it("property: for random weights the shares follow the weights", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 5 }),
        fc.string(),
        (weights, key) => {
          const total = weights.reduce((a, b) => a + b, 0)
          const counts = weights.map(() => 0)
          const n = 4000
          for (let i = 0; i < n; i++) {
            const index =
              pickVariant(
                key,
                String(i),
                weights.map((weight) => ({ weight }))
              ) ?? -1
            counts[index] = (counts[index] ?? 0) + 1
          }
          // Binomial standard deviation is at most 0.8 points at n = 4000; allow five of them.
          counts.forEach((count, i) => {
            expect(Math.abs(count / n - (weights[i] ?? 0) / total)).toBeLessThan(0.04)
          })
        }
      ),
      { numRuns: 30 }
    )
  })

  it("reshuffles visitors per link, so one visitor is not in the same arm of every test", () => {
    const arms = Array.from({ length: 200 }, (_, i) => pickVariant(`link-${i}`, "visitor-1", variants))
    expect(new Set(arms).size).toBe(3)
  })

  it("has no variant to pick from an empty list", () => {
    expect(pickVariant("k", "v", [])).toBeUndefined()
    expect(chooseDestination(link({ test_variants: [] }), visit()).matched).toEqual({ kind: "target" })
  })
})

describe("time windows", () => {
  const ms = (iso: string) => new Date(iso).getTime()

  it("property: from is inclusive and to exclusive, to the millisecond", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: ms("2000-01-01T00:00:00Z"), max: ms("2090-01-01T00:00:00Z") }),
        fc.integer({ min: 1, max: 400 * 86_400_000 }),
        (start, length) => {
          // Whole seconds, as RFC 3339 strings in UTC, then the same instants with an offset.
          const from = new Date(Math.floor(start / 1000) * 1000)
          const to = new Date(from.getTime() + Math.ceil(length / 1000) * 1000)
          const withOffset = (d: Date) =>
            new Date(d.getTime() + 5.5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+05:30")
          for (const window of [
            { from: from.toISOString(), to: to.toISOString() },
            { from: withOffset(from), to: withOffset(to) }
          ] satisfies ReadonlyArray<TimeWindow>) {
            expect(inTimeWindow(window, new Date(from.getTime() - 1))).toBe(false)
            expect(inTimeWindow(window, from)).toBe(true)
            expect(inTimeWindow(window, new Date(to.getTime() - 1))).toBe(true)
            expect(inTimeWindow(window, to)).toBe(false)
          }
        }
      )
    )
  })

  it("property: daily hours in UTC follow [from, to), wrapping past midnight", () => {
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 1, max: 1440 }),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 59_999 }),
        (from, to, minute, extraMs) => {
          fc.pre(from !== to)
          const window: TimeWindow = { hours: { from: hhmm(from), to: to === 1440 ? "24:00" : hhmm(to) } }
          const at = new Date(Date.UTC(2025, 5, 4, 0, minute) + extraMs)
          const expected = from < to ? minute >= from && minute < to : minute >= from || minute < to
          expect(inTimeWindow(window, at)).toBe(expected)
        }
      )
    )
  })

  it("reads days and hours in the window's time zone, across daylight saving time", () => {
    const window: TimeWindow = {
      days: ["mon", "tue", "wed", "thu", "fri"],
      hours: { from: "09:00", to: "17:00" },
      time_zone: "America/New_York"
    }
    // Summer (EDT, UTC-4): 09:00 local is 13:00Z. Winter (EST, UTC-5): 14:00Z.
    expect(inTimeWindow(window, new Date("2025-06-04T12:59:59.999Z"))).toBe(false)
    expect(inTimeWindow(window, new Date("2025-06-04T13:00:00Z"))).toBe(true)
    expect(inTimeWindow(window, new Date("2025-06-04T20:59:59.999Z"))).toBe(true)
    expect(inTimeWindow(window, new Date("2025-06-04T21:00:00Z"))).toBe(false)
    expect(inTimeWindow(window, new Date("2025-01-08T13:30:00Z"))).toBe(false)
    expect(inTimeWindow(window, new Date("2025-01-08T14:00:00Z"))).toBe(true)
    // Saturday 2025-06-07 at noon local is no weekday; Friday 23:30Z is still Friday 19:30 local.
    expect(inTimeWindow(window, new Date("2025-06-07T16:00:00Z"))).toBe(false)
    expect(
      inTimeWindow({ days: ["fri"], time_zone: "America/New_York" }, new Date("2025-06-07T02:00:00Z"))
    ).toBe(true)
    expect(inTimeWindow({ days: ["fri"] }, new Date("2025-06-07T02:00:00Z"))).toBe(false)
  })

  it("counts hours past midnight as the night of the day they started", () => {
    const friNight: TimeWindow = {
      days: ["fri"],
      hours: { from: "22:00", to: "06:00" },
      time_zone: "Europe/Berlin"
    }
    // 2025-06-06 is a Friday; Berlin is UTC+2 in June.
    expect(inTimeWindow(friNight, new Date("2025-06-06T19:59:59Z"))).toBe(false) // Fri 21:59
    expect(inTimeWindow(friNight, new Date("2025-06-06T20:00:00Z"))).toBe(true) // Fri 22:00
    expect(inTimeWindow(friNight, new Date("2025-06-07T00:30:00Z"))).toBe(true) // Sat 02:30
    expect(inTimeWindow(friNight, new Date("2025-06-07T03:59:59Z"))).toBe(true) // Sat 05:59
    expect(inTimeWindow(friNight, new Date("2025-06-07T04:00:00Z"))).toBe(false) // Sat 06:00
    expect(inTimeWindow(friNight, new Date("2025-06-06T00:30:00Z"))).toBe(false) // Fri 02:30 (Thu night)
    expect(inTimeWindow(friNight, new Date("2025-06-07T20:30:00Z"))).toBe(false) // Sat 22:30
  })

  it("decides a rule by its time window", () => {
    const rules = [
      rule({ time: { from: "2025-06-01T00:00:00Z", to: "2025-06-08T00:00:00Z" } }, "https://sale.example/")
    ]
    const choose = (iso: string) =>
      chooseDestination(link({ redirect_rules: rules }), visit({ at: new Date(iso) })).matched
    expect(choose("2025-05-31T23:59:59.999Z")).toEqual({ kind: "target" })
    expect(choose("2025-06-01T00:00:00Z")).toEqual({ kind: "rule", index: 0 })
    expect(choose("2025-06-07T23:59:59.999Z")).toEqual({ kind: "rule", index: 0 })
    expect(choose("2025-06-08T00:00:00Z")).toEqual({ kind: "target" })
  })
})

describe("availability and fallback_url", () => {
  const window = {
    starts_at: new Date("2025-06-01T00:00:00Z"),
    expires_at: new Date("2025-07-01T00:00:00Z")
  }
  const rules = [rule({ device: ["desktop"] }, "https://rule.example/")]

  it("sends a visit outside the link's life or over its views to the fallback, before any rule", () => {
    const withFallback = link({ ...window, redirect_rules: rules, fallback_url: "https://gone.example/" })
    const at = (iso: string, views = 0, max_views?: number) =>
      chooseDestination({ ...withFallback, views, max_views }, visit({ at: new Date(iso) }))
    expect(at("2025-05-31T23:59:59.999Z")).toEqual({
      destination: "https://gone.example/",
      matched: { kind: "fallback", reason: "not_started" }
    })
    expect(at("2025-06-01T00:00:00Z").matched).toEqual({ kind: "rule", index: 0 })
    expect(at("2025-06-30T23:59:59.999Z").matched).toEqual({ kind: "rule", index: 0 })
    expect(at("2025-07-01T00:00:00Z").matched).toEqual({ kind: "fallback", reason: "expired" })
    expect(at("2025-06-15T00:00:00Z", 9, 10).matched).toEqual({ kind: "rule", index: 0 })
    expect(at("2025-06-15T00:00:00Z", 10, 10).matched).toEqual({
      kind: "fallback",
      reason: "view_limit_reached"
    })
  })

  it("answers no destination when an unavailable link has no fallback", () => {
    for (const fallback_url of [undefined, null])
      expect(
        chooseDestination(link({ ...window, fallback_url }), visit({ at: new Date("2026-01-01T00:00:00Z") }))
      ).toEqual({
        destination: null,
        matched: { kind: "unavailable", reason: "expired" }
      })
  })

  it("ignores fallback_url while the link is available", () => {
    expect(chooseDestination(link({ fallback_url: "https://gone.example/" }), visit())).toEqual({
      destination: "https://target.example/",
      matched: { kind: "target" }
    })
  })
})

describe("query passthrough", () => {
  // What URLSearchParams reads back from text we encoded: lone surrogates become U+FFFD.
  const wellFormed = (text: string) =>
    text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")

  it("appends the visit's parameters, keeps the destination's own values and its fragment", () => {
    expect(forwardQuery("https://t.example/p", [["utm_source", "x"]])).toBe(
      "https://t.example/p?utm_source=x"
    )
    expect(
      forwardQuery("https://t.example/p?ref=owner#top", [
        ["ref", "visitor"],
        ["a", "1 2&3"],
        ["a", "4"]
      ])
    ).toBe("https://t.example/p?ref=owner&a=1%202%263&a=4#top")
    expect(forwardQuery("https://t.example/p?", [["a", ""]])).toBe("https://t.example/p?a=")
    expect(forwardQuery("https://t.example/p?x=%7B1%7D&y", [])).toBe("https://t.example/p?x=%7B1%7D&y")
    expect(forwardQuery("https://t.example/p?r%C3%A9f=1", [["réf", "2"]])).toBe(
      "https://t.example/p?r%C3%A9f=1"
    )
  })

  it("forwards on every kind of destination", () => {
    const query = [["utm_campaign", "spring"]] as const
    expect(chooseDestination(link(), visit({ query })).destination).toBe(
      "https://target.example/?utm_campaign=spring"
    )
    expect(
      chooseDestination(
        link({ test_variants: [{ url: "https://v.example/x?y=1", weight: 1 }] }),
        visit({ query })
      ).destination
    ).toBe("https://v.example/x?y=1&utm_campaign=spring")
  })

  it("property: the result is a valid URL carrying every forwarded pair once, in order, after the owner's", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1 }), fc.string()), { maxLength: 8 }),
        fc.constantFrom("https://t.example/", "https://t.example/p?own=1", "https://t.example/p?own=1#frag"),
        (pairs, destination) => {
          const out = forwardQuery(destination, pairs)
          const url = new URL(out)
          const forwarded = pairs
            .filter(([name]) => name !== "own")
            .map(([n, v]) => [wellFormed(n), wellFormed(v)])
          const params = [...url.searchParams].filter(
            ([name]) => name !== "own" || destination === "https://t.example/"
          )
          expect(params).toEqual(
            destination === "https://t.example/"
              ? pairs.map(([n, v]) => [wellFormed(n), wellFormed(v)])
              : forwarded
          )
          if (destination.includes("own=1")) expect(url.searchParams.getAll("own")).toEqual(["1"])
          if (destination.endsWith("#frag")) expect(url.hash).toBe("#frag")
        }
      )
    )
  })
})
