// The `Visit` the redirect decision reads, read from a real request (the public-visit decision's
// facts) or from a request description (the simulate routes), so a dry run sees what a visitor would.
// User agents are read with bowser (plus isbot for crawlers), Accept-Language with negotiator.
import {
  CountryCode,
  type DeviceType,
  DeviceType as DeviceTypeSchema,
  type OsFamily,
  OsFamily as OsFamilySchema,
  Rfc3339,
  RuleAnnotationId,
  type Visit
} from "@folio/domain"
import Bowser from "bowser"
import { Context, Schema } from "effect"
import { isbot } from "isbot"
import Negotiator from "negotiator"
import { DEFAULT_COUNTRY_HEADER } from "../shared/country-header.js"

/**
 * The lower-case request header the public redirect reads the visitor's country from (set by the
 * deployment's CDN or proxy); undefined: the country is never known and country rules never match.
 */
export const CountryHeader = Context.Reference<string | undefined>("@folio/adapters-http/CountryHeader", {
  defaultValue: () => DEFAULT_COUNTRY_HEADER
})

/** Longer user agents are cut before parsing: real ones stay far below, and regexes stay cheap. */
const MAX_USER_AGENT = 512
const MAX_ACCEPT_LANGUAGE = 1024
const MAX_LANGUAGES = 20

export interface UserAgentInfo {
  readonly device: DeviceType
  readonly os: OsFamily
  /** The browser's name as bowser spells it (`Chrome`, `Safari`), for analytics; absent when unknown. */
  readonly browser?: string | undefined
  /** The operating system's name as bowser spells it (`iOS`, `Windows`), for analytics. */
  readonly system?: string | undefined
}

const OS_BY_NAME: ReadonlyMap<string, OsFamily> = new Map([
  ["iOS", "ios"],
  ["Android", "android"],
  ["Windows", "windows"],
  ["macOS", "macos"],
  ["Linux", "linux"],
  ["Chrome OS", "chromeos"],
  ["HarmonyOS", "harmonyos"]
])

const DEVICE_BY_PLATFORM: ReadonlyMap<string, DeviceType> = new Map([
  ["mobile", "mobile"],
  ["tablet", "tablet"],
  ["desktop", "desktop"],
  ["tv", "tv"],
  ["bot", "bot"]
])

const DESKTOP_SYSTEMS: ReadonlySet<OsFamily> = new Set(["windows", "macos", "linux", "chromeos"])

const parseUncached = (userAgent: string): UserAgentInfo => {
  if (userAgent.trim() === "") return { device: "other", os: "other" }
  const parsed = Bowser.parse(userAgent)
  const os = OS_BY_NAME.get(parsed.os.name ?? "") ?? "other"
  const platform = DEVICE_BY_PLATFORM.get(parsed.platform.type ?? "")
  const device: DeviceType = isbot(userAgent)
    ? "bot"
    : (platform ??
      (DESKTOP_SYSTEMS.has(os) ? "desktop" : os === "ios" || os === "android" ? "mobile" : "other"))
  const browser = parsed.browser.name
  const system = parsed.os.name
  return {
    device,
    os,
    ...(browser === undefined || browser === "" ? {} : { browser }),
    ...(system === undefined || system === "" ? {} : { system })
  }
}

/**
 * A bounded memo: the redirect is the hot path, parsing costs tens of microseconds, and real traffic
 * repeats a few thousand user agents. Oldest entries go first when it is full.
 */
const MEMO_SIZE = 2048
const memo = new Map<string, UserAgentInfo>()

/** Device class, OS family and browser of a User-Agent header (missing or empty: `other`). */
export const parseUserAgent = (header: string | undefined): UserAgentInfo => {
  const userAgent = (header ?? "").slice(0, MAX_USER_AGENT)
  const known = memo.get(userAgent)
  if (known !== undefined) return known
  const info = parseUncached(userAgent)
  if (memo.size >= MEMO_SIZE) {
    const oldest = memo.keys().next()
    if (oldest.done !== true) memo.delete(oldest.value)
  }
  memo.set(userAgent, info)
  return info
}

/**
 * Primary language subtags of an Accept-Language value, most preferred first (by q, then order),
 * lower case, once each; `*`, refused (q=0) and malformed entries dropped.
 */
export const parseAcceptLanguage = (header: string | undefined): ReadonlyArray<string> => {
  if (header === undefined || header.trim() === "") return []
  const ranked = new Negotiator({
    headers: { "accept-language": header.slice(0, MAX_ACCEPT_LANGUAGE) }
  }).languages()
  const out: Array<string> = []
  for (const tag of ranked) {
    const primary = (tag.split("-")[0] ?? "").toLowerCase()
    if (/^[a-z]{2,3}$/.test(primary) && !out.includes(primary)) out.push(primary)
    if (out.length === MAX_LANGUAGES) break
  }
  return out
}

