// The OpenAI-compatible interviewer against a local fake chat-completions server: the request it
// sends, structured output decoded against our schema, retries, timeouts and the deterministic fallback.
import {
  interviewAnalystOutputJsonSchema,
  interviewerOutputJsonSchema,
  makeOpenAiCompatibleAnalyst,
  OpenAiCompatibleInterviewerLive,
  type OpenAiCompatibleInterviewerOptions,
  withDeterministicFallback
} from "@folio/adapters-integrations"
import {
  deterministicInterviewerTurn,
  InterviewDefinition,
  Interviewer,
  type InterviewerInput,
  InterviewerOutput,
  type InterviewSession
} from "@folio/domain"
import { Effect, type Layer, Result, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeChatCompletions, startFakeChatCompletions } from "../support/fake-chat-completions.js"

const label = (en: string) => ({ en })

const definition = Schema.decodeUnknownSync(InterviewDefinition)({
  title: "Reporting study",
  persona: { name: "Mina", tone: "warm" },
  researchBrief: { purpose: "Understand reporting pain", researchQuestions: ["What slows reports down?"] },
  disclosure: { version: "v1", purposeTextByLocale: label("We use answers to improve reports.") },
  locales: { default: "en", supported: ["en"] },
  fields: [
    {
      id: "plan",
      priority: 90,
      labelByLocale: label("your plan"),
      valueType: "single_select",
      requiredness: "hard",
      options: [
        { id: "free", labelByLocale: label("Free") },
        { id: "pro", labelByLocale: label("Pro") }
      ]
    },
    { id: "team", priority: 80, labelByLocale: label("your team size"), valueType: "number" }
  ],
  goals: [
    {
      id: "pain",
      priority: 50,
      labelByLocale: label("Pain"),
      internalRubric: "secret rubric",
      publicPromptHintByLocale: label("What is hardest about reporting?")
    }
  ],
  policy: { maxExchanges: 6 }
})

const session: InterviewSession = {
  messages: [
    {
      id: "m1",
      role: "assistant",
      text: "Which plan are you on?",
      kind: "question",
      target: { type: "field", id: "plan" }
    },
    { id: "m2", role: "user", text: "We are on Pro." }
  ],
  fields: [],
  goals: []
}

const input: InterviewerInput = { definition, locale: "en", session }

const valid: InterviewerOutput = {
  turn: { kind: "question", text: "How big is your team?", target: { type: "field", id: "team" } },
  extractions: [
    { fieldId: "plan", state: "answered", value: "pro", evidence: { start: 10, end: 13 }, confidence: 0.9 }
  ],
  goalCoverage: [],
  completion: { done: false }
}

let fake: FakeChatCompletions

beforeAll(async () => {
  fake = await startFakeChatCompletions()
})
afterAll(async () => {
  await fake.close()
})

const options = (
  more: Partial<OpenAiCompatibleInterviewerOptions> = {}
): OpenAiCompatibleInterviewerOptions => ({
  baseUrl: fake.baseUrl,
  model: "test-model",
  ...more
})

const next = (layer: Layer.Layer<Interviewer>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Interviewer).next(input)
    }).pipe(Effect.result, Effect.provide(layer))
  )

const ok = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) throw new Error(`expected success, got ${JSON.stringify(result.failure)}`)
  return result.success
}
const failure = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}

