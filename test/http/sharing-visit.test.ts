// The visit a link's redirect decides on, read from a real request (user agent, Accept-Language,
// the configured country header, the query) and from a simulate route's request description; the
// two readings agree, so a dry run sees what a visitor with those headers would get.
import { chooseDestination, issuesOf, STRICT_ALL } from "@folio/domain"
import { Result, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  countryFrom,
  parseAcceptLanguage,
  parseUserAgent,
  queryOf,
  VisitDescription,
  visitFromDescription,
  visitFromRequest
} from "../../packages/adapters-http/src/sharing/visit.js"

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  pixel:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  galaxyTab:
    "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  edge: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  linux: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  chromebook:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  tizenTv:
    "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0 TV Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  slackbot: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  curl: "curl/8.5.0"
} as const

describe("parseUserAgent", () => {
  it.each([
    [UA.iphone, "mobile", "ios", "Safari", "iOS"],
    [UA.ipad, "tablet", "ios", "Safari", "iOS"],
    [UA.pixel, "mobile", "android", "Chrome", "Android"],
    [UA.galaxyTab, "tablet", "android", "Chrome", "Android"],
    [UA.edge, "desktop", "windows", "Microsoft Edge", "Windows"],
    [UA.mac, "desktop", "macos", "Safari", "macOS"],
    [UA.linux, "desktop", "linux", "Firefox", "Linux"],
    [UA.chromebook, "desktop", "chromeos", "Chrome", "Chrome OS"],
    [UA.tizenTv, "tv", "other", "Samsung Internet for Android", "Tizen"],
    [UA.googlebot, "bot", "other", "Googlebot", undefined]
  ])("reads %s as a %s on %s", (ua, device, os, browser, system) => {
    // `system` is the OS as analytics names it (the rules read the family in `os`).
    expect(parseUserAgent(ua)).toEqual({ device, os, browser, ...(system === undefined ? {} : { system }) })
  })

  it.each([UA.slackbot, UA.facebook, UA.curl])("reads link-preview bots and scripts as bots: %s", (ua) => {
    expect(parseUserAgent(ua).device).toBe("bot")
  })

  it("reads a missing or blank user agent as other, without throwing", () => {
    expect(parseUserAgent(undefined)).toEqual({ device: "other", os: "other" })
    expect(parseUserAgent("")).toEqual({ device: "other", os: "other" })
    expect(parseUserAgent("   ")).toEqual({ device: "other", os: "other" })
  })

  it("answers a hostile user agent quickly and the same way twice", () => {
    const hostile = `Mozilla/5.0 (${"a; ".repeat(50_000)}) ${"(".repeat(10_000)}`
    const started = performance.now()
    const first = parseUserAgent(hostile)
    expect(performance.now() - started).toBeLessThan(500)
    expect(parseUserAgent(hostile)).toEqual(first)
  })
})

describe("parseAcceptLanguage", () => {
  it.each([
    [undefined, []],
    ["", []],
    ["*", []],
    ["de", ["de"]],
    ["en-US,en;q=0.9,de;q=0.8", ["en", "de"]],
    ["de;q=0.5, fr-CH, *;q=0.1, it;q=0", ["fr", "de"]],
    ["ZH-Hant-TW, pt-BR;q=0.7, PT;q=0.9", ["zh", "pt"]],
    ["garbage!!, 1234, fil", ["fil"]]
  ])("reads %j as %j (preference order, primary tags, once each)", (header, languages) => {
    expect(parseAcceptLanguage(header)).toEqual(languages)
  })
})

describe("countryFrom", () => {
  it.each([
    ["DE", "DE"],
    ["de", "DE"],
    [" us ", "US"],
    ["XX", undefined],
    ["T1", undefined],
    ["ZZ", undefined],
    ["QM", undefined],
    ["DEU", undefined],
    ["", undefined],
    [undefined, undefined]
  ])("reads %j as %j", (value, country) => {
    expect(countryFrom(value)).toBe(country)
  })
})

describe("queryOf", () => {
  it("reads the parameters decoded, in order, with repeats and bare flags, ignoring a fragment", () => {
    expect(queryOf("/s/abc")).toEqual([])
    expect(queryOf("/s/abc?x=1&x=2&flag&sp=a+b&enc=%C3%A9%26#frag")).toEqual([
      ["x", "1"],
      ["x", "2"],
      ["flag", ""],
      ["sp", "a b"],
      ["enc", "é&"]
    ])
  })
})

describe("visitFromRequest", () => {
  const at = new Date("2025-06-04T12:00:00Z")
  const request = HttpServerRequest.fromWeb(
    new Request("http://folio.test/s/promo?utm_source=mail&ref", {
      headers: {
        "user-agent": UA.iphone,
        "accept-language": "de-AT,de;q=0.9,en;q=0.5",
        "cf-ipcountry": "AT",
        "x-country": "CH"
      }
    })
  )

  it("reads an effect/http request: device, system, languages, query, the visitor and the instant", () => {
    expect(visitFromRequest(request, { visitorId: "v1", at, countryHeader: "cf-ipcountry" })).toEqual({
      device: "mobile",
      os: "ios",
      languages: ["de", "en"],
      country: "AT",
      query: [
        ["utm_source", "mail"],
        ["ref", ""]
      ],
      at,
      visitor_id: "v1"
    })
  })

  it("reads the country only from the configured header", () => {
    expect(visitFromRequest(request, { visitorId: "v1", at, countryHeader: "x-country" }).country).toBe("CH")
    expect(visitFromRequest(request, { visitorId: "v1", at, countryHeader: "x-geo" }).country).toBeUndefined()
    expect(visitFromRequest(request, { visitorId: "v1", at })).not.toHaveProperty("country")
  })
})

