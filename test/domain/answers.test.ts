// Answer validation against a pinned definition: the value shape of every block type, required
// blocks only when shown, branching with every op and action, hidden fields from URL parameters.
import {
  type Block,
  checkAnswer,
  decodeFormDefinition,
  type FormDefinition,
  isInputBlockType,
  validateAnswers,
  visibleBlocks
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { abc, blk } from "../support/builders.js"
import { validDefinitionArb } from "./arbitraries.js"

const choices = abc
const consent = { items: ["Use"], purpose: "Research", retentionPeriod: "1y", refusalNotice: "No" }

const definition = (extra: Record<string, unknown> = {}): FormDefinition =>
  Result.getOrThrow(
    decodeFormDefinition({
      schemaVersion: 1,
      blocks: [
        { id: blk(1), type: "short_text", label: "Name", required: true, options: { maxLength: 20 } },
        { id: blk(2), type: "long_text", label: "Story" },
        { id: blk(3), type: "multiple_choice", label: "Pick", options: { choices } },
        { id: blk(4), type: "checkboxes", label: "Many", options: { choices, maxSelected: 2 } },
        { id: blk(5), type: "dropdown", label: "Country", options: { choices: [], dataset: "countries" } },
        { id: blk(6), type: "ranking", label: "Order", options: { choices } },
        { id: blk(7), type: "rating", label: "Rate", options: { scale: 5, zeroBased: true } },
        { id: blk(8), type: "date", label: "Day", options: { min: "2024-01-01" } },
        { id: blk(9), type: "datetime", label: "When" },
        { id: blk(10), type: "time", label: "At" },
        { id: blk(11), type: "date_range", label: "Trip" },
        { id: blk(12), type: "email", label: "Email" },
        { id: blk(13), type: "number", label: "Count", options: { min: 0, max: 10, integer: true } },
        { id: blk(14), type: "file_upload", label: "CV", options: { maxFiles: 2 } },
        { id: blk(15), type: "signature", label: "Sign" },
        {
          id: blk(16),
          type: "privacy_consent",
          label: "OK?",
          options: { ...consent, mode: "agree_or_decline" }
        },
        { id: blk(17), type: "address", label: "Where" },
        {
          id: blk(18),
          type: "hidden_field",
          label: "Source",
          options: { param: "utm_source", defaultValue: "direct" }
        },
        { id: blk(19), type: "statement", label: "Thanks" }
      ],
      ...extra
    })
  )

const valid = {
  [blk(1)]: "Ada",
  [blk(2)]: "Long story",
  [blk(3)]: "b",
  [blk(4)]: ["a", "c"],
  [blk(5)]: "KR",
  [blk(6)]: ["c", "a", "b"],
  [blk(7)]: 0,
  [blk(8)]: "2024-02-29",
  [blk(9)]: "2026-01-01T10:00",
  [blk(10)]: "09:30",
  [blk(11)]: ["2026-01-01", "2026-01-05"],
  [blk(12)]: "ada@example.com",
  [blk(13)]: 7,
  [blk(14)]: ["files/a.pdf"],
  [blk(15)]: "signatures/s.png",
  [blk(16)]: "n",
  [blk(17)]: ["04524", "1 Main St", "Apt 2"]
}

const rulesOf = (input: unknown, def = definition(), params?: Record<string, string>) => {
  const r = validateAnswers(def, input, { final: true, ...(params === undefined ? {} : { params }) })
  return Result.isFailure(r) ? r.failure.issues.map((i) => `${i.path[1]}:${i.rule}`) : []
}

describe("answer shapes (forms-api.md answer table)", () => {
  it("accepts a valid answer for every input block type and fills hidden fields", () => {
    const r = validateAnswers(definition(), valid, { final: true, params: { utm_source: "newsletter" } })
    expect(Result.isSuccess(r)).toBe(true)
    if (Result.isSuccess(r)) expect(r.success[blk(18)]).toBe("newsletter")
    const d = validateAnswers(definition(), valid, { final: true })
    expect(Result.isSuccess(d) && d.success[blk(18)]).toBe("direct")
  })

  it.each([
    [blk(1), "x".repeat(21), "maxLength"],
    [blk(3), "z", "choice"],
    [blk(4), ["a", "b", "c"], "maxSelected"],
    [blk(4), ["a", "a"], "duplicate"],
    [blk(5), "Korea", "country"],
    // Two capitals that name no assigned ISO 3166-1 country.
    [blk(5), "XX", "country"],
    [blk(6), ["a", "b"], "permutation"],
    [blk(7), 5, "outOfRange"],
    [blk(7), 2.5, "integer"],
    [blk(8), "2023-02-29", "format"],
    [blk(8), "2023-12-31", "outOfRange"],
    [blk(9), "2026-01-01 10:00", "format"],
    [blk(10), "24:00", "format"],
    [blk(11), ["2026-01-05", "2026-01-01"], "startAfterEnd"],
    [blk(12), "not-an-email", "email"],
    [blk(13), 11, "outOfRange"],
    [blk(13), 1.5, "integer"],
    [blk(14), ["a", "b", "c"], "files"],
    [blk(16), "maybe", "consent"],
    [blk(17), ["1", "2"], "address"],
    [blk(19), "hello", "notAnswerable"]
  ])("rejects a bad answer to %s (%j) with the rule %s", (id, value, rule) => {
    expect(rulesOf({ ...valid, [id]: value })).toContain(`${id}:${rule}`)
  })

  it("holds a number to its step (counted from min, else 0) and its decimals", () => {
    const numbers = Result.getOrThrow(
      decodeFormDefinition({
        schemaVersion: 1,
        blocks: [
          { id: blk(1), type: "number", label: "Weight", options: { min: 0.5, step: 0.25 } },
          { id: blk(2), type: "number", label: "Price", options: { decimals: 2 } },
          { id: blk(3), type: "number", label: "Tenth", options: { step: 0.1, decimals: 1 } }
        ]
      })
    )
    const rules = (answers: Record<string, unknown>) => rulesOf(answers, numbers)
    expect(rules({ [blk(1)]: 0.75, [blk(2)]: 19.99, [blk(3)]: 0.3 })).toEqual([])
    expect(rules({ [blk(1)]: 100.5, [blk(2)]: 20, [blk(3)]: -2.7 })).toEqual([])
    expect(rules({ [blk(1)]: 0.8 })).toEqual([`${blk(1)}:step`])
    expect(rules({ [blk(1)]: 1 })).toEqual([])
    expect(rules({ [blk(1)]: 1.1 })).toEqual([`${blk(1)}:step`])
    expect(rules({ [blk(2)]: 19.999 })).toEqual([`${blk(2)}:decimals`])
    expect(rules({ [blk(3)]: 0.1 + 0.2 })).toEqual([`${blk(3)}:decimals`])
    expect(rules({ [blk(3)]: 0.35 })).toEqual([`${blk(3)}:decimals`])
  })

  it("compares date-time bounds as instants on one wall clock, seconds included, never as text", () => {
    const times = Result.getOrThrow(
      decodeFormDefinition({
        schemaVersion: 1,
        blocks: [
          {
            id: blk(1),
            type: "datetime",
            label: "When",
            options: { min: "2026-01-01T09:00", max: "2026-01-01T10:00Z" }
          }
        ]
      })
    )
    const rules = (value: string) => rulesOf({ [blk(1)]: value }, times)
    // As text, ":" sorts before "Z", so 10:00:30 used to pass a max of 10:00Z.
    expect(rules("2026-01-01T10:00:30")).toEqual([`${blk(1)}:outOfRange`])
    expect(rules("2026-01-01T10:00:00.001Z")).toEqual([`${blk(1)}:outOfRange`])
    expect(rules("2026-01-01T08:59:59")).toEqual([`${blk(1)}:outOfRange`])
    expect(rules("2026-01-01T10:00")).toEqual([])
    expect(rules("2026-01-01T09:00:00Z")).toEqual([])
    expect(rules("2026-01-01T09:30:15.5")).toEqual([])
  })

  it("holds a text answer to its author's pattern over the whole answer, with the u flag", () => {
    const texts = Result.getOrThrow(
      decodeFormDefinition({
        schemaVersion: 1,
        blocks: [
          { id: blk(1), type: "short_text", label: "Code", options: { pattern: "[A-Z]{2}\\d{3}" } },
          { id: blk(2), type: "long_text", label: "Word", options: { pattern: "\\p{L}+|n/a" } }
        ]
      })
    )
    const rules = (answers: Record<string, unknown>) => rulesOf(answers, texts)
    expect(rules({ [blk(1)]: "AB123", [blk(2)]: "Éclair" })).toEqual([])
    expect(rules({ [blk(2)]: "n/a" })).toEqual([])
    // Anchored: a match inside the answer is not enough; the alternation is grouped before anchoring.
    expect(rules({ [blk(1)]: "xAB123" })).toEqual([`${blk(1)}:pattern`])
    expect(rules({ [blk(1)]: "AB1234" })).toEqual([`${blk(1)}:pattern`])
    expect(rules({ [blk(2)]: "abc n/a" })).toEqual([`${blk(2)}:pattern`])
    expect(rules({ [blk(2)]: "42" })).toEqual([`${blk(2)}:pattern`])
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{2}\d{3}$/), fc.string({ minLength: 1 }), (code, extra) => {
        expect(checkAnswer(texts.blocks[0] as Block, code)).toBeUndefined()
        expect(checkAnswer(texts.blocks[0] as Block, code + extra)).toBe("pattern")
        expect(checkAnswer(texts.blocks[0] as Block, extra + code)).toBe("pattern")
      })
    )
  })

  it("rejects answers to blocks that do not exist and non-object input", () => {
    expect(rulesOf({ ...valid, blk_nothere: "x" })).toContain("blk_nothere:unknownBlock")
    expect(rulesOf([1, 2])).toEqual(["undefined:object"])
  })

  it("requires required blocks only on completion", () => {
    const { [blk(1)]: _, ...withoutName } = valid
    expect(rulesOf(withoutName)).toEqual([`${blk(1)}:required`])
    expect(Result.isSuccess(validateAnswers(definition(), withoutName, { final: false }))).toBe(true)
  })
})

