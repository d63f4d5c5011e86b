// Emergent extraction: the built-in extractor's keyword and pattern lists in en, ko and ja, the
// rules that check any interviewer's emergent proposals (value-free corrections), and follow-ups on
// emergent items within their budget, the built-in one's template text in each locale.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  deterministicEmergent,
  deterministicInterviewerTurn,
  emergentFollowupCount,
  emptyInterviewSession,
  InterviewDefinition,
  type InterviewEmergentProposal,
  type InterviewerOutput,
  type InterviewSession,
  recordUserMessage
} from "@folio/domain"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

const label = (text: string) => ({ en: text, ko: text, ja: text })

const definitionWith = (emergentExtraction: unknown, extra: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(InterviewDefinition)({
    locales: { default: "en", supported: ["en", "ko", "ja"] },
    modules: [{ id: "usage", labelByLocale: label("Usage") }],
    fields: [
      {
        id: "plan",
        moduleId: "usage",
        labelByLocale: label("your plan"),
        valueType: "short_text",
        requiredness: "hard"
      },
      { id: "team", labelByLocale: label("your team size"), valueType: "number", requiredness: "hard" }
    ],
    goals: [
      {
        id: "pain",
        labelByLocale: label("Pain"),
        publicPromptHintByLocale: label("What is hardest about reporting?"),
        allowedProbeKinds: ["why", "example"],
        maxProbes: 2,
        requiredCoverage: 1
      }
    ],
    ...(emergentExtraction === undefined ? {} : { emergentExtraction }),
    ...extra
  })

const allTypes = {
  captureTypes: [
    "pain_point",
    "motivation",
    "barrier",
    "preference",
    "emotion",
    "context",
    "constraint",
    "risk",
    "contradiction",
    "unexpected_topic",
    "quote"
  ]
}

/** A session where the interviewer asked about `target` and the respondent answered `reply`. */
const answered = (reply: string, target = { type: "goal" as const, id: "pain" }): InterviewSession =>
  recordUserMessage(
    {
      ...emptyInterviewSession,
      emergent: [],
      messages: [{ id: "a0", role: "assistant", text: "What is hardest?", kind: "question", target }]
    },
    "u1",
    reply
  )

const quoted = (session: InterviewSession, p: InterviewEmergentProposal) =>
  session.messages.at(-1)?.text.slice(p.evidence?.start, p.evidence?.end)

describe("the built-in emergent extractor", () => {
  const def = definitionWith(allTypes)

  it("finds English pain points, preferences, constraints, emotions and context, the sentence as evidence", () => {
    const session = answered(
      "Exporting the monthly numbers is frustrating. I prefer spreadsheets! We have a tight budget. I feel stressed. We meet every week. The weather is fine."
    )
    const found = deterministicEmergent(def, session)
    expect(found.map((p) => [p.captureType, quoted(session, p)])).toEqual([
      ["pain_point", "Exporting the monthly numbers is frustrating."],
      ["preference", "I prefer spreadsheets!"],
      ["constraint", "We have a tight budget."],
      ["emotion", "I feel stressed."],
      ["context", "We meet every week."]
    ])
    for (const p of found) {
      expect(p.summary).toBe(quoted(session, p))
      expect(p.relatedTo).toEqual({ type: "goal", id: "pain" })
    }
  })

  it("finds barriers, risks and motivations in English", () => {
    const session = answered(
      "I can't share reports with my boss. I'm afraid that we could lose data. I use it so that the team sees progress."
    )
    expect(deterministicEmergent(def, session).map((p) => p.captureType)).toEqual([
      "barrier",
      "risk",
      "motivation"
    ])
  })

  it("reads Korean", () => {
    const session = answered(
      "보고서 내보내기가 너무 불편해요. 예산이 부족합니다. 매일 회사에서 씁니다. 날씨가 좋네요."
    )
    expect(deterministicEmergent(def, session).map((p) => [p.captureType, quoted(session, p)])).toEqual([
      ["pain_point", "보고서 내보내기가 너무 불편해요."],
      ["constraint", "예산이 부족합니다."],
      ["context", "매일 회사에서 씁니다."]
    ])
  })

  it("reads Japanese", () => {
    const session = answered("レポートの出力が面倒です。セキュリティが心配です。毎日職場で使います。")
    expect(deterministicEmergent(def, session).map((p) => [p.captureType, quoted(session, p)])).toEqual([
      ["pain_point", "レポートの出力が面倒です。"],
      ["risk", "セキュリティが心配です。"],
      ["context", "毎日職場で使います。"]
    ])
  })

  it("proposes only the definition's capture types, and nothing when the feature is off", () => {
    const reply = "This is frustrating. I feel stressed."
    expect(
      deterministicEmergent(definitionWith({ captureTypes: ["emotion"] }), answered(reply)).map(
        (p) => p.captureType
      )
    ).toEqual(["emotion"])
    expect(deterministicEmergent(definitionWith(undefined), answered(reply))).toEqual([])
    expect(deterministicEmergent(definitionWith({ enabled: false }), answered(reply))).toEqual([])
  })
})

const output = (emergent: ReadonlyArray<InterviewEmergentProposal>, turn?: InterviewerOutput["turn"]) =>
  ({
    turn: turn ?? { kind: "question", text: "Your team size?", target: { type: "field", id: "team" } },
    extractions: [],
    goalCoverage: [],
    completion: { done: false },
    emergent
  }) satisfies InterviewerOutput

describe("the rules on emergent proposals", () => {
  const reply = "Exports are frustrating. My manager wants weekly numbers."
  const session = answered(reply)
  const span = (text: string) => ({ start: reply.indexOf(text), end: reply.indexOf(text) + text.length })
  const pain = {
    captureType: "pain_point" as const,
    summary: "Exports are frustrating",
    evidence: span("Exports are frustrating."),
    relatedTo: { type: "goal" as const, id: "pain" }
  }

  it("keeps an item with an id, its message and evidence, and counts nothing when off", () => {
    const def = definitionWith({})
    const step = correctInterviewerOutput(def, "en", session, output([pain]))
    expect(step.corrections).toEqual([])
    expect(step.emergent).toEqual([
      {
        id: "e1",
        captureType: "pain_point",
        summary: "Exports are frustrating",
        relatedTo: { type: "goal", id: "pain" },
        evidenceMessageIds: ["u1"],
        evidence: { messageId: "u1", ...span("Exports are frustrating.") }
      }
    ])
    const off = correctInterviewerOutput(definitionWith(undefined), "en", session, output([pain]))
    expect(off.emergent).toBeUndefined()
    expect(off.corrections).toEqual([{ rule: "emergentDisabled", subject: "pain_point" }])
  })

  it("drops types not captured, missing or foreign evidence, blank summaries and repeats, naming only the rule", () => {
    const def = definitionWith({ captureTypes: ["pain_point"] })
    const step = correctInterviewerOutput(
      def,
      "en",
      session,
      output([
        { ...pain, captureType: "quote" },
        { captureType: "pain_point", summary: "no evidence" },
        { ...pain, evidence: { start: 0, end: 10, quote: "not there" } },
        { ...pain, summary: "  " },
        pain,
        { ...pain, summary: "exports are   FRUSTRATING" }
      ])
    )
    expect(step.corrections).toEqual([
      { rule: "captureTypeNotAllowed", subject: "quote" },
      { rule: "evidenceMissing", subject: "pain_point" },
      { rule: "evidenceNotInMessage", subject: "pain_point" },
      { rule: "emptyText", subject: "pain_point" },
      { rule: "duplicateEmergent", subject: "pain_point" }
    ])
    // The ids follow the proposals' positions, so a same-turn follow-up can name its item.
    expect(step.emergent?.map((i) => i.id)).toEqual(["e5"])
    expect(JSON.stringify(step.corrections)).not.toContain("frustrating")
  })

  it("honours the relatedness policy: related items only, no novel themes", () => {
    const strict = definitionWith({
      captureTypes: ["pain_point", "unexpected_topic"],
      relatednessPolicy: { onlyIfRelatedToFieldOrTopic: true, allowNovelTheme: false }
    })
    const step = correctInterviewerOutput(
      strict,
      "en",
      session,
      output([
        { captureType: pain.captureType, summary: pain.summary, evidence: pain.evidence },
        { ...pain, relatedTo: { type: "field", id: "ghost" } },
        { ...pain, relatedTo: { type: "module", id: "usage" }, novel: true },
        { ...pain, captureType: "unexpected_topic", relatedTo: { type: "field", id: "plan" } },
        { ...pain, relatedTo: { type: "module", id: "usage" } }
      ])
    )
    expect(step.corrections.map((c) => c.rule)).toEqual([
      "unrelatedEmergent",
      "unknownRelatedTo",
      "unrelatedEmergent",
      "novelThemeNotAllowed",
      "novelThemeNotAllowed"
    ])
    expect(step.emergent?.map((i) => i.relatedTo)).toEqual([{ type: "module", id: "usage" }])
  })

  it("keeps items without evidence when evidence is not required, and clips long summaries", () => {
    const def = definitionWith({ relatednessPolicy: { requireEvidenceSpan: false } })
    const step = correctInterviewerOutput(
      def,
      "en",
      session,
      output([{ captureType: "pain_point", summary: "x".repeat(400) }])
    )
    expect(step.corrections).toEqual([{ rule: "summaryTooLong", subject: "pain_point" }])
    expect(step.emergent?.[0]?.summary).toHaveLength(280)
    expect(step.emergent?.[0]?.evidenceMessageIds).toEqual(["u1"])
    expect(step.emergent?.[0]?.evidence).toBeUndefined()
  })
})

describe("follow-ups on emergent items", () => {
  const followups = (max: number, allow = true) =>
    definitionWith({ followupPolicy: { allowEmergentFollowup: allow, maxEmergentFollowupsPerSession: max } })
  const reply = "Exports are frustrating."
  const item = {
    captureType: "pain_point" as const,
    summary: "Exports are frustrating",
    evidence: { start: 0, end: reply.length }
  }
  const probe = (id: string) =>
    ({ kind: "probe", text: "Tell me more?", target: { type: "emergent", id }, probeKind: "why" }) as const

  it("lets a model follow up an item it proposes in the same output, once, within the budget", () => {
    const def = followups(1)
    const s = answered(reply)
    const step = correctInterviewerOutput(def, "en", s, output([item], probe("e1")))
    expect(step.corrections).toEqual([])
    expect(step.output.turn).toMatchObject({ kind: "probe", target: { type: "emergent", id: "e1" } })
    const after = applyInterviewStep(s, step, "a1")
    expect(emergentFollowupCount(after)).toBe(1)
    // Again on the same item, or on a new one past the budget: the domain's own turn instead.
    const next = recordUserMessage(after, "u2", "It also makes me feel stressed.")
    const again = correctInterviewerOutput(def, "en", next, output([], probe("e1")))
    expect(again.corrections).toEqual([{ rule: "alreadyExplored", subject: "e1" }])
    const other = correctInterviewerOutput(
      def,
      "en",
      next,
      output([{ captureType: "emotion", summary: "stressed", evidence: { start: 0, end: 10 } }], probe("e2"))
    )
    expect(other.corrections).toEqual([{ rule: "emergentFollowupBudget", subject: "e2" }])
    expect(other.output.turn).toMatchObject({ kind: "probe", target: { type: "goal", id: "pain" } })
  })

  it("refuses follow-ups when not allowed, on unknown items, and past policy.maxFollowups", () => {
    const s = answered(reply)
    expect(
      correctInterviewerOutput(followups(3, false), "en", s, output([item], probe("e1"))).corrections
    ).toEqual([{ rule: "followupNotAllowed", subject: "e1" }])
    expect(correctInterviewerOutput(followups(3), "en", s, output([item], probe("e7"))).corrections).toEqual([
      { rule: "unknownTarget", subject: "e7" }
    ])
    const noFollowups = definitionWith(
      { followupPolicy: { allowEmergentFollowup: true, maxEmergentFollowupsPerSession: 3 } },
      { policy: { maxFollowups: 0 } }
    )
    expect(correctInterviewerOutput(noFollowups, "en", s, output([item], probe("e1"))).corrections).toEqual([
      { rule: "followupBudget", subject: "e1" }
    ])
  })

  it.each([
    ["en", "Exporting is frustrating.", 'You mentioned "Exporting is frustrating": could you tell me more?'],
    [
      "ko",
      "내보내기가 너무 불편해요.",
      '"내보내기가 너무 불편해요"라고 말씀하셨는데, 조금 더 자세히 말씀해 주시겠어요?'
    ],
    ["ja", "出力が面倒です。", "「出力が面倒です」とおっしゃいましたが、もう少し詳しく教えていただけますか？"]
  ])(
    "the built-in interviewer follows up the first new item (%s), then goes back to its plan",
    (locale, text, asked) => {
      const def = followups(1)
      const s = answered(text)
      const step = correctInterviewerOutput(
        def,
        locale,
        s,
        deterministicInterviewerTurn({ definition: def, locale, session: s })
      )
      expect(step.output.turn).toEqual({
        kind: "probe",
        text: asked,
        target: { type: "emergent", id: "e1" },
        probeKind: "clarify"
      })
      // After the digression the goal discussed before it is probed (the plan goes on).
      const after = recordUserMessage(
        applyInterviewStep(s, step, "a1"),
        "u2",
        "It takes a full day, which is frustrating."
      )
      const next = correctInterviewerOutput(
        def,
        locale,
        after,
        deterministicInterviewerTurn({ definition: def, locale, session: after })
      )
      expect(next.output.turn).toMatchObject({ kind: "probe", target: { type: "goal", id: "pain" } })
      expect(next.emergent?.map((i) => i.id)).toEqual(["e1", "e2"])
    }
  )

  it("the built-in interviewer asks no follow-up without the policy", () => {
    const def = definitionWith({})
    const s = answered("Exporting is frustrating.")
    const step = correctInterviewerOutput(
      def,
      "en",
      s,
      deterministicInterviewerTurn({ definition: def, locale: "en", session: s })
    )
    expect(step.output.turn.kind === "probe" && step.output.turn.target.type).toBe("goal")
    expect(step.emergent).toHaveLength(1)
  })
})
