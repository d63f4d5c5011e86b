// The bases of a refused field: what every sharing refusal answered as `validation_failed` carries,
// the envelope's `field` and a reason its class fixes (never the input). A client reads `field: reason`.
// Built like the kernel's NamedError and RefusedInput, which forms' refusals use.
import { type Cause, Data } from "effect"
import { NamedError, type TaggedErrorClass } from "../../kernel/errors.js"

/** Where a refusal points (`field`, the envelope's) and why (`reason`, fixed by its class). */
export interface FieldRefusalFacts {
  readonly field: string
  readonly reason: string
}

/** An instance of a refused-field class tagged `Tag`. */
export type FieldRefusalOf<Tag extends string> = Cause.YieldableError & {
  readonly _tag: Tag
} & FieldRefusalFacts

/**
 * A refusal of the one field its class names, for a fixed reason:
 * `class TypeImmutable extends RefusedField("TypeImmutable", "type", "cannot change after creation") {}`.
 */
export const RefusedField = <const Tag extends string>(
  tag: Tag,
  field: string,
  reason: string
): TaggedErrorClass<Tag, FieldRefusalFacts> =>
  class extends NamedError(tag, `${field}: ${reason}`) {
    get field() {
      return field
    }
    get reason() {
      return reason
    }
  }

/**
 * A refusal, for a fixed reason, of a field the raise names: a path into the body (`pages.2.id`) or
 * the name of the part or form field refused.
 */
export const RefusedAt = <const Tag extends string>(
  tag: Tag,
  reason: string
): (new (facts: {
  readonly field: string
}) => FieldRefusalOf<Tag>) =>
  class extends Data.TaggedError(tag)<{ readonly field: string }> {
    get reason() {
      return reason
    }
    override get message() {
      return `${this.field}: ${reason}`
    }
  }

/** A refused-field class whose instances also carry `Facts`, built from them. */
export type RefusalWithFacts<Tag extends string, Facts> = new (
  facts: Facts
) => FieldRefusalOf<Tag> & Readonly<Facts>

/**
 * The base of the two below: an error tagged `tag` holding `facts` (assigned as Data.TaggedError
 * assigns its fields: it cannot take a generic shape), its reason worked out from them.
 */
const refusalWith = <const Tag extends string, Facts extends object>(
  tag: Tag,
  reasonOf: (facts: Facts) => string
) =>
  class extends Data.TaggedError(tag) {
    constructor(facts: Facts) {
      super()
      Object.assign(this, facts)
    }
    get reason() {
      // Every fact was assigned in the constructor.
      return reasonOf(this as unknown as Facts)
    }
    override get message() {
      return `${(this as unknown as FieldRefusalFacts).field}: ${this.reason}`
    }
  }

/**
 * A refusal of the one field its class names, for a reason worked out from value-free facts (a limit,
 * a type): `class CollectionFull extends RefusedFieldWith("CollectionFull", "resource", (e: {
 * readonly maxItems: number }) => ...) {}`.
 */
export const RefusedFieldWith = <const Tag extends string, Facts extends object>(
  tag: Tag,
  field: string,
  reasonOf: (facts: Facts) => string
): RefusalWithFacts<Tag, Facts> => {
  class Refusal extends refusalWith(tag, reasonOf) {
    get field() {
      return field
    }
  }
  return Refusal as unknown as RefusalWithFacts<Tag, Facts>
}

/** A refusal of a field the raise names (`field` among its facts), for a reason worked out from them. */
export const RefusedAtWith = <const Tag extends string, Facts extends { readonly field: string }>(
  tag: Tag,
  reasonOf: (facts: Facts) => string
): RefusalWithFacts<Tag, Facts> => refusalWith(tag, reasonOf) as unknown as RefusalWithFacts<Tag, Facts>

/**
 * A field that failed its schema: the generic decode failure, where the schema's first issue names
 * the field (its path) and the reason (the rule's wording, never the input). Everything the service
 * refuses by a rule of its own has a class named for that rule.
 */
export class InvalidField extends Data.TaggedError("InvalidField")<{
  readonly field: string
  readonly reason: string
}> {
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

/** A text field longer than its limit. */
export class FieldTooLong extends RefusedAtWith(
  "FieldTooLong",
  (e: { readonly field: string; readonly maxChars: number }) => `at most ${e.maxChars} characters`
) {}

/** A form field sent more than once where it takes one value. */
export class FieldSentTwice extends RefusedAt("FieldSentTwice", "send this field once") {}

/** The refusals shared by several areas. */
export const FIELD_REFUSALS = [InvalidField, FieldTooLong, FieldSentTwice] as const
