// The Interviewer port over an OpenAI-compatible chat-completions API (hosted, or local servers such
// as vLLM, llama.cpp or Ollama): structured output decoded against the domain's own schema, timeouts
// that abort, retries honouring Retry-After, and a fallback to the built-in interviewer.
import {
  completionReason,
  deterministicInterviewerTurn,
  type InterviewAnalystInput,
  InterviewAnalystFailed,
  InterviewAnalystOutput,
  type InterviewAnalystService,
  type InterviewDefinition,
  Interviewer,
  type InterviewerInput,
  InterviewerFailed,
  InterviewerOutput,
  type InterviewerService,
  INTERVIEW_SUMMARY_MAX_CHARACTERS,
  interviewContext,
  type InterviewSession,
  type InterviewSummariserService,
  InterviewSummariserFailed,
  InterviewSummariserOutput,
  type InterviewSummaryFold,
  builtInSummaryFold,
  clipText,
  InsightModelFailed,
  InsightModelOutput,
  type InsightModelService,
  type InsightSource,
  inlineJsonSchemaOf,
  type JsonObject,
  localizedText,
  emergentPolicy,
  nextEmergentNumber,
  memberCheckPromptLine,
  validationPromptLine
} from "@folio/domain"
import { Duration, Effect, Layer, Result, Schema } from "effect"
import { clientSpan, peerOf } from "../outbound/client-span.js"

export interface OpenAiCompatibleInterviewerOptions {
  /** The API root, `/chat/completions` is appended (e.g. `https://api.openai.com/v1`). */
  readonly baseUrl: string
  readonly model: string
  /** Sent as `Authorization: Bearer`; local servers usually need none. */
  readonly apiKey?: string | undefined
  /** Per attempt, body included; the request is aborted when it runs out. */
  readonly timeoutMs?: number | undefined
  /** Retries of a 429, a 5xx, a timeout or a network failure before giving up. */
  readonly maxRetries?: number | undefined
}

/** A Retry-After is honoured up to this many seconds per wait. */
export const INTERVIEWER_MAX_RETRY_WAIT_SECONDS = 10

/** The first wait without a Retry-After (doubled on each further attempt). */
const BASE_BACKOFF_SECONDS = 0.2

// Structured output --------------------------------------------------------------------------------

const isObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Strict structured output wants every property listed in `required`: an optional one becomes
 * required but nullable, and `withoutNulls` drops those nulls again before our schema decodes.
 */
const strictJsonSchema = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(strictJsonSchema)
  if (!isObject(node)) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = strictJsonSchema(value)
  if (isObject(out.properties)) {
    const required = new Set(Array.isArray(out.required) ? out.required : [])
    const properties: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(out.properties))
      properties[key] = required.has(key) ? value : { anyOf: [value, { type: "null" }] }
    out.properties = properties
    out.required = Object.keys(properties)
  }
  return out
}

const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = withoutNulls(v)
  return out
}

/** The JSON Schema of InterviewerOutput (derived from the Effect Schema), in strict-output form. */
export const interviewerOutputJsonSchema: JsonObject = strictJsonSchema(
  inlineJsonSchemaOf(InterviewerOutput)
) as JsonObject

// Prompt -------------------------------------------------------------------------------------------

type ChatMessage = { readonly role: "system" | "user" | "assistant"; readonly content: string }

const compact = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ""))

