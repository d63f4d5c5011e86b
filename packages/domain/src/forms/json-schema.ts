// JSON Schema documents of the definition, interview and settings schemas, derived from the effect
// schemas (never written twice); used by OpenAPI, MCP tool schemas and external validators.
import { Schema } from "effect"
import { FormDefinition } from "./definition/definition.js"
import { InterviewDefinition } from "./interview/definition.js"
import { FormSettings } from "./settings/settings.js"
import type { JsonObject } from "../kernel/json-schema.js"

/**
 * A standalone draft 2020-12 document of what clients send (the encoded side: defaults are optional
 * there), unknown keys refused as the decoders refuse them.
 */
const make = (schema: Schema.Top): JsonObject => {
  const doc = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  const defs = Object.keys(doc.definitions).length === 0 ? {} : { $defs: doc.definitions }
  return { $schema: "https://json-schema.org/draft/2020-12/schema", ...doc.schema, ...defs }
}

export const formDefinitionJsonSchema = make(FormDefinition)
export const interviewDefinitionJsonSchema = make(InterviewDefinition)
export const formSettingsJsonSchema = make(FormSettings)
