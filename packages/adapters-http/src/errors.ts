// The forms service's error envelope `{ ok: false, error: { code, message, details? } }`: one
// schema class per status so OpenAPI documents each, and the mapping from domain errors.
import { type DomainError, type ErrorBody, errorBody, Issue } from "@folio/domain"
import { Schema } from "effect"

/** The envelope of one code whose `details` has a documented shape. */
const envelopeWith = <Code extends string, Details extends Schema.Top>(code: Code, details: Details) => ({
  ok: Schema.Literal(false),
  error: Schema.Struct({ code: Schema.Literal(code), message: Schema.String, details })
})

/** The envelope of one code with free-form, optional `details`. */
const envelope = <Code extends string>(code: Code) => envelopeWith(code, Schema.optionalKey(Schema.Unknown))

export class UnauthorizedError extends Schema.Class<UnauthorizedError>("UnauthorizedError")(
  envelope("unauthorized"),
  { httpApiStatus: 401 }
) {}
export class ForbiddenError extends Schema.Class<ForbiddenError>("ForbiddenError")(envelope("forbidden"), {
  httpApiStatus: 403
}) {}
export class NotFoundError extends Schema.Class<NotFoundError>("NotFoundError")(envelope("not_found"), {
  httpApiStatus: 404
}) {}
// `invalid` documents its issues (path, rule, expected, allowed), so clients can rely on them.
export class InvalidError extends Schema.Class<InvalidError>("InvalidError")(
  envelopeWith("invalid", Schema.optionalKey(Schema.Struct({ issues: Schema.Array(Issue) }))),
  { httpApiStatus: 400 }
) {}
export class ConflictError extends Schema.Class<ConflictError>("ConflictError")(envelope("conflict"), {
  httpApiStatus: 409
}) {}
export class UnsupportedKindError extends Schema.Class<UnsupportedKindError>("UnsupportedKindError")(
  envelope("unsupported_kind"),
  { httpApiStatus: 409 }
) {}
export class UnprocessableError extends Schema.Class<UnprocessableError>("UnprocessableError")(
  envelope("unprocessable"),
  { httpApiStatus: 422 }
) {}
export class PayloadTooLargeError extends Schema.Class<PayloadTooLargeError>("PayloadTooLargeError")(
  envelope("payload_too_large"),
  { httpApiStatus: 413 }
) {}
export class RateLimitedError extends Schema.Class<RateLimitedError>("RateLimitedError")(
  envelope("rate_limited"),
  { httpApiStatus: 429 }
) {}
export class InternalError extends Schema.Class<InternalError>("InternalError")(envelope("internal"), {
  httpApiStatus: 500
}) {}

/** Public respondent routes: the form is not taking responses (410), with the author's message. */
export class ClosedError extends Schema.Class<ClosedError>("ClosedError")(
  envelopeWith(
    "closed",
    Schema.Struct({ reason: Schema.Literals(["not_accepting", "closed_at", "max_responses"]) })
  ),
  { httpApiStatus: 410 }
) {}

export type ApiError =
  | UnauthorizedError
  | ForbiddenError
  | NotFoundError
  | InvalidError
  | ConflictError
  | UnsupportedKindError
  | UnprocessableError
  | PayloadTooLargeError
  | RateLimitedError
  | InternalError
  | ClosedError

export const API_ERROR_CLASSES = [
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  InvalidError,
  ConflictError,
  UnsupportedKindError,
  UnprocessableError,
  PayloadTooLargeError,
  RateLimitedError,
  InternalError,
  ClosedError
] as const

export const STATUS_OF_CODE: Record<ApiError["error"]["code"], number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid: 400,
  conflict: 409,
  unsupported_kind: 409,
  unprocessable: 422,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  closed: 410
}

export const isApiError = (u: unknown): u is ApiError => API_ERROR_CLASSES.some((C) => u instanceof C)

const withDetails = (details: unknown) => (details === undefined ? {} : { details })

export const unauthorized = (message: string) =>
  new UnauthorizedError({ ok: false, error: { code: "unauthorized", message } })
export const forbidden = (message: string, details?: unknown) =>
  new ForbiddenError({ ok: false, error: { code: "forbidden", message, ...withDetails(details) } })
export const notFound = (message: string) =>
  new NotFoundError({ ok: false, error: { code: "not_found", message } })
export const invalid = (message: string, issues?: ReadonlyArray<Issue>) =>
  new InvalidError({
    ok: false,
    error: { code: "invalid", message, ...(issues === undefined ? {} : { details: { issues } }) }
  })
export const payloadTooLarge = (message: string) =>
  new PayloadTooLargeError({ ok: false, error: { code: "payload_too_large", message } })
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new RateLimitedError({
    ok: false,
    error: { code: "rate_limited", message, details: { retryAfterSeconds } }
  })
export const internal = () =>
  new InternalError({ ok: false, error: { code: "internal", message: "internal server error" } })

/** The envelope errors of the authenticated API (every code but the public routes' `closed`). */
export type AuthoringError = Exclude<ApiError, ClosedError>

const CLASS_OF_CODE = {
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  invalid: InvalidError,
  conflict: ConflictError,
  unprocessable: UnprocessableError,
  unsupported_kind: UnsupportedKindError,
  rate_limited: RateLimitedError,
  payload_too_large: PayloadTooLargeError,
  internal: InternalError
} as const

/** A domain error as the envelope the client sees. Storage failures never leak their cause. */
export const fromDomainError = (e: DomainError): AuthoringError => {
  const body = errorBody(e)
  const ErrorClass = CLASS_OF_CODE[body.code] as unknown as new (props: {
    ok: false
    error: ErrorBody
  }) => AuthoringError
  return new ErrorClass({ ok: false, error: body })
}