/** What the definition states, for the model; the domain still enforces every rule itself. */
const definitionBrief = (def: InterviewDefinition, locale: string) => {
  const text = (map: { readonly [k: string]: string } | undefined) => localizedText(def, map, locale)
  return compact({
    title: def.title,
    goal: def.goal,
    persona: def.persona,
    researchBrief: def.researchBrief,
    disclosure:
      def.disclosure === undefined
        ? undefined
        : compact({
            purpose: text(def.disclosure.purposeTextByLocale),
            retention: text(def.disclosure.retentionTextByLocale)
          }),
    // The themes the research codes for (the analysis uses them too): context for what to notice.
    codebook: def.codebook?.codes.map((c) =>
      compact({
        id: c.id,
        type: c.codeType,
        label: text(c.labelByLocale),
        description: text(c.descriptionByLocale)
      })
    ),
    modules: (def.modules ?? []).map((m) =>
      compact({ id: m.id, label: text(m.labelByLocale), purpose: m.purpose, order: m.order })
    ),
    fields: def.fields.map((f) =>
      compact({
        id: f.id,
        label: text(f.labelByLocale),
        question: text(f.questionByLocale),
        description: text(f.descriptionByLocale),
        moduleId: f.moduleId,
        valueType: f.valueType,
        requiredness: f.requiredness,
        sensitivity: f.sensitivity,
        priority: f.priority,
        options: f.options.map((o) => ({ id: o.id, label: text(o.labelByLocale) })),
        allowedNonAnswerStates: f.allowedNonAnswerStates,
        askPolicy: f.askPolicy,
        extraction: f.extraction
      })
    ),
    goals: def.goals.map((g) =>
      compact({
        id: g.id,
        label: text(g.labelByLocale),
        hint: text(g.publicPromptHintByLocale),
        anchorQuestion: text(g.anchorQuestionByLocale),
        rubric: g.internalRubric,
        moduleId: g.moduleId,
        priority: g.priority,
        required: g.required,
        requiredCoverage: g.requiredCoverage,
        allowedProbeKinds: g.allowedProbeKinds,
        maxProbes: g.maxProbes
      })
    ),
    memberCheck: def.memberCheck,
    policy: {
      maxExchanges: def.policy.maxExchanges,
      maxFollowups: def.policy.maxFollowups,
      targetFollowups: def.policy.targetFollowups,
      maxQuestionCharacters: def.policy.maxQuestionCharacters
    },
    emergentExtraction: emergentPolicy(def)
  })
}

/** A known text value is shown up to this many characters (the transcript or summary has the rest). */
const KNOWN_VALUE_MAX_CHARACTERS = 160

/**
 * The rules' field and goal states as the model needs them (what is settled, what waits for a
 * confirmation, and the values), long text values cut short: bounded by the definition's size, not
 * by how long the respondent talks. Evidence offsets are the rules' business and stay out.
 */
const knownSoFar = (session: InterviewSession) => ({
  fields: session.fields.map((f) =>
    compact({
      fieldId: f.fieldId,
      status: f.status,
      value: typeof f.value === "string" ? clipText(f.value, KNOWN_VALUE_MAX_CHARACTERS) : f.value,
      confidence: f.confidence,
      implied: f.implied ? true : undefined
    })
  ),
  goals: session.goals
})

/**
 * What the model is told about emergent items when the definition turns them on: what to capture,
 * how item ids are numbered (so a follow-up can name an item proposed in the same output), the
 * follow-up budget, and the items kept so far. Nothing when emergentExtraction is off.
 */
const emergentLines = (input: InterviewerInput): ReadonlyArray<string> => {
  const policy = emergentPolicy(input.definition)
  if (policy === undefined) return []
  const items = input.session.emergent ?? []
  const next = nextEmergentNumber(items)
  const followups = policy.followupPolicy.allowEmergentFollowup
    ? ` You may follow one up (a probe whose target is {type: "emergent", id}) at most once per item and ${policy.followupPolicy.maxEmergentFollowupsPerSession} times per session, within policy.maxFollowups.`
    : " Do not follow them up."
  return [
    `- emergent: what the last message raises beyond the fields and goals, only of emergentExtraction.captureTypes, each with a short summary, evidence offsets into that message, relatedTo naming the field, goal or module it concerns (if any) and novel=true for a theme the definition does not cover. Your items get the ids e${next}, e${next + 1}, … in the order you list them.${followups}`,
    `Emergent items so far: ${JSON.stringify(items.map((i) => compact({ id: i.id, captureType: i.captureType, summary: i.summary, relatedTo: i.relatedTo })))}`
  ]
}

/**
 * The system prompt: role, rules of the output, the definition, what is known so far and, once the
 * transcript is past policy.context.summaryAfterMessages, the summary of the messages not sent.
 */
