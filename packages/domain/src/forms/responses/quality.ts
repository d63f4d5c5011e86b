// Quality traps of classic responses: a multiple_choice block with `qualityTrap` expects one choice;
// a respondent shown it who did not pick that choice is flagged on the stored response, never told.
import { Schema } from "effect"
import type { FormDefinition } from "../definition/definition.js"
import { type Answers, visibleBlocks } from "./logic.js"

export const ResponseQuality = Schema.Struct({
  /** Trap blocks the respondent was shown and answered otherwise than expected (or left empty). */
  trapsMissed: Schema.Array(Schema.String)
}).annotate({
  identifier: "ResponseQuality",
  description:
    "Attention checks of the response: the quality-trap blocks it missed. Present on completed responses of versions with a qualityTrap; a response is flagged when trapsMissed is not empty."
})
export type ResponseQuality = typeof ResponseQuality.Type

/** The trap blocks of a definition, with the choice each expects. */
const trapsOf = (definition: FormDefinition) =>
  definition.blocks.flatMap((b) =>
    b.type === "multiple_choice" && b.options.qualityTrap !== undefined
      ? [{ id: b.id, expected: b.options.qualityTrap.expectedChoiceId }]
      : []
  )

/**
 * What a completion stores under `meta.quality`; undefined when the version has no trap. A trap that
 * branching hid is not held against the respondent; one shown and left empty is missed.
 */
export const responseQualityOf = (
  definition: FormDefinition,
  answers: Answers
): ResponseQuality | undefined => {
  const traps = trapsOf(definition)
  if (traps.length === 0) return undefined
  const shown = visibleBlocks(definition, answers)
  return {
    trapsMissed: traps.filter((t) => shown.has(t.id) && answers[t.id] !== t.expected).map((t) => t.id)
  }
}

const isQuality = Schema.is(ResponseQuality)

/** The stored quality of a response, if its completion recorded one. */
export const storedQualityOf = (meta: Readonly<Record<string, unknown>>): ResponseQuality | undefined =>
  isQuality(meta.quality) ? meta.quality : undefined