const decode = Schema.decodeUnknownResult(VisitDescription)
const issues = (input: unknown) => {
  const r = decode(input, STRICT_ALL)
  return Result.isFailure(r) ? issuesOf(r.failure) : []
}

describe("VisitDescription and visitFromDescription", () => {
  const defaults = { now: new Date("2025-06-04T12:00:00Z"), visitorId: "default-visitor" }

  it("maps a full description to the visit a real request with those headers makes", () => {
    const r = decode(
      {
        user_agent: UA.pixel,
        language: "fr-CA,fr;q=0.9",
        country: "CA",
        query: { utm_source: "mail", tag: ["a", "b"], flag: "" },
        time: "2025-06-05T09:30:00+02:00",
        visitor_id: "visitor-7"
      },
      STRICT_ALL
    )
    if (Result.isFailure(r)) throw new Error(JSON.stringify(issuesOf(r.failure)))
    expect(visitFromDescription(r.success, defaults)).toEqual({
      device: "mobile",
      os: "android",
      languages: ["fr"],
      country: "CA",
      query: [
        ["utm_source", "mail"],
        ["tag", "a"],
        ["tag", "b"],
        ["flag", ""]
      ],
      at: new Date("2025-06-05T07:30:00Z"),
      visitor_id: "visitor-7"
    })
  })

  it("fills an empty description from the defaults and knows nothing else", () => {
    expect(visitFromDescription({}, defaults)).toEqual({
      device: "other",
      os: "other",
      languages: [],
      query: [],
      at: defaults.now,
      visitor_id: "default-visitor"
    })
    expect(visitFromDescription({ country: null }, defaults)).not.toHaveProperty("country")
  })

  it("lets device and os override what the user agent says", () => {
    const visit = visitFromDescription({ user_agent: UA.edge, device: "tablet", os: "ios" }, defaults)
    expect([visit.device, visit.os]).toEqual(["tablet", "ios"])
  })

  it.each([
    [{ country: "de" }, ["country"], "pattern"],
    [{ time: "tomorrow" }, ["time"], "dateTime"],
    [{ time: "2025-06-05T09:30:00" }, ["time"], "dateTime"],
    [{ device: "phone" }, ["device"], "enum"],
    [{ os: "beos" }, ["os"], "enum"],
    [{ visitor_id: "" }, ["visitor_id"], "minLength"],
    [{ query: { "": "x" } }, ["query"], "paramName"],
    [{ query: { ["n".repeat(257)]: "x" } }, ["query"], "paramName"],
    [{ query: { a: 1 } }, ["query", "a"], undefined],
    [
      { query: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, "1"])) },
      ["query"],
      "maxProperties"
    ],
    [{ user_agent: "x".repeat(1025) }, ["user_agent"], "maxLength"],
    [{ referrer: "https://x.example" }, ["referrer"], "unknownKey"]
  ])("refuses %j at %j", (input, path, rule) => {
    const found = issues(input)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]?.path).toEqual(path)
    if (rule !== undefined) expect(found[0]?.rule).toBe(rule)
  })

  it("property: a description and the request it describes make the same visit, and the same decision", () => {
    const link = {
      key: "res_1",
      target_url: "https://t.example/",
      redirect_rules: [
        {
          conditions: { device: ["mobile" as const], language: ["de"] },
          target_url: "https://m-de.example/"
        },
        { conditions: { country: ["FR"] }, target_url: "https://fr.example/" },
        {
          conditions: { query: [{ param: "vip", op: "present" as const }] },
          target_url: "https://vip.example/"
        }
      ],
      test_variants: [
        { url: "https://a.example/", weight: 1 },
        { url: "https://b.example/", weight: 1 }
      ]
    }
    const name = fc.constantFrom("vip", "utm_source", "a b", "é", "x&y")
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...Object.values(UA)), { nil: undefined }),
        fc.option(fc.constantFrom("de-DE,en;q=0.5", "en-US,de;q=0.8", "fr", "*"), { nil: undefined }),
        fc.option(fc.constantFrom("FR", "DE", "US"), { nil: undefined }),
        fc.dictionary(
          name,
          fc.oneof(fc.string({ maxLength: 6 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }))
        ),
        fc.string({ minLength: 1, maxLength: 20 }),
        (userAgent, language, country, query, visitorId) => {
          const at = new Date("2025-06-04T12:00:00Z")
          const search = new URLSearchParams()
          for (const [k, v] of Object.entries(query))
            for (const one of typeof v === "string" ? [v] : v) search.append(k, one)
          const headers: Record<string, string> = {}
          if (userAgent !== undefined) headers["user-agent"] = userAgent
          if (language !== undefined) headers["accept-language"] = language
          if (country !== undefined) headers["x-country"] = country
          const fromRequest = visitFromRequest(
            HttpServerRequest.fromWeb(new Request(`http://folio.test/s/x?${search}`, { headers })),
            { visitorId, at, countryHeader: "x-country" }
          )
          const fromDescription = visitFromDescription(
            {
              ...(userAgent === undefined ? {} : { user_agent: userAgent }),
              ...(language === undefined ? {} : { language }),
              ...(country === undefined ? {} : { country }),
              query,
              time: at.toISOString(),
              visitor_id: visitorId
            },
            { now: new Date(0), visitorId: "unused" }
          )
          expect(fromDescription).toEqual(fromRequest)
          expect(chooseDestination(link, fromDescription)).toEqual(chooseDestination(link, fromRequest))
        }
      )
    )
  })
})
