// The classic FormDefinition: schema-derived round trips, mutation properties (one broken rule is
// reported at its path), semantic checks, JSON Schema validity under Ajv, and the spec's tables.
import {
  canonicalJson,
  decodeAuthoredFormDefinition,
  decodeFormDefinition,
  definitionFeatures,
  encodeFormDefinition,
  FormDefinition,
  formDefinitionJsonSchema,
  type Issue,
  STRICT_ALL
} from "@folio/domain"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { definitionShape, validDefinitionArb } from "./arbitraries.js"
import { blk } from "../support/builders.js"

const issuesOf = (input: unknown): ReadonlyArray<Issue> => {
  const result = decodeAuthoredFormDefinition(input)
  return Result.isFailure(result) ? result.failure.issues : []
}
const hasIssue = (input: unknown, path: ReadonlyArray<string | number>, rule?: string) =>
  issuesOf(input).some(
    (i) => JSON.stringify(i.path) === JSON.stringify(path) && (rule === undefined || i.rule === rule)
  )

const shapeDecode = Schema.decodeUnknownResult(FormDefinition, STRICT_ALL)
const encodeShape = Schema.encodeSync(FormDefinition)

const ajv = makeAjv2020()
const ajvValidate = ajv.compile(formDefinitionJsonSchema)

const base = () => ({
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name" },
    {
      id: blk(2),
      type: "multiple_choice",
      label: "Pick",
      options: {
        choices: [
          { id: "a", label: "A" },
          { id: "b", label: "B" }
        ]
      }
    },
    { id: blk(3), type: "rating", label: "Rate" }
  ]
})

describe("FormDefinition round trips (arbitraries from the schema)", () => {
  it("every generated shape decodes, encodes and decodes back to an equal value", () => {
    fc.assert(
      fc.property(definitionShape, (def) => {
        const encoded = encodeShape(def)
        const again = shapeDecode(encoded)
        expect(Result.isSuccess(again)).toBe(true)
        expect(Result.getOrThrow(again)).toEqual(def)
      }),
      { numRuns: 60 }
    )
  })

  it("every repaired (semantically valid) definition passes the full decoder and Ajv", () => {
    fc.assert(
      fc.property(validDefinitionArb, (def) => {
        const encoded = encodeFormDefinition(def)
        const decoded = decodeAuthoredFormDefinition(JSON.parse(JSON.stringify(encoded)))
        if (Result.isFailure(decoded)) throw new Error(JSON.stringify(decoded.failure.issues))
        // Compared as canonical JSON: the wire cannot carry -0, which toEqual tells apart from 0.
        expect(canonicalJson(decoded.success)).toBe(canonicalJson(def))
        expect(ajvValidate(encoded)).toBe(true)
      }),
      { numRuns: 60 }
    )
  })
})

