// Scale and quiz scores of one response, computed by the server from the pinned definition.
import type { Block } from "../definition/blocks.js"
import type { FormDefinition } from "../definition/definition.js"
import type { Quiz, Scale } from "../definition/rules.js"
import type { Answers, AnswerValue } from "./logic.js"

export interface ScaleScore {
  readonly kind: "scale"
  readonly id: string
  /** Null when `missing: require_all` and an item is unanswered, or nothing was answered. */
  readonly score: number | null
  readonly answered: number
  readonly label: string | null
}

export interface QuizScore {
  readonly kind: "quiz"
  readonly id: string
  readonly score: number
  readonly maxScore: number
  readonly correct: ReadonlyArray<string>
  readonly feedback: Readonly<Record<string, string>>
  readonly label: string | null
}

const cutoffLabel = (
  score: number | null,
  cutoffs: ReadonlyArray<{ readonly min: number; readonly label: string }>
) => {
  if (score === null) return null
  let best: { readonly min: number; readonly label: string } | undefined
  for (const c of cutoffs) if (score >= c.min && (best === undefined || c.min >= best.min)) best = c
  return best?.label ?? null
}

/** The numeric value of an item and its [low, high] range when known (for reversing). */
const itemValue = (
  block: Block,
  value: AnswerValue | undefined
): { v: number; range?: [number, number] } | undefined => {
  if (value === undefined) return undefined
  switch (block.type) {
    case "rating": {
      if (typeof value !== "number") return undefined
      const low = block.options.zeroBased === true ? 0 : 1
      return { v: value, range: [low, low + block.options.scale - 1] }
    }
    case "number": {
      if (typeof value !== "number") return undefined
      const { min, max } = block.options
      return min !== undefined && max !== undefined ? { v: value, range: [min, max] } : { v: value }
    }
    case "multiple_choice":
    case "dropdown": {
      // A choice scores its position, 1-based, so authors order choices from low to high.
      const index = block.options.choices.findIndex((c) => c.id === value)
      return index < 0 ? undefined : { v: index + 1, range: [1, block.options.choices.length] }
    }
    default:
      return undefined
  }
}

export const scoreScale = (
  scale: Scale,
  blocks: ReadonlyMap<string, Block>,
  answers: Answers
): ScaleScore => {
  const values: Array<number> = []
  let missing = 0
  for (const id of scale.blocks) {
    const block = blocks.get(id)
    const item = block === undefined ? undefined : itemValue(block, answers[id])
    if (item === undefined) {
      missing++
      if (scale.missing === "zero") values.push(0)
      continue
    }
    const reversed =
      scale.reverse.includes(id) && item.range !== undefined ? item.range[0] + item.range[1] - item.v : item.v
    values.push(reversed)
  }
  const answered = scale.blocks.length - missing
  const incomplete = (scale.missing === "require_all" && missing > 0) || values.length === 0 || answered === 0
  const total = values.reduce((a, b) => a + b, 0)
  const score = incomplete ? null : scale.aggregation === "sum" ? total : total / values.length
  return { kind: "scale", id: scale.id, score, answered, label: cutoffLabel(score, scale.cutoffs) }
}

const sameSet = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((x) => b.includes(x))

const isCorrect = (
  block: Block | undefined,
  expected: Quiz["items"][number]["answer"],
  given: AnswerValue | undefined
) => {
  if (given === undefined) return false
  if (Array.isArray(expected) || Array.isArray(given)) {
    if (!Array.isArray(expected) || !Array.isArray(given)) return false
    return block?.type === "ranking"
      ? expected.length === given.length && expected.every((x, i) => given[i] === x)
      : sameSet(expected, given)
  }
  if (typeof expected === "number" || typeof given === "number") return Number(expected) === Number(given)
  if (typeof expected !== "string" || typeof given !== "string") return false
  return block?.type === "short_text" || block?.type === "long_text"
    ? expected.trim().toLowerCase() === given.trim().toLowerCase()
    : expected === given
}

export const scoreQuiz = (quiz: Quiz, blocks: ReadonlyMap<string, Block>, answers: Answers): QuizScore => {
  const correct: Array<string> = []
  const feedback: Record<string, string> = {}
  let score = 0
  for (const item of quiz.items) {
    const ok = isCorrect(blocks.get(item.blockId), item.answer, answers[item.blockId])
    if (ok) {
      correct.push(item.blockId)
      score += item.points
    }
    const text = ok ? item.feedbackCorrect : item.feedbackIncorrect
    if (text !== undefined) feedback[item.blockId] = text
  }
  const maxScore = quiz.items.reduce((n, i) => n + i.points, 0)
  return {
    kind: "quiz",
    id: quiz.id,
    score,
    maxScore,
    correct,
    feedback,
    label: cutoffLabel(score, quiz.cutoffs)
  }
}

/** Every scale and quiz score of a response, keyed by score id (the `score_<id>` CSV columns). */
export const scoreResponse = (
  definition: FormDefinition,
  answers: Answers
): ReadonlyArray<ScaleScore | QuizScore> => {
  const blocks = new Map(definition.blocks.map((b) => [b.id, b]))
  return [
    ...(definition.scales ?? []).map((s) => scoreScale(s, blocks, answers)),
    ...(definition.quizzes ?? []).map((q) => scoreQuiz(q, blocks, answers))
  ]
}
