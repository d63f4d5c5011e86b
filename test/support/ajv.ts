// Ajv for JSON Schema 2020-12 (the dialect Effect 4 exports and OpenAPI 3.1 documents use), with
// ajv-formats, for checking our exported schemas with a real validator.
import * as Ajv2020Module from "ajv/dist/2020.js"
import * as formatsModule from "ajv-formats"

type AjvClass = typeof Ajv2020Module.Ajv2020
type AddFormats = (ajv: InstanceType<AjvClass>) => unknown

// Both packages are CommonJS with ESM-style typings; unwrap their default exports either way.
const unwrap = <T>(mod: unknown): T => (mod as { default?: T }).default ?? (mod as T)

export const makeAjv2020 = (): InstanceType<AjvClass> => {
  const Ajv2020 = unwrap<AjvClass>(unwrap(Ajv2020Module))
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  unwrap<AddFormats>(unwrap(formatsModule))(ajv)
  return ajv
}
