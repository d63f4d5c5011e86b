// Interview definitions and settings: schema-derived round trips, Ajv against the exported JSON
// Schemas, mutations reported at their path, the spec's defaults, legacy reads, and the settings
// signature (key order and omitted defaults never change it).
import {
  canonicalJson,
  decodeFormSettings,
  decodeInterviewDefinition,
  defaultFormSettings,
  encodeFormSettings,
  encodeInterviewDefinition,
  exposedInterviewDefinition,
  FormSettings,
  formSettingsJsonSchema,
  InterviewDefinition,
  interviewDefinitionJsonSchema,
  readStoredInterviewDefinition,
  STRICT_ALL,
  settingsSignature
} from "@folio/domain"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { interviewArb, settingsArb } from "./arbitraries.js"

const ajv = makeAjv2020()

const roundTrip = <S extends Schema.Codec<unknown, unknown>>(
  schema: S,
  arb: fc.Arbitrary<S["Type"]>,
  jsonSchema: object
) => {
  const validate = ajv.compile(jsonSchema)
  const encode = Schema.encodeSync(schema)
  const decode = Schema.decodeUnknownResult(schema, STRICT_ALL)
  fc.assert(
    fc.property(arb, (value) => {
      const encoded = JSON.parse(JSON.stringify(encode(value)))
      // Compared as canonical JSON: the wire cannot carry -0, which toEqual tells apart from 0.
      expect(canonicalJson(Result.getOrThrow(decode(encoded)))).toBe(canonicalJson(value))
      if (!validate(encoded)) throw new Error(JSON.stringify(validate.errors))
    }),
    { numRuns: 60 }
  )
}

const issuePaths = (
  result: Result.Result<unknown, { issues: ReadonlyArray<{ path: ReadonlyArray<unknown>; rule: string }> }>
) => (Result.isFailure(result) ? result.failure.issues.map((i) => JSON.stringify(i.path)) : [])

describe("InterviewDefinition", () => {
  it("round-trips every generated value and Ajv accepts the encoding", () => {
    roundTrip(InterviewDefinition, interviewArb, interviewDefinitionJsonSchema)
  })

  it("reports an out-of-range or unknown key at its path", () => {
    expect(issuePaths(decodeInterviewDefinition({ policy: { maxExchanges: 51 } }))).toContain(
      '["policy","maxExchanges"]'
    )
    expect(issuePaths(decodeInterviewDefinition({ policy: { maxQuestionCharacters: 39 } }))).toContain(
      '["policy","maxQuestionCharacters"]'
    )
    expect(issuePaths(decodeInterviewDefinition({ persona: { name: "A", mood: "x" } }))).toContain(
      '["persona","mood"]'
    )
    expect(
      issuePaths(
        decodeInterviewDefinition({
          fields: [{ id: "bad id", labelByLocale: { en: "x" }, valueType: "boolean" }]
        })
      )
    ).toContain('["fields",0,"id"]')
    expect(
      issuePaths(decodeInterviewDefinition({ locales: { default: "en", supported: ["ko"] } }))
    ).toContain('["locales","default"]')
  })

  it("fills the spec's defaults", () => {
    const d = Result.getOrThrow(
      decodeInterviewDefinition({
        fields: [{ id: "role", labelByLocale: { en: "Role" }, valueType: "short_text" }]
      })
    )
    expect(d.schemaVersion).toBe(2)
    expect(d.locales).toEqual({ default: "ko", supported: ["ko"] })
    // "policy | default { maxExchanges 10, maxFollowups 4, targetFollowups 2, maxQuestionCharacters 280, sessionTtlMinutes 1440, context { recentMessageCount 6, summaryAfterMessages 10 } }"
    expect(d.policy).toEqual({
      maxExchanges: 10,
      maxFollowups: 4,
      targetFollowups: 2,
      maxQuestionCharacters: 280,
      sessionTtlMinutes: 1440,
      context: { recentMessageCount: 6, summaryAfterMessages: 10 }
    })
    const field = d.fields[0]
    expect(field?.requiredness).toBe("optional")
    expect(field?.priority).toBe(50)
    expect(field?.allowedNonAnswerStates).toEqual(["refused", "unknown", "not_applicable"])
    expect(field?.extraction.confidenceThreshold).toBe(0.6)
    expect(field?.askPolicy.maxAttempts).toBe(2)
  })

  it("reads legacy stored data as v2 or null, never throwing", () => {
    expect(
      readStoredInterviewDefinition({ schemaVersion: 1, title: "Old", legacyTurns: 3 })?.schemaVersion
    ).toBe(2)
    expect(readStoredInterviewDefinition({ title: "No version" })?.title).toBe("No version")
    expect(readStoredInterviewDefinition({ schemaVersion: 9 })).toBeNull()
    expect(readStoredInterviewDefinition("garbage")).toBeNull()
    expect(readStoredInterviewDefinition(null)).toBeNull()
    expect(readStoredInterviewDefinition({ policy: { maxExchanges: "lots" } })).toBeNull()
    fc.assert(
      fc.property(fc.anything(), (u) => {
        readStoredInterviewDefinition(u)
      }),
      { numRuns: 200 }
    )
  })

  it("exposes a stored definition as v2: a v2 row as stored, a legacy one upgraded", () => {
    const legacy = { schemaVersion: 1, title: "Old", legacyTurns: 3 }
    const read = readStoredInterviewDefinition(legacy)
    if (read === null) throw new Error("legacy row unreadable")
    const exposed = exposedInterviewDefinition(legacy, read)
    expect(exposed).toEqual(encodeInterviewDefinition(read))
    expect(exposed).toMatchObject({ schemaVersion: 2, title: "Old" })
    expect(exposed).not.toHaveProperty("legacyTurns")
    const v2 = encodeInterviewDefinition(read)
    expect(exposedInterviewDefinition(v2, read)).toBe(v2)
    const v2WithStrayKey = { ...v2, legacyTurns: 3 }
    expect(exposedInterviewDefinition(v2WithStrayKey, read)).not.toHaveProperty("legacyTurns")
  })

  it("encodes back to an equal value", () => {
    const d = Result.getOrThrow(
      decodeInterviewDefinition({
        goals: [{ id: "g1", labelByLocale: { en: "G" }, publicPromptHintByLocale: { en: "Ask" } }]
      })
    )
    expect(Result.getOrThrow(decodeInterviewDefinition(encodeInterviewDefinition(d)))).toEqual(d)
  })
})

