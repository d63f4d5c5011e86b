// The interview definition's experience settings in the domain: the theme list refused on write and
// read leniently, https-only backgrounds, and the live profile (answered fields, in the definition's
// order, worded in the respondent's locale). Property: no unknown theme or non-https URL is accepted,
// and no refusal carries the value.
import {
  decodeInterviewDefinition,
  emptyInterviewSession,
  INTERVIEW_THEMES,
  type InterviewDefinition,
  interviewBackgroundOf,
  interviewProfileOf,
  interviewThemeOf,
  readStoredInterviewDefinition
} from "@folio/domain"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const base = {
  schemaVersion: 2,
  locales: { default: "en", supported: ["en", "ko"] },
  fields: [
    {
      id: "plan",
      labelByLocale: { en: "your plan", ko: "요금제" },
      valueType: "single_select",
      options: [{ id: "pro", labelByLocale: { en: "Pro", ko: "프로" } }]
    },
    { id: "renew", labelByLocale: { en: "renewal", ko: "갱신" }, valueType: "boolean" },
    { id: "role", labelByLocale: { en: "role" }, valueType: "short_text" }
  ]
}

const decode = (experience: unknown) => decodeInterviewDefinition({ ...base, experience })

const issuesOf = (experience: unknown) => {
  const r = decode(experience)
  return Result.isFailure(r) ? r.failure.issues : []
}

describe("the interview's experience settings", () => {
  it("accepts the listed themes and https backgrounds, and refuses anything else without echoing it", () => {
    for (const theme of INTERVIEW_THEMES) expect(issuesOf({ theme })).toEqual([])
    expect(issuesOf({ backgroundImageUrl: "https://cdn.example/a.jpg", backgroundScrim: 0.3 })).toEqual([])
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 40 })
          .filter((t) => !(INTERVIEW_THEMES as ReadonlyArray<string>).includes(t.trim())),
        (theme) => {
          const issues = issuesOf({ theme })
          expect(issues).toEqual([
            { path: ["experience", "theme"], rule: "enum", allowed: [...INTERVIEW_THEMES] }
          ])
        }
      ),
      { numRuns: 30 }
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl({ validSchemes: ["http", "ftp", "data", "javascript"] }),
          fc.string({ maxLength: 80 })
        ),
        (url) => {
          fc.pre(!url.trim().toLowerCase().startsWith("https:"))
          const issues = issuesOf({ backgroundImageUrl: url })
          // The same constant issue whatever the input: nothing of the value in it.
          expect(issues).toEqual([
            {
              path: ["experience", "backgroundImageUrl"],
              rule: "httpsUrl",
              expected: "an https URL without credentials"
            }
          ])
        }
      ),
      { numRuns: 30 }
    )
  })

  it("reads a stored value from before the rules as the defaults", () => {
    const stored = readStoredInterviewDefinition({
      ...base,
      experience: { theme: "sunset", backgroundImageUrl: "http://old.example/x.png" }
    }) as InterviewDefinition
    expect(stored).not.toBeNull()
    expect(interviewThemeOf(stored)).toBe("cloud")
    expect(interviewBackgroundOf(stored)).toBeUndefined()
    const plain = readStoredInterviewDefinition(base) as InterviewDefinition
    expect(interviewThemeOf(plain)).toBeUndefined()
  })

  it("profiles the answered fields in the definition's order, in the respondent's locale", () => {
    const def = readStoredInterviewDefinition(base) as InterviewDefinition
    const session = {
      ...emptyInterviewSession,
      fields: [
        { fieldId: "renew", status: "answered" as const, value: false, confidence: 1, implied: false },
        { fieldId: "role", status: "tentative" as const, value: "lead", confidence: 0.3, implied: false },
        { fieldId: "plan", status: "answered" as const, value: "pro", confidence: 1, implied: false }
      ]
    }
    expect(interviewProfileOf(def, "ko", session)).toEqual([
      { fieldId: "plan", label: "요금제", value: "프로" },
      { fieldId: "renew", label: "갱신", value: expect.any(String) }
    ])
    expect(interviewProfileOf(def, "en", session)).toEqual([
      { fieldId: "plan", label: "your plan", value: "Pro" },
      { fieldId: "renew", label: "renewal", value: "no" }
    ])
  })
})
