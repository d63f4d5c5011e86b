// Calendar checks of date, time and date-time strings, as plain functions every context shares: the
// schemas use them as filters, and the respondent's browser runs the same ones (no Effect import).

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

/** `HH:MM`, 24-hour. */
export const isTime = (text: string): boolean => /^([01]\d|2[0-3]):[0-5]\d$/.test(text)

/** `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with an optional trailing `Z`. */
/**
 * A date-time of isDateTime as a wall-clock instant in milliseconds: a trailing `Z` is ignored, so a
 * bound written with it and an answer from a zone-less `datetime-local` input compare on one clock.
 */
export const wallClockMs = (text: string): number =>
  Date.parse(`${text.endsWith("Z") ? text.slice(0, -1) : text}Z`)

export const isDateTime = (text: string): boolean => {
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d)(\.\d+)?)?Z?$/.exec(text)
  return m !== null && m[1] !== undefined && isCalendarDate(m[1])
}
