// Semantic checks that run after the shape check: uniqueness, references between blocks, logic,
// groups, scales and quizzes, matrix rows and min/max pairs. Each finding is a value-free issue.
// The rules beyond the spec's tables are listed in docs/decisions/0022-forms-authoring.md.
import type { Issue } from "../../kernel/errors.js"
import { type Block, type Choice, isChoiceBlock } from "./blocks.js"
import { isInputBlockType } from "./block-types.js"
import { wallClockMs } from "../../kernel/calendar.js"
import { ExpressionError, parseExpression, referencesOf } from "./expression.js"
import { patternIssue } from "./pattern-safety.js"
import type { LogicRule, Quiz, RandomGroup, Scale } from "./rules.js"

interface DefinitionParts {
  readonly blocks: ReadonlyArray<Block>
  readonly logic: ReadonlyArray<LogicRule>
  readonly randomGroups?: ReadonlyArray<RandomGroup> | undefined
  readonly scales?: ReadonlyArray<Scale> | undefined
  readonly quizzes?: ReadonlyArray<Quiz> | undefined
}

const SCALE_BLOCK_TYPES = new Set(["rating", "number", "multiple_choice", "dropdown"])
/** What a calculated field may read: numeric answers, choice positions and earlier calculations. */
const CALCULABLE_TYPES = new Set(["rating", "number", "multiple_choice", "dropdown", "calculated_field"])

const duplicates = <A>(items: ReadonlyArray<A>, key: (a: A) => string): ReadonlyArray<number> => {
  const seen = new Set<string>()
  const out: Array<number> = []
  items.forEach((item, i) => {
    const k = key(item)
    if (seen.has(k)) out.push(i)
    seen.add(k)
  })
  return out
}

const sameChoices = (a: ReadonlyArray<Choice>, b: ReadonlyArray<Choice>) =>
  a.length === b.length && a.every((c, i) => c.id === b[i]?.id && c.label === b[i]?.label)

const choicesOf = (block: Block): ReadonlyArray<Choice> | undefined =>
  isChoiceBlock(block) ? block.options.choices : undefined

/** Each block id's first position, and the block at an id (the first, when ids repeat). */
const blockIndex = (blocks: ReadonlyArray<Block>) => {
  const index = new Map<string, number>()
  blocks.forEach((b, i) => {
    if (!index.has(b.id)) index.set(b.id, i)
  })
  const blockOf = (id: string) => {
    const i = index.get(id)
    return i === undefined ? undefined : blocks[i]
  }
  return { index, blockOf }
}

const matrixGroupOf = (block: Block | undefined): string | undefined =>
  block !== undefined && (block.type === "multiple_choice" || block.type === "checkboxes")
    ? block.options.matrixGroupId
    : undefined

const minMaxIssues = (block: Block, path: ReadonlyArray<string | number>): ReadonlyArray<Issue> => {
  const o = path.concat("options")
  const out: Array<Issue> = []
  const pair = (min: number | string | undefined, max: number | string | undefined, name: string) => {
    if (min !== undefined && max !== undefined && min > max)
      out.push({ path: o.concat(name), rule: "minGreaterThanMax" })
  }
  switch (block.type) {
    case "short_text":
    case "long_text":
      pair(block.options.minLength, block.options.maxLength, "minLength")
      break
    case "checkboxes":
      pair(block.options.minSelected, block.options.maxSelected, "minSelected")
      if (
        block.options.minSelected !== undefined &&
        block.options.minSelected > block.options.choices.length
      ) {
        out.push({ path: o.concat("minSelected"), rule: "moreThanChoices" })
      }
      break
    case "number":
    case "date":
    case "time":
    case "date_range":
      pair(block.options.min, block.options.max, "min")
      break
    case "datetime": {
      const { min, max } = block.options
      if (min !== undefined && max !== undefined && wallClockMs(min) > wallClockMs(max)) {
        out.push({ path: o.concat("min"), rule: "minGreaterThanMax" })
      }
      break
    }
    default:
      break
  }
  return out
}

