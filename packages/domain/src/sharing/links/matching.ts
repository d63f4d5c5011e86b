// Whether one visit meets a rule's conditions. Each condition given must hold; a list matches any
// of its values; a condition on something the visit does not tell (no country, no language) fails.
import { DateTime, Option } from "effect"
import { minutesOf, type QueryCondition, type RuleConditions, type TimeWindow, WEEKDAYS } from "./rules.js"
import type { Visit } from "./visit.js"

/** Weekday (0 = Sunday) and minute of the day of `at` in `timeZone`; undefined for an unknown zone. */
const localClock = (
  at: Date,
  timeZone: string
): { readonly day: number; readonly minute: number } | undefined => {
  if (timeZone === "UTC") return { day: at.getUTCDay(), minute: at.getUTCHours() * 60 + at.getUTCMinutes() }
  const zoned = DateTime.setZoneNamed(DateTime.makeUnsafe(at), timeZone)
  if (Option.isNone(zoned)) return undefined
  const p = DateTime.toParts(zoned.value)
  return { day: p.weekDay, minute: p.hour * 60 + p.minute }
}

/**
 * `from` inclusive, `to` exclusive. Daily hours past midnight (22:00 to 06:00) belong to the day
 * they started on, so "fri 22:00 to 06:00" covers Saturday 02:00 and not Friday 02:00.
 */
export const inTimeWindow = (window: TimeWindow, at: Date): boolean => {
  const t = at.getTime()
  if (window.from !== undefined && t < Date.parse(window.from)) return false
  if (window.to !== undefined && t >= Date.parse(window.to)) return false
  if (window.days === undefined && window.hours === undefined) return true
  const clock = localClock(at, window.time_zone ?? "UTC")
  if (clock === undefined) return false
  let day = clock.day
  if (window.hours !== undefined) {
    const from = minutesOf(window.hours.from)
    const to = minutesOf(window.hours.to)
    if (from < to) {
      if (clock.minute < from || clock.minute >= to) return false
    } else if (clock.minute < to) {
      day = (day + 6) % 7
    } else if (clock.minute < from) {
      return false
    }
  }
  const name = WEEKDAYS[day]
  return window.days === undefined || (name !== undefined && window.days.includes(name))
}

const meetsQuery = (condition: QueryCondition, query: Visit["query"]): boolean =>
  condition.op === "present"
    ? query.some(([name]) => name === condition.param)
    : query.some(([name, value]) => name === condition.param && value === condition.value)

export const meetsConditions = (conditions: RuleConditions, visit: Visit): boolean => {
  if (conditions.device !== undefined && !conditions.device.includes(visit.device)) return false
  if (conditions.os !== undefined && !conditions.os.includes(visit.os)) return false
  if (conditions.language !== undefined) {
    // The most preferred language only: "en-US, de;q=0.8" reads English first, so a German rule
    // would send an English reader to the German page.
    const first = visit.languages[0]
    if (first === undefined || !conditions.language.includes(first)) return false
  }
  if (conditions.country !== undefined) {
    if (visit.country === undefined || !conditions.country.includes(visit.country)) return false
  }
  if (conditions.query !== undefined && !conditions.query.every((c) => meetsQuery(c, visit.query)))
    return false
  if (conditions.time !== undefined && !inTimeWindow(conditions.time, visit.at)) return false
  return true
}
