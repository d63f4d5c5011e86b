// The 23 classic block types of forms-api.md with every option, bound, pattern, default and forced
// value, discriminated by `type`. Unknown keys are rejected by the strict decoder.
import { Schema } from "effect"
import { MAX_FILE_UPLOAD_SIZE_MB } from "../limits.js"
import {
  ArrayOf,
  BlockId,
  CalendarDate,
  DateTimeString,
  IntBetween,
  MatrixGroupId,
  ObjectKey,
  PositiveInt,
  Str,
  StrBetween,
  TimeOfDay
} from "./primitives.js"

const withDefault = <A, I>(schema: Schema.Schema<A, I>, value: () => NoInfer<A>) =>
  Schema.optionalWith(schema, { default: value })

export const Presentation = Schema.Struct({
  document: Schema.optional(
    Schema.Struct({
      span: Schema.optional(IntBetween(3, 12)),
      breakBefore: Schema.optional(Schema.Boolean),
      fieldChrome: Schema.optional(Schema.Literal("full", "field-only")),
      controlWidth: Schema.optional(Schema.Literal("auto", "full"))
    })
  )
})

export const Choice = Schema.Struct({
  id: StrBetween(1, 64),
  label: StrBetween(1, 500),
  imageKey: Schema.optional(ObjectKey),
  imageAlt: Schema.optional(Str(300))
}).annotations({ identifier: "Choice" })
export type Choice = typeof Choice.Type

export const Randomize = Schema.Struct({
  mode: Schema.Literal("shuffle", "reverse"),
  pinLast: withDefault(IntBetween(0, 100), () => 0)
})

const Empty = Schema.Struct({}).annotations({
  jsonSchema: { type: "object", properties: {}, additionalProperties: false }
})
const emptyOptions = { options: withDefault(Empty, () => ({})) }

const base = {
  id: BlockId,
  description: Schema.optional(Str(4000)),
  presentation: Schema.optional(Presentation)
}
const labelled = { label: Str(2000) }
const unlabelled = { label: withDefault(Str(2000), () => "") }
const optionalRequired = { required: withDefault(Schema.Boolean, () => false) }
const neverRequired = { required: withDefault(Schema.Literal(false), () => false as const) }
const alwaysRequired = { required: withDefault(Schema.Literal(true), () => true as const) }

const input = <T extends string, O extends Schema.Struct.Fields>(type: T, options: O) =>
  Schema.Struct({ type: Schema.Literal(type), ...base, ...labelled, ...optionalRequired, ...options })

export const ShortTextBlock = input("short_text", {
  options: withDefault(
    Schema.Struct({
      maxLength: Schema.optional(Schema.Int.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(10000))),
      minLength: Schema.optional(PositiveInt.pipe(Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER))),
      pattern: Schema.optional(Str(300)),
      placeholder: Schema.optional(Str(200)),
      inputMode: Schema.optional(Schema.Literal("text", "tel", "url", "email", "numeric", "decimal")),
      autoComplete: Schema.optional(Str(40))
    }),
    () => ({})
  )
})

export const LongTextBlock = input("long_text", {
  options: withDefault(
    Schema.Struct({
      maxLength: Schema.optional(Schema.Int.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(50000))),
      minLength: Schema.optional(PositiveInt),
      pattern: Schema.optional(Str(300)),
      placeholder: Schema.optional(Str(200))
    }),
    () => ({})
  )
})

const matrixRow = { matrixGroupId: Schema.optional(MatrixGroupId), rowLabel: Schema.optional(Str(500)) }

export const MultipleChoiceBlock = input("multiple_choice", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 1, 100),
    allowOther: Schema.optional(Schema.Boolean),
    qualityTrap: Schema.optional(Schema.Struct({ expectedChoiceId: StrBetween(1, 64) })),
    ...matrixRow,
    randomize: Schema.optional(Randomize)
  })
})

export const CheckboxesBlock = input("checkboxes", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 1, 100),
    minSelected: Schema.optional(PositiveInt),
    maxSelected: Schema.optional(PositiveInt),
    allowOther: Schema.optional(Schema.Boolean),
    ...matrixRow,
    randomize: Schema.optional(Randomize)
  })
})

export const DropdownBlock = input("dropdown", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 0, 100),
    dataset: Schema.optional(Schema.Literal("countries")),
    randomize: Schema.optional(Randomize)
  })
})

export const RankingBlock = input("ranking", {
  options: Schema.Struct({ choices: ArrayOf(Choice, 1, 100), randomize: Schema.optional(Randomize) })
})

export const RatingBlock = input("rating", {
  options: withDefault(
    Schema.Struct({
      scale: withDefault(IntBetween(2, 11), () => 5),
      shape: withDefault(Schema.Literal("number", "star", "circle"), () => "number" as const),
      zeroBased: Schema.optional(Schema.Boolean),
      lowLabel: Schema.optional(Str(60)),
      highLabel: Schema.optional(Str(60))
    }),
    () => ({ scale: 5, shape: "number" as const })
  )
})

const bounds = <A, I>(value: Schema.Schema<A, I>) =>
  withDefault(Schema.Struct({ min: Schema.optional(value), max: Schema.optional(value) }), () => ({}))

export const DateBlock = input("date", { options: bounds(CalendarDate) })
export const DateTimeBlock = input("datetime", { options: bounds(DateTimeString) })
export const TimeBlock = input("time", { options: bounds(TimeOfDay) })
export const DateRangeBlock = input("date_range", { options: bounds(CalendarDate) })

export const EmailBlock = input("email", {
  options: withDefault(Schema.Struct({ placeholder: Schema.optional(Str(200)) }), () => ({}))
})

