// The 23 classic block types of forms-api.md with every option, bound, pattern, default and forced
// value, discriminated by `type`. Unknown keys are rejected by the strict decoder.
import { Schema, Effect } from "effect"
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

const withDefault = <S extends Schema.Top>(schema: S, value: () => NoInfer<S["Type"]>) =>
  schema.pipe(Schema.withDecodingDefaultTypeKey(Effect.sync(value)))

export const Presentation = Schema.Struct({
  document: Schema.optionalKey(
    Schema.Struct({
      span: Schema.optionalKey(IntBetween(3, 12)),
      breakBefore: Schema.optionalKey(Schema.Boolean),
      fieldChrome: Schema.optionalKey(Schema.Literals(["full", "field-only"])),
      controlWidth: Schema.optionalKey(Schema.Literals(["auto", "full"]))
    })
  )
})

export const Choice = Schema.Struct({
  id: StrBetween(1, 64),
  label: StrBetween(1, 500),
  imageKey: Schema.optionalKey(ObjectKey),
  imageAlt: Schema.optionalKey(Str(300))
}).annotate({ identifier: "Choice" })
export type Choice = typeof Choice.Type

export const Randomize = Schema.Struct({
  mode: Schema.Literals(["shuffle", "reverse"]),
  pinLast: withDefault(IntBetween(0, 100), () => 0)
})

const Empty = Schema.Struct({}).annotate({
  jsonSchema: { type: "object", properties: {}, additionalProperties: false }
})
const emptyOptions = { options: withDefault(Empty, () => ({})) }

const base = {
  id: BlockId,
  description: Schema.optionalKey(Str(4000)),
  presentation: Schema.optionalKey(Presentation)
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
      maxLength: Schema.optionalKey(
        Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(10000))
      ),
      minLength: Schema.optionalKey(PositiveInt.check(Schema.isLessThanOrEqualTo(Number.MAX_SAFE_INTEGER))),
      pattern: Schema.optionalKey(Str(300)),
      placeholder: Schema.optionalKey(Str(200)),
      inputMode: Schema.optionalKey(Schema.Literals(["text", "tel", "url", "email", "numeric", "decimal"])),
      autoComplete: Schema.optionalKey(Str(40))
    }),
    () => ({})
  )
})

export const LongTextBlock = input("long_text", {
  options: withDefault(
    Schema.Struct({
      maxLength: Schema.optionalKey(
        Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(50000))
      ),
      minLength: Schema.optionalKey(PositiveInt),
      pattern: Schema.optionalKey(Str(300)),
      placeholder: Schema.optionalKey(Str(200))
    }),
    () => ({})
  )
})

const matrixRow = { matrixGroupId: Schema.optionalKey(MatrixGroupId), rowLabel: Schema.optionalKey(Str(500)) }

export const MultipleChoiceBlock = input("multiple_choice", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 1, 100),
    allowOther: Schema.optionalKey(Schema.Boolean),
    qualityTrap: Schema.optionalKey(Schema.Struct({ expectedChoiceId: StrBetween(1, 64) })),
    ...matrixRow,
    randomize: Schema.optionalKey(Randomize)
  })
})

export const CheckboxesBlock = input("checkboxes", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 1, 100),
    minSelected: Schema.optionalKey(PositiveInt),
    maxSelected: Schema.optionalKey(PositiveInt),
    allowOther: Schema.optionalKey(Schema.Boolean),
    ...matrixRow,
    randomize: Schema.optionalKey(Randomize)
  })
})

export const DropdownBlock = input("dropdown", {
  options: Schema.Struct({
    choices: ArrayOf(Choice, 0, 100),
    dataset: Schema.optionalKey(Schema.Literal("countries")),
    randomize: Schema.optionalKey(Randomize)
  })
})

export const RankingBlock = input("ranking", {
  options: Schema.Struct({ choices: ArrayOf(Choice, 1, 100), randomize: Schema.optionalKey(Randomize) })
})

export const RatingBlock = input("rating", {
  options: withDefault(
    Schema.Struct({
      scale: withDefault(IntBetween(2, 11), () => 5),
      shape: withDefault(Schema.Literals(["number", "star", "circle"]), () => "number" as const),
      zeroBased: Schema.optionalKey(Schema.Boolean),
      lowLabel: Schema.optionalKey(Str(60)),
      highLabel: Schema.optionalKey(Str(60))
    }),
    () => ({ scale: 5, shape: "number" as const })
  )
})

