// The interview definition (kind `interview`, schemaVersion 2) with every field, default and range
// of forms-api.md, and the reader that turns stored legacy data into v2 or null, never a throw.
import { Result, Schema, Effect } from "effect"
import { STRICT_ALL } from "../../kernel/issues.js"
import { ArrayOf, IntBetween, Str, StrBetween } from "../definition/primitives.js"

const d = <S extends Schema.Top>(schema: S, value: () => NoInfer<S["Type"]>) =>
  schema.pipe(Schema.withDecodingDefaultTypeKey(Effect.sync(value)))

// Locale keys are 2..10 characters shaped like a BCP 47 tag (`en`, `ko`, `pt-BR`), which also keeps
// prototype-polluting keys such as `__proto__` out of decoded maps.
const LocaleKey = Schema.String.check(
  Schema.isMinLength(2),
  Schema.isMaxLength(10),
  Schema.isPattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,6})?$/u)
)
const LocaleMap = (min: number, max: number) => Schema.Record(LocaleKey, StrBetween(min, max))
const Slug = (max: number) =>
  Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max), Schema.isPattern(/^[A-Za-z0-9_-]+$/u))
const Locale = Schema.Literals(["ko", "en", "ja"])
const Unit = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))

export const InterviewModule = Schema.Struct({
  id: Slug(80),
  labelByLocale: LocaleMap(1, 500),
  purpose: Schema.optionalKey(Str(2000)),
  order: d(IntBetween(0, 1000), () => 0),
  maxFollowups: Schema.optionalKey(IntBetween(0, 30))
})

export const INTERVIEW_VALUE_TYPES = [
  "short_text",
  "long_text",
  "single_select",
  "multi_select",
  "boolean",
  "number",
  "scale_1_5",
  "nps_0_10"
] as const

export const InterviewField = Schema.Struct({
  id: Slug(80),
  labelByLocale: LocaleMap(1, 500),
  descriptionByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
  questionByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
  moduleId: Schema.optionalKey(Slug(80)),
  valueType: Schema.Literals(INTERVIEW_VALUE_TYPES),
  requiredness: d(Schema.Literals(["hard", "soft", "optional"]), () => "optional" as const),
  sensitivity: d(Schema.Literals(["none", "low", "moderate", "high"]), () => "none" as const),
  priority: d(IntBetween(0, 100), () => 50),
  options: d(ArrayOf(Schema.Struct({ id: Slug(64), labelByLocale: LocaleMap(1, 500) }), 0, 100), () => []),
  allowedNonAnswerStates: d(
    ArrayOf(Schema.Literals(["refused", "unknown", "not_applicable", "deferred"]), 0, 4),
    () => ["refused", "unknown", "not_applicable"] as const
  ),
  askPolicy: d(
    Schema.Struct({
      maxAttempts: d(IntBetween(1, 5), () => 2),
      allowFollowup: d(Schema.Boolean, () => true),
      askIfAlreadyImplied: d(Schema.Boolean, () => false)
    }),
    () => ({ maxAttempts: 2, allowFollowup: true, askIfAlreadyImplied: false })
  ),
  extraction: d(
    Schema.Struct({
      allowFreeText: d(Schema.Boolean, () => true),
      allowInference: d(Schema.Boolean, () => false),
      confidenceThreshold: d(Unit, () => 0.6),
      confirmation: d(
        Schema.Literals(["never", "when_ambiguous", "always"]),
        () => "when_ambiguous" as const
      ),
      requireEvidenceSpan: d(Schema.Boolean, () => true),
      allowCustomAnswer: Schema.optionalKey(Schema.Boolean)
    }),
    () => ({
      allowFreeText: true,
      allowInference: false,
      confidenceThreshold: 0.6,
      confirmation: "when_ambiguous" as const,
      requireEvidenceSpan: true
    })
  )
})

export const PROBE_KINDS = [
  "example",
  "behavior",
  "impact",
  "why",
  "tradeoff",
  "emotion",
  "barrier",
  "clarify",
  "temporal_sequence",
  "comparison",
  "counterexample",
  "priority",
  "laddering"
] as const

