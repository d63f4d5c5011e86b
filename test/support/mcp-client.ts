// The MCP SDK's Client as the tests use it. The SDK checks every tool's structuredContent against
// the tool's outputSchema, and to do so compiles each outputSchema with Ajv every time it lists the
// tools: a new object from each listing, so Ajv's own cache (by object) never hits. A suite that
// connects once per scope or per key listed the same schemas over and over, and Ajv's code
// generation was most of its CPU (mcp.test's first test: ~2.6 s of ~5). Here a validator is made
// once per distinct schema, by its JSON text, with the SDK's own Ajv provider, and shared by every
// client in the worker: each check the SDK makes is still made, by the same validator code.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator
} from "@modelcontextprotocol/sdk/validation"

const sdkValidators = new AjvJsonSchemaValidator()
const made = new Map<string, JsonSchemaValidator<unknown>>()

export const cachedSchemaValidators: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const text = JSON.stringify(schema)
    let validator = made.get(text)
    if (validator === undefined) {
      validator = sdkValidators.getValidator<unknown>(schema)
      made.set(text, validator)
    }
    return validator as JsonSchemaValidator<T>
  }
}

/** The SDK's Client, checking tool output with validators made once per distinct schema. */
export const mcpClient = (name: string) =>
  new Client({ name, version: "1.0.0" }, { jsonSchemaValidator: cachedSchemaValidators })

/**
 * Compiles `schema` with `compile` once per distinct JSON text (a listing's input schemas are new
 * objects each time, the same schemas): the check that each compiles is made once per schema.
 */
export const compileOncePerSchema = (compile: (schema: object) => unknown) => {
  const compiled = new Set<string>()
  return (schema: object): void => {
    const text = JSON.stringify(schema)
    if (compiled.has(text)) return
    compile(schema)
    compiled.add(text)
  }
}