const bounds = <S extends Schema.Top>(value: S) => {
  const Bounds = Schema.Struct({ min: Schema.optionalKey(value), max: Schema.optionalKey(value) })
  return withDefault(Bounds, () => ({}) as typeof Bounds.Type)
}

export const DateBlock = input("date", { options: bounds(CalendarDate) })
export const DateTimeBlock = input("datetime", { options: bounds(DateTimeString) })
export const TimeBlock = input("time", { options: bounds(TimeOfDay) })
export const DateRangeBlock = input("date_range", { options: bounds(CalendarDate) })

export const EmailBlock = input("email", {
  options: withDefault(Schema.Struct({ placeholder: Schema.optionalKey(Str(200)) }), () => ({}))
})

export const NumberBlock = input("number", {
  options: withDefault(
    Schema.Struct({
      min: Schema.optionalKey(Schema.Finite),
      max: Schema.optionalKey(Schema.Finite),
      integer: Schema.optionalKey(Schema.Boolean),
      step: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0))),
      placeholder: Schema.optionalKey(Str(200)),
      prefix: Schema.optionalKey(Str(10)),
      suffix: Schema.optionalKey(Str(10)),
      decimals: Schema.optionalKey(IntBetween(0, 10))
    }),
    () => ({})
  )
})

export const FileUploadBlock = input("file_upload", {
  options: withDefault(
    Schema.Struct({
      maxFiles: withDefault(IntBetween(1, 20), () => 1),
      maxSizeMb: withDefault(IntBetween(1, MAX_FILE_UPLOAD_SIZE_MB), () => 10),
      acceptedMimeTypes: Schema.optionalKey(ArrayOf(Str(150), 0, 50))
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
    mode: withDefault(Schema.Literals(["agree_only", "agree_or_decline"]), () => "agree_only" as const),
    items: ArrayOf(StrBetween(1, 500), 1, 20),
    purpose: StrBetween(1, 2000),
    retentionPeriod: StrBetween(1, 1000),
    refusalNotice: StrBetween(1, 2000)
  })
})

export const AddressBlock = input("address", emptyOptions)

export const TextRun = Schema.Struct({
  text: Str(4000),
  bold: Schema.optionalKey(Schema.Boolean),
  italic: Schema.optionalKey(Schema.Boolean),
  underline: Schema.optionalKey(Schema.Boolean),
  strike: Schema.optionalKey(Schema.Boolean),
  code: Schema.optionalKey(Schema.Boolean),
  color: Schema.optionalKey(Str(40)),
  bg: Schema.optionalKey(Str(40)),
  href: Schema.optionalKey(Str(2000))
})
export const FieldRef = Schema.Struct({ fieldRef: BlockId })

export const StatementBlock = Schema.Struct({
  type: Schema.Literal("statement"),
  ...base,
  ...labelled,
  ...neverRequired,
  content: Schema.optionalKey(ArrayOf(Schema.Union([TextRun, FieldRef]), 0, 500)),
  level: Schema.optionalKey(Schema.Literals([1, 2, 3])),
  align: Schema.optionalKey(Schema.Literals(["center", "right"])),
  variant: Schema.optionalKey(Schema.Literals(["quote", "callout"])),
  listStyle: Schema.optionalKey(Schema.Literals(["bullet", "number"])),
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
  imageKey: Schema.optionalKey(ObjectKey),
  imageAlt: withDefault(Str(300), () => ""),
  width: withDefault(Schema.Literals(["small", "medium", "full"]), () => "full" as const),
  caption: Schema.optionalKey(Str(1000)),
  imageWidth: Schema.optionalKey(IntBetween(1, 65535)),
  imageHeight: Schema.optionalKey(IntBetween(1, 65535)),
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
      precision: Schema.optionalKey(IntBetween(0, 10))
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
    param: Schema.String.check(
      Schema.isMinLength(1),
      Schema.isMaxLength(64),
      Schema.isPattern(/^[A-Za-z0-9_-]+$/u)
    ),
    defaultValue: Schema.optionalKey(Str(2000))
  })
})

export const Block = Schema.Union([
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
]).annotate({ identifier: "Block" })
export type Block = typeof Block.Type
export type ChoiceBlock = Extract<Block, { type: "multiple_choice" | "checkboxes" | "dropdown" | "ranking" }>

export const isChoiceBlock = (block: Block): block is ChoiceBlock =>
  block.type === "multiple_choice" ||
  block.type === "checkboxes" ||
  block.type === "dropdown" ||
  block.type === "ranking"
