// What every bounded context shares about failure: the value-free Issue, the storage failure, and the
// three failures of a keyed request (bad key, over budget, missing scope). Each service names its own
// errors in its errors.ts; codes and statuses belong to the adapters' error tables, not here.
import { Data, Schema } from "effect"

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

/** The presented API key is missing, malformed, unknown or revoked. */
export class Unauthorized extends Data.TaggedError("Unauthorized")<{ readonly message: string }> {}

/** A budget (a key's, or an address's) is spent until the window resets. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly message: string
  readonly retryAfterSeconds: number
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
