// Validation items over real HTTP on memory, PGlite and PostgreSQL: the definition's `validation`
// refused on write when it names no field of the interview; the assignment made at the start,
// deterministic from (response id, assignmentVersion) and balanced over 30 respondents; the probes
// asked in the closing phase by the built-in interviewer and by a model (fake chat-completions
// server), their replies compared without touching the extracted fields, outside policy.maxExchanges;
// and the per-item interview analytics computed by the store.
import { assignValidationItems, decodeInterviewDefinition } from "@folio/domain"
import { Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startFakeChatCompletions } from "../support/fake-chat-completions.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })

const FIELDS = [
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
  {
    id: "renew",
    priority: 80,
    labelByLocale: label("renewal"),
    questionByLocale: label("Will you renew?"),
    valueType: "boolean",
    requiredness: "hard"
  },
  {
    id: "seats",
    priority: 70,
    labelByLocale: label("seats"),
    questionByLocale: label("How many seats do you use?"),
    valueType: "number",
    requiredness: "hard"
  }
]

/** Three answers in three exchanges: the budget is spent when the last field is answered. */
const definition = {
  title: "Validation interview",
  locales: { default: "en", supported: ["en"] },
  fields: FIELDS,
  validation: {
    enabled: true,
    fieldIds: ["plan", "renew", "seats"],
    itemsPerRespondent: 1,
    assignmentVersion: "v1"
  },
  policy: { maxExchanges: 3 }
}

const decoded = (def: unknown) => Result.getOrThrow(decodeInterviewDefinition(def))

/** What the respondent answers; `agree: false` gives another value when asked again. */
const answerTo = (question: string, agree: boolean): string => {
  const q = question.toLowerCase()
  const again = q.startsWith("one quick check") || q.startsWith("model check")
  const consistent = !again || agree
  if (q.includes("plan")) return consistent ? "Pro" : "Free"
  if (q.includes("renew")) return consistent ? "Yes" : "No"
  if (q.includes("seats")) return consistent ? "12 seats" : "3"
  if (q.includes("role")) return "I'd rather not say"
  return "Hm"
}

interface Message {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}
interface Turn {
  readonly responseId: string
  readonly token: string
  readonly messages: ReadonlyArray<Message>
  readonly done: boolean
  readonly completionReason: string | null
}
interface Quality {
  readonly completionReason: string
  readonly exchangeCount: number
  readonly validation?: {
    assigned: Array<string>
    answered: number
    agreed: number
    skipped: Array<string>
  }
}
interface StoredResponse {
  readonly interview: {
    transcript: Array<{ role: string; content: string; blockId: string }>
    extractedFields: Record<string, unknown>
    quality: Quality
  }
}
interface ItemStats {
  fieldId: string
  label: string | null
  assigned: number
  answered: number
  agreed: number
  agreementRate: number | null
}

