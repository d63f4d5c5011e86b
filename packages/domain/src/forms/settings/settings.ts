// FormSettings with every default and rule of forms-api.md, and settingsSignature: a digest of the
// canonical (RFC 8785) JSON of the default-filled settings, so key order and omitted defaults never
// change it.
import { Either, Schema } from "effect"
import { canonicalJson } from "../../kernel/canonical-json.js"
import { sha256Hex } from "../../kernel/digest.js"
import type { Invalid } from "../../kernel/errors.js"
import { strictDecoder } from "../../kernel/issues.js"
import { RuleAnnotationId } from "../../kernel/issues.js"
import {
  ArrayOf,
  BlockId,
  IntBetween,
  isCalendarDate,
  ObjectKey,
  Str,
  StrBetween
} from "../definition/primitives.js"

const d = <A, I>(schema: Schema.Schema<A, I>, value: () => NoInfer<A>) =>
  Schema.optionalWith(schema, { default: value })

const HexColor = Schema.String.pipe(Schema.pattern(/^#[0-9a-fA-F]{6}$/))
/** Links shown to respondents: absolute http(s) only, so no `javascript:` or `data:` URL gets through. */
const Uri = Schema.String.pipe(
  Schema.maxLength(2000),
  Schema.filter((s) => /^https?:\/\/[^\s/?#]+[^\s]*$/.test(s) && URL.canParse(s), {
    [RuleAnnotationId]: "httpUrl",
    jsonSchema: { format: "uri", pattern: "^https?://" }
  })
).annotations({
  arbitrary: () => (fc) => fc.webUrl({ validSchemes: ["https", "http"] }).filter((u) => u.length <= 2000)
})
const Email = Schema.String.pipe(Schema.maxLength(320), Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/))
/** An RFC 3339 date-time in UTC (seconds required, trailing `Z`), on a real calendar day. */
const UtcDateTime = Schema.String.pipe(
  Schema.filter(
    (s) => {
      const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?Z$/.exec(s)
      return m !== null && m[1] !== undefined && isCalendarDate(m[1])
    },
    { [RuleAnnotationId]: "utcDateTime", jsonSchema: { format: "date-time", pattern: "Z$" } }
  )
).annotations({
  arbitrary: () => (fc) =>
    fc
      .date({
        min: new Date("2000-01-01T00:00:00Z"),
        max: new Date("2100-01-01T00:00:00Z"),
        noInvalidDate: true
      })
      .map((d) => d.toISOString())
})

export const DEFAULT_THEME = {
  primaryColor: "#5b57d6",
  backgroundColor: "#ffffff",
  textColor: "#1b1b1a"
} as const

export const Theme = Schema.Struct({
  primaryColor: d(HexColor, () => DEFAULT_THEME.primaryColor),
  backgroundColor: d(HexColor, () => DEFAULT_THEME.backgroundColor),
  textColor: d(HexColor, () => DEFAULT_THEME.textColor),
  themeKey: Schema.optional(Schema.Literal("cloud", "ink", "warm", "forest")),
  accentColor: Schema.optional(HexColor),
  fontKey: Schema.optional(Schema.Literal("pretendard", "serif", "nanum")),
  cornerStyle: Schema.optional(Schema.Literal("sharp", "rounded", "round")),
  background: Schema.optional(Schema.Literal("plain", "soft", "gradient")),
  density: Schema.optional(Schema.Literal("compact", "cozy", "comfortable")),
  reduceMotion: Schema.optional(Schema.Boolean),
  logoKey: Schema.optional(ObjectKey),
  coverKey: Schema.optional(ObjectKey)
})

export const FormSettings = Schema.Struct({
  renderMode: d(Schema.Literal("conversational", "classic", "document"), () => "conversational" as const),
  locale: d(Schema.Literal("en", "ko", "ja"), () => "en" as const),
  theme: d(Theme, () => ({ ...DEFAULT_THEME })),
  document: d(
    Schema.Struct({
      pageWidth: d(Schema.Literal("narrow", "normal", "wide"), () => "normal" as const),
      showNumbers: d(Schema.Boolean, () => false)
    }),
    () => ({ pageWidth: "normal" as const, showNumbers: false })
  ),
  completion: Schema.optional(
    Schema.Struct({
      title: Schema.optional(Str(200)),
      body: Schema.optional(Str(2000)),
      redirectUrl: Schema.optional(Uri),
      allowAnother: Schema.optional(Schema.Boolean),
      icon: Schema.optional(Schema.Literal("check", "heart", "party", "none")),
      ctaLabel: Schema.optional(Str(80)),
      ctaUrl: Schema.optional(Uri),
      confetti: Schema.optional(Schema.Boolean)
    })
  ),
  intro: Schema.optional(
    Schema.Struct({
      title: Schema.optional(Str(200)),
      body: Schema.optional(Str(2000)),
      buttonLabel: Schema.optional(Str(80))
    })
  ),
  submission: d(
    Schema.Struct({
      acceptingResponses: d(Schema.Boolean, () => true),
      submitLabel: Schema.optional(StrBetween(1, 80)),
      closedMessage: Schema.optional(Str(1000)),
      closesAt: Schema.optional(UtcDateTime),
      maxResponses: Schema.optional(IntBetween(1, 1_000_000)),
      respondentTracking: Schema.optional(Schema.Literal("anonymous")),
      repeatResponsePolicy: Schema.optional(Schema.Literal("warn", "soft_block")),
      allowResponseEditing: Schema.optional(Schema.Boolean)
    }),
    () => ({ acceptingResponses: true })
  ),
  notifications: Schema.optional(
    Schema.Struct({
      responseEmail: d(
        Schema.Struct({
          enabled: d(Schema.Boolean, () => false),
          recipients: d(ArrayOf(Email, 0, 5), () => [])
        }),
        () => ({ enabled: false, recipients: [] })
      ),
      respondentReceipt: d(
        Schema.Struct({ enabled: d(Schema.Boolean, () => false), emailBlockId: Schema.optional(BlockId) }),
        () => ({ enabled: false })
      )
    })
  ),
  researchCompliance: Schema.optional(
    Schema.Struct({
      purpose: StrBetween(1, 2000),
      contact: StrBetween(1, 500),
      consentItems: ArrayOf(StrBetween(1, 500), 1, 20),
      retentionDays: IntBetween(1, 3650),
      withdrawalEnabled: d(Schema.Boolean, () => true),
      thirdPartyProvision: Schema.optional(
        Schema.Struct({
          enabled: d(Schema.Boolean, () => false),
          details: Schema.optional(StrBetween(1, 2000))
        })
      )
    })
  ),
  customScript: Schema.optional(Str(10000))
}).annotations({ identifier: "FormSettings", title: "Form settings" })
export type FormSettings = typeof FormSettings.Type
export type FormSettingsEncoded = typeof FormSettings.Encoded

export const decodeFormSettings: (input: unknown) => Either.Either<FormSettings, Invalid> = strictDecoder(
  FormSettings,
  "settings"
)

const encode = Schema.encodeEither(FormSettings)
export const encodeFormSettings = (settings: FormSettings): FormSettingsEncoded =>
  Either.getOrThrow(encode(settings))

export const defaultFormSettings = (): FormSettings => Either.getOrThrow(decodeFormSettings({}))

/** `sha256:` + 64 lowercase hex of the canonical JSON of the encoded, default-filled settings. */
export const settingsSignature = (settings: FormSettings): string =>
  `sha256:${sha256Hex(canonicalJson(encodeFormSettings(settings)))}`