/** ISO 3166 codes reserved for private use (and Cloudflare's `XX` for unknown): no real country. */
const USER_ASSIGNED = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/

/**
 * A country header's value as an upper-case ISO 3166-1 alpha-2 code, or undefined when it is not
 * one (absent, `XX` unknown, `T1` Tor, anything else).
 */
export const countryFrom = (value: string | undefined): string | undefined => {
  const code = (value ?? "").trim().toUpperCase()
  return /^[A-Z]{2}$/.test(code) && !USER_ASSIGNED.test(code) ? code : undefined
}

/** The query parameters of a request target (`/s/abc?x=1&x=2&flag`), decoded, in order. */
export const queryOf = (url: string): ReadonlyArray<readonly [string, string]> => {
  const at = url.indexOf("?")
  if (at < 0) return []
  const hash = url.indexOf("#", at)
  return [...new URLSearchParams(url.slice(at + 1, hash < 0 ? undefined : hash))]
}

/** What `visitFactsOf` reads of a request (an effect/http HttpServerRequest fits). */
export interface RequestLike {
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly url: string
}

/** What a real request says of its visit: everything but its instant and its visitor. */
export const visitFactsOf = (
  request: RequestLike,
  countryHeader: string | undefined
): Omit<Visit, "at" | "visitor_id"> => {
  const agent = parseUserAgent(request.headers["user-agent"])
  const country = countryHeader === undefined ? undefined : countryFrom(request.headers[countryHeader])
  return {
    device: agent.device,
    os: agent.os,
    languages: parseAcceptLanguage(request.headers["accept-language"]),
    ...(country === undefined ? {} : { country }),
    query: queryOf(request.url)
  }
}

export interface VisitOptions {
  /** The visitor cookie's value; the caller makes a new one (and sets the cookie) when there is none. */
  readonly visitorId: string
  readonly at: Date
  /** Lower-case header naming the country, set by a trusted proxy; undefined: country unknown. */
  readonly countryHeader?: string | undefined
}

/** The whole visit of a real request, its visitor and instant given. */
export const visitFromRequest = (request: RequestLike, options: VisitOptions): Visit => ({
  ...visitFactsOf(request, options.countryHeader),
  at: options.at,
  visitor_id: options.visitorId
})

// Simulation -------------------------------------------------------------------------------------

const MAX_SIMULATED_PARAMS = 100
const QueryValue = Schema.String.check(Schema.isMaxLength(2048))

/**
 * The request a simulate route dry-runs (snake_case, every field optional): what a browser would
 * send (`user_agent`, `language` as an Accept-Language value), where it is (`country`), the query
 * string as an object (a repeated parameter as an array; `""` for a bare `?flag`), when (`time`,
 * default now) and who (`visitor_id`, which decides the sticky variant). `device` and `os`, when
 * given, override what the user agent says, so a client can ask "an iPhone" without a user agent.
 */
export const VisitDescription = Schema.Struct({
  user_agent: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1024))),
  language: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(MAX_ACCEPT_LANGUAGE))),
  country: Schema.optionalKey(Schema.NullOr(CountryCode)),
  // Plain string keys: effect's JSON Schema output drops a record's values when its keys are refined.
  query: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Union([QueryValue, Schema.Array(QueryValue).check(Schema.isMaxLength(MAX_SIMULATED_PARAMS))])
    ).check(
      Schema.isMaxProperties(MAX_SIMULATED_PARAMS),
      Schema.makeFilter((q) => Object.keys(q).every((name) => name.length >= 1 && name.length <= 256), {
        [RuleAnnotationId]: "paramName",
        expected: "parameter names of 1 to 256 characters"
      })
    )
  ),
  time: Schema.optionalKey(Rfc3339),
  visitor_id: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128))),
  device: Schema.optionalKey(DeviceTypeSchema),
  os: Schema.optionalKey(OsFamilySchema)
}).annotate({ identifier: "VisitDescription" })
export type VisitDescription = typeof VisitDescription.Type

export interface DescriptionDefaults {
  /** The instant when the description names no `time`. */
  readonly now: Date
  /** The visitor when the description names none (the simulate route's caller decides which). */
  readonly visitorId: string
}

/** The visit a request description stands for, read with the same parsers as a real request. */
export const visitFromDescription = (description: VisitDescription, defaults: DescriptionDefaults): Visit => {
  const agent = parseUserAgent(description.user_agent)
  const query: Array<readonly [string, string]> = []
  for (const [name, value] of Object.entries(description.query ?? {})) {
    for (const v of typeof value === "string" ? [value] : value) query.push([name, v])
  }
  const country = description.country ?? undefined
  return {
    device: description.device ?? agent.device,
    os: description.os ?? agent.os,
    languages: parseAcceptLanguage(description.language),
    ...(country === undefined ? {} : { country }),
    query,
    at: description.time === undefined ? defaults.now : new Date(description.time),
    visitor_id: description.visitor_id ?? defaults.visitorId
  }
}