describe("OpenAiCompatibleInterviewerLive", () => {
  it("sends the model, the structured-output schema, the prompt and transcript, and decodes the answer", async () => {
    fake.script({ content: valid })
    const output = ok(await next(OpenAiCompatibleInterviewerLive(options({ apiKey: "sk-test" }))))
    expect(output).toEqual(valid)

    expect(fake.requests).toHaveLength(1)
    const request = fake.requests[0]
    expect(request?.method).toBe("POST")
    expect(request?.url).toBe("/v1/chat/completions")
    expect(request?.headers.authorization).toBe("Bearer sk-test")
    const body = request?.body as {
      model: string
      messages: Array<{ role: string; content: string }>
      response_format: { type: string; json_schema: { name: string; strict: boolean; schema: unknown } }
    }
    expect(body.model).toBe("test-model")
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "interviewer_output", strict: true, schema: interviewerOutputJsonSchema }
    })
    const schema = body.response_format.json_schema.schema as { required: Array<string> }
    expect(schema.required).toEqual(["turn", "extractions", "goalCoverage", "completion", "emergent"])

    const [system, ...transcript] = body.messages
    expect(system?.role).toBe("system")
    for (const text of [
      "Mina",
      "warm",
      "Understand reporting pain",
      "We use answers to improve reports.",
      "plan",
      "team",
      "pain",
      "maxExchanges"
    ])
      expect(system?.content).toContain(text)
    expect(transcript).toEqual([
      { role: "assistant", content: "Which plan are you on?" },
      { role: "user", content: "We are on Pro." }
    ])
  })

  it("sends no Authorization without a key, and reads nulls for optional keys as absent", async () => {
    fake.script({
      content: {
        ...valid,
        extractions: [
          { ...valid.extractions[0], evidence: { start: 10, end: 13, quote: null }, inferred: null }
        ],
        completion: { done: false, reason: null }
      }
    })
    expect(ok(await next(OpenAiCompatibleInterviewerLive(options())))).toEqual(valid)
    expect(fake.requests[0]?.headers.authorization).toBeUndefined()
  })

  it("fails on malformed JSON without retrying, and the fallback answers with the deterministic turn", async () => {
    fake.script({ content: "{ not json" })
    const error = failure(await next(OpenAiCompatibleInterviewerLive(options())))
    expect(error._tag).toBe("InterviewerFailed")
    expect(error.reason).toMatch(/not JSON/)
    expect(fake.requests).toHaveLength(1)

    fake.script({ content: "{ not json" })
    const fallback = ok(await next(withDeterministicFallback(OpenAiCompatibleInterviewerLive(options()))))
    expect(fallback).toEqual(deterministicInterviewerTurn(input))
    expect(fake.requests).toHaveLength(1)
  })

  it("fails on an answer that does not match InterviewerOutput, without retrying", async () => {
    fake.script({ content: { turn: { kind: "question", text: "Hi" }, extractions: "none" } })
    const error = failure(await next(OpenAiCompatibleInterviewerLive(options())))
    expect(error._tag).toBe("InterviewerFailed")
    expect(error.reason).toMatch(/does not match/)
    expect(fake.requests).toHaveLength(1)
  })

  it("keeps the model's turn when it succeeds behind the fallback", async () => {
    fake.script({ content: valid })
    expect(ok(await next(withDeterministicFallback(OpenAiCompatibleInterviewerLive(options()))))).toEqual(
      valid
    )
  })

  it("retries a 429 after its Retry-After", async () => {
    fake.script(
      { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "slow down" } } },
      { content: valid }
    )
    expect(ok(await next(OpenAiCompatibleInterviewerLive(options())))).toEqual(valid)
    expect(fake.requests).toHaveLength(2)
  })

  it("retries a 5xx", async () => {
    fake.script({ status: 503, headers: { "retry-after": "0" }, body: {} }, { content: valid })
    expect(ok(await next(OpenAiCompatibleInterviewerLive(options())))).toEqual(valid)
    expect(fake.requests).toHaveLength(2)
  })

  it("gives up after maxRetries on a server that always answers 429, with a value-free reason", async () => {
    fake.script({
      status: 429,
      headers: { "retry-after": "0" },
      body: { error: { message: "sk-secret-body" } }
    })
    const error = failure(
      await next(OpenAiCompatibleInterviewerLive(options({ apiKey: "sk-test", maxRetries: 2 })))
    )
    expect(error._tag).toBe("InterviewerFailed")
    expect(error.reason).toMatch(/rate limit/)
    expect(error.reason).not.toMatch(/sk-/)
    expect(fake.requests).toHaveLength(3)
  })

  it("does not retry a 4xx other than 429", async () => {
    fake.script({ status: 400, body: { error: { message: "bad schema" } } })
    const error = failure(await next(OpenAiCompatibleInterviewerLive(options())))
    expect(error.reason).toMatch(/HTTP 400/)
    expect(fake.requests).toHaveLength(1)
  })

  it("times out and aborts a server that never answers, in well under 2 s", async () => {
    fake.script("hang")
    const started = performance.now()
    const error = failure(
      await next(OpenAiCompatibleInterviewerLive(options({ timeoutMs: 300, maxRetries: 1 })))
    )
    const elapsed = performance.now() - started
    expect(error._tag).toBe("InterviewerFailed")
    expect(error.reason).toMatch(/within 300 ms/)
    expect(elapsed).toBeLessThan(1500)
    expect(fake.requests).toHaveLength(2)
    await expect.poll(() => fake.abandoned()).toBe(2)
  })

  it("aborts the request when the fiber is interrupted", async () => {
    fake.script("hang")
    const program = Effect.gen(function* () {
      return yield* (yield* Interviewer).next(input)
    }).pipe(Effect.provide(OpenAiCompatibleInterviewerLive(options({ timeoutMs: 10_000 }))))
    const exit = await Effect.runPromiseExit(program.pipe(Effect.timeout("150 millis")))
    expect(exit._tag).toBe("Failure")
    await expect.poll(() => fake.abandoned()).toBe(1)
  })

  it("answers with the built-in interviewer when the model gives no turn within the deadline", async () => {
    fake.script("hang")
    const started = performance.now()
    const output = ok(
      await next(
        withDeterministicFallback(OpenAiCompatibleInterviewerLive(options({ timeoutMs: 10_000 })), 200)
      )
    )
    expect(output).toEqual(deterministicInterviewerTurn(input))
    expect(performance.now() - started).toBeLessThan(1500)
    await expect.poll(() => fake.abandoned()).toBe(1)
  })

  it("decodes what it sends: a valid output fits the schema it advertises", () => {
    expect(Schema.decodeUnknownSync(InterviewerOutput)(valid)).toEqual(valid)
  })
})

