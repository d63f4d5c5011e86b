// `Idempotency-Key` on the sharing routes that create: the header (required on bulk create and
// import, optional elsewhere), an answer encoded once into the bytes that go on the wire, and the
// response that sends those bytes, the first time and on every replay alike.
import type { Idempotent, IdempotentAnswer } from "@folio/domain"
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"

const IdempotencyKeyValue = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255))

/** Bulk create and import require a key of the client's choosing (1 to 255 characters). */
export const RequiredIdempotencyKey = { "idempotency-key": IdempotencyKeyValue }

/** Every other create takes one when sent: the same key and body then create once. */
export const OptionalIdempotencyKey = { "idempotency-key": Schema.optional(IdempotencyKeyValue) }

/**
 * `body` encoded by its wire schema and serialized once, with the status and headers it is answered
 * with: what a replay sends again byte for byte. Our own view failing its schema is a defect.
 */
export const answerAs = <S extends Schema.Top & { readonly EncodingServices: never }>(
  schema: S,
  status: number,
  body: S["Type"],
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<IdempotentAnswer> =>
  Effect.map(Effect.orDie(Schema.encodeEffect(schema)(body)), (encoded) => ({
    status,
    headers,
    body: JSON.stringify(encoded)
  }))

/** The stored answer as the response, its body as stored; a replay says so in `Idempotent-Replayed`. */
export const idempotentResponse = ({ answer, replayed }: Idempotent) =>
  HttpServerResponse.text(answer.body, {
    status: answer.status,
    contentType: "application/json",
    headers: { ...answer.headers, ...(replayed ? { "idempotent-replayed": "true" } : {}) }
  })

/**
 * A create that takes `Idempotency-Key` when sent: without one, `plain` as ever; with one, `keyed`
 * runs it under the key and the stored answer is the response (the first time and on a replay).
 */
export const optionallyIdempotent = <A, E, R, E2, R2>(
  key: string | undefined,
  plain: Effect.Effect<A, E, R>,
  keyed: (key: string) => Effect.Effect<Idempotent, E2, R2>
): Effect.Effect<A | HttpServerResponse.HttpServerResponse, E | E2, R | R2> =>
  key === undefined ? plain : Effect.map(keyed(key), idempotentResponse)
