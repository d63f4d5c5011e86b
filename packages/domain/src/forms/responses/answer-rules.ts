// The value rules of respondents' answers, as plain functions shared by the server's validation
// (answers.ts) and the public form page's script: the value shape of each block type (forms-api.md
// answer table) and the answers the server derives (hidden and calculated fields). No Effect import.
import type { Block } from "../definition/blocks.js"
import { isCalendarDate, isDateTime, isTime, wallClockMs } from "../../kernel/calendar.js"
import { compileAnswerPattern } from "../definition/answer-pattern.js"
import { isCountryCode } from "../definition/countries.js"
import type { FormDefinition } from "../definition/definition.js"
import { evaluateExpression, ExpressionError, parseExpression } from "../definition/expression.js"
import type { AnswerValue } from "./logic.js"

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const MAX_TEXT = 50_000

type Check = (value: unknown) => string | undefined

const isStringArray = (v: unknown): v is ReadonlyArray<string> =>
  Array.isArray(v) && v.every((x) => typeof x === "string")

const text =
  (max: number, min = 0, pattern?: string): Check =>
  (v) => {
    if (typeof v !== "string") return "string"
    if (v.length > max) return "maxLength"
    if (v.length < min) return "minLength"
    // The definition's write-time check refused any pattern that does not compile or could
    // backtrack catastrophically, so running it on respondent text is safe here.
    if (pattern !== undefined && compileAnswerPattern(pattern)?.test(v) === false) return "pattern"
    return undefined
  }

const within = <T extends string | number>(v: T, min: T | undefined, max: T | undefined) =>
  (min === undefined || v >= min) && (max === undefined || v <= max)

const dateLike =
  (valid: (s: string) => boolean, min: string | undefined, max: string | undefined): Check =>
  (v) => {
    if (typeof v !== "string" || !valid(v)) return "format"
    return within(v, min, max) ? undefined : "outOfRange"
  }

/** Date-times compare as instants on one wall clock, never as text (`10:00:30` is after `10:00Z`). */
const dateTimeWithin =
  (min: string | undefined, max: string | undefined): Check =>
  (v) => {
    if (typeof v !== "string" || !isDateTime(v)) return "format"
    const at = wallClockMs(v)
    return within(
      at,
      min === undefined ? undefined : wallClockMs(min),
      max === undefined ? undefined : wallClockMs(max)
    )
      ? undefined
      : "outOfRange"
  }

/** Whether `value` is written with at most `decimals` digits after the point (as JSON carries it). */
const hasAtMostDecimals = (value: number, decimals: number): boolean =>
  Number(value.toFixed(decimals)) === value

/**
 * Whether `value` is `base` plus a whole number of `step`s (HTML's step rule: the base is the minimum,
 * else 0), within a relative tolerance for the binary rounding of decimal steps such as 0.1.
 */
const onStep = (value: number, base: number, step: number): boolean => {
  const steps = (value - base) / step
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps))
}