const client = (origin: string, key: string) => {
  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const r = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(auth ? bearer(key) : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const raw = await r.text()
    return {
      status: r.status,
      body: (raw === "" ? {} : JSON.parse(raw)) as {
        data: Record<string, unknown>
        error: { code: string; details?: { issues?: unknown } }
      }
    }
  }
  const api = (method: string, path: string, body?: unknown) => call(method, `/forms/api/v1${path}`, body)
  const publish = async (def: unknown) => {
    const created = await api("POST", "/forms", { kind: "interview", title: "Interview", definition: def })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const form = created.body.data as { id: string; slug: string }
    expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
    return form
  }
  /** Answers every question until the interview closes; the transcript as the respondent saw it. */
  const hold = async (slug: string, agree: boolean) => {
    const s = await call("POST", `/f/${slug}/interview`, {}, false)
    expect(s.status, JSON.stringify(s.body)).toBe(201)
    const started = s.body.data as unknown as Turn
    const seen: Array<Message> = [...started.messages]
    let last: Turn = started
    for (let i = 0; i < 12 && !last.done; i++) {
      const text = answerTo(seen.at(-1)?.text ?? "", agree)
      const r = await call(
        "POST",
        `/f/${slug}/interview/${started.responseId}/messages`,
        { token: started.token, text },
        false
      )
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      last = r.body.data as unknown as Turn
      seen.push(...last.messages)
    }
    expect(last.done).toBe(true)
    return { responseId: started.responseId, seen, last }
  }
  const stored = async (formId: string, responseId: string) => {
    const r = await api("GET", `/forms/${formId}/responses/${responseId}`)
    expect(r.status).toBe(200)
    return r.body.data as unknown as StoredResponse
  }
  const analytics = async (formId: string) => {
    const r = await api("GET", `/forms/${formId}/interview-analytics`)
    expect(r.status).toBe(200)
    return r.body.data as unknown as { validation: Array<ItemStats> }
  }
  return { api, publish, hold, stored, analytics }
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`interview validation items [${target.name}]`, () => {
    let started: Awaited<ReturnType<typeof startAppOn>>
    let http: ReturnType<typeof client>

    beforeAll(async () => {
      started = await startAppOn(target.name)
      http = client(started.app.origin, started.key)
    }, 120_000)
    afterAll(async () => {
      await started?.close()
    })

    it("refuses validation ids that name no field, a field twice, or validation enabled with no ids", async () => {
      const refused = async (validation: unknown) => {
        const r = await http.api("POST", "/forms", {
          kind: "interview",
          title: "Refused",
          definition: { ...definition, validation }
        })
        expect([r.status, r.body.error.code]).toEqual([400, "invalid"])
        return r.body.error.details?.issues
      }
      expect(await refused({ enabled: true, fieldIds: ["plan", "nope"] })).toEqual([
        expect.objectContaining({ path: ["validation", "fieldIds", 1], rule: "danglingReference" })
      ])
      expect(await refused({ enabled: true, fieldIds: ["plan", "renew", "plan"] })).toEqual([
        expect.objectContaining({ path: ["validation", "fieldIds", 2], rule: "duplicateId" })
      ])
      expect(await refused({ enabled: true, fieldIds: [] })).toEqual([
        expect.objectContaining({ path: ["validation", "fieldIds"], rule: "required" })
      ])
      // Switched off, an empty list is simply nothing configured.
      const off = await http.api("POST", "/forms", {
        kind: "interview",
        title: "Off",
        definition: { ...definition, validation: { enabled: false, fieldIds: [] } }
      })
      expect(off.status).toBe(201)
    })

    it("assigns one of three items per respondent, balanced over 30 respondents, and reports each item", async () => {
      const form = await http.publish(definition)
      const def = decoded(definition)
      const counts = new Map<string, number>()
      const agreedBy = new Map<string, number>()
      for (let i = 0; i < 30; i++) {
        // Every third respondent gives another value when asked again.
        const agree = i % 3 !== 0
        const { responseId, seen, last } = await http.hold(form.slug, agree)
        const assigned = assignValidationItems(def, responseId)
        expect(assigned).toHaveLength(1)
        const item = assigned[0] ?? ""
        counts.set(item, (counts.get(item) ?? 0) + 1)
        if (agree) agreedBy.set(item, (agreedBy.get(item) ?? 0) + 1)
        // Three answers spend the budget; the probe still comes, and its reply is not counted.
        expect(last.completionReason).toBe("max_exchanges")
        const probes = seen.filter((m) => m.role === "assistant" && m.text.startsWith("One quick check"))
        expect(probes).toHaveLength(1)
        expect(probes[0]?.text).toContain(FIELDS.find((f) => f.id === item)?.labelByLocale.en)
        const response = await http.stored(form.id, responseId)
        const q = response.interview.quality
        expect(q.validation).toEqual({
          assigned: [item],
          answered: 1,
          agreed: agree ? 1 : 0,
          skipped: []
        })
        expect(q.exchangeCount).toBe(4)
        // The re-test never overwrites what was extracted.
        expect(response.interview.extractedFields).toEqual({ plan: "pro", renew: true, seats: 12 })
        // The reply to the probe names the probed field, like any answer.
        const reply = response.interview.transcript.at(-2)
        expect([reply?.role, reply?.blockId]).toEqual(["user", item])
      }
      // The bound: each item is assigned with probability 1/3, so its count is Binomial(30, 1/3) with
      // mean 10; every item between 1 and 22 times fails with probability below 2e-5 for a uniform hash.
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(30)
      for (const id of ["plan", "renew", "seats"]) {
        expect(counts.get(id) ?? 0).toBeGreaterThanOrEqual(1)
        expect(counts.get(id) ?? 0).toBeLessThanOrEqual(22)
      }
      const stats = await http.analytics(form.id)
      expect(stats.validation).toEqual(
        ["plan", "renew", "seats"].map((fieldId) => {
          const assigned = counts.get(fieldId) ?? 0
          const agreed = agreedBy.get(fieldId) ?? 0
          return {
            fieldId,
            label: FIELDS.find((f) => f.id === fieldId)?.labelByLocale.en,
            assigned,
            answered: assigned,
            agreed,
            agreementRate: assigned === 0 ? null : agreed / assigned
          }
        })
      )
    }, 120_000)

    it("skips an assigned item whose field was not answered, and asks the others", async () => {
      const def = {
        ...definition,
        fields: [
          ...FIELDS,
          {
            id: "role",
            priority: 10,
            labelByLocale: label("your role"),
            valueType: "short_text",
            requiredness: "soft",
            allowedNonAnswerStates: ["refused"]
          }
        ],
        validation: {
          enabled: true,
          fieldIds: ["role", "seats"],
          itemsPerRespondent: 5,
          assignmentVersion: "v2"
        },
        policy: { maxExchanges: 10 }
      }
      const form = await http.publish(def)
      const { responseId, seen, last } = await http.hold(form.slug, true)
      expect(last.completionReason).toBe("all_required_covered")
      expect(seen.filter((m) => m.text.startsWith("One quick check")).map((m) => m.text)).toEqual([
        'One quick check: what is your answer for "seats"?'
      ])
      const q = (await http.stored(form.id, responseId)).interview.quality
      expect(q.validation).toEqual({
        assigned: assignValidationItems(decoded(def), responseId),
        answered: 1,
        agreed: 1,
        skipped: ["role"]
      })
      expect([...(q.validation?.assigned ?? [])].sort()).toEqual(["role", "seats"])
      const stats = await http.analytics(form.id)
      expect(stats.validation).toEqual([
        { fieldId: "role", label: "your role", assigned: 1, answered: 0, agreed: 0, agreementRate: null },
        { fieldId: "seats", label: "seats", assigned: 1, answered: 1, agreed: 1, agreementRate: 1 }
      ])
    })
  })
}