describe("makeOpenAiCompatibleAnalyst", () => {
  const analysisInput = { definition, locale: "en", session, extractedFields: { plan: "pro" } }
  const analysis = {
    summary: "On Pro.",
    sentiment: "neutral" as const,
    keyInfo: [{ label: "Plan", value: "Pro", evidenceMessageIds: ["m2"] }],
    insights: [{ code: "plan_fit", evidenceMessageIds: ["m2"] }]
  }
  const analyze = (more: Partial<OpenAiCompatibleInterviewerOptions> = {}) =>
    Effect.runPromise(Effect.result(makeOpenAiCompatibleAnalyst(options(more)).analyze(analysisInput)))

  it("asks for the analysis schema with the numbered transcript, and decodes the answer", async () => {
    fake.script({ content: analysis })
    expect(ok(await analyze())).toEqual(analysis)
    const body = fake.requests[0]?.body as {
      messages: Array<{ role: string; content: string }>
      response_format: { json_schema: { name: string; strict: boolean; schema: unknown } }
    }
    expect(body.response_format.json_schema).toEqual({
      name: "interview_analysis",
      strict: true,
      schema: interviewAnalystOutputJsonSchema
    })
    expect(body.messages[1]).toEqual({
      role: "user",
      content: "[m1] assistant: Which plan are you on?\n[m2] user: We are on Pro."
    })
    expect(body.messages[0]?.content).toContain('Extracted fields: {"plan":"pro"}')
  })

  it("fails with InterviewAnalystFailed on an answer that does not match, and on a refusal", async () => {
    fake.script({ content: { summary: "x" } })
    const mismatch = failure(await analyze())
    expect(mismatch._tag).toBe("InterviewAnalystFailed")
    expect(mismatch.reason).toMatch(/does not match interview_analysis/)
    fake.script({ status: 401, body: { error: "no" } })
    expect(failure(await analyze()).reason).toMatch(/HTTP 401/)
  })
})
