// Scores and calculations of a response: scales (reverse items, sum/mean, missing policies, cutoffs)
// checked against an independent reference computation, quizzes (points, feedback, cutoffs), and the
// calculated_field expression language (grammar, errors, evaluation).
import {
  decodeFormDefinition,
  evaluateExpression,
  ExpressionError,
  parseExpression,
  scoreResponse,
  validateAnswers
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { abc, blk, definitionOf } from "../support/builders.js"

const choices = abc
const decode = definitionOf

describe("scales", () => {
  const ratings = Array.from({ length: 4 }, (_, i) => ({
    id: blk(i),
    type: "rating",
    label: `R${i}`,
    options: { scale: 5 }
  }))

  it("matches a reference computation for every aggregation and missing policy", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), {
          minLength: 4,
          maxLength: 4
        }),
        fc.constantFrom("sum" as const, "mean" as const),
        fc.constantFrom("exclude" as const, "zero" as const, "require_all" as const),
        fc.subarray([0, 1, 2, 3]),
        (values, aggregation, missing, reversedIdx) => {
          const def = decode({
            schemaVersion: 1,
            blocks: ratings,
            scales: [
              {
                id: "wellbeing",
                label: "Wellbeing",
                blocks: ratings.map((r) => r.id),
                reverse: reversedIdx.map(blk),
                aggregation,
                missing,
                cutoffs: [
                  { min: 0, label: "low" },
                  { min: 3, label: "high" }
                ]
              }
            ]
          })
          const answers = Object.fromEntries(values.flatMap((v, i) => (v === undefined ? [] : [[blk(i), v]])))
          // Reference: reverse on 1..5 is 6 - v; missing items excluded, zero, or void the score.
          const items = values.map((v, i) =>
            v === undefined ? undefined : reversedIdx.includes(i) ? 6 - v : v
          )
          const present = items.filter((v): v is number => v !== undefined)
          const pool = missing === "zero" ? items.map((v) => v ?? 0) : present
          const expected =
            (missing === "require_all" && present.length < 4) || present.length === 0
              ? null
              : aggregation === "sum"
                ? pool.reduce((a, b) => a + b, 0)
                : pool.reduce((a, b) => a + b, 0) / pool.length
          const [score] = scoreResponse(def, answers)
          expect(score?.kind).toBe("scale")
          if (score?.kind !== "scale") return
          expect(score.score).toBe(expected)
          expect(score.label).toBe(expected === null ? null : expected >= 3 ? "high" : "low")
        }
      ),
      { numRuns: 200 }
    )
  })
})

describe("quizzes", () => {
  const def = decode({
    schemaVersion: 1,
    blocks: [
      { id: blk(1), type: "multiple_choice", label: "Capital of France", options: { choices } },
      { id: blk(2), type: "checkboxes", label: "Primes", options: { choices } },
      { id: blk(3), type: "ranking", label: "Order", options: { choices } },
      { id: blk(4), type: "short_text", label: "Say hi" },
      { id: blk(5), type: "number", label: "2+2" }
    ],
    quizzes: [
      {
        id: "q1",
        label: "Quiz",
        items: [
          { blockId: blk(1), answer: "b", points: 2, feedbackCorrect: "Yes", feedbackIncorrect: "No" },
          { blockId: blk(2), answer: ["a", "c"], points: 3 },
          { blockId: blk(3), answer: ["c", "b", "a"], points: 1 },
          { blockId: blk(4), answer: "Hello", points: 1 },
          { blockId: blk(5), answer: 4, points: 1 }
        ],
        cutoffs: [
          { min: 0, label: "try again" },
          { min: 6, label: "pass" }
        ]
      }
    ]
  })

  it("adds points for correct items, gives feedback and a cutoff label", () => {
    const [q] = scoreResponse(def, {
      [blk(1)]: "b",
      [blk(2)]: ["c", "a"],
      [blk(3)]: ["c", "b", "a"],
      [blk(4)]: " hello ",
      [blk(5)]: 4
    })
    expect(q).toMatchObject({
      kind: "quiz",
      score: 8,
      maxScore: 8,
      label: "pass",
      feedback: { [blk(1)]: "Yes" }
    })
    const [wrong] = scoreResponse(def, {
      [blk(1)]: "a",
      [blk(2)]: ["a"],
      [blk(3)]: ["a", "b", "c"],
      [blk(5)]: 5
    })
    expect(wrong).toMatchObject({ score: 0, label: "try again", correct: [], feedback: { [blk(1)]: "No" } })
  })
})

