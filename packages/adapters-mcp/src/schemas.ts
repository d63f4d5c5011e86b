// JSON Schemas for tools/list, generated from the tools' Effect schemas: inputs are strict objects;
// outputs are "the tool's result or the error shape", so every structuredContent we return (success
// or `{ error }`) validates against the declared outputSchema. The error codes are the service's
// error table's, every code a keyed caller can receive.
import { Schema } from "effect"

const makeToolErrorSchema = (codes: ReadonlyArray<string>) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.Literals(codes),
      message: Schema.String,
      details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
    })
  })

/** The error shapes made so far, by code list: one schema per error table, so its documents are kept. */
const toolErrors = new WeakMap<ReadonlyArray<string>, ReturnType<typeof makeToolErrorSchema>>()

/**
 * The tool error shape: `{ error: { code, message, details? } }` with the table's keyed codes. The
 * same code list answers the same schema, so the output documents generated with it (keyed by it,
 * below) are generated once per process, not once per server built.
 */
export const toolErrorSchema = (codes: ReadonlyArray<string>) => {
  let schema = toolErrors.get(codes)
  if (schema === undefined) {
    schema = makeToolErrorSchema(codes)
    toolErrors.set(codes, schema)
  }
  return schema
}

export interface ToolError {
  readonly error: {
    readonly code: string
    readonly message: string
    readonly details?: Readonly<Record<string, unknown>>
  }
}

type JsonObject = { [key: string]: unknown }

/**
 * Nested `$schema` keys (from documented sub-schemas) are dropped, as only the root may declare one,
 * and so are generator placeholder ids (`"$id": "/schemas/..."`): the same id twice in one document
 * is an error for JSON Schema validators such as Ajv.
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

/**
 * The JSON form of a schema (what a client sends and reads) as one self-contained document: the
 * definitions it references under `$defs`. No root `$schema` is declared: the generator writes
 * 2020-12, which the SDK's default (draft-07) validator refuses to load by that name, and both
 * dialects read these schemas the same way.
 */
const make = (schema: Schema.Top): JsonObject => {
  const document = Schema.toJsonSchemaDocument(Schema.toCodecJson(schema), { onExcessProperty: "error" })
  const definitions = document.definitions ?? {}
  return withoutNestedSchemaKeys({
    ...document.schema,
    ...(Object.keys(definitions).length === 0 ? {} : { $defs: definitions })
  }) as JsonObject
}

/**
 * The documents generated so far, by schema (and error shape): a schema's document never changes,
 * and generating every tool's again for each endpoint built (an app start, in tests many per
 * process) took a quarter of a second.
 */
const inputs = new WeakMap<Schema.Top, JsonObject & { type: "object" }>()
const outputs = new WeakMap<Schema.Top, WeakMap<Schema.Top, JsonObject & { type: "object" }>>()

/** The input schema of a tool: a strict object (additionalProperties false). */
export const inputJsonSchema = (schema: Schema.Top) => {
  let json = inputs.get(schema)
  if (json === undefined) {
    json = { ...make(schema), type: "object" as const }
    inputs.set(schema, json)
  }
  return json
}

/** The output schema of a tool: its result or the error shape, as an object schema. */
export const outputJsonSchema = (schema: Schema.Top, toolError: Schema.Top) => {
  let byError = outputs.get(schema)
  if (byError === undefined) {
    byError = new WeakMap()
    outputs.set(schema, byError)
  }
  let json = byError.get(toolError)
  if (json === undefined) {
    json = { ...make(Schema.Union([schema, toolError])), type: "object" as const }
    byError.set(toolError, json)
  }
  return json
}

/** A tool error result: structured, and as text for clients that read only content. */
export const errorResult = (error: ToolError) => ({
  content: [{ type: "text" as const, text: JSON.stringify(error) }],
  structuredContent: error as unknown as Record<string, unknown>,
  isError: true
})