export const InterviewGoal = Schema.Struct({
  id: Slug(80),
  labelByLocale: LocaleMap(1, 500),
  internalRubric: d(Str(2000), () => ""),
  publicPromptHintByLocale: LocaleMap(1, 2000),
  anchorQuestionByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
  moduleId: Schema.optionalKey(Slug(80)),
  priority: d(IntBetween(0, 100), () => 50),
  requiredCoverage: d(Unit, () => 0.7),
  required: d(Schema.Boolean, () => true),
  allowedProbeKinds: d(
    ArrayOf(Schema.Literals(PROBE_KINDS), 0, 13),
    () => ["example", "why", "impact"] as const
  ),
  maxProbes: Schema.optionalKey(IntBetween(1, 20))
})

export const CAPTURE_TYPES = [
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
] as const

const defaultPolicy = () => ({
  maxExchanges: 10,
  maxFollowups: 4,
  targetFollowups: 2,
  maxQuestionCharacters: 280,
  sessionTtlMinutes: 1440,
  context: { recentMessageCount: 6, summaryAfterMessages: 10 }
})

export const InterviewDefinition = Schema.Struct({
  schemaVersion: d(Schema.Literal(2), () => 2 as const),
  title: d(Str(200), () => ""),
  goal: d(Str(2000), () => ""),
  greetingByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
  closingByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
  persona: Schema.optionalKey(
    Schema.Struct({ name: Schema.optionalKey(Str(80)), tone: Schema.optionalKey(Str(200)) })
  ),
  researchBrief: Schema.optionalKey(
    Schema.Struct({
      purpose: d(Str(2000), () => ""),
      participantProfile: d(Str(2000), () => ""),
      decisionUse: d(Str(2000), () => ""),
      researchQuestions: d(ArrayOf(StrBetween(1, 1000), 0, 30), () => []),
      methodologyPresetId: Schema.optionalKey(Slug(80))
    })
  ),
  locales: d(
    Schema.Struct({
      default: d(Locale, () => "ko" as const),
      supported: d(ArrayOf(Locale, 1, 3), () => ["ko"] as const)
    }),
    () => ({ default: "ko" as const, supported: ["ko"] as const })
  ),
  disclosure: Schema.optionalKey(
    Schema.Struct({
      version: StrBetween(1, 100),
      required: d(Schema.Boolean, () => false),
      purposeTextByLocale: Schema.optionalKey(LocaleMap(1, 2000)),
      retentionTextByLocale: Schema.optionalKey(LocaleMap(1, 2000))
    })
  ),
  modules: Schema.optionalKey(ArrayOf(InterviewModule, 0, 20)),
  fields: d(ArrayOf(InterviewField, 0, 50), () => []),
  goals: d(ArrayOf(InterviewGoal, 0, 30), () => []),
  memberCheck: Schema.optionalKey(
    Schema.Struct({ enabled: d(Schema.Boolean, () => false), allowCorrection: d(Schema.Boolean, () => true) })
  ),
  validation: Schema.optionalKey(
    Schema.Struct({
      enabled: d(Schema.Boolean, () => false),
      fieldIds: d(ArrayOf(Slug(80), 0, 20), () => []),
      itemsPerRespondent: d(IntBetween(1, 20), () => 4),
      assignmentVersion: d(Slug(80), () => "v1")
    })
  ),
  codebook: Schema.optionalKey(
    Schema.Struct({
      version: StrBetween(1, 100),
      codes: d(
        ArrayOf(
          Schema.Struct({
            id: StrBetween(1, 80),
            codeType: d(
              Schema.Literals([
                "theme",
                "pain_point",
                "emotional_signal",
                "workaround",
                "revealed_behavior",
                "contradiction"
              ]),
              () => "theme" as const
            ),
            labelByLocale: LocaleMap(1, 500),
            descriptionByLocale: Schema.optionalKey(LocaleMap(1, 2000))
          }),
          0,
          100
        ),
        () => []
      ),
      allowEmergentCodes: d(Schema.Boolean, () => true)
    })
  ),
  policy: d(
    Schema.Struct({
      maxExchanges: d(IntBetween(1, 50), () => 10),
      maxFollowups: d(IntBetween(0, 30), () => 4),
      targetFollowups: d(IntBetween(0, 30), () => 2),
      maxQuestionCharacters: d(IntBetween(40, 2000), () => 280),
      sessionTtlMinutes: d(IntBetween(5, 43200), () => 1440),
      context: d(
        Schema.Struct({
          recentMessageCount: d(IntBetween(1, 50), () => 6),
          summaryAfterMessages: d(IntBetween(2, 100), () => 10)
        }),
        () => ({ recentMessageCount: 6, summaryAfterMessages: 10 })
      )
    }),
    defaultPolicy
  ),
  emergentExtraction: Schema.optionalKey(
    Schema.Struct({
      enabled: d(Schema.Boolean, () => true),
      captureTypes: d(
        ArrayOf(Schema.Literals(CAPTURE_TYPES), 0, 11),
        () => ["pain_point", "motivation", "barrier", "preference", "emotion", "unexpected_topic"] as const
      ),
      relatednessPolicy: d(
        Schema.Struct({
          onlyIfRelatedToFieldOrTopic: d(Schema.Boolean, () => false),
          allowNovelTheme: d(Schema.Boolean, () => true),
          requireEvidenceSpan: d(Schema.Boolean, () => true)
        }),
        () => ({ onlyIfRelatedToFieldOrTopic: false, allowNovelTheme: true, requireEvidenceSpan: true })
      ),
      followupPolicy: d(
        Schema.Struct({
          allowEmergentFollowup: d(Schema.Boolean, () => false),
          maxEmergentFollowupsPerSession: d(IntBetween(0, 10), () => 0)
        }),
        () => ({ allowEmergentFollowup: false, maxEmergentFollowupsPerSession: 0 })
      )
    })
  ),
  experience: Schema.optionalKey(
    Schema.Struct({
      theme: Schema.optionalKey(Str(40)),
      backgroundImageUrl: Schema.optionalKey(Str(2000)),
      backgroundScrim: Schema.optionalKey(Unit),
      liveProfile: d(Schema.Boolean, () => true),
      progress: d(Schema.Boolean, () => true),
      allowRestart: d(Schema.Boolean, () => false),
      motion: d(Schema.Literals(["full", "reduced"]), () => "full" as const)
    })
  )
}).annotate({
  identifier: "InterviewDefinition",
  title: "Interview definition",
  description: "schemaVersion 2: persona, modules, fields, goals and turn budget of an AI interview"
})
export type InterviewDefinition = typeof InterviewDefinition.Type
export type InterviewDefinitionEncoded = typeof InterviewDefinition.Encoded

