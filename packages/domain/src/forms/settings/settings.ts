// FormSettings with every default and rule of forms-api.md, and settingsSignature: a digest of the
// canonical (RFC 8785) JSON of the default-filled settings, so key order and omitted defaults never
// change it.
import { Result, Schema, Effect } from "effect"
import { canonicalJson } from "../../kernel/canonical-json.js"
import { sha256Hex } from "../../kernel/digest.js"
import { InvalidSettings } from "../errors.js"
import { strictDecoder } from "../../kernel/issues.js"
import { RuleAnnotationId } from "../../kernel/issues.js"
import { ArrayOf, BlockId, IntBetween, ObjectKey, Str, StrBetween } from "../definition/primitives.js"
import { isCalendarDate } from "../../kernel/calendar.js"
import type { Issue } from "../../kernel/errors.js"

const d = <S extends Schema.Top>(schema: S, value: () => NoInfer<S["Type"]>) =>
  schema.pipe(Schema.withDecodingDefaultTypeKey(Effect.sync(value)))

const HexColor = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/u))
/** Links shown to respondents: absolute http(s) only, so no `javascript:` or `data:` URL gets through. */
const Uri = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.makeFilter((s: string) => /^https?:\/\/[^\s/?#]+[^\s]*$/.test(s) && URL.canParse(s), {
    [RuleAnnotationId]: "httpUrl",
    expected: "an absolute http(s) URL",
    toJsonSchema: () => ({ format: "uri", pattern: "^https?://" }),
    arbitraryConstraint: {
      patterns: [{ source: "^https://[a-z]{1,20}\\.example(/[a-z0-9]{0,20})?$", flags: "" }]
    }
  })
)
const Email = Schema.String.check(Schema.isMaxLength(320), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u))
/** An RFC 3339 date-time in UTC (seconds required, trailing `Z`), on a real calendar day. */
const UtcDateTime = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?Z$/.exec(s)
      return m !== null && m[1] !== undefined && isCalendarDate(m[1])
    },
    {
      [RuleAnnotationId]: "utcDateTime",
      expected: "a UTC date-time (YYYY-MM-DDTHH:MM:SS[.fraction]Z)",
      toJsonSchema: () => ({ format: "date-time", pattern: "Z$" }),
      arbitraryConstraint: {
        patterns: [
          {
            source: "^20\\d{2}-(0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ$",
            flags: ""
          }
        ]
      }
    }
  )
)

export const DEFAULT_THEME = {
  primaryColor: "#5b57d6",
  backgroundColor: "#ffffff",
  textColor: "#1b1b1a"
} as const

export const Theme = Schema.Struct({
  primaryColor: d(HexColor, () => DEFAULT_THEME.primaryColor),
  backgroundColor: d(HexColor, () => DEFAULT_THEME.backgroundColor),
  textColor: d(HexColor, () => DEFAULT_THEME.textColor),
  themeKey: Schema.optionalKey(Schema.Literals(["cloud", "ink", "warm", "forest"])),
  accentColor: Schema.optionalKey(HexColor),
  fontKey: Schema.optionalKey(Schema.Literals(["pretendard", "serif", "nanum"])),
  cornerStyle: Schema.optionalKey(Schema.Literals(["sharp", "rounded", "round"])),
  background: Schema.optionalKey(Schema.Literals(["plain", "soft", "gradient"])),
  density: Schema.optionalKey(Schema.Literals(["compact", "cozy", "comfortable"])),
  reduceMotion: Schema.optionalKey(Schema.Boolean),
  logoKey: Schema.optionalKey(ObjectKey),
  coverKey: Schema.optionalKey(ObjectKey)
})

/**
 * A study's terms shown before the first question: consent items every respondent must accept,
 * retention (responses older are deleted), withdrawal by a private link. See responses/consent.ts,
 * withdrawal.ts and retention.ts.
 */
export const ResearchCompliance = Schema.Struct({
  purpose: StrBetween(1, 2000),
  contact: StrBetween(1, 500),
  consentItems: ArrayOf(StrBetween(1, 500), 1, 20),
  retentionDays: IntBetween(1, 3650),
  withdrawalEnabled: d(Schema.Boolean, () => true),
  thirdPartyProvision: Schema.optionalKey(
    Schema.Struct({
      enabled: d(Schema.Boolean, () => false),
      details: Schema.optionalKey(StrBetween(1, 2000))
    })
  )
}).annotate({ identifier: "ResearchCompliance" })

