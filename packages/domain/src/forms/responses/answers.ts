// Validates a respondent's answers against the pinned form version: each value's rule
// (answer-rules.ts, shared with the public page's script), derived fields, branching, and required
// blocks that were shown. Issues name the block and the rule, never the value.
import { Result } from "effect"
import type { Issue } from "../../kernel/errors.js"
import { AnswersNotAnObject, InvalidAnswers } from "../errors.js"
import type { FormDefinition } from "../definition/definition.js"
import { checkAnswer, deriveAnswers, isEmptyAnswer } from "./answer-rules.js"
import { type Answers, type AnswerValue, visibleBlocks } from "./logic.js"

export { checkAnswer } from "./answer-rules.js"

/**
 * Checks a submission. `final` (completing the response) also enforces required blocks; partial
 * saves check only the values given. Hidden fields come from `params` or their default.
 */
export const validateAnswers = (
  definition: FormDefinition,
  input: unknown,
  options: {
    readonly final: boolean
    readonly params?: Readonly<Record<string, string>>
    /** Object keys uploaded to this response, per file_upload block; answers may name only these. */
    readonly uploads?: ReadonlyMap<string, ReadonlySet<string>>
  }
): Result.Result<Answers, AnswersNotAnObject | InvalidAnswers> => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return Result.fail(new AnswersNotAnObject())
  }
  const given = input as Record<string, unknown>
  const blocks = new Map(definition.blocks.map((b) => [b.id, b]))
  const issues: Array<Issue> = []
  const answers: Record<string, AnswerValue> = {}

  for (const [id, value] of Object.entries(given)) {
    const block = blocks.get(id)
    if (block === undefined) {
      issues.push({ path: ["answers", id], rule: "unknownBlock" })
      continue
    }
    if (isEmptyAnswer(value)) continue
    const uploaded = block.type === "file_upload" ? options.uploads?.get(id) : undefined
    const rule =
      checkAnswer(block, value) ??
      (block.type === "file_upload" &&
      options.uploads !== undefined &&
      !(value as ReadonlyArray<string>).every((key) => uploaded?.has(key) === true)
        ? "unknownFile"
        : undefined)
    if (rule !== undefined) issues.push({ path: ["answers", id], rule })
    else answers[id] = value as AnswerValue
  }
  deriveAnswers(definition, answers, options.params)

  const visible = visibleBlocks(definition, answers)
  // Answers to blocks the respondent was not shown are dropped, not stored.
  for (const id of Object.keys(answers)) {
    const block = blocks.get(id)
    if (block !== undefined && block.type !== "hidden_field" && !visible.has(id)) delete answers[id]
  }
  if (options.final) {
    for (const block of definition.blocks) {
      if (
        block.required &&
        visible.has(block.id) &&
        answers[block.id] === undefined &&
        !issues.some((i) => i.path[1] === block.id)
      ) {
        issues.push({ path: ["answers", block.id], rule: "required" })
      }
    }
  }
  return issues.length === 0 ? Result.succeed(answers) : Result.fail(new InvalidAnswers({ issues }))
}