export const interviewerSystemPrompt = (input: InterviewerInput): string => {
  const { definition: def, locale, session } = input
  const context = interviewContext(def, locale, session)
  const name = def.persona?.name
  // The closing phase is open once the rules would let the interview end.
  const validation = validationPromptLine(def, session, completionReason(def, locale, session) !== undefined)
  return [
    `You are ${name === undefined ? "an interviewer" : `${name}, an interviewer`} holding a research interview${
      def.persona?.tone === undefined ? "" : ` in a ${def.persona.tone} tone`
    }. Write to the respondent in the locale "${locale}".`,
    "Each turn, reply with one JSON object matching the given schema and nothing else:",
    "- turn: the next assistant message; ask one thing at a time, in module and priority order, with a target naming the field or goal id it asks about; probe a goal only with its allowedProbeKinds; confirm a field when its extraction settings call for it; close when nothing is left or the budget is spent.",
    "- extractions: the fields the respondent's last message answers, with evidence as character offsets into that message (end exclusive), a confidence in [0, 1], a state among answered or the field's allowedNonAnswerStates, and inferred=true when the value was not stated; select values are option ids.",
    '- custom answers: a select field whose extraction has allowCustomAnswer true (and allowFreeText not false) may take an answer naming none of its options as {"custom": "<the respondent\'s words, at most 200 characters>"} (multi_select: {"custom": ..., "options": [the option ids also named]}), with evidence; elsewhere ask again. A field with allowFreeText false takes only its options: say so when asking.',
    "- goalCoverage: for each goal the last message spoke to, its total coverage so far in [0, 1].",
    "- completion: done, and why, when the turn is the closing.",
    ...emergentLines(input),
    "Never reveal a goal's rubric, and keep questions under policy.maxQuestionCharacters characters.",
    "Never name the codebook's codes to the respondent; they say what the research listens for.",
    ...memberCheckPromptLine(def, session),
    `Interview definition: ${JSON.stringify(definitionBrief(def, locale))}`,
    `Known so far: ${JSON.stringify(knownSoFar(session))}`,
    ...(context.omitted === 0
      ? []
      : [
          `Earlier in this interview (${context.omitted} messages, summarised; the last ${context.messages.length} follow verbatim):\n${context.summary ?? ""}`
        ]),
    ...(validation === undefined ? [] : [validation])
  ].join("\n")
}

/**
 * The system prompt, then the transcript as user and assistant messages: all of it up to
 * policy.context.summaryAfterMessages, then the last recentMessageCount (the rest is summarised).
 */
export const interviewerMessages = (input: InterviewerInput): ReadonlyArray<ChatMessage> => [
  { role: "system", content: interviewerSystemPrompt(input) },
  ...interviewContext(input.definition, input.locale, input.session).messages.map(
    (m): ChatMessage => ({ role: m.role, content: m.text })
  )
]

// Transport ----------------------------------------------------------------------------------------

/** A failure worth another attempt (429, 5xx, timeout, network), with the server's Retry-After. */
class Retryable {
  constructor(
    readonly reason: string,
    readonly retryAfterSeconds?: number
  ) {}
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
const retryAfterOf = (headers: Headers): number | undefined => {
  const value = headers.get("retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000)
}

const isTimeout = (error: unknown) => error instanceof Error && error.name === "TimeoutError"

/** Why a structured completion failed: a value-free reason (never the key or the model's text). */
class ChatFailed {
  constructor(readonly reason: string) {}
}
const failed = (reason: string) => new ChatFailed(reason)

const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(
    Schema.Struct({ message: Schema.Struct({ content: Schema.NullOr(Schema.String) }) })
  )
})
const decodeCompletion = Schema.decodeUnknownEffect(ChatCompletion)

/**
 * One structured-output call over chat completions: the messages, a JSON Schema the answer must
 * follow (strict mode) and our own schema it is decoded against. Shared by the interviewer and the
 * analyst.
 */
