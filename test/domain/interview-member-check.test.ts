// The member check (memberCheck) one rule at a time: the read-back before closing, what it shows in
// each locale, a correction through the field rules, the repeat after it, the outcome recorded, and
// what a model's proposals are corrected to.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  memberCheckQuality,
  readsAsConfirmation,
  recordUserMessage,
  budgetSpent
} from "@folio/domain"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

const definition = (input: unknown) => Schema.decodeUnknownSync(InterviewDefinition)(input)
const labels = (en: string, ko: string, ja: string) => ({ en, ko, ja })

const base = {
  locales: { default: "en", supported: ["en", "ko", "ja"] },
  memberCheck: { enabled: true },
  fields: [
    {
      id: "plan",
      priority: 90,
      labelByLocale: labels("your plan", "요금제", "プラン"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: labels("Free", "무료", "無料") },
        { id: "pro", labelByLocale: labels("Pro", "프로", "プロ") }
      ]
    },
    {
      id: "team",
      priority: 80,
      labelByLocale: labels("team size", "팀 규모", "チームの人数"),
      valueType: "number",
      requiredness: "hard"
    },
    {
      id: "income",
      priority: 70,
      labelByLocale: labels("income", "소득", "収入"),
      valueType: "number",
      sensitivity: "high"
    }
  ],
  goals: [
    {
      id: "pain",
      priority: 60,
      labelByLocale: labels("Pain", "어려움", "困りごと"),
      publicPromptHintByLocale: labels("What is hard?", "무엇이 어렵나요?", "何が大変ですか？"),
      allowedProbeKinds: [],
      requiredCoverage: 0.5
    }
  ],
  policy: { maxExchanges: 10 }
}

const def = definition(base)

/** Runs the built-in interviewer through the rules, replying with `replies` in order. */
const converse = (d: InterviewDefinition, locale: string, replies: ReadonlyArray<string>) => {
  let session: InterviewSession = emptyInterviewSession
  const steps = []
  for (let i = 0; i <= replies.length; i++) {
    const step = correctInterviewerOutput(
      d,
      locale,
      session,
      deterministicInterviewerTurn({ definition: d, locale, session })
    )
    steps.push(step)
    session = applyInterviewStep(session, step, `a${i}`)
    const reply = replies[i]
    if (step.output.completion.done || reply === undefined) break
    session = recordUserMessage(session, `u${i}`, reply)
  }
  return { session, steps, last: steps.at(-1) }
}

// Asked in this order: plan, team, the goal, then the highly sensitive income last.
const answers = ["Pro", "we are 8", "Exporting the monthly numbers takes a whole day", "I'd rather not say"]

