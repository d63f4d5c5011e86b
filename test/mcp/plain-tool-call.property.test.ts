// The exchange's fast check for a tool call (exchange.ts, `isPlainToolCall`) never lets through a
// message the SDK's schemas would refuse: whatever it accepts is a JSON-RPC request and a valid
// tools/call, so skipping the schemas for it changes no answer.
import { CallToolRequestSchema, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isPlainToolCall } from "../../packages/adapters-mcp/src/exchange.js"

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(undefined, 1.5, -0, 2 ** 60, Number.MAX_SAFE_INTEGER, "", "tools/call", "2.0", [], {})
)

/** Mostly near-valid members, so the generator reaches the accepted shape and its edges. */
const member = <A>(valid: fc.Arbitrary<A>) =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: anyValue })

/** A member that is there one time in `outOf`, with some value. */
const sometimes = (arbitrary: fc.Arbitrary<unknown>, outOf = 4) =>
  fc.oneof({ weight: outOf - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

const params = fc
  .record({
    name: member(fc.string()),
    arguments: sometimes(member(fc.dictionary(fc.string(), fc.jsonValue())), 2),
    _meta: sometimes(member(fc.record({ progressToken: fc.oneof(fc.string(), fc.integer()) }))),
    task: sometimes(member(fc.record({ ttl: fc.integer() }))),
    other: sometimes(anyValue)
  })
  .map((p) => p as Record<string, unknown>)

const message = fc.record({
  jsonrpc: member(fc.constant("2.0")),
  id: member(fc.oneof(fc.string(), fc.integer())),
  method: member(fc.constantFrom("tools/call", "tools/call", "tools/list", "ping")),
  params: member(params),
  extra: sometimes(anyValue)
})

describe("the fast check of a tool call", () => {
  it("accepts only what the SDK's JSON-RPC request and tools/call schemas accept", () => {
    let accepted = 0
    fc.assert(
      fc.property(message, (m) => {
        // As a request body arrives: parsed JSON (no undefined members).
        const parsed = JSON.parse(JSON.stringify(m)) as Record<string, unknown>
        if (!isPlainToolCall(parsed)) return
        accepted++
        expect(isJSONRPCRequest(parsed)).toBe(true)
        expect(CallToolRequestSchema.safeParse(parsed).success).toBe(true)
      }),
      { numRuns: 5_000 }
    )
    // The property is not vacuous: the generator reaches the shape clients send.
    expect(accepted).toBeGreaterThan(100)
  })

  it("takes the calls clients send, and leaves every other shape to the schemas", () => {
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "forms_query", arguments: { action: "get" } }
    }
    expect(isPlainToolCall(call)).toBe(true)
    expect(isPlainToolCall({ ...call, id: "a" })).toBe(true)
    expect(isPlainToolCall({ ...call, params: { name: "forms_query" } })).toBe(true)
    expect(isPlainToolCall({ ...call, id: 2 ** 60 })).toBe(false)
    expect(isPlainToolCall({ ...call, params: { ...call.params, _meta: { progressToken: 1 } } })).toBe(false)
    expect(isPlainToolCall({ ...call, params: { ...call.params, arguments: [] } })).toBe(false)
    expect(isPlainToolCall({ ...call, extra: 1 })).toBe(false)
    expect(isPlainToolCall({ ...call, method: "tools/list" })).toBe(false)
  })
})
