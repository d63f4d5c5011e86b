// Server-side branching: which blocks a respondent actually saw, given their answers. Rules fire in
// block order; show-targets start hidden, hide/skip actions remove blocks, skip_to_end ends the form.
import type { Block } from "../definition/blocks.js"
import type { FormDefinition } from "../definition/definition.js"
import type { LogicRule } from "../definition/rules.js"

export type AnswerValue = string | number | ReadonlyArray<string>
export type Answers = Readonly<Record<string, AnswerValue>>

type Condition = LogicRule["conditions"][number]

const isEmpty = (v: AnswerValue | undefined): boolean =>
  v === undefined || v === "" || (Array.isArray(v) && v.length === 0)

const asNumber = (v: AnswerValue | undefined): number | undefined => {
  if (typeof v === "number") return v
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v)
  return undefined
}

const equals = (v: AnswerValue | undefined, expected: string | number | undefined): boolean => {
  if (v === undefined || expected === undefined) return false
  if (Array.isArray(v)) return v.includes(String(expected))
  return typeof v === "number" || typeof expected === "number"
    ? asNumber(v) === asNumber(expected)
    : v === expected
}

const contains = (v: AnswerValue | undefined, expected: string | number | undefined): boolean => {
  if (v === undefined || expected === undefined) return false
  if (Array.isArray(v)) return v.includes(String(expected))
  return String(v).toLowerCase().includes(String(expected).toLowerCase())
}

const compare = (
  v: AnswerValue | undefined,
  expected: string | number | undefined,
  test: (a: number, b: number) => boolean
) => {
  const a = asNumber(v)
  const b = expected === undefined ? undefined : asNumber(expected)
  return a !== undefined && b !== undefined && test(a, b)
}

export const conditionHolds = (condition: Condition, answers: Answers): boolean => {
  const v = answers[condition.blk]
  switch (condition.op) {
    case "eq":
      return equals(v, condition.value)
    case "neq":
      return !equals(v, condition.value)
    case "contains":
      return contains(v, condition.value)
    case "not_contains":
      return !contains(v, condition.value)
    case "gt":
      return compare(v, condition.value, (a, b) => a > b)
    case "gte":
      return compare(v, condition.value, (a, b) => a >= b)
    case "lt":
      return compare(v, condition.value, (a, b) => a < b)
    case "lte":
      return compare(v, condition.value, (a, b) => a <= b)
    case "is_empty":
      return isEmpty(v)
    case "is_filled":
      return !isEmpty(v)
  }
}

export const ruleFires = (rule: LogicRule, answers: Answers): boolean =>
  rule.match === "any"
    ? rule.conditions.some((c) => conditionHolds(c, answers))
    : rule.conditions.every((c) => conditionHolds(c, answers))

/**
 * The ids of the blocks shown to a respondent with these answers. Answers to blocks that end up not
 * shown do not take part in later rules, as a respondent never gave them in that path.
 */
export const visibleBlocks = (definition: FormDefinition, answers: Answers): ReadonlySet<string> => {
  const order = new Map(definition.blocks.map((b, i) => [b.id, i]))
  const showTargets = new Set(
    definition.logic.flatMap((r) => r.actions.flatMap((a) => (a.type === "show" ? [a.target] : [])))
  )
  const shown = new Set<string>()
  const hidden = new Set<string>()
  let skipUntil = -1
  let ended = false
  const visible = new Set<string>()
  const seen: Record<string, AnswerValue> = {}
  definition.blocks.forEach((block: Block, index) => {
    if (ended || index < skipUntil) return
    if (hidden.has(block.id) || (showTargets.has(block.id) && !shown.has(block.id))) return
    visible.add(block.id)
    const answer = answers[block.id]
    if (answer !== undefined) seen[block.id] = answer
    for (const rule of definition.logic) {
      if (rule.from !== block.id || !ruleFires(rule, seen)) continue
      for (const action of rule.actions) {
        switch (action.type) {
          case "show":
            shown.add(action.target)
            hidden.delete(action.target)
            break
          case "hide":
            hidden.add(action.target)
            break
          case "skip_to":
            skipUntil = Math.max(skipUntil, order.get(action.target) ?? skipUntil)
            break
          case "skip_to_end":
            ended = true
            break
        }
      }
    }
  })
  return visible
}