/** The model's view of a request: the prompt's validation line and the transcript. */
const requestOf = (body: unknown) => {
  const messages = (body as { messages: Array<{ role: string; content: string }> }).messages
  const system = messages[0]?.content ?? ""
  const line = /^Validation: .*?(\[[^\]]*\])/mu.exec(system)
  return {
    pending: line === null ? undefined : (JSON.parse(line[1] ?? "[]") as Array<string>),
    known: (
      JSON.parse(/^Known so far: (.*)$/mu.exec(system)?.[1] ?? "{}") as { fields: Array<{ fieldId: string }> }
    ).fields,
    transcript: messages.slice(1)
  }
}

const spokenValue = (fieldId: string, text: string) =>
  fieldId === "plan"
    ? text.toLowerCase().includes("pro")
      ? "pro"
      : "free"
    : fieldId === "renew"
      ? /yes/iu.test(text)
      : Number(/\d+/u.exec(text)?.[0])

const fieldIn = (question: string) => FIELDS.find((f) => question.toLowerCase().includes(f.id))?.id

/**
 * A scripted model: asks the three fields in order and extracts each reply; once they are known it
 * first proposes to re-test `role`, which is not a validation item (the rules ask the domain's probe
 * instead); told a pending item, it asks it in its own words; then it closes.
 */
