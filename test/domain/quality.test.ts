// Quality traps judged at completion (responses/quality.ts): which trap blocks a respondent missed,
// with branching respected, and the quiz results a completion shows (responses/score-views.ts).
import {
  decodeFormDefinition,
  quizResultsOf,
  responseQualityOf,
  responseScoresOf,
  scoreResponse
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blk } from "../support/builders.js"

const colours = [
  { id: "red", label: "Red" },
  { id: "blue", label: "Blue" }
]
const definition = Result.getOrThrow(
  decodeFormDefinition({
    schemaVersion: 1,
    blocks: [
      { id: blk(1), type: "multiple_choice", label: "Skip the check?", options: { choices: colours } },
      {
        id: blk(2),
        type: "multiple_choice",
        label: "Pick Blue",
        options: { choices: colours, qualityTrap: { expectedChoiceId: "blue" } }
      },
      {
        id: blk(3),
        type: "multiple_choice",
        label: "Pick Red",
        options: { choices: colours, qualityTrap: { expectedChoiceId: "red" } }
      }
    ],
    logic: [
      {
        id: "lgc_skipcheck",
        from: blk(1),
        conditions: [{ blk: blk(1), op: "eq", value: "red" }],
        actions: [{ type: "hide", target: blk(2) }]
      }
    ],
    quizzes: [
      {
        id: "q",
        label: "Q",
        items: [
          { blockId: blk(2), answer: "blue", points: 1, feedbackCorrect: "Yes", feedbackIncorrect: "No" },
          { blockId: blk(3), answer: "red", points: 3 }
        ],
        cutoffs: [{ min: 3, label: "Good" }]
      }
    ]
  })
)

describe("quality traps", () => {
  it("misses a shown trap answered otherwise or left empty, never one that branching hid", () => {
    expect(responseQualityOf(definition, { [blk(2)]: "blue", [blk(3)]: "red" })).toEqual({ trapsMissed: [] })
    expect(responseQualityOf(definition, { [blk(2)]: "red", [blk(3)]: "red" })).toEqual({
      trapsMissed: [blk(2)]
    })
    expect(responseQualityOf(definition, {})).toEqual({ trapsMissed: [blk(2), blk(3)] })
    // Answering "red" first hides the Blue trap: only the Red one is judged.
    expect(responseQualityOf(definition, { [blk(1)]: "red", [blk(3)]: "blue" })).toEqual({
      trapsMissed: [blk(3)]
    })
    const noTraps = Result.getOrThrow(
      decodeFormDefinition({ schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "A" }] })
    )
    expect(responseQualityOf(noTraps, {})).toBeUndefined()
  })

  it("flags exactly the shown traps whose answer is not the expected choice", () => {
    const answer = fc.option(fc.constantFrom("red", "blue"), { nil: undefined })
    fc.assert(
      fc.property(answer, answer, answer, (a1, a2, a3) => {
        const answers = Object.fromEntries(
          [
            [blk(1), a1],
            [blk(2), a2],
            [blk(3), a3]
          ].filter(([, v]) => v !== undefined)
        ) as Record<string, string>
        const missed = responseQualityOf(definition, answers)?.trapsMissed ?? []
        expect(missed.includes(blk(2))).toBe(a1 !== "red" && a2 !== "blue")
        expect(missed.includes(blk(3))).toBe(a3 !== "red")
      })
    )
  })
})

describe("score views", () => {
  it("shows the respondent each quiz with its cutoff label and the feedback the author wrote", () => {
    const meta = { scores: scoreResponse(definition, { [blk(2)]: "red", [blk(3)]: "red" }) }
    expect(quizResultsOf(meta)).toEqual([
      {
        id: "q",
        score: 3,
        maxScore: 4,
        cutoffLabel: "Good",
        feedback: [{ blockId: blk(2), correct: false, text: "No" }]
      }
    ])
    expect(responseScoresOf(meta)).toEqual([
      { id: "q", kind: "quiz", score: 3, maxScore: 4, cutoffLabel: "Good" }
    ])
    // Stored JSON that is not a score is skipped, not trusted.
    expect(quizResultsOf({ scores: [{ kind: "quiz", id: 7 }, "x"] })).toEqual([])
    expect(responseScoresOf({})).toEqual([])
  })
})