describe("member check", () => {
  it("reads back the fields and goals before closing, and closes on a yes", () => {
    const { session, steps, last } = converse(def, "en", [...answers, "Yes, that's right"])
    const readBack = steps.at(-2)?.output
    expect(readBack?.turn.kind).toBe("member_check")
    expect(readBack?.completion).toEqual({ done: false })
    expect(readBack?.turn.text).toBe(
      [
        "Before we finish, here is what I understood:",
        "- your plan: Pro",
        "- team size: 8",
        "- Pain: “Exporting the monthly numbers takes a whole day”",
        "Is that right? If anything is off, tell me what to change."
      ].join("\n")
    )
    expect(last?.corrections).toEqual([])
    expect(last?.output.completion).toEqual({ done: true, reason: "all_required_covered" })
    expect(memberCheckQuality(session)).toEqual({ outcome: "confirmed", readBacks: 1, correctedFieldIds: [] })
  })

  it("never reads back a highly sensitive value", () => {
    const { steps } = converse(def, "en", ["Pro", "8", "It is slow", "120000"])
    const text = steps.find((s) => s.output.turn.kind === "member_check")?.output.turn.text ?? ""
    expect(text).toContain("team size: 8")
    expect(text).not.toContain("120000")
    expect(text).not.toContain("income")
  })

  it("applies a stated correction, reads back once more, and closes after the second answer", () => {
    const { session, steps, last } = converse(def, "en", [
      ...answers,
      "Actually we're on the Free plan, and team size is 12",
      "no"
    ])
    const readBacks = steps.filter((s) => s.output.turn.kind === "member_check")
    expect(readBacks).toHaveLength(2)
    expect(readBacks[1]?.output.turn.text).toContain("Thank you. Here is what I have now:")
    expect(readBacks[1]?.output.turn.text).toContain("- your plan: Free\n- team size: 12")
    expect(last?.output.completion).toEqual({ done: true, reason: "all_required_covered" })
    const plan = session.fields.find((f) => f.fieldId === "plan")
    expect(plan).toMatchObject({ status: "answered", value: "free", implied: false })
    expect(plan?.evidence?.messageId).toBe(`u${answers.length}`)
    expect(session.fields.find((f) => f.fieldId === "team")?.value).toBe(12)
    // The second reply neither agrees nor corrects: disputed, with the earlier corrections kept.
    expect(memberCheckQuality(session)).toEqual({
      outcome: "disputed",
      readBacks: 2,
      correctedFieldIds: ["plan", "team"]
    })
    // Replies to read-backs do not spend the exchange budget.
    expect(budgetSpent({ ...def, policy: { ...def.policy, maxExchanges: answers.length } }, session)).toBe(
      true
    )
    expect(
      budgetSpent({ ...def, policy: { ...def.policy, maxExchanges: answers.length + 1 } }, session)
    ).toBe(false)
  })

  it("records a correction confirmed on the second read-back as corrected", () => {
    const { session } = converse(def, "en", [...answers, "No, team size is 12", "yes"])
    expect(memberCheckQuality(session)).toEqual({
      outcome: "corrected",
      readBacks: 2,
      correctedFieldIds: ["team"]
    })
  })

  it("without allowCorrection records a non-yes as disputed and changes nothing", () => {
    const strict = definition({ ...base, memberCheck: { enabled: true, allowCorrection: false } })
    const { session, steps, last } = converse(strict, "en", [...answers, "No, we are on Free"])
    expect(steps.filter((s) => s.output.turn.kind === "member_check")).toHaveLength(1)
    expect(steps.find((s) => s.output.turn.kind === "member_check")?.output.turn.text).toMatch(
      /Does this reflect what you said\?$/u
    )
    expect(last?.output.turn.kind).toBe("closing")
    expect(session.fields.find((f) => f.fieldId === "plan")?.value).toBe("pro")
    expect(memberCheckQuality(session)).toEqual({ outcome: "disputed", readBacks: 1, correctedFieldIds: [] })
  })

  it("reads back in Korean and Japanese", () => {
    const ko = converse(def, "ko", [
      "프로",
      "8명",
      "월별 숫자를 내보내는 데 하루가 걸려요",
      "말하고 싶지 않아요"
    ])
    expect(ko.steps.at(-1)?.output.turn.text).toBe(
      [
        "마치기 전에 제가 이해한 내용을 정리해 드릴게요:",
        "- 요금제: 프로",
        "- 팀 규모: 8",
        "- 어려움: “월별 숫자를 내보내는 데 하루가 걸려요”",
        "맞나요? 다른 부분이 있으면 무엇을 고치면 될지 알려 주세요."
      ].join("\n")
    )
    const ja = converse(def, "ja", ["プロ", "8人", "毎月の数字の書き出しに丸一日かかります", "言いたくない"])
    const text = ja.steps.at(-1)?.output.turn.text ?? ""
    expect(text.split("\n").slice(0, 3)).toEqual([
      "終える前に、私が理解した内容をまとめます：",
      "- プラン：プロ".replace("：", ": "),
      "- チームの人数: 8"
    ])
    expect(text).toContain("「毎月の数字の書き出しに丸一日かかります」")
  })

  it("skips the read-back when it is off or nothing was understood", () => {
    const off = converse(definition({ ...base, memberCheck: { enabled: false } }), "en", answers)
    expect(off.steps.some((s) => s.output.turn.kind === "member_check")).toBe(false)
    expect(off.last?.output.completion.done).toBe(true)
    const empty = definition({ ...base, fields: [], goals: [] })
    const started = converse(empty, "en", [])
    expect(started.last?.output.turn.kind).toBe("closing")
    expect(memberCheckQuality(started.session)).toBeUndefined()
  })

  it("bounds a long read-back at 2,000 characters, past maxQuestionCharacters", () => {
    const many = definition({
      ...base,
      policy: { maxExchanges: 50, maxQuestionCharacters: 80 },
      fields: Array.from({ length: 30 }, (_, i) => ({
        id: `f${i}`,
        labelByLocale: { en: `field number ${i}` },
        valueType: "long_text",
        requiredness: "hard"
      })),
      goals: []
    })
    const { steps } = converse(
      many,
      "en",
      Array.from({ length: 30 }, () => "x".repeat(300))
    )
    const text = steps.at(-1)?.output.turn.text ?? ""
    expect(steps.at(-1)?.output.turn.kind).toBe("member_check")
    expect(text.length).toBeGreaterThan(80)
    expect(text.length).toBeLessThanOrEqual(2000)
    expect(text).toContain("- …")
  })
})

describe("reading a reply to a read-back", () => {
  it("takes a plain agreement as a confirmation, and anything that objects as not one", () => {
    for (const yes of [
      "yes",
      "Yes, that's right",
      "That’s right!",
      "Looks good",
      "네, 맞아요",
      "はい、合っています"
    ])
      expect(readsAsConfirmation(yes), yes).toBe(true)
    for (const no of [
      "no",
      "Yes, but the plan is Free",
      "Actually we are 12",
      "아니요, 무료예요",
      "いいえ、無料です",
      "Hmm"
    ])
      expect(readsAsConfirmation(no), no).toBe(false)
  })
})