export const semanticIssues = (definition: DefinitionParts): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  const { blocks } = definition
  const { index, blockOf } = blockIndex(blocks)
  const mustBeInput = (id: string, path: ReadonlyArray<string | number>) => {
    const block = blockOf(id)
    if (block === undefined) out.push({ path, rule: "danglingReference" })
    else if (!isInputBlockType(block.type)) out.push({ path, rule: "notAnInputBlock" })
  }
  const mustExist = (id: string, path: ReadonlyArray<string | number>) => {
    if (!index.has(id)) out.push({ path, rule: "danglingReference" })
  }

  for (const i of duplicates(blocks, (b) => b.id))
    out.push({ path: ["blocks", i, "id"], rule: "duplicateId" })

  const matrixRows = new Map<string, Array<number>>()
  blocks.forEach((block, i) => {
    const path = ["blocks", i]
    const choices = choicesOf(block)
    if (choices !== undefined) {
      for (const j of duplicates(choices, (c) => c.id)) {
        out.push({ path: [...path, "options", "choices", j, "id"], rule: "duplicateId" })
      }
    }
    if (block.type === "multiple_choice" && block.options.qualityTrap !== undefined) {
      if (!block.options.choices.some((c) => c.id === block.options.qualityTrap?.expectedChoiceId)) {
        out.push({ path: [...path, "options", "qualityTrap", "expectedChoiceId"], rule: "danglingReference" })
      }
    }
    if (
      (block.type === "multiple_choice" || block.type === "checkboxes") &&
      block.options.matrixGroupId !== undefined
    ) {
      const rows = matrixRows.get(block.options.matrixGroupId) ?? []
      rows.push(i)
      matrixRows.set(block.options.matrixGroupId, rows)
    }
    if (block.type === "statement") {
      block.content?.forEach((run, j) => {
        if ("fieldRef" in run) mustExist(run.fieldRef, [...path, "content", j, "fieldRef"])
      })
    }
    if (block.type === "calculated_field" && block.options.expression.trim() !== "") {
      const at = [...path, "options", "expression"]
      const parsed = parseExpression(block.options.expression)
      if (parsed instanceof ExpressionError) out.push({ path: at, rule: `expression:${parsed.rule}` })
      else {
        for (const ref of referencesOf(parsed)) {
          const j = index.get(ref)
          const target = j === undefined ? undefined : blocks[j]
          if (j === undefined || target === undefined) out.push({ path: at, rule: "danglingReference" })
          else if (!CALCULABLE_TYPES.has(target.type)) out.push({ path: at, rule: "notNumeric" })
          else if (j >= i) out.push({ path: at, rule: "forwardReference" })
        }
      }
    }
    out.push(...minMaxIssues(block, path))
  })

  for (const rows of matrixRows.values()) {
    const first = rows[0] === undefined ? undefined : blocks[rows[0]]
    for (const i of rows.slice(1)) {
      const row = blocks[i]
      if (first === undefined || row === undefined) continue
      const a = choicesOf(first)
      const b = choicesOf(row)
      if (row.type !== first.type) out.push({ path: ["blocks", i, "type"], rule: "matrixRowType" })
      else if (a === undefined || b === undefined || !sameChoices(a, b)) {
        out.push({ path: ["blocks", i, "options", "choices"], rule: "matrixRowChoices" })
      }
    }
  }

  for (const i of duplicates(definition.logic, (r) => r.id))
    out.push({ path: ["logic", i, "id"], rule: "duplicateId" })
  definition.logic.forEach((rule, i) => {
    const path = ["logic", i]
    mustBeInput(rule.from, [...path, "from"])
    rule.conditions.forEach((c, j) => {
      mustBeInput(c.blk, [...path, "conditions", j, "blk"])
    })
    rule.actions.forEach((action, j) => {
      if (action.type === "skip_to_end") return
      const target = [...path, "actions", j, "target"]
      mustExist(action.target, target)
      if (action.type === "skip_to") {
        const from = index.get(rule.from)
        const to = index.get(action.target)
        if (from !== undefined && to !== undefined && to <= from)
          out.push({ path: target, rule: "skipBackward" })
      }
    })
  })

  const groups = definition.randomGroups ?? []
  for (const i of duplicates(groups, (g) => g.id))
    out.push({ path: ["randomGroups", i, "id"], rule: "duplicateId" })
  groups.forEach((group, i) => {
    group.blockIds.forEach((id, j) => {
      mustExist(id, ["randomGroups", i, "blockIds", j])
    })
    for (const j of duplicates(group.blockIds, (id) => id))
      out.push({ path: ["randomGroups", i, "blockIds", j], rule: "duplicateId" })
  })

  const scales = definition.scales ?? []
  const quizzes = definition.quizzes ?? []
  // Scales and quizzes share one namespace: both become `score_<id>` CSV columns.
  const scoreIds = [
    ...scales.map((s, i) => ({ id: s.id, path: ["scales", i, "id"] })),
    ...quizzes.map((q, i) => ({ id: q.id, path: ["quizzes", i, "id"] }))
  ]
  for (const i of duplicates(scoreIds, (s) => s.id)) {
    const entry = scoreIds[i]
    if (entry !== undefined) out.push({ path: entry.path, rule: "duplicateId" })
  }
  scales.forEach((scale, i) => {
    scale.blocks.forEach((id, j) => {
      const block = blockOf(id)
      if (block === undefined) out.push({ path: ["scales", i, "blocks", j], rule: "danglingReference" })
      else if (!SCALE_BLOCK_TYPES.has(block.type))
        out.push({ path: ["scales", i, "blocks", j], rule: "notScorable" })
    })
    scale.reverse.forEach((id, j) => {
      if (!scale.blocks.includes(id)) out.push({ path: ["scales", i, "reverse", j], rule: "notInScale" })
    })
  })
  quizzes.forEach((quiz, i) => {
    quiz.items.forEach((item, j) => {
      const path = ["quizzes", i, "items", j]
      mustBeInput(item.blockId, [...path, "blockId"])
      const block = blockOf(item.blockId)
      const choices = block === undefined ? undefined : choicesOf(block)
      if (choices === undefined || (block?.type === "dropdown" && block.options.dataset !== undefined)) return
      const named =
        typeof item.answer === "number"
          ? [String(item.answer)]
          : typeof item.answer === "string"
            ? [item.answer]
            : item.answer
      if (named.some((id) => !choices.some((c) => c.id === id)))
        out.push({ path: [...path, "answer"], rule: "unknownChoice" })
    })
  })
  return out
}