describe("mutations: one broken rule is reported at its path", () => {
  const nonEmpty = validDefinitionArb.filter((d) => d.blocks.length > 0)

  it("an unknown key on a block", () => {
    fc.assert(
      fc.property(nonEmpty, fc.nat(), (def, n) => {
        const encoded = structuredClone(encodeFormDefinition(def)) as unknown as {
          blocks: Array<Record<string, unknown>>
        }
        const i = n % encoded.blocks.length
        ;(encoded.blocks[i] as Record<string, unknown>).surprise = true
        expect(hasIssue(encoded, ["blocks", i, "surprise"], "unknownKey")).toBe(true)
      }),
      { numRuns: 40 }
    )
  })

  it("a label over 2000 characters", () => {
    fc.assert(
      fc.property(nonEmpty, fc.nat(), (def, n) => {
        const encoded = structuredClone(encodeFormDefinition(def)) as unknown as {
          blocks: Array<Record<string, unknown>>
        }
        const i = n % encoded.blocks.length
        ;(encoded.blocks[i] as Record<string, unknown>).label = "x".repeat(2001)
        expect(hasIssue(encoded, ["blocks", i, "label"], "maxLength")).toBe(true)
      }),
      { numRuns: 40 }
    )
  })

  it("a block id that breaks the pattern", () => {
    fc.assert(
      fc.property(
        nonEmpty,
        fc.nat(),
        fc.constantFrom("blk_short", "block_12345678", "blk_bad id!!"),
        (def, n, bad) => {
          const encoded = structuredClone(encodeFormDefinition(def)) as unknown as {
            blocks: Array<Record<string, unknown>>
          }
          const i = n % encoded.blocks.length
          ;(encoded.blocks[i] as Record<string, unknown>).id = bad
          expect(hasIssue(encoded, ["blocks", i, "id"], "pattern")).toBe(true)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("a duplicated block id", () => {
    fc.assert(
      fc.property(
        validDefinitionArb.filter((d) => d.blocks.length > 1),
        fc.nat(),
        (def, n) => {
          const encoded = structuredClone(encodeFormDefinition(def)) as unknown as {
            blocks: Array<{ id: string }>
          }
          const j = 1 + (n % (encoded.blocks.length - 1))
          ;(encoded.blocks[j] as { id: string }).id = (encoded.blocks[0] as { id: string }).id
          expect(hasIssue(encoded, ["blocks", j, "id"], "duplicateId")).toBe(true)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("a logic rule pointing at a block that does not exist", () => {
    fc.assert(
      fc.property(
        validDefinitionArb.filter((d) => d.logic.length > 0),
        fc.nat(),
        (def, n) => {
          const encoded = structuredClone(encodeFormDefinition(def)) as unknown as {
            logic: Array<{ from: string }>
          }
          const i = n % encoded.logic.length
          ;(encoded.logic[i] as { from: string }).from = "blk_doesnotexist"
          expect(hasIssue(encoded, ["logic", i, "from"], "danglingReference")).toBe(true)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("a 201st block", () => {
    const blocks = Array.from({ length: 201 }, (_, i) => ({ id: blk(i), type: "short_text", label: "Q" }))
    expect(hasIssue({ schemaVersion: 1, blocks }, ["blocks"], "maxItems")).toBe(true)
    expect(Result.isSuccess(decodeFormDefinition({ schemaVersion: 1, blocks: blocks.slice(0, 200) }))).toBe(
      true
    )
  })

  it("never echoes the offending value in an issue", () => {
    const secret = "TOP-SECRET-VALUE"
    const issues = issuesOf({
      schemaVersion: 1,
      blocks: [
        { id: secret, type: "short_text", label: secret.repeat(200), description: 7, options: { pattern: 9 } }
      ]
    })
    expect(issues.length).toBeGreaterThan(2)
    expect(JSON.stringify(issues)).not.toContain(secret)
  })
})

describe("semantic checks", () => {
  it("rejects duplicate choice ids, quiz answers naming unknown choices and backward skips", () => {
    const def = base()
    const b2 = def.blocks[1] as { options: { choices: Array<{ id: string; label: string }> } }
    b2.options.choices.push({ id: "a", label: "Again" })
    expect(hasIssue(def, ["blocks", 1, "options", "choices", 2, "id"], "duplicateId")).toBe(true)

    const quiz = {
      ...base(),
      quizzes: [{ id: "q1", label: "Quiz", items: [{ blockId: blk(2), answer: "zzz", points: 1 }] }]
    }
    expect(hasIssue(quiz, ["quizzes", 0, "items", 0, "answer"], "unknownChoice")).toBe(true)

    const skip = {
      ...base(),
      logic: [
        {
          id: "lgc_back01",
          from: blk(3),
          conditions: [{ blk: blk(3), op: "gt", value: 3 }],
          actions: [{ type: "skip_to", target: blk(1) }]
        }
      ]
    }
    expect(hasIssue(skip, ["logic", 0, "actions", 0, "target"], "skipBackward")).toBe(true)
  })

  it("refuses combinations that would be accepted and never act (issue 30)", () => {
    const row = (n: number, options: Record<string, unknown> = {}, group = "mtx_group1") => ({
      id: blk(n),
      type: "multiple_choice",
      label: `Row ${n}`,
      options: { choices: [{ id: "1", label: "Low" }], matrixGroupId: group, ...options }
    })
    const single = (blocks: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) => ({
      schemaVersion: 1,
      blocks,
      ...extra
    })
    // A row shuffling or extending the columns it shares with the other rows.
    expect(
      hasIssue(
        single([row(1, { randomize: { mode: "shuffle" } })]),
        ["blocks", 0, "options", "randomize"],
        "matrixRowRandomize"
      )
    ).toBe(true)
    expect(
      hasIssue(
        single([row(1, { allowOther: true })]),
        ["blocks", 0, "options", "allowOther"],
        "matrixRowOther"
      )
    ).toBe(true)
    // An image on a dropdown choice, which a native select cannot show.
    const dropdown = {
      id: blk(5),
      type: "dropdown",
      label: "Pick",
      options: { choices: [{ id: "a", label: "A", imageKey: "forms/x/a.png" }] }
    }
    expect(
      hasIssue(single([dropdown]), ["blocks", 0, "options", "choices", 0, "imageKey"], "imageInDropdown")
    ).toBe(true)
    // A random group mixing matrix rows with another block, or with rows of another matrix.
    const plain = { id: blk(9), type: "short_text", label: "Name" }
    const group = (ids: ReadonlyArray<string>) => ({
      randomGroups: [{ id: "rng_group1", blockIds: ids, mode: "shuffle" }]
    })
    expect(
      hasIssue(
        single([row(1), row(2), plain], group([blk(1), blk(9)])),
        ["randomGroups", 0, "blockIds"],
        "matrixRowsMixed"
      )
    ).toBe(true)
    expect(
      hasIssue(
        single([row(1), row(2, {}, "mtx_group2")], group([blk(1), blk(2)])),
        ["randomGroups", 0, "blockIds"],
        "matrixRowsMixed"
      )
    ).toBe(true)
    expect(
      Result.isSuccess(decodeAuthoredFormDefinition(single([row(1), row(2)], group([blk(1), blk(2)]))))
    ).toBe(true)
    // A rule whose condition reads a block the respondent reaches only after the rule's `from`.
    const later = {
      ...base(),
      logic: [
        {
          id: "lgc_later1",
          from: blk(1),
          conditions: [{ blk: blk(3), op: "gt", value: 3 }],
          actions: [{ type: "hide", target: blk(2) }]
        }
      ]
    }
    expect(hasIssue(later, ["logic", 0, "conditions", 0, "blk"], "conditionAfterFrom")).toBe(true)
    // Reversing a number needs both bounds (min + max - v).
    const scaled = (options: Record<string, unknown>) =>
      single([{ id: blk(1), type: "number", label: "N", options }], {
        scales: [{ id: "s1", label: "S", blocks: [blk(1)], reverse: [blk(1)] }]
      })
    expect(hasIssue(scaled({ min: 0 }), ["scales", 0, "reverse", 0], "reverseNeedsBounds")).toBe(true)
    expect(Result.isSuccess(decodeAuthoredFormDefinition(scaled({ min: 0, max: 10 })))).toBe(true)
  })

  it("still reads a stored definition the authoring rules would refuse, never running an unsafe pattern", () => {
    const stored = {
      schemaVersion: 1,
      blocks: [
        { id: blk(1), type: "short_text", label: "Code", options: { pattern: "(a+)+$" } },
        { id: blk(2), type: "short_text", label: "Zip", options: { pattern: "\\d{5}" } },
        {
          id: blk(3),
          type: "dropdown",
          label: "Pick",
          options: { choices: [{ id: "a", label: "A", imageKey: "forms/x/a.png" }] }
        }
      ]
    }
    expect(Result.isFailure(decodeAuthoredFormDefinition(stored))).toBe(true)
    const read = Result.getOrThrow(decodeFormDefinition(stored))
    const options = (i: number) => (read.blocks[i] as { options: Record<string, unknown> }).options
    expect(options(0)).not.toHaveProperty("pattern")
    expect(options(1).pattern).toBe("\\d{5}")
  })

  it("requires matrix rows of one group to share type and choices", () => {
    const choices = [
      { id: "1", label: "Low" },
      { id: "2", label: "High" }
    ]
    const def = {
      schemaVersion: 1,
      blocks: [
        {
          id: blk(1),
          type: "multiple_choice",
          label: "Row 1",
          options: { choices, matrixGroupId: "mtx_group1" }
        },
        {
          id: blk(2),
          type: "multiple_choice",
          label: "Row 2",
          options: { choices: [choices[0]], matrixGroupId: "mtx_group1" }
        }
      ]
    }
    expect(hasIssue(def, ["blocks", 1, "options", "choices"], "matrixRowChoices")).toBe(true)
    const ok = { ...def, blocks: [def.blocks[0], { ...def.blocks[0], id: blk(2) }] }
    const decoded = decodeFormDefinition(ok)
    expect(Result.isSuccess(decoded)).toBe(true)
    if (Result.isSuccess(decoded)) expect([...definitionFeatures(decoded.success)]).toEqual(["matrix"])
  })

  it("checks scale blocks exist and are scorable, and reverse is a subset", () => {
    const def = { ...base(), scales: [{ id: "s1", label: "S", blocks: [blk(1), blk(3)], reverse: [blk(2)] }] }
    expect(hasIssue(def, ["scales", 0, "blocks", 0], "notScorable")).toBe(true)
    expect(hasIssue(def, ["scales", 0, "reverse", 0], "notInScale")).toBe(true)
  })

  it("refuses an answer pattern that is not a regular expression or could backtrack catastrophically", () => {
    const withPattern = (pattern: string, type = "short_text") => ({
      schemaVersion: 1,
      blocks: [{ id: blk(1), type, label: "Code", options: { pattern } }]
    })
    const at = ["blocks", 0, "options", "pattern"]
    for (const unsafe of ["(a+)+", "(x+x+)+y", "([a-z]*)*@", "(\\w+\\s?)*$"]) {
      expect(issuesOf(withPattern(unsafe))).toEqual([{ path: at, rule: "unsafePattern" }])
      expect(hasIssue(withPattern(unsafe, "long_text"), at, "unsafePattern")).toBe(true)
    }
    // Invalid syntax, including what only the u flag refuses (a lone escaped letter without meaning).
    for (const broken of ["[a-", "(abc", "a{2,1}", "\\q"]) {
      expect(issuesOf(withPattern(broken))).toEqual([{ path: at, rule: "patternSyntax" }])
    }
    for (const fine of ["[A-Z]{2}\\d{4}", "\\p{Lu}\\p{Ll}+", "\\+?\\d{0,3} ?\\d{3}-\\d{4}", "yes|no"]) {
      expect(issuesOf(withPattern(fine))).toEqual([])
    }
    // The analysis is conservative: any quantifier inside a quantified group is refused, bounded or not.
    expect(issuesOf(withPattern("(?:\\+\\d{1,3} )?\\d{3}"))).toEqual([{ path: at, rule: "unsafePattern" }])
  })
})

describe("the spec's table, value by value", () => {
  const decodeOne = (block: Record<string, unknown>) => {
    const result = decodeFormDefinition({ schemaVersion: 1, blocks: [block] })
    if (Result.isFailure(result)) throw new Error(JSON.stringify(result.failure.issues))
    return result.success.blocks[0] as unknown as Record<string, unknown> & {
      options: Record<string, unknown>
    }
  }
  const consent = {
    items: ["Data use"],
    purpose: "Research",
    retentionPeriod: "1 year",
    refusalNotice: "You may decline"
  }

  it('"required: forced to constant true for privacy_consent"', () => {
    expect(decodeOne({ id: blk(1), type: "privacy_consent", label: "OK?", options: consent }).required).toBe(
      true
    )
    expect(
      hasIssue(
        {
          schemaVersion: 1,
          blocks: [{ id: blk(1), type: "privacy_consent", label: "x", required: false, options: consent }]
        },
        ["blocks", 0, "required"]
      )
    ).toBe(true)
    expect(
      decodeOne({ id: blk(1), type: "privacy_consent", label: "OK?", options: consent }).options.mode
    ).toBe("agree_only")
  })

  it.each(["statement", "page_break", "divider", "image", "calculated_field"])(
    '"forced to constant false for %s"',
    (type) => {
      const block = { id: blk(1), type, label: "L" }
      expect(decodeOne(block).required).toBe(false)
      expect(
        hasIssue({ schemaVersion: 1, blocks: [{ ...block, required: true }] }, ["blocks", 0, "required"])
      ).toBe(true)
    }
  )

  it('"hidden_field | options required: param (required) 1..64"', () => {
    expect(
      hasIssue(
        { schemaVersion: 1, blocks: [{ id: blk(1), type: "hidden_field", label: "h" }] },
        ["blocks", 0, "options"],
        "required"
      )
    ).toBe(true)
    expect(
      decodeOne({ id: blk(1), type: "hidden_field", label: "h", options: { param: "utm_source" } }).required
    ).toBe(false)
  })

  it('"label ... default empty string" for page_break, divider, image', () => {
    for (const type of ["page_break", "divider", "image"])
      expect(decodeOne({ id: blk(1), type }).label).toBe("")
    expect(
      hasIssue(
        { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text" }] },
        ["blocks", 0, "label"],
        "required"
      )
    ).toBe(true)
  })

  it('"rating | default {scale 5, shape number}" and "scale int 2..11"', () => {
    expect(decodeOne({ id: blk(1), type: "rating", label: "R" }).options).toEqual({
      scale: 5,
      shape: "number"
    })
    expect(
      hasIssue(
        { schemaVersion: 1, blocks: [{ id: blk(1), type: "rating", label: "R", options: { scale: 12 } }] },
        ["blocks", 0, "options", "scale"]
      )
    ).toBe(true)
  })

  it('"file_upload | default {maxFiles 1, maxSizeMb 10}" and "signature | default {width 320, height 160}"', () => {
    expect(decodeOne({ id: blk(1), type: "file_upload", label: "F" }).options).toEqual({
      maxFiles: 1,
      maxSizeMb: 10
    })
    expect(decodeOne({ id: blk(1), type: "signature", label: "S" }).options).toEqual({
      width: 320,
      height: 160
    })
    expect(decodeOne({ id: blk(1), type: "calculated_field", label: "C" }).options).toEqual({
      expression: ""
    })
    expect(decodeOne({ id: blk(1), type: "image" })).toMatchObject({ imageAlt: "", width: "full" })
  })

  it('"calendar-valid date strings YYYY-MM-DD (leap years respected)"', () => {
    expect(
      decodeOne({ id: blk(1), type: "date", label: "D", options: { min: "2024-02-29" } }).options.min
    ).toBe("2024-02-29")
    for (const bad of ["2023-02-29", "1900-02-29", "2024-13-01", "2024-04-31", "24-01-01"]) {
      expect(
        hasIssue(
          { schemaVersion: 1, blocks: [{ id: blk(1), type: "date", label: "D", options: { min: bad } }] },
          ["blocks", 0, "options", "min"],
          "calendarDate"
        )
      ).toBe(true)
    }
    expect(
      decodeOne({ id: blk(1), type: "date", label: "D", options: { min: "2000-02-29" } }).options.min
    ).toBe("2000-02-29")
  })

  it('"date-time strings YYYY-MM-DDTHH:MM[:SS[.fraction]] with optional trailing Z" and "HH:MM 24-hour"', () => {
    for (const ok of [
      "2026-01-01T09:30",
      "2026-01-01T09:30:15",
      "2026-01-01T09:30:15.123Z",
      "2026-01-01T23:59Z"
    ]) {
      expect(decodeOne({ id: blk(1), type: "datetime", label: "T", options: { min: ok } }).options.min).toBe(
        ok
      )
    }
    for (const bad of [
      "2026-01-01 09:30",
      "2026-01-01T24:00",
      "2026-01-01T09:30+02:00",
      "2026-02-30T10:00"
    ]) {
      expect(
        issuesOf({
          schemaVersion: 1,
          blocks: [{ id: blk(1), type: "datetime", label: "T", options: { max: bad } }]
        }).length
      ).toBeGreaterThan(0)
    }
    expect(
      decodeOne({ id: blk(1), type: "time", label: "T", options: { min: "00:00", max: "23:59" } }).options.max
    ).toBe("23:59")
    expect(
      issuesOf({
        schemaVersion: 1,
        blocks: [{ id: blk(1), type: "time", label: "T", options: { min: "24:00" } }]
      }).length
    ).toBeGreaterThan(0)
  })

  it('"presentation | only key document"', () => {
    const ok = decodeOne({
      id: blk(1),
      type: "short_text",
      label: "Q",
      presentation: { document: { span: 6 } }
    })
    expect(ok.presentation).toEqual({ document: { span: 6 } })
    expect(
      hasIssue(
        {
          schemaVersion: 1,
          blocks: [{ id: blk(1), type: "short_text", label: "Q", presentation: { web: {} } }]
        },
        ["blocks", 0, "presentation", "web"],
        "unknownKey"
      )
    ).toBe(true)
  })

  it('"logic | default empty" and "match any|all, default all"', () => {
    const d = decodeFormDefinition({
      ...base(),
      logic: [
        {
          id: "lgc_rule01",
          from: blk(1),
          conditions: [{ blk: blk(1), op: "is_empty" }],
          actions: [{ type: "hide", target: blk(3) }]
        }
      ]
    })
    expect(Result.isSuccess(d) && d.success.logic[0]?.match).toBe("all")
    expect(
      Result.isSuccess(decodeFormDefinition(base())) && Result.getOrThrow(decodeFormDefinition(base())).logic
    ).toEqual([])
  })

  it("the exported JSON Schema is valid 2020-12 and forbids unknown keys", () => {
    expect(formDefinitionJsonSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
    expect(ajv.validateSchema(formDefinitionJsonSchema)).toBe(true)
    expect(ajvValidate(base())).toBe(true)
    expect(ajvValidate({ ...base(), extra: 1 })).toBe(false)
  })
})