describe("FormSettings", () => {
  it("round-trips every generated value and Ajv accepts the encoding", () => {
    roundTrip(FormSettings, settingsArb, formSettingsJsonSchema)
  })

  it("fills the spec's defaults", () => {
    const s = defaultFormSettings()
    expect(s.renderMode).toBe("conversational")
    expect(s.locale).toBe("en")
    expect(s.theme).toEqual({ primaryColor: "#5b57d6", backgroundColor: "#ffffff", textColor: "#1b1b1a" })
    expect(s.submission).toEqual({ acceptingResponses: true })
    expect(s.document).toEqual({ pageWidth: "normal", showNumbers: false })
  })

  it("enforces its rules at their paths", () => {
    expect(
      issuePaths(decodeFormSettings({ submission: { closesAt: "2026-01-01T00:00:00+01:00" } }))
    ).toContain('["submission","closesAt"]')
    const six = ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io", "f@x.io"]
    expect(
      issuePaths(decodeFormSettings({ notifications: { responseEmail: { recipients: six } } }))
    ).toContain('["notifications","responseEmail","recipients"]')
    expect(issuePaths(decodeFormSettings({ customScript: "x".repeat(10001) }))).toContain('["customScript"]')
    expect(issuePaths(decodeFormSettings({ researchCompliance: { purpose: "p" } }))).toContain(
      '["researchCompliance","contact"]'
    )
    expect(issuePaths(decodeFormSettings({ theme: { primaryColor: "red" } }))).toContain(
      '["theme","primaryColor"]'
    )
    expect(issuePaths(decodeFormSettings({ colour: "x" }))).toContain('["colour"]')
    expect(Result.isSuccess(decodeFormSettings({ submission: { closesAt: "2026-01-01T00:00:00Z" } }))).toBe(
      true
    )
  })
})

describe("settingsSignature", () => {
  const sign = (input: unknown) => settingsSignature(Result.getOrThrow(decodeFormSettings(input)))

  it("is sha256: and 64 lowercase hex", () => {
    expect(sign({})).toMatch(/^sha256:[0-9a-f]{64}$/)
  })

  it("ignores key order and omitted defaults", () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const encoded = encodeFormSettings(settings) as Record<string, unknown>
        const reversed = Object.fromEntries(Object.entries(encoded).reverse())
        expect(sign(reversed)).toBe(settingsSignature(settings))
      }),
      { numRuns: 60 }
    )
    expect(sign({})).toBe(
      sign({ renderMode: "conversational", locale: "en", submission: { acceptingResponses: true } })
    )
    expect(sign({ theme: { textColor: "#1b1b1a", primaryColor: "#5b57d6" } })).toBe(sign({}))
  })

  it("differs for different settings", () => {
    fc.assert(
      fc.property(settingsArb, settingsArb, (a, b) => {
        const same = JSON.stringify(encodeFormSettings(a)) === JSON.stringify(encodeFormSettings(b))
        fc.pre(!same)
        expect(settingsSignature(a)).not.toBe(settingsSignature(b))
      }),
      { numRuns: 60 }
    )
    expect(sign({ locale: "ko" })).not.toBe(sign({}))
  })
})