export const FormSettings = Schema.Struct({
  renderMode: d(Schema.Literals(["conversational", "classic", "document"]), () => "conversational" as const),
  locale: d(Schema.Literals(["en", "ko", "ja"]), () => "en" as const),
  theme: d(Theme, () => ({ ...DEFAULT_THEME })),
  document: d(
    Schema.Struct({
      pageWidth: d(Schema.Literals(["narrow", "normal", "wide"]), () => "normal" as const),
      showNumbers: d(Schema.Boolean, () => false)
    }),
    () => ({ pageWidth: "normal" as const, showNumbers: false })
  ),
  completion: Schema.optionalKey(
    Schema.Struct({
      title: Schema.optionalKey(Str(200)),
      body: Schema.optionalKey(Str(2000)),
      redirectUrl: Schema.optionalKey(Uri),
      allowAnother: Schema.optionalKey(Schema.Boolean),
      icon: Schema.optionalKey(Schema.Literals(["check", "heart", "party", "none"])),
      ctaLabel: Schema.optionalKey(Str(80)),
      ctaUrl: Schema.optionalKey(Uri),
      confetti: Schema.optionalKey(Schema.Boolean)
    })
  ),
  intro: Schema.optionalKey(
    Schema.Struct({
      title: Schema.optionalKey(Str(200)),
      body: Schema.optionalKey(Str(2000)),
      buttonLabel: Schema.optionalKey(Str(80))
    })
  ),
  submission: d(
    Schema.Struct({
      acceptingResponses: d(Schema.Boolean, () => true),
      submitLabel: Schema.optionalKey(StrBetween(1, 80)),
      closedMessage: Schema.optionalKey(Str(1000)),
      closesAt: Schema.optionalKey(UtcDateTime),
      maxResponses: Schema.optionalKey(IntBetween(1, 1_000_000)),
      respondentTracking: Schema.optionalKey(Schema.Literal("anonymous")),
      repeatResponsePolicy: Schema.optionalKey(Schema.Literals(["warn", "soft_block"])),
      allowResponseEditing: Schema.optionalKey(Schema.Boolean)
    }),
    () => ({ acceptingResponses: true })
  ),
  notifications: Schema.optionalKey(
    Schema.Struct({
      responseEmail: d(
        Schema.Struct({
          enabled: d(Schema.Boolean, () => false),
          recipients: d(ArrayOf(Email, 0, 5), () => [])
        }),
        () => ({ enabled: false, recipients: [] })
      ),
      respondentReceipt: d(
        Schema.Struct({ enabled: d(Schema.Boolean, () => false), emailBlockId: Schema.optionalKey(BlockId) }),
        () => ({ enabled: false })
      )
    })
  ),
  researchCompliance: Schema.optionalKey(ResearchCompliance),
  customScript: Schema.optionalKey(Str(10000))
}).annotate({ identifier: "FormSettings", title: "Form settings" })
export type FormSettings = typeof FormSettings.Type
export type FormSettingsEncoded = typeof FormSettings.Encoded

/**
 * Combinations the shape allows but that could never act, checked on every settings write (stored
 * settings are read as they are): an anonymous form cannot recognise a repeat respondent.
 */
export const settingsIssues = (settings: FormSettings): ReadonlyArray<Issue> =>
  settings.submission.respondentTracking === "anonymous" &&
  settings.submission.repeatResponsePolicy !== undefined
    ? [{ path: ["submission", "repeatResponsePolicy"], rule: "anonymousRepeatPolicy" }]
    : []

export const decodeFormSettings: (input: unknown) => Result.Result<FormSettings, InvalidSettings> =
  strictDecoder(FormSettings, (issues) => new InvalidSettings({ issues }))

const encode = Schema.encodeResult(FormSettings)
export const encodeFormSettings = (settings: FormSettings): FormSettingsEncoded =>
  Result.getOrThrow(encode(settings))

export const defaultFormSettings = (): FormSettings => Result.getOrThrow(decodeFormSettings({}))

/** `sha256:` + 64 lowercase hex of the canonical JSON of the encoded, default-filled settings. */
export const settingsSignature = (settings: FormSettings): string =>
  `sha256:${sha256Hex(canonicalJson(encodeFormSettings(settings)))}`
