// The tagged error base shared by every bounded context. Each tag maps to one stable error code of
// the spec's envelope; details are value-free (paths and rules, or the current concurrency token).
import { Schema } from "effect"

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

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: Schema.String
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String,
  requiredScopes: Schema.optionalKey(Schema.Array(Schema.String))
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {}

export class Invalid extends Schema.TaggedError<Invalid>()("Invalid", {
  message: Schema.String,
  issues: Schema.Array(Issue)
}) {}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String,
  details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}) {}

export class Unprocessable extends Schema.TaggedError<Unprocessable>()("Unprocessable", {
  message: Schema.String,
  issues: Schema.optionalKey(Schema.Array(Issue))
}) {}

export class UnsupportedKind extends Schema.TaggedError<UnsupportedKind>()("UnsupportedKind", {
  message: Schema.String
}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfterSeconds: Schema.Finite
}) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String
}) {}

/** A storage or infrastructure failure; surfaces as `internal` and is logged, never shown. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {}

/** Every domain error, for exhaustive mapping in adapters. */
export type DomainError =
  | Unauthorized
  | Forbidden
  | NotFound
  | Invalid
  | Conflict
  | Unprocessable
  | UnsupportedKind
  | RateLimited
  | PayloadTooLarge
  | StorageError

/** The spec's stable error codes, one per tag. */
export const errorCode = {
  Unauthorized: "unauthorized",
  Forbidden: "forbidden",
  NotFound: "not_found",
  Invalid: "invalid",
  Conflict: "conflict",
  Unprocessable: "unprocessable",
  UnsupportedKind: "unsupported_kind",
  RateLimited: "rate_limited",
  PayloadTooLarge: "payload_too_large",
  StorageError: "internal"
} as const satisfies Record<DomainError["_tag"], string>

export const isDomainError = (u: unknown): u is DomainError =>
  typeof u === "object" && u !== null && "_tag" in u && Object.hasOwn(errorCode, String(u._tag))

/** What a client sees of a domain error on any surface: the code, the message, value-free details. */
export interface ErrorBody {
  readonly code: (typeof errorCode)[keyof typeof errorCode]
  readonly message: string
  readonly details?: Readonly<Record<string, unknown>>
}

export const errorBody = (e: DomainError): ErrorBody => {
  const details = (() => {
    switch (e._tag) {
      case "Invalid":
        return { issues: e.issues }
      case "Unprocessable":
        return e.issues === undefined ? undefined : { issues: e.issues }
      case "Conflict":
        return e.details
      case "Forbidden":
        return e.requiredScopes === undefined ? undefined : { requiredScopes: e.requiredScopes }
      case "RateLimited":
        return { retryAfterSeconds: e.retryAfterSeconds }
      default:
        return undefined
    }
  })()
  // A storage failure never shows its cause.
  const message = e._tag === "StorageError" ? "internal server error" : e.message
  return { code: errorCode[e._tag], message, ...(details === undefined ? {} : { details }) }
}