describe("branching", () => {
  const logic = (rules: ReadonlyArray<Record<string, unknown>>) => definition({ logic: rules })
  const rule = (
    from: string,
    op: string,
    value: unknown,
    actions: ReadonlyArray<Record<string, unknown>>,
    match = "all"
  ) => ({
    id: `lgc_${Math.random().toString(36).slice(2, 10)}`,
    from,
    match,
    conditions: [{ blk: from, op, ...(value === undefined ? {} : { value }) }],
    actions
  })

  it("does not require a required block that logic hid", () => {
    const def = logic([rule(blk(3), "eq", "b", [{ type: "hide", target: blk(12) }])])
    const d = Result.getOrThrow(
      decodeFormDefinition({
        ...def,
        blocks: def.blocks.map((b) => (b.id === blk(12) ? { ...b, required: true } : b))
      })
    )
    expect(rulesOf({ ...valid, [blk(12)]: undefined }, d)).toEqual([])
    expect(rulesOf({ ...valid, [blk(3)]: "a", [blk(12)]: undefined }, d)).toEqual([`${blk(12)}:required`])
  })

  it("keeps show targets hidden until their rule fires, and drops answers to blocks not shown", () => {
    const def = logic([rule(blk(7), "gte", 3, [{ type: "show", target: blk(13) }])])
    expect(visibleBlocks(def, { [blk(7)]: 1 }).has(blk(13))).toBe(false)
    expect(visibleBlocks(def, { [blk(7)]: 4 }).has(blk(13))).toBe(true)
    const r = validateAnswers(def, { ...valid, [blk(7)]: 1 }, { final: true })
    expect(Result.isSuccess(r) && r.success[blk(13)]).toBe(undefined)
  })

  it("skips forward with skip_to and ends with skip_to_end", () => {
    const skip = logic([rule(blk(1), "is_filled", undefined, [{ type: "skip_to", target: blk(12) }])])
    const seen = visibleBlocks(skip, { [blk(1)]: "Ada" })
    expect(seen.has(blk(2))).toBe(false)
    expect(seen.has(blk(11))).toBe(false)
    expect(seen.has(blk(12))).toBe(true)
    const end = logic([rule(blk(3), "neq", "a", [{ type: "skip_to_end" }])])
    expect([...visibleBlocks(end, { [blk(3)]: "b" })]).toEqual([blk(1), blk(2), blk(3)])
  })

  it.each([
    ["eq", "b", "b", true],
    ["neq", "b", "a", true],
    ["contains", "da", "Ada", true],
    ["not_contains", "zz", "Ada", true],
    ["gt", 3, 4, true],
    ["gte", 4, 4, true],
    ["lt", 4, 4, false],
    ["lte", 4, 4, true],
    ["is_empty", undefined, "", true],
    ["is_filled", undefined, "x", true]
  ])("evaluates %s", (op, value, answer, fires) => {
    const def = logic([rule(blk(1), op, value, [{ type: "hide", target: blk(2) }])])
    expect(visibleBlocks(def, { [blk(1)]: answer }).has(blk(2))).toBe(!fires)
  })
})

