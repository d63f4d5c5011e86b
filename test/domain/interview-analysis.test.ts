// The analysis a finished interview leaves: the built-in one (key information with its evidence,
// extracted fields with non-answers, sentiment, codebook codes) and the checks any analyst's output
// goes through (a property: no proposal, however adversarial, stores evidence that is not a
// respondent message, a code the codebook does not allow, or rewrites the extracted fields).
import {
  correctInterviewAnalysis,
  deterministicInterviewAnalysis,
  extractedFieldsOf,
  InterviewDefinition,
  type InterviewAnalystOutput,
  type InterviewSession
} from "@folio/domain"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const label = (en: string) => ({ en })

const definitionWith = (allowEmergentCodes: boolean) =>
  Schema.decodeUnknownSync(InterviewDefinition)({
    locales: { default: "en", supported: ["en"] },
    fields: [
      {
        id: "plan",
        labelByLocale: label("Plan"),
        valueType: "single_select",
        options: [
          { id: "free", labelByLocale: label("Free") },
          { id: "pro", labelByLocale: label("Pro") }
        ]
      },
      { id: "recommend", labelByLocale: label("Recommend"), valueType: "nps_0_10" },
      { id: "role", labelByLocale: label("Role"), valueType: "short_text" },
      { id: "team", labelByLocale: label("Team"), valueType: "number" }
    ],
    codebook: {
      version: "1",
      allowEmergentCodes,
      codes: [
        { id: "slow_reports", codeType: "pain_point", labelByLocale: label("slow reports") },
        { id: "pricing", labelByLocale: label("price") }
      ]
    }
  })
const def = definitionWith(true)

const session: InterviewSession = {
  messages: [
    {
      id: "a1",
      role: "assistant",
      text: "Which plan?",
      kind: "question",
      target: { type: "field", id: "plan" }
    },
    { id: "u1", role: "user", text: "Pro, but the Slow Reports drive me mad." },
    {
      id: "a2",
      role: "assistant",
      text: "Recommend?",
      kind: "question",
      target: { type: "field", id: "recommend" }
    },
    { id: "u2", role: "user", text: "3" },
    {
      id: "a3",
      role: "assistant",
      text: "Your role?",
      kind: "question",
      target: { type: "field", id: "role" }
    },
    { id: "u3", role: "user", text: "I'd rather not say" }
  ],
  fields: [
    {
      fieldId: "plan",
      status: "answered",
      value: "pro",
      confidence: 0.9,
      evidence: { messageId: "u1", start: 0, end: 3 },
      implied: false
    },
    {
      fieldId: "recommend",
      status: "answered",
      value: 3,
      confidence: 0.9,
      evidence: { messageId: "u2", start: 0, end: 1 },
      implied: false
    },
    { fieldId: "role", status: "refused", confidence: 1, implied: false },
    { fieldId: "team", status: "tentative", value: 12, confidence: 0.4, implied: false }
  ],
  goals: []
}

describe("the built-in interview analysis", () => {
  it("fills key information, fields, sentiment and codebook codes from the interview alone", () => {
    const analysis = deterministicInterviewAnalysis(def, "en", session)
    expect(analysis.extractedFields).toEqual({ plan: "pro", recommend: 3, role: { nonAnswer: "refused" } })
    expect(analysis.keyInfo).toEqual([
      { label: "Plan", value: "Pro", evidenceMessageIds: ["u1"] },
      { label: "Recommend", value: "3", evidenceMessageIds: ["u2"] }
    ])
    expect(analysis.summary).toBe("Plan: Pro; Recommend: 3")
    // A detractor's score and a complaint, nothing positive.
    expect(analysis.sentiment).toBe("negative")
    expect(analysis.insights).toEqual([
      {
        code: "slow_reports",
        codeType: "pain_point",
        label: "slow reports",
        emergent: false,
        codebookVersion: "1",
        source: "keyword",
        evidenceMessageIds: ["u1"]
      }
    ])
  })

  it("says nothing it cannot tell: no summary or sentiment for an interview without answers", () => {
    const empty = deterministicInterviewAnalysis(def, "en", { messages: [], fields: [], goals: [] })
    expect(empty).toEqual({ keyInfo: [], insights: [], extractedFields: {} })
  })
})

const ids = ["u1", "u2", "u3", "a1", "a2", "a3", "nope", "", "u1 "]
const proposalArb: fc.Arbitrary<InterviewAnalystOutput> = fc.record({
  summary: fc.string({ maxLength: 5000 }),
  sentiment: fc.constantFrom("positive", "neutral", "negative"),
  keyInfo: fc.array(
    fc.record({
      label: fc.string({ maxLength: 600 }),
      value: fc.string({ maxLength: 600 }),
      evidenceMessageIds: fc.array(fc.constantFrom(...ids), { maxLength: 5 })
    }),
    { maxLength: 60 }
  ),
  insights: fc.array(
    fc.record(
      {
        code: fc.oneof(
          fc.constantFrom("slow_reports", "pricing", "emergent", " ", ""),
          fc.string({ maxLength: 100 })
        ),
        evidenceMessageIds: fc.array(fc.constantFrom(...ids), { maxLength: 5 }),
        note: fc.string({ maxLength: 600 })
      },
      { requiredKeys: ["code", "evidenceMessageIds"] }
    ),
    { maxLength: 120 }
  )
})

describe("correctInterviewAnalysis", () => {
  it("never stores foreign evidence, disallowed codes, oversized text, or other extracted fields", () => {
    const userIds = new Set(["u1", "u2", "u3"])
    fc.assert(
      fc.property(proposalArb, fc.boolean(), (proposal, emergent) => {
        const d = definitionWith(emergent)
        const out = correctInterviewAnalysis(d, "en", session, proposal)
        expect(out.extractedFields).toEqual(extractedFieldsOf(session))
        expect((out.summary ?? "").length).toBeLessThanOrEqual(4000)
        expect(out.keyInfo.length).toBeLessThanOrEqual(50)
        for (const k of out.keyInfo) {
          expect(k.label.trim()).not.toBe("")
          expect(k.value.trim()).not.toBe("")
          expect(k.label.length).toBeLessThanOrEqual(500)
          for (const id of k.evidenceMessageIds) expect(userIds.has(id)).toBe(true)
        }
        expect(out.insights.length).toBeLessThanOrEqual(100)
        const codes = out.insights.map((i) => i.code as string)
        expect(new Set(codes).size).toBe(codes.length)
        for (const i of out.insights) {
          const evidence = i.evidenceMessageIds as ReadonlyArray<string>
          expect(evidence.length).toBeGreaterThan(0)
          for (const id of evidence) expect(userIds.has(id)).toBe(true)
          const known = ["slow_reports", "pricing"].includes(i.code as string)
          expect(i.emergent).toBe(!known)
          // A codebook code carries the codebook version that coded it; an emergent one has none.
          expect(i.codebookVersion).toBe(known ? "1" : undefined)
          if (!emergent) expect(known).toBe(true)
        }
      }),
      { numRuns: 300 }
    )
  })
})