/** The rule an answer breaks for its block, or undefined when it fits. */
export const checkAnswer = (block: Block, value: unknown): string | undefined => {
  switch (block.type) {
    case "short_text":
      return text(
        block.options.maxLength ?? 10_000,
        block.options.minLength ?? 0,
        block.options.pattern
      )(value)
    case "long_text":
      return text(
        block.options.maxLength ?? MAX_TEXT,
        block.options.minLength ?? 0,
        block.options.pattern
      )(value)
    case "email":
      return typeof value === "string" && value.length <= 320 && EMAIL.test(value) ? undefined : "email"
    case "multiple_choice":
    case "dropdown": {
      if (typeof value !== "string") return "string"
      if (block.type === "dropdown" && block.options.dataset === "countries")
        return isCountryCode(value) ? undefined : "country"
      if (block.options.choices.some((c) => c.id === value)) return undefined
      return block.type === "multiple_choice" &&
        block.options.allowOther === true &&
        value.length > 0 &&
        value.length <= 500
        ? undefined
        : "choice"
    }
    case "checkboxes": {
      if (!isStringArray(value)) return "array"
      if (new Set(value).size !== value.length) return "duplicate"
      const known = value.filter((v) => block.options.choices.some((c) => c.id === v))
      if (
        known.length !== value.length &&
        (block.options.allowOther !== true || value.length - known.length > 1)
      )
        return "choice"
      if (block.options.minSelected !== undefined && value.length < block.options.minSelected)
        return "minSelected"
      if (block.options.maxSelected !== undefined && value.length > block.options.maxSelected)
        return "maxSelected"
      return undefined
    }
    case "ranking": {
      if (!isStringArray(value)) return "array"
      const ids = block.options.choices.map((c) => c.id)
      return value.length === ids.length &&
        new Set(value).size === ids.length &&
        value.every((v) => ids.includes(v))
        ? undefined
        : "permutation"
    }
    case "rating": {
      if (typeof value !== "number" || !Number.isInteger(value)) return "integer"
      const low = block.options.zeroBased === true ? 0 : 1
      return value >= low && value <= block.options.scale - 1 + low ? undefined : "outOfRange"
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "number"
      if (block.options.integer === true && !Number.isInteger(value)) return "integer"
      if (!within(value, block.options.min, block.options.max)) return "outOfRange"
      const { decimals, step } = block.options
      if (decimals !== undefined && !hasAtMostDecimals(value, decimals)) return "decimals"
      if (step !== undefined && !onStep(value, block.options.min ?? 0, step)) return "step"
      return undefined
    }
    case "date":
      return dateLike(isCalendarDate, block.options.min, block.options.max)(value)
    case "datetime":
      return dateTimeWithin(block.options.min, block.options.max)(value)
    case "time":
      return dateLike(isTime, block.options.min, block.options.max)(value)
    case "date_range": {
      if (!isStringArray(value) || value.length !== 2) return "pair"
      const [start, end] = value as [string, string]
      const each = dateLike(isCalendarDate, block.options.min, block.options.max)
      return each(start) ?? each(end) ?? (start <= end ? undefined : "startAfterEnd")
    }
    case "privacy_consent":
      return value === "y" || (value === "n" && block.options.mode === "agree_or_decline")
        ? undefined
        : "consent"
    case "address":
      return isStringArray(value) && value.length === 3 && value.every((s) => s.length <= 500)
        ? undefined
        : "address"
    case "file_upload":
      return isStringArray(value) && value.length <= block.options.maxFiles ? undefined : "files"
    case "signature":
      return typeof value === "string" && value.length > 0 && value.length <= 500_000
        ? undefined
        : "signature"
    default:
      // statement, page_break, divider, image take no answer; hidden and calculated fields are set by the server.
      return "notAnswerable"
  }
}

/** The number a calculation reads from an answer: numbers as is, choices by 1-based position. */
export const numericValue = (
  block: Block | undefined,
  value: AnswerValue | undefined
): number | undefined => {
  if (block === undefined || value === undefined) return undefined
  if (typeof value === "number") return value
  if ((block.type === "multiple_choice" || block.type === "dropdown") && typeof value === "string") {
    const i = block.options.choices.findIndex((c) => c.id === value)
    return i < 0 ? undefined : i + 1
  }
  return undefined
}

export const roundTo = (value: number, precision: number | undefined): number => {
  if (precision === undefined) return value
  const f = 10 ** precision
  return Math.round(value * f) / f
}

export const isEmptyAnswer = (v: unknown) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)

/**
 * The answers the server sets itself, in place: hidden fields from their URL parameter or default,
 * then calculated fields in block order (a later one may read an earlier one).
 */
export const deriveAnswers = (
  definition: FormDefinition,
  answers: Record<string, AnswerValue>,
  params: Readonly<Record<string, string>> | undefined
): void => {
  const blocks = new Map(definition.blocks.map((b) => [b.id, b]))
  for (const block of definition.blocks) {
    if (block.type !== "hidden_field") continue
    const value = params?.[block.options.param] ?? block.options.defaultValue
    if (value !== undefined) answers[block.id] = value.slice(0, 2000)
  }
  for (const block of definition.blocks) {
    if (block.type !== "calculated_field" || block.options.expression.trim() === "") continue
    const tree = parseExpression(block.options.expression)
    if (tree instanceof ExpressionError) continue
    const value = evaluateExpression(tree, (id) => numericValue(blocks.get(id), answers[id]))
    if (value !== null) answers[block.id] = roundTo(value, block.options.precision)
  }
}
