// Decode cost of a realistic 200-block classic definition with 200 logic rules: the server's
// accelerated decoder and effect/Schema (shape only, and shape + semantic checks) against Ajv
// compiled from the exported JSON Schema, one run.
import { isDeepStrictEqual } from "node:util"
import { jsonSchemaShapeCheck } from "@folio/adapters-storage"
import {
  acceleratedFormDefinitionDecoder,
  decodeFormDefinition,
  FormDefinition,
  formDefinitionJsonSchema,
  STRICT_ALL
} from "@folio/domain"
import { Result, Schema } from "effect"
import { makeAjv2020 } from "../test/support/ajv.js"
import { printTable, summarize, writeResult } from "./_stats.js"

const ITERATIONS = 300
const WARMUP = 50

const blk = (n: number) => `blk_${String(n).padStart(8, "0")}`
const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, label: `Option ${i}` }))

/** 200 blocks cycling through the common input types, with realistic options and labels. */
export const realisticDefinition = () => {
  const makers: Array<(i: number) => Record<string, unknown>> = [
    (i) => ({
      type: "short_text",
      label: `What is your answer to question ${i}?`,
      options: { maxLength: 500, placeholder: "Type here" }
    }),
    (i) => ({
      type: "long_text",
      label: `Tell us more about ${i}`,
      description: "Be as detailed as you like.",
      options: { maxLength: 5000 }
    }),
    (i) => ({
      type: "multiple_choice",
      label: `Pick one for ${i}`,
      options: { choices: choices(5), allowOther: true, randomize: { mode: "shuffle", pinLast: 1 } }
    }),
    (i) => ({
      type: "checkboxes",
      label: `Pick several for ${i}`,
      options: { choices: choices(8), minSelected: 1, maxSelected: 3 }
    }),
    (i) => ({ type: "dropdown", label: `Choose ${i}`, options: { choices: choices(12) } }),
    (i) => ({
      type: "rating",
      label: `Rate ${i}`,
      required: true,
      options: { scale: 7, shape: "star", lowLabel: "Poor", highLabel: "Great" }
    }),
    (i) => ({ type: "number", label: `How many ${i}?`, options: { min: 0, max: 1000, integer: true } }),
    (i) => ({ type: "date", label: `When ${i}?`, options: { min: "2024-01-01", max: "2026-12-31" } }),
    (i) => ({ type: "email", label: `Email ${i}`, options: { placeholder: "you@example.com" } }),
    (i) => ({
      type: "statement",
      label: `Section ${i}`,
      content: [{ text: "Thanks so far.", bold: true }, { fieldRef: blk(0) }]
    })
  ]
  const blocks = Array.from({ length: 200 }, (_, i) => ({
    id: blk(i),
    ...(makers[i % makers.length] as (i: number) => Record<string, unknown>)(i)
  }))
  const inputs = blocks.filter((b) => (b as { type?: string }).type !== "statement")
  const logic = Array.from({ length: 200 }, (_, i) => {
    const from = inputs[i % (inputs.length - 1)] as { id: string }
    const fromIndex = blocks.findIndex((b) => b.id === from.id)
    return {
      id: `lgc_rule${String(i).padStart(4, "0")}`,
      from: from.id,
      match: i % 2 === 0 ? "all" : "any",
      conditions: [
        { blk: from.id, op: "is_filled" },
        { blk: from.id, op: "neq", value: "c1" }
      ],
      actions: [
        i % 3 === 0
          ? { type: "skip_to", target: blk(Math.min(199, fromIndex + 1)) }
          : { type: "show", target: blk((i * 7) % 200) }
      ]
    }
  })
  return { schemaVersion: 1, blocks, logic }
}

const time = (fn: () => void): ReturnType<typeof summarize> => {
  for (let i = 0; i < WARMUP; i++) fn()
  const samples: Array<number> = []
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now()
    fn()
    samples.push(performance.now() - t0)
  }
  return summarize(samples)
}

export async function run(): Promise<void> {
  const input = JSON.parse(JSON.stringify(realisticDefinition())) as unknown
  const full = decodeFormDefinition(input)
  if (Result.isFailure(full))
    throw new Error(`benchmark definition is invalid: ${JSON.stringify(full.failure.issues.slice(0, 5))}`)
  const shapeOnly = Schema.decodeUnknownResult(FormDefinition, STRICT_ALL)
  const ajv = makeAjv2020()
  const validate = ajv.compile(formDefinitionJsonSchema)
  if (!validate(input)) throw new Error("Ajv rejects the benchmark definition")

  // What the server decodes definitions with (adapters-storage wires it in): the exported JSON
  // Schema compiled by Ajv as the shape check, then the domain finishing defaults and the checks
  // JSON Schema cannot state, with the strict decoder's results.
  const accelerated = acceleratedFormDefinitionDecoder(jsonSchemaShapeCheck(formDefinitionJsonSchema))
  if (!isDeepStrictEqual(accelerated(input), full)) throw new Error("the accelerated decoder disagrees")
  const acceleratedRun = time(() => accelerated(input))
  const effectFull = time(() => decodeFormDefinition(input))
  const effectShape = time(() => shapeOnly(input))
  const ajvRun = time(() => validate(input))
  const rows = [
    {
      validator: "accelerated decode + semantic checks",
      "median ms": acceleratedRun.median,
      "p99 ms": acceleratedRun.p99,
      "x Ajv (median)": acceleratedRun.median / ajvRun.median
    },
    {
      validator: "effect decode + semantic checks",
      "median ms": effectFull.median,
      "p99 ms": effectFull.p99,
      "x Ajv (median)": effectFull.median / ajvRun.median
    },
    {
      validator: "effect decode (shape only)",
      "median ms": effectShape.median,
      "p99 ms": effectShape.p99,
      "x Ajv (median)": effectShape.median / ajvRun.median
    },
    {
      validator: "Ajv (exported JSON Schema)",
      "median ms": ajvRun.median,
      "p99 ms": ajvRun.p99,
      "x Ajv (median)": 1
    }
  ]
  process.stdout.write(
    `definition: 200 blocks, 200 logic rules, ${JSON.stringify(input).length} bytes; ${ITERATIONS} runs each\n`
  )
  printTable(rows)
  process.stdout.write(
    `\naccelerated decode: ${acceleratedRun.median.toFixed(2)} ms median, ${(acceleratedRun.median / ajvRun.median).toFixed(2)}x Ajv (target: under 2 ms and within 3x of Ajv)\n`
  )
  process.stdout.write(
    `written ${writeResult("validation", { at: new Date().toISOString(), iterations: ITERATIONS, rows })}\n`
  )
}
