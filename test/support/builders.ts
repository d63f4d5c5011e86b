// Small builders shared by the tests: block ids, a three-choice list, strict decoding of a definition.
import { decodeFormDefinition, type FormDefinition } from "@folio/domain"
import { Result } from "effect"

export const blk = (n: number) => `blk_${String(n).padStart(8, "0")}`

export const abc = [
  { id: "a", label: "A" },
  { id: "b", label: "B" },
  { id: "c", label: "C" }
]

/** Decodes a definition a test wrote by hand; a mistake in the fixture fails loudly with its issues. */
export const definitionOf = (input: unknown): FormDefinition => {
  const result = decodeFormDefinition(input)
  if (Result.isFailure(result)) throw new Error(JSON.stringify(result.failure.issues))
  return result.success
}
