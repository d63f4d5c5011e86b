// Custom answers (`allowCustomAnswer`) and questions closed to their options (`allowFreeText: false`):
// the built-in interviewer's and a model's proposals, checked by the rules, shown in en/ko/ja, and
// the definition writes refused where the settings could not act.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  decodeInterviewDefinition,
  deterministicInterviewAnalysis,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  extractedFieldsOf,
  InterviewDefinition,
  type InterviewerOutput,
  type InterviewSession,
  type InterviewStep,
  recordUserMessage
} from "@folio/domain"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"

type Locale = "en" | "ko" | "ja"

const PLAN_LABEL = { en: "Plan", ko: "요금제", ja: "プラン" }

const definition = (extraction: Record<string, unknown>, valueType = "single_select", more = {}) =>
  Schema.decodeUnknownSync(InterviewDefinition)({
    locales: { default: "en", supported: ["en", "ko", "ja"] },
    fields: [
      {
        id: "plan",
        labelByLocale: PLAN_LABEL,
        valueType,
        requiredness: "hard",
        options: [
          { id: "free", labelByLocale: { en: "Free", ko: "무료", ja: "無料" } },
          { id: "pro", labelByLocale: { en: "Pro", ko: "프로", ja: "プロ" } }
        ],
        extraction,
        ...more
      },
      // Where a model's proposed turn goes while plan is asked about (see propose).
      { id: "note", labelByLocale: { en: "Note" }, valueType: "long_text", priority: 0 }
    ]
  })

const custom = definition({ allowCustomAnswer: true })
const closed = definition({ allowFreeText: false })

/** Plays the built-in interviewer through the rules, as the use cases do: opening, then each reply. */
const play = (def: InterviewDefinition, locale: Locale, replies: ReadonlyArray<string>) => {
  let s: InterviewSession = emptyInterviewSession
  const steps: Array<InterviewStep> = []
  const turn = (i: number) => {
    const step = correctInterviewerOutput(
      def,
      locale,
      s,
      deterministicInterviewerTurn({ definition: def, locale, session: s })
    )
    steps.push(step)
    s = applyInterviewStep(s, step, `a${i}`)
  }
  turn(0)
  replies.forEach((reply, i) => {
    s = recordUserMessage(s, `u${i}`, reply)
    turn(i + 1)
  })
  return { session: s, steps, texts: steps.map((x) => x.output.turn.text) }
}

const ANSWERS: Record<Locale, { reply: string; confirm: string; yes: string; shown: string }> = {
  en: {
    reply: "  We use Enterprise ",
    confirm: "Just to confirm, Plan: We use Enterprise (other). Is that right?",
    yes: "yes",
    shown: "We use Enterprise (other)"
  },
  ko: {
    reply: "엔터프라이즈를 써요",
    confirm: "확인할게요. 요금제: 엔터프라이즈를 써요 (기타). 맞나요?",
    yes: "네",
    shown: "엔터프라이즈를 써요 (기타)"
  },
  ja: {
    reply: "エンタープライズです",
    confirm: "確認させてください。プラン：エンタープライズです（その他）。よろしいですか？",
    yes: "はい",
    shown: "エンタープライズです（その他）"
  }
}