/**
 * Rules added after definitions were first stored (issue 30): settings that could never act, and
 * answer patterns that do not compile or could backtrack catastrophically. They refuse a definition
 * being written (create, PATCH, duplicate); a definition stored before them is still read, so a
 * published form never disappears (its unusable patterns are dropped on read, see definition.ts).
 */
export const authoringIssues = (definition: DefinitionParts): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  const { blocks } = definition
  const { index, blockOf } = blockIndex(blocks)
  blocks.forEach((block, i) => {
    const path = ["blocks", i]
    if (
      (block.type === "multiple_choice" || block.type === "checkboxes") &&
      block.options.matrixGroupId !== undefined
    ) {
      // A matrix row shares its columns with the other rows: no row of its own may reorder them, and
      // the grid has no cell for a typed "Other" answer.
      if (block.options.randomize !== undefined)
        out.push({ path: [...path, "options", "randomize"], rule: "matrixRowRandomize" })
      if (block.options.allowOther === true)
        out.push({ path: [...path, "options", "allowOther"], rule: "matrixRowOther" })
    }
    if (block.type === "dropdown") {
      // A native select cannot show an image, so an image on a dropdown choice would never be seen.
      block.options.choices.forEach((c, j) => {
        if (c.imageKey !== undefined)
          out.push({ path: [...path, "options", "choices", j, "imageKey"], rule: "imageInDropdown" })
      })
    }
    if ((block.type === "short_text" || block.type === "long_text") && block.options.pattern !== undefined) {
      const rule = patternIssue(block.options.pattern)
      if (rule !== undefined) out.push({ path: [...path, "options", "pattern"], rule })
    }
  })
  definition.logic.forEach((rule, i) => {
    const fromAt = index.get(rule.from)
    rule.conditions.forEach((c, j) => {
      // Rules fire when their `from` block is reached; a later block has no answer yet by then.
      const at = index.get(c.blk)
      if (fromAt !== undefined && at !== undefined && at > fromAt)
        out.push({ path: ["logic", i, "conditions", j, "blk"], rule: "conditionAfterFrom" })
    })
  })
  ;(definition.randomGroups ?? []).forEach((group, i) => {
    // Matrix rows can only trade places within their own grid: a group that holds a row holds
    // nothing but rows of that one matrix.
    const matrices = new Set(group.blockIds.map((id) => matrixGroupOf(blockOf(id))))
    if (matrices.size > 1 && [...matrices].some((m) => m !== undefined))
      out.push({ path: ["randomGroups", i, "blockIds"], rule: "matrixRowsMixed" })
  })
  ;(definition.scales ?? []).forEach((scale, i) => {
    scale.reverse.forEach((id, j) => {
      // Reversing maps v to min + max - v: a number needs both bounds for that to mean anything.
      const block = blockOf(id)
      if (block?.type === "number" && (block.options.min === undefined || block.options.max === undefined))
        out.push({ path: ["scales", i, "reverse", j], rule: "reverseNeedsBounds" })
    })
  })
  return out
}

/** Answer patterns a stored definition holds that the authoring rules would refuse: not enforced. */
export const unusablePatternBlocks = (definition: DefinitionParts): ReadonlySet<string> =>
  new Set(
    definition.blocks.flatMap((b) =>
      (b.type === "short_text" || b.type === "long_text") &&
      b.options.pattern !== undefined &&
      patternIssue(b.options.pattern) !== undefined
        ? [b.id]
        : []
    )
  )
