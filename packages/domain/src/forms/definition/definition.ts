// The classic FormDefinition (schemaVersion 1): its shape schema, the semantic checks that run
// after it, and the one decoder every adapter uses.
import { Context, Effect, Result, Schema } from "effect"
import { strictDecoder } from "../../kernel/issues.js"
import { acceleratedDecoder } from "../../kernel/validated-decode.js"
import { InvalidDefinition } from "../errors.js"
import { type Block, Block as BlockSchema } from "./blocks.js"
import { isInputBlockType } from "./block-types.js"
import { ArrayOf } from "./primitives.js"
import { LogicRule, Quiz, RandomGroup, Scale } from "./rules.js"
import { authoringIssues, semanticIssues, unusablePatternBlocks } from "./semantics.js"
import type { Issue } from "../../kernel/errors.js"

export const MAX_BLOCKS = 200
export const MAX_LOGIC_RULES = 200
export const MAX_RANDOM_GROUPS = 50
export const MAX_SCALES = 50
export const MAX_QUIZZES = 20

export const FormDefinition = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  blocks: ArrayOf(BlockSchema, 0, MAX_BLOCKS),
  logic: ArrayOf(LogicRule, 0, MAX_LOGIC_RULES).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([]))),
  randomGroups: Schema.optionalKey(ArrayOf(RandomGroup, 0, MAX_RANDOM_GROUPS)),
  scales: Schema.optionalKey(ArrayOf(Scale, 0, MAX_SCALES)),
  quizzes: Schema.optionalKey(ArrayOf(Quiz, 0, MAX_QUIZZES))
}).annotate({
  identifier: "FormDefinition",
  title: "Classic form definition",
  description: "schemaVersion 1: typed blocks with branching logic, random groups, scales and quizzes"
})
export type FormDefinition = typeof FormDefinition.Type
export type FormDefinitionEncoded = typeof FormDefinition.Encoded

export const emptyFormDefinition = (): FormDefinition => ({ schemaVersion: 1, blocks: [], logic: [] })

const encodeShape = Schema.encodeResult(FormDefinition)

const invalid = (issues: ReadonlyArray<Issue>) => new InvalidDefinition({ kind: "classic", issues })

/** Shape then the semantics every definition, stored or new, is held to; every issue is value-free. */
const decodeWithSemantics: (input: unknown) => Result.Result<FormDefinition, InvalidDefinition> =
  strictDecoder(FormDefinition, invalid, semanticIssues)

/** A stored definition's answer patterns that could not be enforced safely are dropped, not run. */
const withoutUnusablePatterns = (definition: FormDefinition): FormDefinition => {
  const unusable = unusablePatternBlocks(definition)
  if (unusable.size === 0) return definition
  return {
    ...definition,
    blocks: definition.blocks.map((b) => {
      if (!unusable.has(b.id) || (b.type !== "short_text" && b.type !== "long_text")) return b
      const { pattern: _pattern, ...options } = b.options
      return { ...b, options } as Block
    })
  }
}

/**
 * Reads a definition (stored or sent): shape, then semantics. A stored definition written before
 * the authoring rules keeps being readable; see decodeAuthoredFormDefinition for writes.
 */
export const decodeFormDefinition = (input: unknown): Result.Result<FormDefinition, InvalidDefinition> =>
  Result.map(decodeWithSemantics(input), withoutUnusablePatterns)

/** What a definition write is held to: the reading rules, then the authoring rules (authoringIssues). */
export const decodeAuthoredFormDefinition = (
  input: unknown
): Result.Result<FormDefinition, InvalidDefinition> =>
  Result.flatMap(decodeWithSemantics(input), (definition) => {
    const issues = authoringIssues(definition)
    return issues.length === 0 ? Result.succeed(definition) : Result.fail(invalid(issues))
  })

/** How the forms use cases decode classic definitions: strictly, or faster with the same answers. */
export type FormDefinitionDecode = (input: unknown) => Result.Result<FormDefinition, InvalidDefinition>

/**
 * The decoder the use cases take: the strict one unless the deployment provides a faster one with
 * the same results (the accelerated decoder below, with Ajv from adapters-storage).
 */
export const FormDefinitionDecoder = Context.Reference<FormDefinitionDecode>(
  "@folio/domain/FormDefinitionDecoder",
  {
    defaultValue: () => decodeAuthoredFormDefinition
  }
)

/** The strict decoder's results, faster on valid input; `conforms` checks formDefinitionJsonSchema. */
export const acceleratedFormDefinitionDecoder = (
  conforms: (input: unknown) => boolean
): FormDefinitionDecode =>
  acceleratedDecoder(
    FormDefinition,
    decodeAuthoredFormDefinition,
    (d) => semanticIssues(d).length === 0 && authoringIssues(d).length === 0,
    conforms
  )

/** The stored/wire form of a decoded definition (defaults written out). */
export const encodeFormDefinition = (definition: FormDefinition): FormDefinitionEncoded =>
  Result.getOrThrow(encodeShape(definition))

export const inputBlocks = (definition: FormDefinition): ReadonlyArray<Block> =>
  definition.blocks.filter((b) => isInputBlockType(b.type))

export type DefinitionFeature = "file_upload" | "ranking" | "matrix"

/** Which gated authoring features a definition uses. */
export const definitionFeatures = (definition: FormDefinition): ReadonlySet<DefinitionFeature> => {
  const used = new Set<DefinitionFeature>()
  for (const block of definition.blocks) {
    if (block.type === "file_upload") used.add("file_upload")
    if (block.type === "ranking") used.add("ranking")
    if (
      (block.type === "multiple_choice" || block.type === "checkboxes") &&
      block.options.matrixGroupId !== undefined
    ) {
      used.add("matrix")
    }
  }
  return used
}