describe("custom answers with the built-in interviewer", () => {
  for (const locale of ["en", "ko", "ja"] as const) {
    it(`takes an answer naming no option as custom, confirms it and reports it marked (${locale})`, () => {
      const a = ANSWERS[locale]
      const { session, steps, texts } = play(custom, locale, [a.reply, a.yes])
      const proposed = steps[1]?.output.extractions[0]
      const trimmed = a.reply.trim()
      const start = a.reply.indexOf(trimmed)
      expect(proposed).toEqual({
        fieldId: "plan",
        state: "answered",
        value: { custom: trimmed },
        evidence: { start, end: start + trimmed.length },
        confidence: 0.6
      })
      // when_ambiguous (the default): a custom answer matched no option, so it is confirmed first.
      expect(steps[1]?.output.turn.kind).toBe("confirmation")
      expect(texts[1]).toBe(a.confirm)
      // Confirmed: the interview moves on to the next field.
      expect(steps[2]?.output.turn).toMatchObject({ kind: "question", target: { id: "note" } })
      expect(extractedFieldsOf(session)).toEqual({ plan: { custom: trimmed } })
      const analysis = deterministicInterviewAnalysis(custom, locale, session)
      expect(analysis.keyInfo).toEqual([
        { label: PLAN_LABEL[locale], value: a.shown, evidenceMessageIds: ["u1"] }
      ])
      expect(analysis.summary).toBe(`${PLAN_LABEL[locale]}: ${a.shown}`)
    })
  }

  it("without allowCustomAnswer the same answer is asked again, and nothing is stored", () => {
    const { session, steps, texts } = play(definition({}), "en", ["We use Enterprise"])
    expect(steps[1]?.output.extractions).toEqual([])
    expect(texts[1]).toBe("Sorry, I didn't quite get that. Could you tell me about Plan? (Free / Pro)")
    expect(session.fields).toEqual([])
  })

  it("an option named in the answer is still the option, not a custom answer", () => {
    const { steps } = play(custom, "en", ["We are on Pro"])
    expect(steps[1]?.output.extractions[0]?.value).toBe("pro")
  })

  it("non-answers stay non-answers, even where that state is not allowed", () => {
    expect(play(custom, "en", ["I don't know"]).session.fields).toMatchObject([
      { fieldId: "plan", status: "unknown" }
    ])
    const noUnknown = definition({ allowCustomAnswer: true }, "single_select", {
      allowedNonAnswerStates: ["refused"]
    })
    for (const reply of ["I don't know", "모르겠어요", "わかりません", "yes", "what do you mean?", "…"])
      expect(play(noUnknown, "en", [reply]).session.fields).toEqual([])
  })

  it("confirmation `never` takes the custom answer at once; `always` confirms it", () => {
    const never = play(definition({ allowCustomAnswer: true, confirmation: "never" }), "en", ["Enterprise"])
    expect(never.session.fields).toMatchObject([{ status: "answered", value: { custom: "Enterprise" } }])
    expect(never.steps[1]?.output.turn).toMatchObject({ kind: "question", target: { id: "note" } })
    const always = play(definition({ allowCustomAnswer: true, confirmation: "always" }), "en", ["Enterprise"])
    expect(always.steps[1]?.output.turn.kind).toBe("confirmation")
    // A threshold above the built-in's confidence with `never`: not taken, asked again.
    const strict = definition({ allowCustomAnswer: true, confirmation: "never", confidenceThreshold: 0.9 })
    expect(play(strict, "en", ["Enterprise"]).session.fields).toEqual([])
  })

  it("a long answer is capped at 200 characters; a multi_select takes one custom entry", () => {
    const long = "Enterprise ".repeat(40)
    const { session } = play(definition({ allowCustomAnswer: true, confirmation: "never" }), "en", [long])
    const value = session.fields[0]?.value as { custom: string }
    expect(value.custom.length).toBe(200)
    expect(value.custom.endsWith("…")).toBe(true)
    const multi = definition({ allowCustomAnswer: true, confirmation: "never" }, "multi_select")
    expect(play(multi, "en", ["Slack and email"]).session.fields[0]?.value).toEqual({
      custom: "Slack and email"
    })
    expect(play(multi, "en", ["Free and Pro"]).session.fields[0]?.value).toEqual(["free", "pro"])
  })
})

describe("allowFreeText: false", () => {
  it("says the question is closed to its options, in en, ko and ja", () => {
    expect(play(closed, "en", []).texts[0]).toBe(
      "Could you tell me about Plan? (please choose one: Free / Pro)"
    )
    expect(play(closed, "ko", []).texts[0]).toBe(
      "요금제에 대해 말씀해 주시겠어요? (다음 중 하나를 골라 주세요: 무료 / 프로)"
    )
    expect(play(closed, "ja", []).texts[0]).toBe(
      "プランについて教えていただけますか？（次から一つ選んでください：無料 / プロ）"
    )
    const multi = definition({ allowFreeText: false }, "multi_select")
    expect(play(multi, "en", []).texts[0]).toBe(
      "Could you tell me about Plan? (please choose from: Free / Pro)"
    )
  })

  it("asks again, saying so, when the answer names no option; an option still counts", () => {
    const { texts, session } = play(closed, "en", ["We use Enterprise"])
    expect(texts[1]).toBe(
      "Sorry, I didn't quite get that. Could you tell me about Plan? (please choose one: Free / Pro)"
    )
    expect(session.fields).toEqual([])
    expect(play(closed, "en", ["Pro, I think"]).session.fields[0]?.value).toBe("pro")
  })
})

const proposal = (extraction: Record<string, unknown>): InterviewerOutput =>
  ({
    turn: { kind: "question", text: "Anything else?", target: { type: "field", id: "note" } },
    extractions: [{ fieldId: "plan", state: "answered", confidence: 0.9, ...extraction }],
    goalCoverage: [],
    completion: { done: false }
  }) as InterviewerOutput

