// The built-in interviewer plays a whole interview through the Interviewer port and the rules: it
// asks in module and priority order, probes goals, confirms ambiguous answers and ends complete.
import {
  applyInterviewStep,
  correctInterviewerOutput,
  DeterministicInterviewerLive,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  InterviewDefinition,
  Interviewer,
  type InterviewSession,
  parseFieldAnswer,
  recordUserMessage
} from "@folio/domain"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"

const label = (en: string) => ({ en })

const def = Schema.decodeUnknownSync(InterviewDefinition)({
  locales: { default: "en", supported: ["en"] },
  modules: [
    { id: "later", labelByLocale: label("Later"), order: 2 },
    { id: "first", labelByLocale: label("First"), order: 1 }
  ],
  fields: [
    {
      id: "recommend",
      moduleId: "later",
      labelByLocale: label("Recommend"),
      questionByLocale: label("How likely are you to recommend us?"),
      valueType: "nps_0_10",
      requiredness: "hard"
    },
    {
      id: "plan",
      moduleId: "first",
      priority: 90,
      labelByLocale: label("your plan"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: label("Free") },
        { id: "pro", labelByLocale: label("Pro") }
      ]
    },
    {
      id: "team",
      moduleId: "first",
      priority: 80,
      labelByLocale: label("your team size"),
      valueType: "number",
      requiredness: "soft"
    },
    {
      id: "renew",
      moduleId: "first",
      priority: 70,
      labelByLocale: label("renewal"),
      questionByLocale: label("Will you renew?"),
      valueType: "boolean",
      requiredness: "hard"
    },
    { id: "ease", moduleId: "later", priority: 60, labelByLocale: label("ease"), valueType: "scale_1_5" },
    {
      id: "role",
      moduleId: "later",
      priority: 10,
      labelByLocale: label("your role"),
      valueType: "short_text",
      allowedNonAnswerStates: ["refused"]
    }
  ],
  goals: [
    {
      id: "pain",
      moduleId: "later",
      priority: 55,
      labelByLocale: label("Pain"),
      publicPromptHintByLocale: label("What is hardest about reporting?"),
      allowedProbeKinds: ["why", "example"],
      requiredCoverage: 0.9
    }
  ],
  policy: { maxExchanges: 20, targetFollowups: 2 }
})

const run = (session: InterviewSession) =>
  Effect.gen(function* () {
    const interviewer = yield* Interviewer
    const proposal = yield* interviewer.next({ definition: def, locale: "en", session })
    return correctInterviewerOutput(def, "en", session, proposal)
  }).pipe(Effect.provide(DeterministicInterviewerLive), Effect.runSync)

describe("deterministic interviewer", () => {
  it("holds a whole interview and ends complete with the typed values", () => {
    const script: Record<string, ReadonlyArray<string>> = {
      "question:plan": ["Hmm, both Free and Pro?"], // two options named: confirmed next
      "confirmation:plan": ["yes"],
      "question:team": ["About 12 people"],
      "question:renew": ["Yes, definitely"],
      "question:pain": ["Exporting the monthly numbers"],
      "probe:pain": ["Because it takes a full day", "Last March it broke twice"],
      "question:ease": ["I'd say 4"],
      "question:recommend": ["banana", "9"], // unparsable, then re-asked
      "question:role": ["I'd rather not say"]
    }
    const asked: Array<string> = []
    let session = emptyInterviewSession
    for (let i = 0; i < 30; i++) {
      const step = run(session)
      expect(step.corrections).toEqual([])
      session = applyInterviewStep(session, step, `a${i}`)
      const turn = step.output.turn
      if (turn.kind === "closing") {
        expect(step.output.completion).toEqual({ done: true, reason: "all_required_covered" })
        break
      }
      const key = `${turn.kind}:${"target" in turn ? turn.target.id : ""}`
      asked.push(key)
      const answers = script[key] ?? []
      const answer = answers[asked.filter((k) => k === key).length - 1]
      expect(answer, key).toBeDefined()
      session = recordUserMessage(session, `u${i}`, answer ?? "")
    }
    expect(asked).toEqual([
      "question:plan",
      "confirmation:plan",
      "question:team",
      "question:renew",
      "question:ease",
      "question:pain",
      "probe:pain",
      "probe:pain",
      "question:recommend",
      "question:recommend",
      "question:role"
    ])
    const values = Object.fromEntries(
      session.fields.map((f) => [f.fieldId, f.status === "answered" ? f.value : f.status])
    )
    expect(values).toEqual({ plan: "free", team: 12, renew: true, ease: 4, recommend: 9, role: "refused" })
    expect(session.goals).toEqual([{ goalId: "pain", coverage: 1 }])
    expect(session.messages.filter((m) => m.kind === "probe").map((m) => m.probeKind)).toEqual([
      "why",
      "example"
    ])
  })

  it("parses select, boolean, number, scale and NPS answers", () => {
    const field = (id: string) => def.fields.find((f) => f.id === id)
    const parse = (id: string, text: string) => {
      const f = field(id)
      return f === undefined ? undefined : parseFieldAnswer(f, text)?.value
    }
    expect(parse("plan", "PRO")).toBe("pro")
    expect(parse("renew", "nope")).toBe(false)
    expect(parse("renew", "Not really, no")).toBe(false)
    expect(parse("team", "we are 1,200 people")).toBe(1200)
    expect(parse("ease", "maybe 7, no, 3")).toBe(3)
    expect(parse("recommend", "10!")).toBe(10)
    expect(parse("recommend", "eleven")).toBeUndefined()
  })

  it("closes when the exchange budget is spent", () => {
    const tight = Schema.decodeUnknownSync(InterviewDefinition)({
      ...Schema.encodeSync(InterviewDefinition)(def),
      policy: { maxExchanges: 1 }
    })
    const next = (session: InterviewSession) =>
      correctInterviewerOutput(
        tight,
        "en",
        session,
        deterministicInterviewerTurn({ definition: tight, locale: "en", session })
      )
    const first = next(emptyInterviewSession)
    const step = next(recordUserMessage(applyInterviewStep(emptyInterviewSession, first, "a0"), "u0", "Pro"))
    expect(step.corrections).toEqual([])
    expect(step.output.completion).toEqual({ done: true, reason: "max_exchanges" })
  })
})
