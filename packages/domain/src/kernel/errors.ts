// What every bounded context shares about failure: the value-free Issue, the storage failure, and the
// three failures of a keyed request (bad key, over budget, missing scope). Each service names its own
// errors in its errors.ts; codes and statuses belong to the adapters' error tables, not here.
import { type Cause, Data, Schema } from "effect"

/**
 * One value-free validation issue: where it is and which rule it broke, never the input itself;
 * `expected` says in words what the schema wanted, `allowed` lists the values of an enumeration.
 */
export const Issue = Schema.Struct({
  path: Schema.Array(Schema.Union([Schema.String, Schema.Finite])),
  rule: Schema.String,
  expected: Schema.optionalKey(Schema.String),
  allowed: Schema.optionalKey(
    Schema.Array(Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Null]))
  )
})
export type Issue = typeof Issue.Type

/** An error class whose instances are tagged `Tag` and carry `Facts`. */
export type TaggedErrorClass<Tag extends string, Facts = {}> = new () => Cause.YieldableError & {
  readonly _tag: Tag
} & Readonly<Facts>

/**
 * The base of a failure whose name says it all, with a fixed message:
 * `class FormNotFound extends NamedError("FormNotFound", "form not found") {}`.
 */
export const NamedError = <const Tag extends string>(tag: Tag, message: string): TaggedErrorClass<Tag> =>
  class extends Data.TaggedError(tag) {
    override get message() {
      return message
    }
  }

/** The base of a refused input whose name says it all: a fixed message and fixed value-free issues. */
export const RefusedInput = <const Tag extends string>(
  tag: Tag,
  message: string,
  issues: ReadonlyArray<Issue>
): TaggedErrorClass<Tag, { readonly issues: ReadonlyArray<Issue> }> =>
  class extends NamedError(tag, message) {
    get issues(): ReadonlyArray<Issue> {
      return issues
    }
  }

/**
 * Where a request budget stands after a request: what the answer's `X-RateLimit-*` headers report
 * (`allowed` false = the request was over it).
 */
export interface RateDecision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Whole seconds until the window resets (at least 1 while it runs). */
  readonly resetSeconds: number
}

/**
 * The presented API key is missing, malformed, unknown or revoked; `budget` is the address's attempt
 * budget the failure was charged to, which the answer still reports.
 */
export class Unauthorized extends Data.TaggedError("Unauthorized")<{
  readonly message: string
  readonly budget?: RateDecision | undefined
}> {}

/** A budget (a key's, or an address's) is spent until the window resets; `budget` is that one. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly message: string
  readonly retryAfterSeconds: number
  readonly budget?: RateDecision | undefined
}> {}

/** The caller's key lacks a scope; `requiredScopes` is every scope the request needs. */
export class InsufficientScope extends Data.TaggedError("InsufficientScope")<{
  readonly message: string
  readonly requiredScopes: ReadonlyArray<string>
}> {}

/** A storage or infrastructure failure; logged with its cause, never shown. */
export class StorageError extends Data.TaggedError("StorageError")<{
  readonly message: string
  readonly cause?: unknown
}> {}