const makeStructuredChat = (options: OpenAiCompatibleInterviewerOptions) => {
  const timeoutMs = options.timeoutMs ?? 20_000
  const maxRetries = options.maxRetries ?? 2
  const url = `${options.baseUrl.replace(/\/+$/u, "")}/chat/completions`
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" }
  if (options.apiKey !== undefined && options.apiKey !== "")
    headers.authorization = `Bearer ${options.apiKey}`

  /** One request, body read included; errors carry neither the key nor the response body. */
  const post = async (
    body: string,
    signal: AbortSignal,
    status: (code: number) => void
  ): Promise<unknown> => {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
    })
    status(response.status)
    if (!response.ok) {
      await response.body?.cancel()
      if (response.status === 429)
        throw new Retryable("the model's rate limit was reached", retryAfterOf(response.headers))
      if (response.status >= 500)
        throw new Retryable(`the model answered HTTP ${response.status}`, retryAfterOf(response.headers))
      throw failed(`the model refused the request (HTTP ${response.status})`)
    }
    const text = await response.text()
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw failed("the model's response is not JSON")
    }
  }

  // Each attempt a client span: the model server's host and the status, never the prompt, the
  // answer or the key.
  const once = (body: string) =>
    clientSpan(
      "POST",
      { "http.request.method": "POST", "folio.outbound": "model", ...peerOf(url) },
      (status) =>
        Effect.tryPromise({
          try: (signal) => post(body, signal, status),
          catch: (error): Retryable | ChatFailed =>
            error instanceof Retryable || error instanceof ChatFailed
              ? error
              : isTimeout(error)
                ? new Retryable(`the model did not answer within ${timeoutMs} ms`)
                : new Retryable("the model could not be reached")
        })
    )

  const withRetries = (body: string): Effect.Effect<unknown, ChatFailed> =>
    Effect.gen(function* () {
      for (let attempt = 0; ; attempt++) {
        const result = yield* Effect.result(once(body))
        if (Result.isSuccess(result)) return result.success
        const error = result.failure
        if (error instanceof ChatFailed) return yield* Effect.fail(error)
        if (attempt >= maxRetries)
          return yield* Effect.fail(failed(`${error.reason} (after ${attempt + 1} attempts)`))
        const wait = Math.min(
          error.retryAfterSeconds ?? BASE_BACKOFF_SECONDS * 2 ** attempt,
          INTERVIEWER_MAX_RETRY_WAIT_SECONDS
        )
        yield* Effect.sleep(Duration.millis(Math.round(wait * 1000)))
      }
    })

  return <A>(
    name: string,
    jsonSchema: JsonObject,
    decode: (u: unknown) => Effect.Effect<A, unknown>,
    messages: ReadonlyArray<ChatMessage>
  ): Effect.Effect<A, ChatFailed> =>
    Effect.gen(function* () {
      const body = JSON.stringify({
        model: options.model,
        messages,
        response_format: { type: "json_schema", json_schema: { name, strict: true, schema: jsonSchema } }
      })
      const completion = yield* decodeCompletion(yield* withRetries(body)).pipe(
        Effect.mapError(() => failed("the model's response is not a chat completion"))
      )
      const content = completion.choices[0].message.content
      if (content === null) return yield* Effect.fail(failed("the model's answer is empty"))
      const parsed = yield* Effect.try({
        try: () => JSON.parse(content) as unknown,
        catch: () => failed("the model's answer is not JSON")
      })
      return yield* decode(withoutNulls(parsed)).pipe(
        Effect.mapError(() => failed(`the model's answer does not match ${name}`))
      )
    })
}

const decodeOutput = Schema.decodeUnknownEffect(InterviewerOutput)

export const makeOpenAiCompatibleInterviewer = (
  options: OpenAiCompatibleInterviewerOptions
): InterviewerService => {
  const chat = makeStructuredChat(options)
  return Interviewer.of({
    next: (input) =>
      chat("interviewer_output", interviewerOutputJsonSchema, decodeOutput, interviewerMessages(input)).pipe(
        Effect.mapError((e) => new InterviewerFailed({ reason: e.reason }))
      )
  })
}

// The analyst -------------------------------------------------------------------------------------

/** The JSON Schema of InterviewAnalystOutput, in strict-output form. */
export const interviewAnalystOutputJsonSchema: JsonObject = strictJsonSchema(
  inlineJsonSchemaOf(InterviewAnalystOutput)
) as JsonObject

/** The analyst's prompt: the brief, the codebook, the extracted fields and the numbered transcript. */
export const interviewAnalystMessages = (input: InterviewAnalystInput): ReadonlyArray<ChatMessage> => {
  const { definition: def, locale, session } = input
  const codebook = (def.codebook?.codes ?? []).map((c) =>
    compact({
      code: c.id,
      type: c.codeType,
      label: localizedText(def, c.labelByLocale, locale),
      description: localizedText(def, c.descriptionByLocale, locale)
    })
  )
  return [
    {
      role: "system",
      content: [
        `You analyse a finished research interview. Write in the locale "${locale}".`,
        "Reply with one JSON object matching the given schema and nothing else:",
        "- summary: what the respondent said, in a few sentences, without adding anything they did not say.",
        "- sentiment: the respondent's overall sentiment (positive, neutral or negative).",
        "- keyInfo: the most important facts, each with the ids of the respondent messages that state them.",
        `- insights: the qualitative codes the respondent's messages carry, each with the ids of those messages${
          def.codebook?.allowEmergentCodes === false
            ? "; use only the codebook's codes"
            : "; prefer the codebook's codes, and name a new code only for something the codebook does not cover"
        }.`,
        `Interview: ${JSON.stringify(compact({ title: def.title, goal: def.goal, researchBrief: def.researchBrief }))}`,
        `Codebook: ${JSON.stringify(codebook)}`,
        `Extracted fields: ${JSON.stringify(input.extractedFields)}`,
        'In extracted fields, {"custom": text} is the respondent\'s own answer to a select question (none of its options); report it as such.'
      ].join("\n")
    },
    {
      role: "user",
      content: session.messages.map((m) => `[${m.id}] ${m.role}: ${m.text}`).join("\n")
    }
  ]
}

