// Field-level building blocks of classic definitions: bounded strings and integers, the id
// patterns, and calendar-valid date, datetime and time strings exactly as forms-api.md writes them.
import { Schema } from "effect"
import { RuleAnnotationId } from "../../kernel/issues.js"
import { isCalendarDate, isDateTime, isTime } from "../../kernel/calendar.js"

export const Str = (max: number) => Schema.String.check(Schema.isMaxLength(max))
export const StrBetween = (min: number, max: number) =>
  Schema.String.check(Schema.isMinLength(min), Schema.isMaxLength(max))
export const IntBetween = (min: number, max: number) =>
  Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max }))
export const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))
export const ArrayOf = <S extends Schema.Top>(item: S, min: number, max: number) =>
  min === 0
    ? Schema.Array(item).check(Schema.isMaxLength(max))
    : Schema.Array(item).check(Schema.isMinLength(min), Schema.isMaxLength(max))

export const BlockId = Schema.String.check(Schema.isPattern(/^blk_[A-Za-z0-9_-]{8,}$/u)).annotate({
  identifier: "BlockId"
})
export const LogicRuleId = Schema.String.check(Schema.isPattern(/^lgc_[A-Za-z0-9_-]{6,}$/u))
export const RandomGroupId = Schema.String.check(Schema.isPattern(/^rng_[A-Za-z0-9_-]{6,}$/u))
export const MatrixGroupId = Schema.String.check(Schema.isPattern(/^mtx_[A-Za-z0-9_-]{6,}$/u))
export const ScoreId = Schema.String.check(Schema.isPattern(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/u))
export const ObjectKey = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(200),
  Schema.isPattern(/^[A-Za-z0-9/._-]+$/u)
)

// Generation hints for property tests: always-valid shapes, so generated values pass the filters.
const DATE_PATTERN = "^(19|20)\\d{2}-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])$"
const TIME_PATTERN = "^([01]\\d|2[0-3]):[0-5]\\d$"
const pattern = (source: string) => ({ patterns: [{ source, flags: "" }] as const })

export const CalendarDate = Schema.String.check(
  Schema.makeFilter(isCalendarDate, {
    [RuleAnnotationId]: "calendarDate",
    expected: "a calendar date (YYYY-MM-DD)",
    toJsonSchema: () => ({ format: "date" }),
    arbitraryConstraint: pattern(DATE_PATTERN)
  })
).annotate({ identifier: "CalendarDate" })

export const TimeOfDay = Schema.String.check(
  Schema.makeFilter(isTime, {
    [RuleAnnotationId]: "time",
    expected: "a time of day (HH:MM)",
    toJsonSchema: () => ({ pattern: TIME_PATTERN }),
    arbitraryConstraint: pattern(TIME_PATTERN)
  })
).annotate({ identifier: "TimeOfDay" })

export const DateTimeString = Schema.String.check(
  Schema.makeFilter(isDateTime, {
    [RuleAnnotationId]: "dateTime",
    expected: "a date and time (YYYY-MM-DDTHH:MM[:SS[.fraction]][Z])",
    toJsonSchema: () => ({
      pattern: "^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?Z?$"
    }),
    arbitraryConstraint: pattern(
      "^(19|20)\\d{2}-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?Z?$"
    )
  })
).annotate({ identifier: "DateTimeString" })
