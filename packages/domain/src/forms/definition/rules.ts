// Logic rules, random groups, scales and quizzes of a classic definition.
import { Schema, Effect } from "effect"
import { ArrayOf, BlockId, LogicRuleId, RandomGroupId, ScoreId, Str, StrBetween } from "./primitives.js"

export const CONDITION_OPS = [
  "eq",
  "neq",
  "contains",
  "not_contains",
  "gt",
  "gte",
  "lt",
  "lte",
  "is_empty",
  "is_filled"
] as const

export const Condition = Schema.Struct({
  blk: BlockId,
  op: Schema.Literals(CONDITION_OPS),
  value: Schema.optionalKey(Schema.Union([Str(2000), Schema.Finite]))
})

export const LogicAction = Schema.Union([
  Schema.Struct({ type: Schema.Literal("show"), target: BlockId }),
  Schema.Struct({ type: Schema.Literal("hide"), target: BlockId }),
  Schema.Struct({ type: Schema.Literal("skip_to"), target: BlockId }),
  Schema.Struct({ type: Schema.Literal("skip_to_end") })
])

export const LogicRule = Schema.Struct({
  id: LogicRuleId,
  from: BlockId,
  match: Schema.Literals(["any", "all"]).pipe(
    Schema.withDecodingDefaultTypeKey(Effect.succeed("all" as const))
  ),
  conditions: ArrayOf(Condition, 1, 20),
  actions: ArrayOf(LogicAction, 1, 20)
}).annotate({ identifier: "LogicRule" })
export type LogicRule = typeof LogicRule.Type

export const RandomGroup = Schema.Struct({
  id: RandomGroupId,
  blockIds: ArrayOf(BlockId, 2, 50),
  mode: Schema.Literals(["shuffle", "reverse", "latin_square"])
}).annotate({ identifier: "RandomGroup" })
export type RandomGroup = typeof RandomGroup.Type

const Cutoff = Schema.Struct({ min: Schema.Finite, label: StrBetween(1, 200) })

export const Scale = Schema.Struct({
  id: ScoreId,
  label: StrBetween(1, 200),
  blocks: ArrayOf(BlockId, 1, 100),
  reverse: ArrayOf(BlockId, 0, 100).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([]))),
  aggregation: Schema.Literals(["sum", "mean"]).pipe(
    Schema.withDecodingDefaultTypeKey(Effect.succeed("mean" as const))
  ),
  missing: Schema.Literals(["exclude", "zero", "require_all"]).pipe(
    Schema.withDecodingDefaultTypeKey(Effect.succeed("exclude" as const))
  ),
  cutoffs: ArrayOf(Cutoff, 0, 50).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([])))
}).annotate({ identifier: "Scale" })
export type Scale = typeof Scale.Type

export const QuizItem = Schema.Struct({
  blockId: BlockId,
  answer: Schema.Union([Str(50000), Schema.Finite, ArrayOf(Str(50000), 0, 200)]),
  points: Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(10000)),
  feedbackCorrect: Schema.optionalKey(Str(2000)),
  feedbackIncorrect: Schema.optionalKey(Str(2000))
})

export const Quiz = Schema.Struct({
  id: ScoreId,
  label: StrBetween(1, 200),
  items: ArrayOf(QuizItem, 1, 100),
  cutoffs: ArrayOf(Cutoff, 0, 50).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([])))
}).annotate({ identifier: "Quiz" })
export type Quiz = typeof Quiz.Type