const decodeAnalysis = Schema.decodeUnknownEffect(InterviewAnalystOutput)

export const makeOpenAiCompatibleAnalyst = (
  options: OpenAiCompatibleInterviewerOptions
): InterviewAnalystService => {
  const chat = makeStructuredChat(options)
  return {
    analyze: (input) =>
      chat(
        "interview_analysis",
        interviewAnalystOutputJsonSchema,
        decodeAnalysis,
        interviewAnalystMessages(input)
      ).pipe(Effect.mapError((e) => new InterviewAnalystFailed({ reason: e.reason })))
  }
}

// The context summariser --------------------------------------------------------------------------

/** The JSON Schema of InterviewSummariserOutput, in strict-output form. */
export const interviewSummariserOutputJsonSchema: JsonObject = strictJsonSchema(
  inlineJsonSchemaOf(InterviewSummariserOutput)
) as JsonObject

/** A message is shown to the summariser up to this many characters. */
const SUMMARISED_MESSAGE_MAX_CHARACTERS = 1000

/**
 * The summariser's prompt: its own short instructions, the previous summary and the messages that
 * left the interviewer's window (from the question they answer, when the cut fell between them).
 */
export const interviewSummariserMessages = (input: InterviewSummaryFold): ReadonlyArray<ChatMessage> => {
  const { definition: def, locale, session } = input
  const first = session.messages[input.from]
  const start = first?.role === "user" && input.from > 0 ? input.from - 1 : input.from
  const lines = session.messages
    .slice(start, input.to)
    .map(
      (m, i) =>
        `${start + i < input.from ? "(already summarised) " : ""}${m.role}: ${clipText(m.text, SUMMARISED_MESSAGE_MAX_CHARACTERS)}`
    )
  return [
    {
      role: "system",
      content: [
        `You keep the running summary of a research interview for its interviewer, who sees only the latest messages. Write in the locale "${locale}".`,
        "Reply with one JSON object matching the given schema and nothing else:",
        `- summary: the previous summary with the new messages folded in, at most ${INTERVIEW_SUMMARY_MAX_CHARACTERS} characters; keep what the respondent said (facts, experiences, examples, feelings) and what they were asked, shorten older points first, and add nothing that was not said.`,
        `Interview: ${JSON.stringify(compact({ title: def.title, goal: def.goal }))}`
      ].join("\n")
    },
    {
      role: "user",
      content: `Previous summary:\n${input.previous ?? "(none)"}\n\nNew messages:\n${lines.join("\n")}`
    }
  ]
}

const decodeSummary = Schema.decodeUnknownEffect(InterviewSummariserOutput)

/** The summariser over an OpenAI-compatible chat-completions API (a call of its own). */
export const makeOpenAiCompatibleSummariser = (
  options: OpenAiCompatibleInterviewerOptions
): InterviewSummariserService => {
  const chat = makeStructuredChat(options)
  return {
    fold: (input) =>
      chat(
        "interview_summary",
        interviewSummariserOutputJsonSchema,
        decodeSummary,
        interviewSummariserMessages(input)
      ).pipe(
        Effect.map((output) => output.summary),
        Effect.mapError((e) => new InterviewSummariserFailed({ reason: e.reason }))
      )
  }
}

/** How long a turn waits for the model's summary, retries included, before the built-in fold is kept. */
export const SUMMARY_FOLD_DEADLINE_MS = 8_000

/**
 * The summariser, but a fold it fails, or does not give within `deadlineMs`, is the built-in one
 * (logged with its reason); the turn's own deadline (INTERVIEWER_TURN_DEADLINE_MS) comes after it.
 */
