// Success bodies are `{ data: ... }`: a schema wrapper so OpenAPI shows the real shape.
import { Schema } from "effect"

export const Data = <S extends Schema.Top>(schema: S) => Schema.Struct({ data: schema })

export const data = <A>(value: A) => ({ data: value })

/** Something the client should show beside a successful write (the write itself took effect). */
export const WriteWarning = Schema.Struct({
  code: Schema.String.annotate({ description: "Stable code, e.g. `email_not_configured`" }),
  message: Schema.String
}).annotate({ identifier: "WriteWarning" })

/**
 * `{ data, warnings? }`: `warnings` only when there is something to say (e.g. a notification is
 * enabled on a server that cannot send e-mail).
 */
export const DataWithWarnings = <S extends Schema.Top>(schema: S) =>
  Schema.Struct({ data: schema, warnings: Schema.optionalKey(Schema.Array(WriteWarning)) })

export const dataWithWarnings = <A>(
  value: A,
  warnings: ReadonlyArray<{ readonly code: string; readonly message: string }>
) => (warnings.length === 0 ? { data: value } : { data: value, warnings })