/** A model's proposal on the reply to the plan question. */
const propose = (def: InterviewDefinition, reply: string, extraction: Record<string, unknown>) => {
  const opened = play(def, "en", []).session
  const s = recordUserMessage(opened, "u0", reply)
  const step = correctInterviewerOutput(def, "en", s, proposal(extraction))
  return { step, rules: step.corrections.map((c) => c.rule) }
}

describe("a model's custom answers, checked by the rules", () => {
  const reply = "We use Enterprise"
  const whole = { start: 0, end: reply.length }

  it("are kept (to be confirmed) where allowed, plain text naming no option becoming custom", () => {
    const kept = propose(custom, reply, { value: { custom: "Enterprise" }, evidence: whole })
    expect(kept.rules).toEqual([])
    expect(kept.step.fields).toMatchObject([{ status: "tentative", value: { custom: "Enterprise" } }])
    const plain = propose(custom, reply, { value: "Enterprise", evidence: whole })
    expect(plain.rules).toEqual(["valueCoerced"])
    expect(plain.step.output.extractions[0]?.value).toEqual({ custom: "Enterprise" })
    // A custom text that names an option is that option.
    const option = propose(custom, "Pro", { value: { custom: "pro" }, evidence: { start: 0, end: 3 } })
    expect(option.step.output.extractions[0]?.value).toBe("pro")
  })

  it("are refused without allowCustomAnswer, when closed to the options, too long, or without evidence", () => {
    for (const def of [definition({}), closed])
      expect(propose(def, reply, { value: { custom: "Enterprise" }, evidence: whole }).rules).toEqual([
        "customAnswerNotAllowed"
      ])
    const long = propose(custom, reply, { value: { custom: "E".repeat(201) }, evidence: whole })
    expect(long.rules).toEqual(["customAnswerTooLong"])
    const loose = definition({ allowCustomAnswer: true, requireEvidenceSpan: false })
    const bare = propose(loose, reply, { value: { custom: "Enterprise" } })
    expect(bare.rules).toEqual(["evidenceMissing"])
    for (const r of [long, bare]) expect(r.step.fields).toEqual([])
  })

  it("are refused on fields that are not selects", () => {
    const text = definition({}, "short_text", { options: [] })
    expect(propose(text, reply, { value: { custom: "Enterprise" }, evidence: whole }).rules).toEqual([
      "customAnswerNotAllowed"
    ])
  })

  it("keep a multi_select's option ids next to one custom entry", () => {
    const multi = definition({ allowCustomAnswer: true }, "multi_select")
    const step = propose(multi, "Pro and Enterprise", {
      value: ["Pro", "Enterprise"],
      evidence: { start: 0, end: 18 }
    })
    expect(step.step.output.extractions[0]?.value).toEqual({ custom: "Enterprise", options: ["pro"] })
  })
})

describe("definition writes", () => {
  const issues = (fields: ReadonlyArray<Record<string, unknown>>) => {
    const r = decodeInterviewDefinition({ locales: { default: "en", supported: ["en"] }, fields })
    return Result.isFailure(r) ? r.failure.issues : []
  }
  const field = (valueType: string, extraction: Record<string, unknown>, options = true) => ({
    id: "f",
    labelByLocale: { en: "F" },
    valueType,
    options: options ? [{ id: "a", labelByLocale: { en: "A" } }] : [],
    extraction
  })

  it("refuse settings that could not act, value-free", () => {
    expect(issues([field("short_text", { allowFreeText: false }, false)])).toEqual([
      { path: ["fields", 0, "extraction", "allowFreeText"], rule: "restrictionWithoutOptions" }
    ])
    expect(issues([field("single_select", { allowFreeText: false }, false)])).toEqual([
      { path: ["fields", 0, "extraction", "allowFreeText"], rule: "restrictionWithoutOptions" }
    ])
    expect(issues([field("number", { allowCustomAnswer: true }, false)])).toEqual([
      { path: ["fields", 0, "extraction", "allowCustomAnswer"], rule: "customAnswerNotSelect" }
    ])
    expect(issues([field("single_select", { allowFreeText: false, allowCustomAnswer: true })])).toEqual([
      { path: ["fields", 0, "extraction", "allowCustomAnswer"], rule: "customAnswerWithoutFreeText" }
    ])
  })

  it("accept them where they act", () => {
    expect(issues([field("single_select", { allowFreeText: false })])).toEqual([])
    expect(issues([field("multi_select", { allowCustomAnswer: true })])).toEqual([])
    expect(issues([field("boolean", { allowCustomAnswer: false, allowFreeText: true }, false)])).toEqual([])
  })
})
