// One recorded visit of a public resource: what the public routes hand over per counted view (a
// `VisitHit`, raw and cheap to make on the request path) and what is stored (a `VisitRecord`: the
// visitor as a daily-rotating keyed hash, never the IP; the referrer's host only; the UTM tags).
import { hmac } from "@noble/hashes/hmac"
import { sha256 } from "@noble/hashes/sha2"
import { toHex } from "../../kernel/digest.js"
import type { DeviceType } from "../links/visit.js"

/** The UTM tags a visit's query may carry (`utm_source` ... `utm_content`). */
export const UTM_TAGS = ["source", "medium", "campaign", "term", "content"] as const
export type UtmTag = (typeof UTM_TAGS)[number]

/**
 * A counted view as the public route saw it. It holds the client address and user agent only
 * until the recorder's next flush turns it into a VisitRecord (about a second); they are never
 * stored.
 */
export interface VisitHit {
  readonly resourceId: string
  readonly tenantId: string
  /** Epoch milliseconds. */
  readonly at: number
  readonly ip: string
  readonly userAgent: string
  /** Parsed by the HTTP adapter's user-agent parser (the one the redirect rules use). */
  readonly browser: string | undefined
  readonly system: string | undefined
  readonly device: DeviceType
  readonly bot: boolean
  /** The Referer header as sent. */
  readonly referer: string | undefined
  /** The request target (`/s/slug?utm_source=x`): where the UTM tags are read from. */
  readonly url: string
  /** From the trusted country header; the recorder may look the address up when absent. */
  readonly country: string | undefined
  /** A link's destination as its owner wrote it (before the visit's query was passed through). */
  readonly destination: string | undefined
}

export interface VisitRecord {
  readonly resourceId: string
  readonly tenantId: string
  readonly at: Date
  /** `visitorHash` of the visit's address and user agent under its UTC day's key. */
  readonly visitorHash: string
  readonly bot: boolean
  readonly browser: string | null
  readonly system: string | null
  readonly device: string | null
  readonly referrerHost: string | null
  readonly utmSource: string | null
  readonly utmMedium: string | null
  readonly utmCampaign: string | null
  readonly utmTerm: string | null
  readonly utmContent: string | null
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string | null
  readonly destination: string | null
  /**
   * How many identical visits this record stands for (1 unless the recorder merged visits that
   * agree on everything, visitor included, within one second: see `visitCompactor`).
   */
  readonly count: number
}

/** A stored value longer than this is cut (UTM tags and user-agent names are short in practice). */
export const MAX_VALUE_LENGTH = 200
const MAX_DESTINATION_LENGTH = 2048

const clip = (text: string | undefined, max = MAX_VALUE_LENGTH): string | null => {
  const trimmed = (text ?? "").trim()
  return trimmed === "" ? null : trimmed.slice(0, max)
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10)

/** `day` moved by `n` days (UTC calendar). */
export const addDays = (day: string, n: number): string =>
  dayOf(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000)

/** The instant a UTC day starts. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00.000Z`)

/**
 * The host of a Referer value (lower case, without `www.` and port), or null when there is none or
 * it is not an http(s) URL. Paths and queries are dropped: they can carry a person's data.
 */