describe("member check with a model's proposals", () => {
  const upTo = (replies: ReadonlyArray<string>) => {
    const { session } = converse(def, "en", replies)
    return session
  }
  const closing = (extra: Partial<InterviewerOutput> = {}): InterviewerOutput => ({
    turn: { kind: "closing", text: "Bye!" },
    extractions: [],
    goalCoverage: [],
    completion: { done: true, reason: "all_required_covered" },
    ...extra
  })

  it("gives the read-back when a model closes without it", () => {
    const before = upTo(answers.slice(0, 3))
    const s = recordUserMessage(before, "last", "I'd rather not say")
    const step = correctInterviewerOutput(def, "en", s, closing())
    expect(step.output.turn.kind).toBe("member_check")
    expect(step.corrections).toContainEqual({ rule: "memberCheckRequired" })
    expect(step.memberCheck).toEqual({ completionReason: "all_required_covered", correctedFieldIds: [] })
  })

  it("refuses a read-back before the rules would close", () => {
    const s = recordUserMessage(upTo([]), "last", "Pro")
    const step = correctInterviewerOutput(def, "en", s, {
      ...closing(),
      turn: { kind: "member_check", text: "So you are on Pro?" },
      completion: { done: false }
    })
    expect(step.output.turn).toMatchObject({ kind: "question", target: { id: "plan" } })
    expect(step.corrections).toContainEqual({ rule: "memberCheckNotDue" })
  })

  it("keeps only corrections the field rules allow, and replaces the read-back's text with the domain's", () => {
    const s = recordUserMessage(upTo(answers), "last", "Actually we're on Enterprise, and 40 of us")
    const step = correctInterviewerOutput(def, "en", s, {
      turn: { kind: "member_check", text: "You are on Enterprise with 40 people, right?" },
      extractions: [
        // Not an option of the field (which takes no custom answers).
        {
          fieldId: "plan",
          state: "answered",
          value: "enterprise",
          evidence: { start: 21, end: 31 },
          confidence: 1
        },
        // Inferred: a correction must be stated.
        {
          fieldId: "team",
          state: "answered",
          value: 40,
          evidence: { start: 37, end: 39 },
          confidence: 0.9,
          inferred: true
        },
        // Evidence outside the reply.
        { fieldId: "income", state: "answered", value: 5, evidence: { start: 30, end: 99 }, confidence: 1 }
      ],
      goalCoverage: [],
      completion: { done: false }
    })
    expect(step.output.extractions).toEqual([])
    expect(step.corrections.map((c) => [c.rule, c.subject])).toEqual([
      ["customAnswerNotAllowed", "plan"],
      ["inferenceNotAllowed", "team"],
      ["evidenceNotInMessage", "income"]
    ])
    expect(step.fields).toEqual(s.fields)
    // Nothing changed and the reply does not agree: disputed, and the domain's read-back once more.
    expect(step.output.turn.kind).toBe("member_check")
    expect(step.output.turn.text).toMatch(
      /^Thank you\. Here is what I have now:\n- your plan: Pro\n- team size: 8\n/u
    )
    expect(step.memberCheck?.outcome).toBe("disputed")
  })

  it("stores a stated correction with its evidence, and a third read-back is never given", () => {
    const reply = "No, team size is 12"
    const s = recordUserMessage(upTo(answers), "last", reply)
    const at = reply.indexOf("12")
    const step = correctInterviewerOutput(def, "en", s, {
      ...closing(),
      extractions: [
        {
          fieldId: "team",
          state: "answered",
          value: "12",
          evidence: { start: at, end: at + 2 },
          confidence: 0.9
        }
      ]
    })
    expect(step.output.turn.kind).toBe("member_check")
    expect(step.corrections).toContainEqual({ rule: "memberCheckRequired" })
    expect(step.fields.find((f) => f.fieldId === "team")).toMatchObject({ value: 12, status: "answered" })
    const twice = recordUserMessage(applyInterviewStep(s, step, "rb2"), "last2", "No, team size is 13")
    const third = correctInterviewerOutput(def, "en", twice, {
      turn: { kind: "member_check", text: "Again?" },
      extractions: [],
      goalCoverage: [],
      completion: { done: false }
    })
    expect(third.output.turn.kind).toBe("closing")
    expect(third.output.completion).toEqual({ done: true, reason: "all_required_covered" })
    expect(third.corrections).toContainEqual({ rule: "memberCheckNotDue" })
  })

  it("refuses every correction without allowCorrection", () => {
    const strict = definition({ ...base, memberCheck: { enabled: true, allowCorrection: false } })
    const { session } = converse(strict, "en", answers)
    const reply = "No, team size is 12"
    const s = recordUserMessage(session, "last", reply)
    const at = reply.indexOf("12")
    const step = correctInterviewerOutput(strict, "en", s, {
      ...closing(),
      extractions: [
        { fieldId: "team", state: "answered", value: 12, evidence: { start: at, end: at + 2 }, confidence: 1 }
      ]
    })
    expect(step.corrections).toContainEqual({ rule: "correctionNotAllowed", subject: "team" })
    expect(step.fields).toEqual(s.fields)
    expect(step.output.turn.kind).toBe("closing")
    expect(step.memberCheck?.outcome).toBe("disputed")
  })
})
