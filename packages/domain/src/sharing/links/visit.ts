// One visit of a link as the redirect decision sees it: what kind of device and system, the
// browser's languages, the country when known, the query string, the instant and the visitor.
// Adapters build it (from an HTTP request or from a simulation's description); rules read it.
import { Schema } from "effect"

/** Device classes a rule can target; `bot` wins over the hardware class (a crawler is a crawler). */
export const DEVICE_TYPES = ["mobile", "tablet", "desktop", "tv", "bot", "other"] as const
export const DeviceType = Schema.Literals(DEVICE_TYPES).annotate({ identifier: "DeviceType" })
export type DeviceType = typeof DeviceType.Type

/** Operating-system families a rule can target (iPadOS reports itself as iOS or macOS). */
export const OS_FAMILIES = [
  "ios",
  "android",
  "windows",
  "macos",
  "linux",
  "chromeos",
  "harmonyos",
  "other"
] as const
export const OsFamily = Schema.Literals(OS_FAMILIES).annotate({ identifier: "OsFamily" })
export type OsFamily = typeof OsFamily.Type

export interface Visit {
  readonly device: DeviceType
  readonly os: OsFamily
  /** Primary language subtags (`de`, `pt`), lower case, most preferred first, without `*`. */
  readonly languages: ReadonlyArray<string>
  /** ISO 3166-1 alpha-2, upper case; absent when nobody told us. */
  readonly country?: string | undefined
  /** The visit's query parameters, decoded, in order, repeats kept. */
  readonly query: ReadonlyArray<readonly [name: string, value: string]>
  readonly at: Date
  /** Stable per browser (a cookie); keeps an A/B variant sticky. */
  readonly visitor_id: string
}
