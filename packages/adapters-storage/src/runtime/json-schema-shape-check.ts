// Ajv compiled from a JSON Schema the domain exports, as the quick shape check in front of the
// domain's accelerated decoders (kernel/validated-decode.ts): generated code, no second schema.
import {
  acceleratedFormDefinitionDecoder,
  FormDefinitionDecoder,
  formDefinitionJsonSchema
} from "@folio/domain"
import { createRequire } from "node:module"
import type { Ajv2020 as Ajv2020Class } from "ajv/dist/2020.js"
import { Layer } from "effect"

/**
 * Ajv, required at the first compile (synchronously: the decoders it serves are synchronous); a
 * process that decodes no definition never loads it.
 */
let Ajv2020: typeof Ajv2020Class | undefined
const ajvClass = (): typeof Ajv2020Class =>
  (Ajv2020 ??= (createRequire(import.meta.url)("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020Class })
    .Ajv2020)

/**
 * The checks compiled so far, by document: compiling one took ~170 ms, paid again by every app
 * built in the same process (tests build many). A compiled check holds no state between calls.
 */
const checks = new WeakMap<object, (input: unknown) => boolean>()

/**
 * True when `input` has the shape the document describes. Formats are left to the domain (its own
 * checks run again after this one), and the first error ends the check: a refused input goes on to
 * the strict decoder, which reports every issue. A number must be finite (`strictNumbers`), as
 * JSON's always are: the accelerated decoder counts finiteness as a check the schema states, and
 * an input built in JavaScript rather than parsed (an embedder's, a test's) may hold Infinity or
 * NaN, which Ajv would otherwise take for numbers.
 */
export const jsonSchemaShapeCheck = (document: object): ((input: unknown) => boolean) => {
  let check = checks.get(document)
  if (check === undefined) {
    const ajv = new (ajvClass())({
      strict: false,
      strictNumbers: true,
      allErrors: false,
      validateFormats: false
    })
    const validate = ajv.compile(document)
    check = (input) => validate(input) === true
    checks.set(document, check)
  }
  return check
}

/**
 * Classic definitions decoded by the accelerated decoder: the strict decoder's answers, faster. The
 * check is compiled when the first definition is decoded, not when the layer is built: a server
 * start (and a CLI call, which decodes none) would otherwise pay ~0.25 s for it.
 */
export const AcceleratedFormDefinitionDecoderLive = Layer.sync(FormDefinitionDecoder, () => {
  let check: ((input: unknown) => boolean) | undefined
  return acceleratedFormDefinitionDecoder((input) => {
    check ??= jsonSchemaShapeCheck(formDefinitionJsonSchema)
    return check(input)
  })
})
