// JSON Schema helpers every context uses to document a value it checks itself: the schema written in
// place inside another document, and a codec that decodes anything but documents a full schema.
import { Schema } from "effect"

export type JsonObject = { readonly [key: string]: unknown }

/** A schema's draft 2020-12 JSON Schema with every named part written in place (no `$ref`). */
export const inlineJsonSchemaOf = (schema: Schema.Top): JsonObject =>
  Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error", referencePolicy: () => undefined })
    .schema as JsonObject

/**
 * Accepts any JSON value but documents `schema` in OpenAPI and MCP: for values the domain checks on
 * its own terms (stored documents re-checked on read, bulk items that fail one by one).
 */
export const documentedAs = (schema: Schema.Top, identifier: string): Schema.Codec<unknown> =>
  // Effect 4 writes `Unknown` as `{}` whatever its checks say; `Any` carries the documenting check.
  (Schema.Any as Schema.Codec<unknown>)
    .check(Schema.makeFilter(() => true, { toJsonSchema: () => ({ ...inlineJsonSchemaOf(schema) }) }))
    .annotate({ identifier })