export const builtInSummaryFallbackOf = (
  primary: InterviewSummariserService,
  deadlineMs: number = SUMMARY_FOLD_DEADLINE_MS
): InterviewSummariserService => ({
  fold: (input) =>
    primary.fold(input).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(deadlineMs),
        orElse: () =>
          Effect.fail(
            new InterviewSummariserFailed({ reason: `the model gave no summary within ${deadlineMs} ms` })
          )
      }),
      Effect.catchTag("InterviewSummariserFailed", (e) =>
        Effect.as(
          Effect.logWarning("interview summariser model failed; the built-in summary is kept", e.reason),
          builtInSummaryFold(input)
        )
      )
    )
})

// The insight extractor ------------------------------------------------------------------------------

/** The JSON Schema of InsightModelOutput, in strict-output form. */
export const insightModelOutputJsonSchema: JsonObject = strictJsonSchema(
  inlineJsonSchemaOf(InsightModelOutput)
) as JsonObject

/** The extractor's prompt: the numbered answers, each with its question. */
export const insightModelMessages = (sources: ReadonlyArray<InsightSource>): ReadonlyArray<ChatMessage> => [
  {
    role: "system",
    content: [
      "You read free-text answers to a form and find what could become a structured question.",
      "Reply with one JSON object matching the given schema and nothing else. For each finding:",
      "- source: the number of the answer it was found in;",
      "- field: a lower-case name for the structured field (email, url, phone, amount, company, ...),",
      "  or topic:<term> for a recurring subject (topic:pricing);",
      "- suggestedType: the block type the field would become;",
      "- confidence: 0 to 1;",
      "- evidence: the exact words of the answer that show it, copied verbatim."
    ].join("\n")
  },
  {
    role: "user",
    content: sources.map((s, i) => `[${i + 1}] ${s.label}: ${s.text.slice(0, 4000)}`).join("\n")
  }
]

const decodeInsights = Schema.decodeUnknownEffect(InsightModelOutput)

export const makeOpenAiCompatibleInsightModel = (
  options: OpenAiCompatibleInterviewerOptions
): InsightModelService => {
  const chat = makeStructuredChat(options)
  return {
    extract: (sources) =>
      chat("form_insights", insightModelOutputJsonSchema, decodeInsights, insightModelMessages(sources)).pipe(
        Effect.map((output) => output.insights),
        Effect.mapError((e) => new InsightModelFailed({ reason: e.reason }))
      )
  }
}

/** The Interviewer over an OpenAI-compatible chat-completions API. */
export const OpenAiCompatibleInterviewerLive = (options: OpenAiCompatibleInterviewerOptions) =>
  Layer.succeed(Interviewer, makeOpenAiCompatibleInterviewer(options))

// Fallback -----------------------------------------------------------------------------------------

/** How long a respondent waits for the model's turn, retries included, before the built-in one answers. */
export const INTERVIEWER_TURN_DEADLINE_MS = 25_000

/**
 * The service, but a turn it fails, or does not give within `deadlineMs` (retries included), is
 * answered by the built-in interviewer instead; each fallback is logged with its reason.
 */
export const deterministicFallbackOf = (
  primary: InterviewerService,
  deadlineMs: number = INTERVIEWER_TURN_DEADLINE_MS
): InterviewerService =>
  Interviewer.of({
    next: (input) =>
      primary.next(input).pipe(
        Effect.timeoutOrElse({
          duration: Duration.millis(deadlineMs),
          orElse: () =>
            Effect.fail(new InterviewerFailed({ reason: `the model gave no turn within ${deadlineMs} ms` }))
        }),
        Effect.catchTag("InterviewerFailed", (e) =>
          Effect.as(
            Effect.logWarning(
              "interviewer model failed; the built-in interviewer answers this turn",
              e.reason
            ),
            deterministicInterviewerTurn(input)
          )
        )
      )
  })

/**
 * The interviewer `layer` builds, falling back to the deterministic one on any turn it fails (the
 * domain's rules still correct whatever comes back).
 */
export const withDeterministicFallback = <E, R>(
  layer: Layer.Layer<Interviewer, E, R>,
  deadlineMs: number = INTERVIEWER_TURN_DEADLINE_MS
): Layer.Layer<Interviewer, E, R> =>
  Layer.effect(
    Interviewer,
    Effect.gen(function* () {
      return deterministicFallbackOf(yield* Interviewer, deadlineMs)
    })
  ).pipe(Layer.provide(layer))