describe("properties", () => {
  const answerFor = (block: Block): unknown => {
    switch (block.type) {
      case "short_text":
      case "long_text":
        return "x".repeat(Math.min(60_000, Math.max(1, block.options.minLength ?? 1)))
      case "multiple_choice":
        return block.options.choices[0]?.id
      case "dropdown":
        return block.options.dataset === "countries" ? "KR" : block.options.choices[0]?.id
      case "checkboxes":
        return block.options.choices.slice(0, 1).map((c) => c.id)
      case "ranking":
        return block.options.choices.map((c) => c.id)
      case "rating":
        return 1
      case "number":
        return block.options.min ?? block.options.max ?? 1
      case "date":
      case "date_range":
      case "datetime":
      case "time":
        return undefined
      case "email":
        return "a@b.co"
      case "file_upload":
        return ["k"]
      case "signature":
        return "sig"
      case "privacy_consent":
        return "y"
      case "address":
        return ["", "", ""]
      default:
        return undefined
    }
  }

  it("accepts generated answers to generated definitions, and names the one block whose answer breaks", () => {
    fc.assert(
      fc.property(validDefinitionArb, fc.nat(), (def0, n) => {
        const def = { ...def0, logic: [] }
        const answerable = def.blocks.filter(
          (b) => isInputBlockType(b.type) && b.type !== "hidden_field" && answerFor(b) !== undefined
        )
        // Generated bounds (minLength, min/max) can make the simple value above invalid; leave those out.
        const answers = Object.fromEntries(
          answerable.flatMap((block) => {
            const value = answerFor(block)
            return checkAnswer(block, value) === undefined ? [[block.id, value]] : []
          })
        )
        const r = validateAnswers(def, answers, { final: false })
        expect(Result.isSuccess(r)).toBe(true)
        const target = answerable.filter((block) => block.id in answers)[n % Math.max(1, answerable.length)]
        fc.pre(target !== undefined)
        if (target === undefined) return
        const broken = validateAnswers(def, { ...answers, [target.id]: { not: "valid" } }, { final: false })
        expect(Result.isFailure(broken) && broken.failure.issues.map((i) => i.path[1])).toEqual([target.id])
      }),
      { numRuns: 60 }
    )
  })
})
