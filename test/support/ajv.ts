// Ajv (draft-07) with ajv-formats, for checking our exported JSON Schemas with a real validator.
// Both packages are CommonJS with ESM-style typings; unwrap their default exports either way.
import * as AjvModule from "ajv"
import * as Ajv2020Module from "ajv/dist/2020.js"
import * as formatsModule from "ajv-formats"

type AjvClass = typeof AjvModule.Ajv
type AddFormats = (ajv: InstanceType<AjvClass>) => unknown

const unwrap = <T>(mod: unknown): T => (mod as { default?: T }).default ?? (mod as T)

export const makeAjv = (): InstanceType<AjvClass> => {
  const Ajv = AjvModule.Ajv
  const ajv = new Ajv({ strict: false, allErrors: true })
  unwrap<AddFormats>(unwrap(formatsModule))(ajv)
  return ajv
}

/** Ajv for JSON Schema 2020-12, the dialect of OpenAPI 3.1 documents, with ajv-formats. */
export const makeAjv2020 = (): InstanceType<AjvClass> => {
  const Ajv2020 = unwrap<AjvClass>(unwrap(Ajv2020Module))
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  unwrap<AddFormats>(unwrap(formatsModule))(ajv)
  return ajv
}
