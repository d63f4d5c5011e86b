// Ajv (draft-07) with ajv-formats, for checking our exported JSON Schemas with a real validator.
// Both packages are CommonJS with ESM-style typings; unwrap their default exports either way.
import * as AjvModule from "ajv"
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
