// Success bodies are `{ data: ... }`: a schema wrapper so OpenAPI shows the real shape.
import { Schema } from "effect"

export const Data = <S extends Schema.Top>(schema: S) => Schema.Struct({ data: schema })

export const data = <A>(value: A) => ({ data: value })