export const emptyInterviewDefinition = (): InterviewDefinition =>
  Result.getOrThrow(Schema.decodeUnknownResult(InterviewDefinition)({}))

const decodeShape = Schema.decodeUnknownResult(InterviewDefinition, STRICT_ALL)
const decodeLenient = Schema.decodeUnknownResult(InterviewDefinition, { onExcessProperty: "ignore" })
const encodeShape = Schema.encodeResult(InterviewDefinition)

export const encodeInterviewDefinition = (def: InterviewDefinition): InterviewDefinitionEncoded =>
  Result.getOrThrow(encodeShape(def))

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Reads a stored interview definition of any vintage. v2 decodes as is; a v1 or version-less value
 * is read as v2 with unknown legacy keys dropped; anything that still does not fit yields null.
 */
export const readStoredInterviewDefinition = (stored: unknown): InterviewDefinition | null => {
  try {
    if (!isRecord(stored)) return null
    const strict = decodeShape(stored)
    if (Result.isSuccess(strict)) return strict.success
    if (stored.schemaVersion !== undefined && stored.schemaVersion !== 1 && stored.schemaVersion !== 2)
      return null
    const upgraded = decodeLenient({ ...stored, schemaVersion: 2 })
    return Result.isSuccess(upgraded) ? upgraded.success : null
  } catch {
    return null
  }
}

const V2_KEYS: ReadonlySet<string> = new Set(Object.keys(InterviewDefinition.fields))

/**
 * The JSON a read exposes for a stored interview definition that `readStoredInterviewDefinition`
 * read as `decoded`: always InterviewDefinition v2 (forms-api.md). A stored v2 value with only v2
 * keys is what every write stores (through the encoder) and goes out as stored, sparing an encode per
 * GET; a legacy value (v1, no version, unknown keys) goes out as its v2 reading, encoded.
 */
export const exposedInterviewDefinition = (stored: unknown, decoded: InterviewDefinition): unknown =>
  isRecord(stored) && stored.schemaVersion === 2 && Object.keys(stored).every((k) => V2_KEYS.has(k))
    ? stored
    : encodeInterviewDefinition(decoded)

/** Publishable when it asks something: at least one field or goal. */
export const interviewHasContent = (def: InterviewDefinition): boolean =>
  def.fields.length > 0 || def.goals.length > 0
