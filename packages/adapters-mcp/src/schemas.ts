// JSON Schemas for tools/list, generated from the tools' Effect schemas: inputs are strict objects;
// outputs are "the tool's result or the error shape", so every structuredContent we return (success
// or `{ error }`) validates against the declared outputSchema.
import { JSONSchema, Schema } from "effect"

const ERROR_CODES = [
  "unauthorized",
  "forbidden",
  "not_found",
  "invalid",
  "conflict",
  "unprocessable",
  "rate_limited",
  "payload_too_large",
  "unsupported_kind",
  "internal"
] as const

export const ToolError = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Literal(...ERROR_CODES),
    message: Schema.String,
    details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  })
})
export type ToolError = typeof ToolError.Type

type JsonObject = { [key: string]: unknown }

/**
 * Nested `$schema` keys (from documented sub-schemas) are dropped, as only the root may declare one,
 * and so are Effect's placeholder ids (`"$id": "/schemas/unknown"` on every free-form value): the
 * same id twice in one document is an error for JSON Schema validators such as Ajv.
 */
const withoutNestedSchemaKeys = (value: unknown, root = true): unknown => {
  if (Array.isArray(value)) return value.map((v) => withoutNestedSchemaKeys(v, false))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([k, v]) =>
          (root || k !== "$schema") && !(k === "$id" && typeof v === "string" && v.startsWith("/schemas/"))
      )
      .map(([k, v]) => [k, withoutNestedSchemaKeys(v, false)])
  )
}

const make = <A, I>(schema: Schema.Schema<A, I>): JsonObject =>
  withoutNestedSchemaKeys(JSONSchema.make(schema)) as JsonObject

/** The input schema of a tool: a strict object (additionalProperties false). */
export const inputJsonSchema = <A, I>(schema: Schema.Schema<A, I>) => {
  const json = make(schema)
  return { ...json, type: "object" as const }
}

/** The output schema of a tool: its result or the error shape, as an object schema. */
export const outputJsonSchema = <A, I>(schema: Schema.Schema<A, I>) => {
  const json = make(Schema.Union(schema, ToolError))
  return { ...json, type: "object" as const }
}

/** A tool error result: structured, and as text for clients that read only content. */
export const errorResult = (error: ToolError) => ({
  content: [{ type: "text" as const, text: JSON.stringify(error) }],
  structuredContent: error as unknown as Record<string, unknown>,
  isError: true
})