const scriptedModel = (body: unknown) => {
  const { pending, known, transcript } = requestOf(body)
  const asked = transcript.findLast((m) => m.role === "assistant")?.content ?? ""
  const reply = transcript.at(-1)
  const target = reply?.role === "user" ? fieldIn(asked) : undefined
  const extractions =
    reply === undefined || target === undefined
      ? []
      : [
          {
            fieldId: target,
            state: "answered",
            value: spokenValue(target, reply.content),
            evidence: { start: 0, end: reply.content.length },
            confidence: 0.95
          }
        ]
  const done = new Set([...known.map((f) => f.fieldId), ...(target === undefined ? [] : [target])])
  const next = FIELDS.find((f) => !done.has(f.id))
  const turn =
    next !== undefined
      ? {
          kind: "question",
          text: next.questionByLocale?.en ?? `Which is ${next.labelByLocale.en}?`,
          target: { type: "field", id: next.id }
        }
      : pending !== undefined && pending.length > 0
        ? {
            kind: "validation",
            text: `Model check: ${pending[0]} once more?`,
            target: { type: "field", id: pending[0] }
          }
        : !transcript.some((m) => m.role === "assistant" && /quick check|model check/iu.test(m.content))
          ? { kind: "validation", text: "Model check: your role?", target: { type: "field", id: "role" } }
          : { kind: "closing", text: "Thanks!" }
  return {
    content: {
      turn,
      extractions,
      goalCoverage: [],
      completion: turn.kind === "closing" ? { done: true, reason: "all_required_covered" } : { done: false }
    }
  }
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`interview validation items with a model [${target.name}]`, () => {
    let fake: Awaited<ReturnType<typeof startFakeChatCompletions>>
    let started: Awaited<ReturnType<typeof startAppOn>>
    let http: ReturnType<typeof client>

    beforeAll(async () => {
      fake = await startFakeChatCompletions()
      started = await startAppOn(target.name, {
        interviewer: Option.some({
          baseUrl: fake.baseUrl,
          model: "fake-model",
          apiKey: Option.none(),
          timeoutMs: 2_000
        })
      })
      http = client(started.app.origin, started.key)
    }, 120_000)
    afterAll(async () => {
      await started?.close()
      await fake?.close()
    })

    it("lets the model ask assigned items in its words, and asks the domain's probe for one it may not ask", async () => {
      const def = {
        ...definition,
        fields: [...FIELDS, { id: "role", labelByLocale: label("your role"), valueType: "short_text" }],
        validation: { ...definition.validation, itemsPerRespondent: 2 },
        policy: { maxExchanges: 10 }
      }
      fake.respondWith((body) => {
        const name = (body as { response_format?: { json_schema?: { name?: string } } }).response_format
          ?.json_schema?.name
        return name === "interviewer_output" ? scriptedModel(body) : { status: 500, body: {} }
      })
      const form = await http.publish(def)
      const { responseId, seen, last } = await http.hold(form.slug, false)
      const assigned = assignValidationItems(decoded(def), responseId)
      expect(last.completionReason).toBe("all_required_covered")
      const checks = seen.filter((m) => m.role === "assistant" && /quick check|model check/iu.test(m.text))
      // The model's `role` re-test is refused: the domain asks the first assigned item instead; the
      // model is then told the one left and asks it in its own words.
      expect(checks.map((m) => m.text)).toEqual([
        expect.stringMatching(/^One quick check: what is your answer for/u),
        `Model check: ${assigned[1]} once more?`
      ])
      expect(checks[0]?.text).toContain(FIELDS.find((f) => f.id === assigned[0])?.labelByLocale.en)
      const prompts = fake.requests.map((r) => requestOf(r.body).pending).filter((p) => p !== undefined)
      expect(prompts).toEqual([[assigned[1]]])
      const response = await http.stored(form.id, responseId)
      expect(response.interview.quality.validation).toEqual({ assigned, answered: 2, agreed: 0, skipped: [] })
      expect(response.interview.extractedFields).toMatchObject({ plan: "pro", renew: true, seats: 12 })
      const stats = await http.analytics(form.id)
      expect(
        stats.validation.filter((s) => s.assigned > 0).map((s) => [s.fieldId, s.answered, s.agreed])
      ).toEqual([...assigned].sort().map((id) => [id, 1, 0]))
    })
  })
}
