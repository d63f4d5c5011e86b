// JSON Schema documents of the definition, interview and settings schemas, derived from the effect
// schemas (never written twice); used by OpenAPI, MCP tool schemas and external validators.
import { JSONSchema, type Schema } from "effect"
import { FormDefinition } from "./definition/definition.js"
import { InterviewDefinition } from "./interview/definition.js"
import { FormSettings } from "./settings/settings.js"

// The encoded side is what clients send: defaults are optional there.
const make = <A, I>(schema: Schema.Schema<A, I>) => JSONSchema.make(schema)

export const formDefinitionJsonSchema = make(FormDefinition)
export const interviewDefinitionJsonSchema = make(InterviewDefinition)
export const formSettingsJsonSchema = make(FormSettings)