export const NumberBlock = input("number", {
  options: withDefault(
    Schema.Struct({
      min: Schema.optional(Schema.Finite),
      max: Schema.optional(Schema.Finite),
      integer: Schema.optional(Schema.Boolean),
      step: Schema.optional(Schema.Finite.pipe(Schema.greaterThan(0))),
      placeholder: Schema.optional(Str(200)),
      prefix: Schema.optional(Str(10)),
      suffix: Schema.optional(Str(10)),
      decimals: Schema.optional(IntBetween(0, 10))
    }),
    () => ({})
  )
})

export const FileUploadBlock = input("file_upload", {
  options: withDefault(
    Schema.Struct({
      maxFiles: withDefault(IntBetween(1, 20), () => 1),
      maxSizeMb: withDefault(IntBetween(1, MAX_FILE_UPLOAD_SIZE_MB), () => 10),
      acceptedMimeTypes: Schema.optional(ArrayOf(Str(150), 0, 50))
    }),
    () => ({ maxFiles: 1, maxSizeMb: 10 })
  )
})

export const SignatureBlock = input("signature", {
  options: withDefault(
    Schema.Struct({
      width: withDefault(IntBetween(80, 800), () => 320),
      height: withDefault(IntBetween(40, 400), () => 160)
    }),
    () => ({ width: 320, height: 160 })
  )
})

export const PrivacyConsentBlock = Schema.Struct({
  type: Schema.Literal("privacy_consent"),
  ...base,
  ...labelled,
  ...alwaysRequired,
  options: Schema.Struct({
    mode: withDefault(Schema.Literal("agree_only", "agree_or_decline"), () => "agree_only" as const),
    items: ArrayOf(StrBetween(1, 500), 1, 20),
    purpose: StrBetween(1, 2000),
    retentionPeriod: StrBetween(1, 1000),
    refusalNotice: StrBetween(1, 2000)
  })
})

export const AddressBlock = input("address", emptyOptions)

export const TextRun = Schema.Struct({
  text: Str(4000),
  bold: Schema.optional(Schema.Boolean),
  italic: Schema.optional(Schema.Boolean),
  underline: Schema.optional(Schema.Boolean),
  strike: Schema.optional(Schema.Boolean),
  code: Schema.optional(Schema.Boolean),
  color: Schema.optional(Str(40)),
  bg: Schema.optional(Str(40)),
  href: Schema.optional(Str(2000))
})
export const FieldRef = Schema.Struct({ fieldRef: BlockId })

export const StatementBlock = Schema.Struct({
  type: Schema.Literal("statement"),
  ...base,
  ...labelled,
  ...neverRequired,
  content: Schema.optional(ArrayOf(Schema.Union(TextRun, FieldRef), 0, 500)),
  level: Schema.optional(Schema.Literal(1, 2, 3)),
  align: Schema.optional(Schema.Literal("center", "right")),
  variant: Schema.optional(Schema.Literal("quote", "callout")),
  listStyle: Schema.optional(Schema.Literal("bullet", "number")),
  ...emptyOptions
})

const layout = <T extends string>(type: T) =>
  Schema.Struct({ type: Schema.Literal(type), ...base, ...unlabelled, ...neverRequired, ...emptyOptions })

export const PageBreakBlock = layout("page_break")
export const DividerBlock = layout("divider")

export const ImageBlock = Schema.Struct({
  type: Schema.Literal("image"),
  ...base,
  ...unlabelled,
  ...neverRequired,
  imageKey: Schema.optional(ObjectKey),
  imageAlt: withDefault(Str(300), () => ""),
  width: withDefault(Schema.Literal("small", "medium", "full"), () => "full" as const),
  caption: Schema.optional(Str(1000)),
  imageWidth: Schema.optional(IntBetween(1, 65535)),
  imageHeight: Schema.optional(IntBetween(1, 65535)),
  ...emptyOptions
})

export const CalculatedFieldBlock = Schema.Struct({
  type: Schema.Literal("calculated_field"),
  ...base,
  ...labelled,
  ...neverRequired,
  options: withDefault(
    Schema.Struct({
      expression: withDefault(Str(1000), () => ""),
      precision: Schema.optional(IntBetween(0, 10))
    }),
    () => ({ expression: "" })
  )
})

export const HiddenFieldBlock = Schema.Struct({
  type: Schema.Literal("hidden_field"),
  ...base,
  ...labelled,
  ...neverRequired,
  options: Schema.Struct({
    param: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64), Schema.pattern(/^[A-Za-z0-9_-]+$/)),
    defaultValue: Schema.optional(Str(2000))
  })
})

export const Block = Schema.Union(
  ShortTextBlock,
  LongTextBlock,
  MultipleChoiceBlock,
  CheckboxesBlock,
  DropdownBlock,
  RankingBlock,
  RatingBlock,
  DateBlock,
  DateTimeBlock,
  TimeBlock,
  DateRangeBlock,
  EmailBlock,
  NumberBlock,
  FileUploadBlock,
  SignatureBlock,
  PrivacyConsentBlock,
  AddressBlock,
  StatementBlock,
  PageBreakBlock,
  DividerBlock,
  ImageBlock,
  CalculatedFieldBlock,
  HiddenFieldBlock
).annotations({ identifier: "Block" })
export type Block = typeof Block.Type
export type ChoiceBlock = Extract<Block, { type: "multiple_choice" | "checkboxes" | "dropdown" | "ranking" }>

export const isChoiceBlock = (block: Block): block is ChoiceBlock =>
  block.type === "multiple_choice" ||
  block.type === "checkboxes" ||
  block.type === "dropdown" ||
  block.type === "ranking"
