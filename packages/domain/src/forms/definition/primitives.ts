// Field-level building blocks of classic definitions: bounded strings and integers, the id
// patterns, and calendar-valid date, datetime and time strings exactly as forms-api.md writes them.
import { type FastCheck, Schema } from "effect"
import { RuleAnnotationId } from "../../kernel/issues.js"

export const Str = (max: number) => Schema.String.pipe(Schema.maxLength(max))
export const StrBetween = (min: number, max: number) =>
  Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max))
export const IntBetween = (min: number, max: number) => Schema.Int.pipe(Schema.between(min, max))
export const PositiveInt = Schema.Int.pipe(Schema.greaterThan(0))
export const ArrayOf = <A, I>(item: Schema.Schema<A, I>, min: number, max: number) =>
  min === 0
    ? Schema.Array(item).pipe(Schema.maxItems(max))
    : Schema.Array(item).pipe(Schema.minItems(min), Schema.maxItems(max))

export const BlockId = Schema.String.pipe(Schema.pattern(/^blk_[A-Za-z0-9_-]{8,}$/)).annotations({
  identifier: "BlockId"
})
export const LogicRuleId = Schema.String.pipe(Schema.pattern(/^lgc_[A-Za-z0-9_-]{6,}$/))
export const RandomGroupId = Schema.String.pipe(Schema.pattern(/^rng_[A-Za-z0-9_-]{6,}$/))
export const MatrixGroupId = Schema.String.pipe(Schema.pattern(/^mtx_[A-Za-z0-9_-]{6,}$/))
export const ScoreId = Schema.String.pipe(Schema.pattern(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/))
export const ObjectKey = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^[A-Za-z0-9/._-]+$/)
)

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

/** True for a real calendar day written YYYY-MM-DD (leap years respected). */
export const isCalendarDate = (text: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month)
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

const dateArbitrary = (fc: typeof FastCheck) =>
  fc
    .record({
      y: fc.integer({ min: 1900, max: 2100 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 })
    })
    .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}`)

const timeArbitrary = (fc: typeof FastCheck) =>
  fc
    .record({ h: fc.integer({ min: 0, max: 23 }), mi: fc.integer({ min: 0, max: 59 }) })
    .map(({ h, mi }) => `${pad(h)}:${pad(mi)}`)

export const CalendarDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, { [RuleAnnotationId]: "calendarDate", jsonSchema: { format: "date" } })
).annotations({
  identifier: "CalendarDate",
  arbitrary: () => (fc) => dateArbitrary(fc)
})

/** `HH:MM`, 24-hour. */
export const isTime = (text: string): boolean => /^([01]\d|2[0-3]):[0-5]\d$/.test(text)

export const TimeOfDay = Schema.String.pipe(
  Schema.filter(isTime, {
    [RuleAnnotationId]: "time",
    jsonSchema: { pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }
  })
).annotations({ identifier: "TimeOfDay", arbitrary: () => (fc) => timeArbitrary(fc) })

/** `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with an optional trailing `Z`. */
export const isDateTime = (text: string): boolean => {
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d)(\.\d+)?)?Z?$/.exec(text)
  return m !== null && m[1] !== undefined && isCalendarDate(m[1])
}

export const DateTimeString = Schema.String.pipe(
  Schema.filter(isDateTime, {
    [RuleAnnotationId]: "dateTime",
    jsonSchema: { pattern: "^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?Z?$" }
  })
).annotations({
  identifier: "DateTimeString",
  arbitrary: () => (fc) =>
    fc
      .tuple(dateArbitrary(fc), timeArbitrary(fc), fc.option(fc.integer({ min: 0, max: 59 })), fc.boolean())
      .map(([d, t, s, z]) => `${d}T${t}${s === null ? "" : `:${pad(s)}`}${z ? "Z" : ""}`)
})
