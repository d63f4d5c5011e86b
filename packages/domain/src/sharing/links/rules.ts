// The wire shape of `redirect_rules`: an ordered list of rules, each a set of conditions (all must
// hold; a list inside one condition matches any of its values) and the `target_url` it sends to.
// Cross-field rules (a window's `from` before its `to`) are filters, so every decode enforces them.
import { isCalendarDate } from "../../kernel/calendar.js"
import { DateTime, Option, Schema } from "effect"
import { RuleAnnotationId } from "../../kernel/issues.js"
import { DestinationUrl } from "./url.js"
import { DeviceType, OsFamily } from "./visit.js"

export const MAX_REDIRECT_RULES = 50
export const MAX_QUERY_CONDITIONS = 20

const pattern = (source: string) => ({ patterns: [{ source, flags: "" }] as const })

/** A non-empty list of at most `max` values (an empty list would be a condition nothing matches). */
const AnyOf = <S extends Schema.Top>(item: S, max: number) =>
  Schema.Array(item).check(Schema.isMinLength(1), Schema.isMaxLength(max))

/** ISO 639 primary language subtag as Accept-Language carries it, lower case (`de`, `pt`, `fil`). */
// Patterns carry the `u` flag: effect's JSON Schema output leaves out patterns without it.
export const LanguageTag = Schema.String.check(Schema.isPattern(/^[a-z]{2,3}$/u)).annotate({
  identifier: "LanguageTag",
  description: "an ISO 639 primary language subtag in lower case (de, pt, fil)"
})

/** ISO 3166-1 alpha-2 country code, upper case. */
export const CountryCode = Schema.String.check(Schema.isPattern(/^[A-Z]{2}$/u)).annotate({
  identifier: "CountryCode",
  description: "an ISO 3166-1 alpha-2 country code in upper case (DE, US)"
})

const ParamName = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(256))

/** A query parameter test: `equals` one of its values, or merely `present` (with any value). */
export const QueryCondition = Schema.Union([
  Schema.Struct({
    param: ParamName,
    op: Schema.Literal("equals"),
    value: Schema.String.check(Schema.isMaxLength(2048))
  }),
  Schema.Struct({ param: ParamName, op: Schema.Literal("present") })
]).annotate({ identifier: "QueryCondition" })
export type QueryCondition = typeof QueryCondition.Type

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const
export const Weekday = Schema.Literals(WEEKDAYS)
export type Weekday = typeof Weekday.Type

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/

/** RFC 3339 `date-time` with seconds and an explicit offset (`Z` or `+02:00`), on a real calendar day. */
export const isRfc3339 = (text: string): boolean => {
  const m = RFC3339.exec(text)
  return m !== null && isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`)
}

export const Rfc3339 = Schema.String.check(
  Schema.makeFilter(isRfc3339, {
    [RuleAnnotationId]: "dateTime",
    expected: "an RFC 3339 date-time with offset (2025-06-01T09:00:00Z or 2025-06-01T11:00:00+02:00)",
    toJsonSchema: () => ({ format: "date-time" }),
    arbitraryConstraint: pattern(
      "^20[2-3]\\d-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ$"
    )
  })
).annotate({ identifier: "Rfc3339DateTime" })

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/
/** Minutes since midnight of `HH:MM`; `24:00` is the end of the day. */
export const minutesOf = (hhmm: string): number =>
  hhmm === "24:00" ? 1440 : Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

const ClockTime = (allowEndOfDay: boolean) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => HHMM.test(s) || (allowEndOfDay && s === "24:00"), {
      [RuleAnnotationId]: "time",
      expected: allowEndOfDay
        ? "a time of day HH:MM (00:00 to 24:00)"
        : "a time of day HH:MM (00:00 to 23:59)",
      toJsonSchema: () => ({ pattern: allowEndOfDay ? "^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$" : HHMM.source }),
      arbitraryConstraint: pattern("^([01]\\d|2[0-3]):[0-5]\\d$")
    })
  )

/**
 * Daily hours, `from` inclusive and `to` exclusive, in the window's time zone. A `to` earlier than
 * `from` runs past midnight (22:00 to 06:00); `from` equal to `to` is refused (empty or whole day?).
 */
export const DailyHours = Schema.Struct({ from: ClockTime(false), to: ClockTime(true) }).check(
  Schema.makeFilter((h) => minutesOf(h.from) !== minutesOf(h.to), {
    [RuleAnnotationId]: "emptyHours",
    expected: "hours whose from and to differ"
  })
)
export type DailyHours = typeof DailyHours.Type

/** Whether `id` is an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). */
export const isTimeZone = (id: string): boolean =>
  id.length <= 64 && Option.isSome(DateTime.zoneMakeNamed(id))

export const TimeZoneName = Schema.String.check(
  Schema.makeFilter(isTimeZone, {
    [RuleAnnotationId]: "timeZone",
    expected: "an IANA time zone name (Europe/Berlin, America/New_York, UTC)",
    arbitraryConstraint: pattern("^(UTC|Europe/Berlin|America/New_York|Asia/Tokyo)$")
  })
).annotate({ identifier: "TimeZoneName" })

/**
 * When a rule applies. `from` (inclusive) and `to` (exclusive) bound it in absolute time; `days`
 * and `hours` repeat it weekly in `time_zone` (default UTC). Every part given must hold.
 */
export const TimeWindow = Schema.Struct({
  from: Schema.optionalKey(Rfc3339),
  to: Schema.optionalKey(Rfc3339),
  days: Schema.optionalKey(AnyOf(Weekday, 7)),
  hours: Schema.optionalKey(DailyHours),
  time_zone: Schema.optionalKey(TimeZoneName)
})
  .check(
    Schema.makeFilter(
      (w) => w.from !== undefined || w.to !== undefined || w.days !== undefined || w.hours !== undefined,
      { [RuleAnnotationId]: "emptyWindow", expected: "at least one of from, to, days, hours" }
    ),
    Schema.makeFilter(
      (w) => w.from === undefined || w.to === undefined || Date.parse(w.from) < Date.parse(w.to),
      { [RuleAnnotationId]: "windowOrder", expected: "from before to" }
    )
  )
  .annotate({ identifier: "TimeWindow" })
export type TimeWindow = typeof TimeWindow.Type

/** Conditions of one rule. Every condition given must hold; a list matches any one of its values. */
export const RuleConditions = Schema.Struct({
  device: Schema.optionalKey(AnyOf(DeviceType, 6)),
  os: Schema.optionalKey(AnyOf(OsFamily, 8)),
  language: Schema.optionalKey(AnyOf(LanguageTag, 100)),
  country: Schema.optionalKey(AnyOf(CountryCode, 250)),
  query: Schema.optionalKey(AnyOf(QueryCondition, MAX_QUERY_CONDITIONS)),
  time: Schema.optionalKey(TimeWindow)
})
  .check(
    Schema.makeFilter((c) => Object.values(c).some((v) => v !== undefined), {
      [RuleAnnotationId]: "noConditions",
      expected: "at least one of device, os, language, country, query, time"
    })
  )
  .annotate({ identifier: "RuleConditions" })
export type RuleConditions = typeof RuleConditions.Type

export const RedirectRule = Schema.Struct({
  conditions: RuleConditions,
  target_url: DestinationUrl
}).annotate({ identifier: "RedirectRule" })
export type RedirectRule = typeof RedirectRule.Type

export const RedirectRules = Schema.Array(RedirectRule)
  .check(Schema.isMaxLength(MAX_REDIRECT_RULES))
  .annotate({ identifier: "RedirectRules" })
export type RedirectRules = typeof RedirectRules.Type
