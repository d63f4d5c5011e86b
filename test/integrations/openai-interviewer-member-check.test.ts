// What the model is told about the member check: a line on how the phase works and where the
// interview stands in it, only when memberCheck is enabled.
import { interviewerSystemPrompt } from "@folio/adapters-integrations"
import { emptyInterviewSession, InterviewDefinition, recordUserMessage } from "@folio/domain"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

const definition = (memberCheck: unknown) =>
  Schema.decodeUnknownSync(InterviewDefinition)({
    locales: { default: "en", supported: ["en"] },
    ...(memberCheck === undefined ? {} : { memberCheck }),
    fields: [{ id: "plan", labelByLocale: { en: "Plan" }, valueType: "short_text" }]
  })

const readBack = {
  ...emptyInterviewSession,
  messages: [
    {
      id: "a1",
      role: "assistant" as const,
      text: "Here is what I understood…",
      kind: "member_check" as const
    }
  ]
}

describe("the interviewer's system prompt and the member check", () => {
  it("says nothing of it when it is off", () => {
    const prompt = interviewerSystemPrompt({
      definition: definition(undefined),
      locale: "en",
      session: readBack
    })
    expect(prompt).not.toContain("member check")
  })

  it("explains the phase, the correction rule and where the interview stands", () => {
    const def = definition({ enabled: true })
    const before = interviewerSystemPrompt({ definition: def, locale: "en", session: emptyInterviewSession })
    expect(before).toContain("propose a turn of kind member_check")
    expect(before).toContain("never inferred")
    expect(before).toContain("Member check phase: not started.")
    expect(before).toContain('"memberCheck":{"enabled":true,"allowCorrection":true}')
    const replying = interviewerSystemPrompt({
      definition: def,
      locale: "en",
      session: recordUserMessage(readBack, "u1", "No, Pro")
    })
    expect(replying).toContain("Member check phase: the respondent is replying to read-back 1 of 2.")
    const strict = interviewerSystemPrompt({
      definition: definition({ enabled: true, allowCorrection: false }),
      locale: "en",
      session: emptyInterviewSession
    })
    expect(strict).toContain("corrections are not allowed")
  })
})
