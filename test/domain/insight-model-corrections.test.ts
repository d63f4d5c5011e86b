// What the domain keeps of a model's insight proposals: only findings naming one of the numbered
// answers, quoting words that answer holds, with a well-formed field and a known block type.
import { correctModelInsights, type InsightSource } from "@folio/domain"
import { describe, expect, it } from "vitest"

const sources: ReadonlyArray<InsightSource> = [
  { responseId: "r1", blockId: "b1", label: "Contact", text: "Write to  Ann@Example.com about pricing" },
  { responseId: "r2", blockId: "b1", label: "Contact", text: "We pay 40 dollars monthly" }
]
const finding = {
  source: 1,
  field: "contact_email",
  suggestedType: "email",
  confidence: 0.8,
  evidence: "ann@example.com"
}

describe("correctModelInsights", () => {
  it("keeps a finding whose evidence its answer holds (case and spacing aside), mapped to that answer", () => {
    expect(correctModelInsights(sources, [{ ...finding, evidence: "to ann@EXAMPLE.com" }])).toEqual([
      { responseId: "r1", blockId: "b1", field: "contact_email", suggestedType: "email", confidence: 0.8 }
    ])
    expect(
      correctModelInsights(sources, [
        {
          source: 2,
          field: "topic:pricing",
          suggestedType: "checkboxes",
          confidence: 3,
          evidence: "40 dollars"
        }
      ])
    ).toEqual([
      { responseId: "r2", blockId: "b1", field: "topic:pricing", suggestedType: "checkboxes", confidence: 1 }
    ])
  })

  it("drops evidence from another answer, unknown sources, bad fields and types, and too-short quotes", () => {
    const dropped = [
      { ...finding, source: 2 }, // the quote is in answer 1, not 2
      { ...finding, source: 0 },
      { ...finding, source: 3 },
      { ...finding, source: 1.5 },
      { ...finding, field: "Contact Email" },
      { ...finding, field: "x".repeat(81) },
      { ...finding, suggestedType: "signature" },
      { ...finding, evidence: "an" },
      { ...finding, evidence: "bob@example.com" }
    ]
    expect(correctModelInsights(sources, dropped)).toEqual([])
  })
})