describe("calculated_field expressions", () => {
  const ok = (source: string, values: Record<string, number> = {}) => {
    const tree = parseExpression(source)
    if (tree instanceof ExpressionError) throw new Error(tree.rule)
    return evaluateExpression(tree, (id) => values[id])
  }

  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["-2 * -3", 6],
    ["10 % 4", 2],
    ["max(1, 5, 3) - min(4, 2)", 3],
    ["round(2.345, 2)", 2.35],
    ["abs(-3) + floor(1.9) + ceil(1.1)", 6],
    [".5 * 4", 2]
  ])("evaluates %s to %s", (source, expected) => {
    expect(ok(source)).toBeCloseTo(expected, 10)
  })

  it("reads answers by reference and yields null when one is missing or on division by zero", () => {
    expect(ok(`{${blk(1)}} * 2 + {${blk(2)}}`, { [blk(1)]: 3, [blk(2)]: 1 })).toBe(7)
    expect(ok(`{${blk(1)}} * 2`, {})).toBeNull()
    expect(ok("1 / 0")).toBeNull()
  })

  it.each([
    ["1 +", "syntax"],
    ["foo(1)", "unknownFunction"],
    ["abs(1, 2)", "arity"],
    ["{blk_bad}", "reference"],
    ["", "empty"],
    ["alert(1)", "unknownFunction"],
    [`${"(".repeat(100)}1${")".repeat(100)}`, "tooDeep"]
  ])("rejects %j with %s", (source, rule) => {
    const tree = parseExpression(source)
    expect(tree instanceof ExpressionError && tree.rule).toBe(rule)
  })

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (source) => {
        parseExpression(source)
      }),
      { numRuns: 500 }
    )
  })

  it("is checked in definitions and computed in responses with its precision", () => {
    const base = [
      { id: blk(1), type: "number", label: "Price" },
      { id: blk(2), type: "multiple_choice", label: "Size", options: { choices } }
    ]
    const bad = decodeFormDefinition({
      schemaVersion: 1,
      blocks: [
        ...base,
        { id: blk(3), type: "calculated_field", label: "Total", options: { expression: `{${blk(9)}} + 1` } }
      ]
    })
    expect(Result.isFailure(bad) && bad.failure.issues).toEqual([
      { path: ["blocks", 2, "options", "expression"], rule: "danglingReference" }
    ])
    const forward = decodeFormDefinition({
      schemaVersion: 1,
      blocks: [
        { id: blk(3), type: "calculated_field", label: "Total", options: { expression: `{${blk(1)}}` } },
        ...base
      ]
    })
    expect(Result.isFailure(forward) && forward.failure.issues[0]?.rule).toBe("forwardReference")

    const def = decode({
      schemaVersion: 1,
      blocks: [
        ...base,
        {
          id: blk(3),
          type: "calculated_field",
          label: "Total",
          options: { expression: `{${blk(1)}} * {${blk(2)}} / 3`, precision: 2 }
        }
      ]
    })
    const r = validateAnswers(def, { [blk(1)]: 10, [blk(2)]: "b" }, { final: true })
    expect(Result.isSuccess(r) && r.success[blk(3)]).toBe(6.67)
    const forged = validateAnswers(def, { [blk(1)]: 10, [blk(3)]: 1000 }, { final: true })
    expect(Result.isFailure(forged) && forged.failure.issues.map((i) => i.rule)).toEqual(["notAnswerable"])
  })
})
