// What the operations tools share about their flat, action-keyed inputs beyond the required-field
// check (shared.ts): ids as REST paths take them, and a payload checked against a REST body's schema.
import { RequestInvalid } from "@folio/adapters-http/shared"
import { strictDecoder } from "@folio/domain"
import { Effect, Schema } from "effect"

/** An id as the REST paths take it. */
export const Id = Schema.String.check(Schema.isMaxLength(64))

/** The named fields of `input` that were sent, as one object (a REST body). */
export const pick = <T extends object, K extends keyof T>(input: T, keys: ReadonlyArray<K>) => {
  const out: Partial<Pick<T, K>> = {}
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k]
  return out
}

/**
 * `value` decoded by a REST body's schema (strictly, as REST decodes it): an action whose fields are
 * a union of several bodies is checked against the one it sends.
 */
export const asBody = <A>(schema: Schema.Decoder<A>, action: string) => {
  const decode = strictDecoder(
    schema,
    (issues) => new RequestInvalid({ message: `action ${action} input failed validation`, issues })
  )
  return (value: unknown) => Effect.fromResult(decode(value))
}
