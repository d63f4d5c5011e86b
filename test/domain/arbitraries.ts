// Arbitraries derived from the domain schemas, plus a repair step that turns any generated shape
// into a semantically valid definition (unique ids, references that point somewhere).
import {
  type Block,
  FormDefinition,
  FormSettings,
  InterviewDefinition,
  isChoiceBlock,
  isInputBlockType,
  type LogicRule
} from "@folio/domain"
import { Arbitrary, FastCheck as fc } from "effect"

export const definitionShape = Arbitrary.make(FormDefinition)
export const interviewArb = Arbitrary.make(InterviewDefinition)
export const settingsArb = Arbitrary.make(FormSettings)

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Makes a block valid on its own: unique choice ids, no cross-references, ordered min/max. */
const repairBlock = (block: Block, index: number): Block => {
  const id = `blk_${String(index).padStart(8, "0")}`
  const b = { ...block, id } as Mutable<Block>
  if (b.type === "statement") return { ...b, content: [] }
  if (b.type === "calculated_field") return { ...b, options: { ...b.options, expression: "" } } as Block
  if (isChoiceBlock(b as Block)) {
    const options = { ...(b.options as Record<string, unknown>) }
    const choices = (options.choices as ReadonlyArray<{ id: string }>).map((c, j) => ({ ...c, id: `c${j}` }))
    delete options.matrixGroupId
    delete options.qualityTrap
    delete options.minSelected
    delete options.maxSelected
    return { ...b, options: { ...options, choices } } as Block
  }
  if ("options" in b && typeof b.options === "object" && b.options !== null) {
    const options = { ...(b.options as Record<string, unknown>) }
    for (const [lo, hi] of [
      ["minLength", "maxLength"],
      ["min", "max"]
    ] as const) {
      if (options[lo] !== undefined && options[hi] !== undefined) delete options[lo]
    }
    return { ...b, options } as Block
  }
  return b as Block
}

export const repairDefinition = (def: FormDefinition, ruleSeeds: ReadonlyArray<number>): FormDefinition => {
  const blocks = def.blocks.map(repairBlock)
  const inputs = blocks.filter((b) => isInputBlockType(b.type))
  const logic: Array<LogicRule> = []
  if (inputs.length > 0) {
    ruleSeeds.forEach((seed, i) => {
      const from = inputs[seed % inputs.length] as Block
      const target = blocks[(seed * 7) % blocks.length] as Block
      logic.push({
        id: `lgc_rule${String(i).padStart(4, "0")}`,
        from: from.id,
        match: seed % 2 === 0 ? "all" : "any",
        conditions: [{ blk: from.id, op: "is_filled" }],
        actions: [
          seed % 3 === 0
            ? { type: "skip_to_end" }
            : { type: seed % 3 === 1 ? "show" : "hide", target: target.id }
        ]
      })
    })
  }
  return { schemaVersion: 1, blocks, logic }
}

export const validDefinitionArb = fc
  .tuple(definitionShape, fc.array(fc.nat({ max: 10_000 }), { maxLength: 10 }))
  .map(([def, seeds]) => repairDefinition(def, seeds))