export const referrerHostOf = (referer: string | undefined): string | null => {
  if (referer === undefined || referer === "") return null
  const m = /^https?:\/\/([^/?#]+)/i.exec(referer.slice(0, 2048))
  if (m === null || m[1] === undefined) return null
  const authority = m[1].slice(m[1].lastIndexOf("@") + 1)
  const host = authority.startsWith("[")
    ? authority.slice(0, authority.indexOf("]") + 1)
    : authority.replace(/:\d*$/, "")
  const normalized = host
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/\.$/, "")
  return /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(normalized) && normalized.length <= 253 ? normalized : null
}

/** The UTM tags of a request target's query (the first value of each; empty ones absent). */
export const utmOf = (url: string): Readonly<Record<UtmTag, string | null>> => {
  const found: Record<UtmTag, string | null> = {
    source: null,
    medium: null,
    campaign: null,
    term: null,
    content: null
  }
  const at = url.indexOf("?")
  if (at < 0 || !url.includes("utm_", at)) return found
  const hash = url.indexOf("#", at)
  const seen = new Set<UtmTag>()
  for (const pair of url.slice(at + 1, hash < 0 ? undefined : hash).split("&")) {
    const eq = pair.indexOf("=")
    const name = decodeQueryPart(eq < 0 ? pair : pair.slice(0, eq))
    const tag = UTM_TAGS.find((t) => name === `utm_${t}`)
    if (tag === undefined || seen.has(tag)) continue
    seen.add(tag)
    found[tag] = clip(eq < 0 ? "" : decodeQueryPart(pair.slice(eq + 1)))
  }
  return found
}

/** A query name or value as a form decodes it (`+` is a space; a bad escape is kept as written). */
const decodeQueryPart = (text: string): string => {
  const spaced = text.replace(/\+/g, " ")
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/**
 * The day's key of the visitor hash: HMAC-SHA-256 of the day under the analytics secret (derived
 * from the app's signing secret). A new day is a new key, so one person's visits on two days
 * cannot be linked, and without the secret a hash cannot be tested against a guessed address.
 */
export const dailyVisitorKey = (secret: string, day: string): Uint8Array =>
  hmac(sha256, new TextEncoder().encode(secret), new TextEncoder().encode(`visitor:${day}`))

/**
 * The visitor hash function of one day: hex of the first 16 bytes of HMAC-SHA-256(day key, address
 * + newline + user agent). The keyed state is made once per day and cloned per visit.
 */
export const visitorHasher = (secret: string, day: string) => {
  const keyed = hmac.create(sha256, dailyVisitorKey(secret, day))
  const encoder = new TextEncoder()
  return (ip: string, userAgent: string): string =>
    toHex(
      keyed
        .clone()
        .update(encoder.encode(`${ip}\n${userAgent.slice(0, 512)}`))
        .digest()
        .slice(0, 16)
    )
}

/** The stored visit of a hit, given its visitor hash and its country (header or address lookup). */
export const visitRecordOf = (
  hit: VisitHit,
  visitorHash: string,
  country: string | undefined
): VisitRecord => {
  const utm = utmOf(hit.url)
  return {
    resourceId: hit.resourceId,
    tenantId: hit.tenantId,
    at: new Date(hit.at),
    visitorHash,
    bot: hit.bot,
    browser: clip(hit.browser),
    system: clip(hit.system),
    device: hit.device,
    referrerHost: referrerHostOf(hit.referer),
    utmSource: utm.source,
    utmMedium: utm.medium,
    utmCampaign: utm.campaign,
    utmTerm: utm.term,
    utmContent: utm.content,
    country: country ?? null,
    destination: clip(hit.destination, MAX_DESTINATION_LENGTH),
    count: 1
  }
}

const part = (text: string | null) => (text === null ? "\u0001" : text)

/** What a merged record must agree on: resource, second, visitor, bot flag, every dimension. */
const sameVisitKey = (v: VisitRecord, second: number) =>
  `${v.resourceId}\u0000${second}\u0000${v.visitorHash}\u0000${v.bot ? 1 : 0}\u0000${part(v.browser)}\u0000${part(v.system)}\u0000${part(v.device)}\u0000${part(v.referrerHost)}\u0000${part(v.utmSource)}\u0000${part(v.utmMedium)}\u0000${part(v.utmCampaign)}\u0000${part(v.utmTerm)}\u0000${part(v.utmContent)}\u0000${part(v.country)}\u0000${part(v.destination)}`

/** Whether two records of one visitor, resource and second agree on the rest (the key's other parts). */
const sameDimensions = (a: VisitRecord, b: VisitRecord) =>
  a.bot === b.bot &&
  a.browser === b.browser &&
  a.system === b.system &&
  a.device === b.device &&
  a.referrerHost === b.referrerHost &&
  a.utmSource === b.utmSource &&
  a.utmMedium === b.utmMedium &&
  a.utmCampaign === b.utmCampaign &&
  a.utmTerm === b.utmTerm &&
  a.utmContent === b.utmContent &&
  a.country === b.country &&
  a.destination === b.destination

interface Merged {
  readonly record: VisitRecord
  readonly second: number
  count: number
}

/** One visitor's records of one resource in a batch: scanned while few, then found by their key. */
interface Group {
  scan: Array<Merged>
  byKey: Map<string, Merged> | undefined
}

/**
 * Past this many distinct records of one visitor and resource in a batch (a client varying its
 * query in a burst), they are found by their full key instead of compared one by one.
 */
const SCAN_LIMIT = 16

/**
 * Merges visits that agree on everything (resource, visitor hash, bot flag, every dimension)
 * within the same second into one record with their count, at the first one's time. Nothing a
 * summary or an export can tell apart is lost (the export writes such a record as `count`
 * identical lines); a burst from one client (a crawler, a retrying script, a load test) then costs
 * one stored row per second instead of one per request. Fed a visit at a time, as they arrive.
 * Records are found by visitor hash, then resource (strings the recorder hands over again and
 * again, whose hashes the engine keeps), then by comparing the few fields left: a key of every
 * dimension joined into one string cost more than the rest of the record's making
 * (bench/redirect.ts's profile).
 */
export const visitCompactor = () => {
  const order: Array<Merged> = []
  const byVisitor = new Map<string, Map<string, Group>>()
  return {
    add: (v: VisitRecord): void => {
      const second = Math.floor(v.at.getTime() / 1000)
      let byResource = byVisitor.get(v.visitorHash)
      if (byResource === undefined) {
        byResource = new Map()
        byVisitor.set(v.visitorHash, byResource)
      }
      let group = byResource.get(v.resourceId)
      if (group === undefined) {
        group = { scan: [], byKey: undefined }
        byResource.set(v.resourceId, group)
      }
      const { byKey } = group
      const key = byKey === undefined ? "" : sameVisitKey(v, second)
      const known =
        byKey === undefined
          ? group.scan.find((m) => m.second === second && sameDimensions(m.record, v))
          : byKey.get(key)
      if (known !== undefined) {
        known.count += v.count
        return
      }
      const merged: Merged = { record: v, second, count: v.count }
      order.push(merged)
      if (byKey !== undefined) byKey.set(key, merged)
      else if (group.scan.length < SCAN_LIMIT) group.scan.push(merged)
      else {
        group.byKey = new Map([...group.scan, merged].map((m) => [sameVisitKey(m.record, m.second), m]))
        group.scan = []
      }
    },
    get size() {
      return order.length
    },
    records: (): Array<VisitRecord> =>
      order.map(({ record, count }) => (count === record.count ? record : { ...record, count }))
  }
}
