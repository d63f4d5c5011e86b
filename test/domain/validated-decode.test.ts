// The accelerated definition decoder (Ajv compiled from the exported JSON Schema, then the domain
// finishing defaults and the checks JSON Schema cannot state) answers exactly what the strict
// decoder answers: the same value for valid input, the same failure and issues for invalid input.
import { jsonSchemaShapeCheck } from "@folio/adapters-storage"
import {
  acceleratedDecoder,
  authoringIssues,
  decodeAuthoredFormDefinition,
  encodeFormDefinition,
  FormDefinition,
  formDefinitionJsonSchema,
  semanticIssues
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { definitionShape, validDefinitionArb } from "./arbitraries.js"

const conforms = jsonSchemaShapeCheck(formDefinitionJsonSchema)
let strictCalls = 0
const fast = acceleratedDecoder(
  FormDefinition,
  (input) => {
    strictCalls++
    return decodeAuthoredFormDefinition(input)
  },
  (d) => semanticIssues(d).length === 0 && authoringIssues(d).length === 0,
  conforms
)
/** The wire form of a definition: what a client sends after the server's encoding. */
const wire = (definition: Parameters<typeof encodeFormDefinition>[0]): unknown =>
  JSON.parse(JSON.stringify(encodeFormDefinition(definition)))

// Edits that JSON Schema alone would let through, or that break a rule elsewhere in the tree.
const TRICKY_TEXT = [
  // n code points but 2n UTF-16 units: over a 200, 500 or 2000 limit for Effect, not for JSON Schema.
  "😀".repeat(150),
  "😀".repeat(300),
  "😀".repeat(1200),
  "2021-02-30",
  "2021-02-30T10:00",
  "24:00",
  "javascript:alert(1)",
  "\u0000",
  "x".repeat(5000)
]
type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }
/**
 * Replaces one string or number of the tree (the `pick`-th, modulo how many there are), or adds an
 * unknown key to one of its objects.
 */
const mutate = (value: Json, pick: number, replacement: Json, addKey: boolean): Json => {
  const targets = (v: Json): number =>
    Array.isArray(v)
      ? v.reduce((n: number, x: Json) => n + targets(x), 0)
      : v !== null && typeof v === "object"
        ? (addKey ? 1 : 0) + Object.values(v).reduce((n: number, x) => n + targets(x), 0)
        : !addKey && (typeof v === "string" || typeof v === "number")
          ? 1
          : 0
  const count = targets(value)
  if (count === 0) return value
  const chosen = pick % count
  let n = 0
  const go = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(go)
    if (v !== null && typeof v === "object") {
      const out: Record<string, Json> = {}
      const mine = addKey && n++ === chosen
      for (const [k, x] of Object.entries(v)) out[k] = go(x)
      if (mine) out.unexpected = 1
      return out
    }
    if (!addKey && (typeof v === "string" || typeof v === "number") && n++ === chosen) return replacement
    return v
  }
  return go(value)
}

/** Removes one key (the `pick`-th, modulo how many there are) from an object of the tree. */
const dropKey = (value: Json, pick: number): Json => {
  const keys = (v: Json): number =>
    Array.isArray(v)
      ? v.reduce((n: number, x: Json) => n + keys(x), 0)
      : v !== null && typeof v === "object"
        ? Object.values(v).reduce((n: number, x) => n + 1 + keys(x), 0)
        : 0
  const count = keys(value)
  if (count === 0) return value
  const chosen = pick % count
  let n = 0
  const go = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(go)
    if (v === null || typeof v !== "object") return v
    const out: Record<string, Json> = {}
    for (const [k, x] of Object.entries(v)) if (n++ !== chosen) out[k] = go(x)
    return out
  }
  return go(value)
}

describe("the accelerated definition decoder", () => {
  it("decodes every valid definition to exactly the strict decoder's value, through the fast path", () => {
    fc.assert(
      fc.property(validDefinitionArb, (definition) => {
        const input = wire(definition)
        expect(conforms(input)).toBe(true)
        const strict = decodeAuthoredFormDefinition(input)
        const calls = strictCalls
        expect(fast(input)).toStrictEqual(strict)
        // Decoded without the strict decoder: the fast path itself produced the value.
        expect(strictCalls).toBe(calls)
        expect(Result.isSuccess(strict)).toBe(true)
      }),
      { numRuns: 150 }
    )
  })

  it("answers a raw generated shape, valid or not, exactly as the strict decoder", () => {
    fc.assert(
      fc.property(definitionShape, (definition) => {
        const input = wire(definition)
        expect(fast(input)).toStrictEqual(decodeAuthoredFormDefinition(input))
      }),
      { numRuns: 150 }
    )
  })

  it("refuses every edited definition with the strict decoder's issues, and accepts the same ones", () => {
    fc.assert(
      fc.property(
        validDefinitionArb,
        fc.nat(2_000),
        fc.oneof(fc.constantFrom(...TRICKY_TEXT), fc.integer(), fc.double(), fc.constant(null)),
        fc.boolean(),
        (definition, pick, replacement, addKey) => {
          const input = mutate(wire(definition) as Json, pick, replacement, addKey)
          expect(fast(input)).toStrictEqual(decodeAuthoredFormDefinition(input))
        }
      ),
      { numRuns: 400 }
    )
  })

  it("refuses Infinity and NaN wherever a number or text goes, as the strict decoder does", () => {
    // No JSON body holds them, but a definition built in JavaScript may (an embedder's, a test's).
    const definitions = fc.sample(validDefinitionArb, { seed: 62, numRuns: 5 })
    const rules = new Set<string>()
    for (const definition of definitions) {
      const input = wire(definition) as Json
      for (let pick = 0; pick < 200; pick++)
        for (const replacement of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
          const edited = mutate(input, pick, replacement as Json, false)
          const strict = decodeAuthoredFormDefinition(edited)
          expect(fast(edited)).toStrictEqual(strict)
          if (Result.isFailure(strict)) for (const issue of strict.failure.issues) rules.add(issue.rule)
        }
    }
    // Some edits reached a number the strict decoder refuses for not being finite.
    expect(rules.has("finite")).toBe(true)
  })

  it("fills every default the strict decoder fills, whichever keys the input leaves out", () => {
    fc.assert(
      fc.property(validDefinitionArb, fc.array(fc.nat(5_000), { maxLength: 12 }), (definition, picks) => {
        let input = wire(definition) as Json
        for (const pick of picks) input = dropKey(input, pick)
        expect(fast(input)).toStrictEqual(decodeAuthoredFormDefinition(input))
      }),
      { numRuns: 300 }
    )
  })

  it("never changes the input it was given", () => {
    fc.assert(
      fc.property(validDefinitionArb, (definition) => {
        const input = wire(definition)
        const before = JSON.stringify(input)
        fast(input)
        expect(JSON.stringify(input)).toBe(before)
      }),
      { numRuns: 50 }
    )
  })
})
