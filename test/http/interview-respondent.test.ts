// Interviews held over the public routes, end to end over real HTTP on memory, PGlite and PostgreSQL:
// start, messages (JSON and server-sent events), finish and resume; the stored transcript,
// extracted fields and analysis as the existing reads, CSV and interview analytics show them; the
// refusals (blank messages, foreign tokens, ended and expired interviews, the disclosure); racing
// messages; and, with a model configured (a fake chat-completions server), the interviewer's
// fallback and the analysis job (completed, and failed after its attempts).
import { ResponseRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startFakeChatCompletions } from "../support/fake-chat-completions.js"
import type { RunningApp } from "../support/app.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const label = (en: string) => ({ en })

const definition = {
  title: "Reporting interview",
  locales: { default: "en", supported: ["en"] },
  greetingByLocale: label("Hi! Thanks for taking a few minutes."),
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
    {
      id: "renew",
      priority: 80,
      labelByLocale: label("renewal"),
      questionByLocale: label("Will you renew?"),
      valueType: "boolean",
      requiredness: "hard"
    },
    {
      id: "recommend",
      priority: 70,
      labelByLocale: label("Recommend"),
      questionByLocale: label("How likely are you to recommend us?"),
      valueType: "nps_0_10",
      requiredness: "hard"
    },
    {
      id: "role",
      priority: 10,
      labelByLocale: label("your role"),
      valueType: "short_text",
      allowedNonAnswerStates: ["refused"]
    }
  ],
  goals: [
    {
      id: "pain",
      priority: 60,
      labelByLocale: label("Pain"),
      publicPromptHintByLocale: label("What is hardest about reporting?"),
      allowedProbeKinds: ["why"],
      maxProbes: 1,
      requiredCoverage: 0.5
    }
  ],
  codebook: {
    version: "1",
    codes: [{ id: "reporting_pain", codeType: "pain_point", labelByLocale: label("monthly numbers") }]
  },
  policy: { maxExchanges: 20 }
}

/** What the respondent says to a question (by its text). */
const answerTo = (question: string): string => {
  const q = question.toLowerCase()
  if (q.includes("confirm")) return "yes"
  if (q.includes("plan")) return "Pro"
  if (q.includes("renew")) return "Yes, definitely"
  if (q.includes("recommend")) return "9"
  if (q.includes("role")) return "I'd rather not say"
  return "Exporting the monthly numbers is frustrating because it takes a full day"
}

interface Message {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}
interface Turn {
  readonly responseId: string
  readonly messages: ReadonlyArray<Message>
  readonly done: boolean
  readonly completionReason: string | null
  readonly progress: number
  readonly token?: string
}
type Body = { data: Record<string, unknown>; error: { code: string; details?: Record<string, unknown> } }
interface Reply {
  readonly status: number
  readonly body: Body
  readonly setCookie: string | null
}

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`interviews over the public routes [${target.name}]`, () => {
    let origin: string
    let key: string
    let workspaceId: string
    let app: RunningApp
    let close: () => Promise<void> = async () => {}

    const request = async (
      method: string,
      path: string,
      options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}
    ): Promise<Reply> => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.cookie !== undefined) headers.cookie = options.cookie
      if (options.body !== undefined) headers["content-type"] = "application/json"
      const response = await fetch(`${origin}${path}`, {
        method,
        headers,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
      })
      const raw = await response.text()
      return {
        status: response.status,
        body: (raw === "" ? {} : JSON.parse(raw)) as Body,
        setCookie: response.headers.get("set-cookie")
      }
    }
    const api = (method: string, path: string, body?: unknown) =>
      request(method, `/forms/api/v1${path}`, { body, headers: bearer(key) })

    const publish = async (def: unknown = definition, settings?: unknown) => {
      const created = await api("POST", "/forms", {
        kind: "interview",
        title: "Interview",
        definition: def,
        ...(settings === undefined ? {} : { settings })
      })
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    const start = async (slug: string, body: Record<string, unknown> = {}) => {
      const r = await request("POST", `/f/${slug}/interview`, { body })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return { ...(r.body.data as unknown as Turn & { token: string }), cookie: r.setCookie?.split(";")[0] }
    }
    const send = (slug: string, responseId: string, token: string, text: string) =>
      request("POST", `/f/${slug}/interview/${responseId}/messages`, { body: { token, text } })

    /** Answers every question until the interview closes; the transcript as the respondent saw it. */
    const holdInterview = async (slug: string) => {
      const started = await start(slug)
      const seen: Array<Message> = [...started.messages]
      let last: Turn = started
      for (let i = 0; i < 20 && !last.done; i++) {
        const question = seen.at(-1)?.text ?? ""
        const reply = await send(slug, started.responseId, started.token, answerTo(question))
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        last = reply.body.data as unknown as Turn
        seen.push(...last.messages)
      }
      expect(last.done).toBe(true)
      return { started, seen, last }
    }

    beforeAll(async () => {
      const started = await startAppOn(target.name)
      ;({ key, workspaceId } = started)
      origin = started.app.origin
      app = started.app
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("holds a whole interview with the built-in interviewer and stores what the reads show", async () => {
      const form = await publish()
      const info = await request("GET", `/f/${form.slug}/interview`)
      expect(info.status).toBe(200)
      expect(info.body.data).toMatchObject({ title: "Reporting interview", locale: "en", disclosure: null })

      const { started, seen, last } = await holdInterview(form.slug)
      expect(started.messages[0]).toMatchObject({
        role: "assistant",
        text: "Hi! Thanks for taking a few minutes."
      })
      expect(started.messages[1]?.text).toMatch(/plan/i)
      expect(last.completionReason).toBe("all_required_covered")
      expect(last.progress).toBe(1)

      const detail = await api("GET", `/forms/${form.id}/responses/${started.responseId}`)
      expect(detail.status).toBe(200)
      const response = detail.body.data as {
        status: string
        interview: {
          transcript: Array<{ role: string; content: string; turnId: string; blockId: string }>
          extractedFields: Record<string, unknown>
          keyInfo: Array<{ label: string; value: string; evidenceMessageIds: Array<string> }>
          insights: Array<Record<string, unknown>>
          analysisStatus: string
          sentiment?: string
          summary?: string
          quality: { completionReason: string; exchangeCount: number; followupCount: number }
        }
      }
      expect(response.status).toBe("completed")
      const i = response.interview
      // The transcript is exactly what the respondent saw, in order, with the runtime's bookkeeping left out.
      expect(i.transcript.map((t) => [t.turnId, t.role, t.content])).toEqual(
        seen.map((m) => [m.id, m.role, m.text])
      )
      expect(Object.keys(i.transcript[0] ?? {}).sort()).toEqual(["blockId", "content", "role", "turnId"])
      // A respondent's turn names what the question before it asked about.
      expect(i.transcript.find((t) => t.role === "user")?.blockId).toBe("plan")
      expect(i.extractedFields).toEqual({
        plan: "pro",
        renew: true,
        recommend: 9,
        role: { nonAnswer: "refused" }
      })
      expect(i.analysisStatus).toBe("partial")
      expect(i.quality.completionReason).toBe("all_required_covered")
      expect(i.quality.exchangeCount).toBe(seen.filter((m) => m.role === "user").length)
      expect(i.sentiment).toBe("positive")
      expect(i.summary).toContain("your plan: Pro")
      const userIds = new Set(seen.filter((m) => m.role === "user").map((m) => m.id))
      expect(i.keyInfo.map((k) => k.label)).toEqual(["your plan", "renewal", "Recommend"])
      for (const k of i.keyInfo) for (const id of k.evidenceMessageIds) expect(userIds.has(id)).toBe(true)
      expect(i.insights).toEqual([
        expect.objectContaining({ code: "reporting_pain", codeType: "pain_point", emergent: false })
      ])

      // The compact list never carries transcript text.
      const list = await api("GET", `/forms/${form.id}/responses`)
      expect(JSON.stringify(list.body)).not.toContain("monthly numbers")
      expect((list.body.data as unknown as { items: Array<Record<string, unknown>> }).items[0]).toMatchObject(
        {
          interview: { transcriptCount: seen.length, extractedFieldCount: 4, analysisStatus: "partial" }
        }
      )

      const csv = await fetch(`${origin}/forms/api/v1/forms/${form.id}/responses.csv`, {
        headers: bearer(key)
      })
      const lines = (await csv.text()).trim().split(/\r?\n/u)
      expect(lines[0]).toBe(
        "response_id,completed_at,analysis_status,sentiment,summary,field_plan,field_renew,field_recommend,field_role,themes,transcript"
      )
      expect(lines[1]).toContain(`${started.responseId},`)
      expect(lines[1]).toContain(",pro,true,9,")
      expect(lines[1]).toContain("reporting_pain")

      const analytics = await api("GET", `/forms/${form.id}/interview-analytics`)
      expect(analytics.status).toBe(200)
      expect(analytics.body.data).toMatchObject({
        funnel: { started: 1, engaged: 1, completed: 1 },
        codes: [expect.objectContaining({ code: "reporting_pain", responses: 1 })]
      })
    })

    it("streams a reply as server-sent events when asked", async () => {
      const form = await publish()
      const started = await start(form.slug)
      const response = await fetch(`${origin}/f/${form.slug}/interview/${started.responseId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ token: started.token, text: "Pro" })
      })
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
      const events = (await response.text())
        .trim()
        .split("\n\n")
        .map((block) => {
          const [event, data] = block.split("\n")
          return {
            event: event?.slice(7),
            data: JSON.parse(data?.slice(6) ?? "null") as Record<string, unknown>
          }
        })
      expect(events[0]).toMatchObject({ event: "message", data: { role: "user", text: "Pro" } })
      const deltas = events.filter((e) => e.event === "delta")
      expect(deltas.length).toBeGreaterThan(1)
      const done = events.at(-1)
      expect(done?.event).toBe("done")
      const turn = (done?.data as { data: Turn } | undefined)?.data
      if (turn === undefined) throw new Error("no done event")
      const reply = turn.messages[1]
      expect(deltas.map((d) => d.data.text).join("")).toBe(reply?.text)
      expect(deltas.every((d) => d.data.id === reply?.id)).toBe(true)
    })

    it("refuses blank, foreign and late messages, and ending before anything was answered", async () => {
      const form = await publish()
      const started = await start(form.slug)
      const blank = await send(form.slug, started.responseId, started.token, "   ")
      expect([blank.status, blank.body.error.code]).toEqual([400, "invalid"])
      const long = await send(form.slug, started.responseId, started.token, "x".repeat(4001))
      expect([long.status, long.body.error.code]).toEqual([400, "invalid"])
      const foreign = await send(form.slug, started.responseId, "A".repeat(32), "Pro")
      expect(foreign.status).toBe(403)
      const early = await request("POST", `/f/${form.slug}/interview/${started.responseId}/finish`, {
        body: { token: started.token }
      })
      expect([early.status, early.body.error.details?.reason]).toEqual([409, "nothing_answered"])

      expect((await send(form.slug, started.responseId, started.token, "Pro")).status).toBe(200)
      const finished = await request("POST", `/f/${form.slug}/interview/${started.responseId}/finish`, {
        body: { token: started.token }
      })
      expect(finished.status).toBe(200)
      expect(finished.body.data).toMatchObject({
        done: true,
        completionReason: "respondent_ended",
        progress: 1
      })
      const late = await send(form.slug, started.responseId, started.token, "Yes")
      expect([late.status, late.body.error.details?.reason]).toEqual([409, "interview_finished"])

      const stored = await api("GET", `/forms/${form.id}/responses/${started.responseId}`)
      expect(stored.body.data).toMatchObject({
        status: "completed",
        interview: {
          quality: { completionReason: "respondent_ended", exchangeCount: 1 },
          extractedFields: { plan: "pro" }
        }
      })
    })

    it("is held without JavaScript through form posts of the page, refusals shown on the page", async () => {
      const form = await publish()
      const post = async (fields: Record<string, string>) => {
        const r = await fetch(`${origin}/f/${form.slug}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString()
        })
        return { status: r.status, html: await r.text() }
      }
      const started = await post({ _action: "start", _locale: "en" })
      expect(started.status).toBe(200)
      expect(started.html).toContain("Hi! Thanks for taking a few minutes.")
      const hidden = (name: string) =>
        started.html.match(new RegExp(`name="${name}" value="([^"]+)"`))?.[1] ?? ""
      const session = { _response: hidden("_response"), _token: hidden("_token"), _locale: "en" }
      expect(session._token).toHaveLength(32)
      const blank = await post({ ...session, _action: "message", text: "  " })
      expect(blank.status).toBe(422)
      expect(blank.html).toContain("Type your answer first.")
      expect(blank.html).toContain("Hi! Thanks for taking a few minutes.")
      const answered = await post({ ...session, _action: "message", text: "Pro" })
      expect(answered.status).toBe(200)
      expect(answered.html).toContain("Will you renew?")
      const foreign = await post({ ...session, _token: "A".repeat(32), _action: "message", text: "Yes" })
      expect(foreign.status).toBe(409)
      expect(foreign.html).not.toContain("Will you renew?")
      const finished = await post({ ...session, _action: "finish" })
      expect(finished.status).toBe(200)
      expect(finished.html).not.toContain('id="composer"')
      const stored = await api("GET", `/forms/${form.id}/responses/${session._response}`)
      expect(stored.body.data).toMatchObject({
        status: "completed",
        interview: { quality: { completionReason: "respondent_ended" }, extractedFields: { plan: "pro" } }
      })
    })

    it("shows the author's settings.intro (title, body, button) on the interview page, with and without JavaScript", async () => {
      const plain = await (await fetch(`${origin}/f/${(await publish()).slug}`)).text()
      expect(plain).not.toContain("A word before we start")
      const form = await publish(definition, {
        intro: {
          title: "A word before we start",
          body: "Ten minutes, no right answers.",
          buttonLabel: "Begin"
        }
      })
      const html = await (await fetch(`${origin}/f/${form.slug}`)).text()
      expect(html).toContain('<h2 id="intro-title">A word before we start</h2>')
      expect(html).toContain('<p class="intro-body">Ten minutes, no right answers.</p>')
      // The script's Start button and the no-script form's both carry the label.
      expect(html.match(/class="button primary start">Begin</g)?.length).toBe(2)
    })

    it("keeps the classic and interview routes apart", async () => {
      const form = await publish()
      expect((await request("GET", `/f/${form.slug}/form`)).status).toBe(404)
      expect((await request("POST", `/f/${form.slug}/responses`, { body: {} })).status).toBe(404)
      const classic = await api("POST", "/forms", {
        title: "Classic",
        definition: { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }] }
      })
      const c = classic.body.data as { id: string; slug: string }
      await api("POST", `/forms/${c.id}/publish`, { expectedDraftRevision: 1 })
      expect((await request("GET", `/f/${c.slug}/interview`)).status).toBe(404)
      expect((await request("POST", `/f/${c.slug}/interview`, { body: {} })).status).toBe(404)
    })

    it("asks for the disclosure to be accepted when it is required, and records the acceptance", async () => {
      const form = await publish({
        ...definition,
        disclosure: { version: "2026-11", required: true, purposeTextByLocale: label("Research") }
      })
      const refused = await request("POST", `/f/${form.slug}/interview`, { body: {} })
      expect([refused.status, refused.body.error.details]).toEqual([
        409,
        { reason: "disclosure_required", disclosureVersion: "2026-11" }
      ])
      const started = await start(form.slug, { acceptDisclosure: true })
      const row = await app.run(
        Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, form.id, started.responseId))
      )
      expect(Option.getOrThrow(row).meta.disclosure).toMatchObject({ version: "2026-11" })
    })

    it("never loses or doubles a message when several race on one interview", async () => {
      const form = await publish()
      const started = await start(form.slug)
      const texts = ["Pro", "Free", "Pro please", "Free plan", "The Pro one"]
      const replies = await Promise.all(
        texts.map((t) => send(form.slug, started.responseId, started.token, t))
      )
      for (const r of replies) expect([200, 409]).toContain(r.status)
      const row = Option.getOrThrow(
        await app.run(
          Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, form.id, started.responseId))
        )
      )
      const transcript = (row.meta.interview as { transcript: Array<{ role: string; content: string }> })
        .transcript
      const accepted = texts.filter((_, i) => replies[i]?.status === 200)
      expect(accepted.length).toBeGreaterThan(0)
      expect(
        transcript
          .filter((t) => t.role === "user")
          .map((t) => t.content)
          .sort()
      ).toEqual(accepted.sort())
      // Every accepted message is followed by its own reply.
      expect(transcript.map((t) => t.role).join(",")).toMatch(/^(assistant,)+(user,assistant,?)+$/u)
    })

    it("resumes this browser's interview after a reload with the whole transcript and a fresh token", async () => {
      const form = await publish()
      const started = await start(form.slug)
      const first = await send(form.slug, started.responseId, started.token, "Pro")
      const before = [...started.messages, ...(first.body.data as unknown as Turn).messages]
      expect((await request("POST", `/f/${form.slug}/interview/resume`)).status).toBe(404)
      const resumed = await request("POST", `/f/${form.slug}/interview/resume`, {
        cookie: started.cookie ?? ""
      })
      expect(resumed.status).toBe(200)
      const turn = resumed.body.data as unknown as Turn & { token: string }
      expect(turn.messages).toEqual(before)
      expect(turn.token).not.toBe(started.token)
      expect((await send(form.slug, started.responseId, started.token, "Yes")).status).toBe(403)
      expect((await send(form.slug, started.responseId, turn.token, "Yes")).status).toBe(200)
    })

    it("refuses a message once the session has outlived sessionTtlMinutes", async () => {
      const form = await publish({ ...definition, policy: { maxExchanges: 20, sessionTtlMinutes: 5 } })
      const started = await start(form.slug)
      // A copy of the interview as if started six minutes ago (same token).
      const copyId = "01900000-0000-7000-8000-00000000cafe"
      await app.run(
        Effect.gen(function* () {
          const responses = yield* ResponseRepository
          const row = Option.getOrThrow(yield* responses.get(workspaceId, form.id, started.responseId))
          const old = new Date(Date.now() - 6 * 60_000)
          yield* responses.insert({ ...row, id: copyId, createdAt: old, updatedAt: old })
        })
      )
      expect((await send(form.slug, started.responseId, started.token, "Pro")).status).toBe(200)
      const late = await send(form.slug, copyId, started.token, "Pro")
      expect([late.status, late.body.error.details?.reason]).toEqual([409, "interview_expired"])
    })
  })
}

describe("interviews with a model configured (fake chat-completions server)", () => {
  let fake: Awaited<ReturnType<typeof startFakeChatCompletions>>
  let started: Awaited<ReturnType<typeof startAppOn>>

  beforeAll(async () => {
    fake = await startFakeChatCompletions()
    started = await startAppOn("pglite", {
      interviewer: Option.some({
        baseUrl: fake.baseUrl,
        model: "fake-model",
        apiKey: Option.none(),
        timeoutMs: 2_000
      })
    })
  }, 120_000)
  afterAll(async () => {
    await started?.close()
    await fake?.close()
  })

  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${started.app.origin}${path}`, {
      method,
      headers: {
        ...bearer(started.key),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: r.status, body: (await r.json()) as { data: Record<string, unknown> } }
  }
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${started.app.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: r.status, body: (await r.json()) as { data: Record<string, unknown> } }
  }
  /** The ids of the respondent's messages in an analysis request's transcript. */
  const userIdsIn = (body: unknown): Array<string> => {
    const messages = (body as { messages: Array<{ role: string; content: string }> }).messages
    const transcript = messages.find((m) => m.role === "user")?.content ?? ""
    return [...transcript.matchAll(/^\[([^\]]+)\] user:/gmu)].map((m) => m[1] ?? "")
  }
  const schemaName = (body: unknown) =>
    (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name

  const interviewOnce = async () => {
    const created = await api("POST", "/forms/api/v1/forms", {
      kind: "interview",
      title: "Model",
      definition
    })
    const form = created.body.data as { id: string; slug: string }
    await api("POST", `/forms/api/v1/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const s = await post(`/f/${form.slug}/interview`, {})
    expect(s.status).toBe(201)
    const turn = s.body.data as unknown as Turn & { token: string }
    let last: Turn = turn
    let question = turn.messages.at(-1)?.text ?? ""
    for (let i = 0; i < 20 && !last.done; i++) {
      const r = await post(`/f/${form.slug}/interview/${turn.responseId}/messages`, {
        token: turn.token,
        text: answerTo(question)
      })
      expect(r.status).toBe(200)
      last = r.body.data as unknown as Turn
      question = last.messages.at(-1)?.text ?? ""
    }
    expect(last.done).toBe(true)
    return { form, responseId: turn.responseId }
  }
  const analysisOf = async (formId: string, responseId: string, until: (status: string) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const r = await api("GET", `/forms/api/v1/forms/${formId}/responses/${responseId}`)
      const interview = (r.body.data as { interview: Record<string, unknown> }).interview
      if (until(String(interview.analysisStatus))) return interview
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error("the analysis did not settle")
  }

  it("falls back to the built-in interviewer on a malformed turn and completes the analysis as a job", async () => {
    fake.respondWith((body) => {
      if (schemaName(body) === "interviewer_output") return { content: "this is not JSON" }
      const [first, second] = userIdsIn(body)
      return {
        content: {
          summary: "A Pro customer who will renew; monthly reporting takes a day.",
          sentiment: "positive",
          keyInfo: [{ label: "Plan", value: "Pro", evidenceMessageIds: [first, "not-a-message"] }],
          insights: [
            { code: "reporting_pain", evidenceMessageIds: [second], note: null },
            { code: "slow_exports", evidenceMessageIds: [first], note: "new" },
            { code: "unsupported", evidenceMessageIds: ["not-a-message"], note: null }
          ]
        }
      }
    })
    const { form, responseId } = await interviewOnce()
    const interview = await analysisOf(form.id, responseId, (s) => s !== "pending")
    expect(interview.analysisStatus).toBe("completed")
    expect(interview.summary).toBe("A Pro customer who will renew; monthly reporting takes a day.")
    const keyInfo = interview.keyInfo as Array<{ evidenceMessageIds: Array<string> }>
    expect(keyInfo).toHaveLength(1)
    expect(keyInfo[0]?.evidenceMessageIds).toHaveLength(1) // the unknown id is dropped
    expect((interview.insights as Array<Record<string, unknown>>).map((i) => [i.code, i.emergent])).toEqual([
      ["reporting_pain", false],
      ["slow_exports", true]
    ])
    // The extracted fields stay the interview's own.
    expect(interview.extractedFields).toMatchObject({ plan: "pro", renew: true, recommend: 9 })
    expect(fake.requests.filter((r) => schemaName(r.body) === "interview_analysis")).toHaveLength(1)
  })

  it("answers one of two messages that race while the model thinks, and refuses the other", async () => {
    fake.respondWith(() => ({ delayMs: 300, reply: { content: "not JSON" } }))
    const created = await api("POST", "/forms/api/v1/forms", { kind: "interview", title: "Race", definition })
    const form = created.body.data as { id: string; slug: string }
    await api("POST", `/forms/api/v1/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const turn = (await post(`/f/${form.slug}/interview`, {})).body.data as unknown as Turn & {
      token: string
    }
    const replies = await Promise.all(
      ["Pro", "Free"].map((text) =>
        post(`/f/${form.slug}/interview/${turn.responseId}/messages`, { token: turn.token, text })
      )
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
    const winner = replies.find((r) => r.status === 200)?.body.data as unknown as Turn
    const row = Option.getOrThrow(
      await started.app.run(
        Effect.flatMap(ResponseRepository, (r) => r.get(started.workspaceId, form.id, turn.responseId))
      )
    )
    const transcript = (row.meta.interview as { transcript: Array<{ turnId: string }> }).transcript
    expect(transcript.slice(-2).map((t) => t.turnId)).toEqual(winner.messages.map((m) => m.id))
  })

  it("stores a model's text PostgreSQL would refuse (NUL, a surrogate pair cut in half) made storable", async () => {
    fake.respondWith((body) => {
      if (schemaName(body) === "interviewer_output") return { content: "not JSON" }
      const [first] = userIdsIn(body)
      return {
        content: {
          summary: "Pro\u0000 customer",
          sentiment: "neutral",
          keyInfo: [{ label: "Note", value: `${"a".repeat(498)}😀 and more`, evidenceMessageIds: [first] }],
          insights: []
        }
      }
    })
    const { form, responseId } = await interviewOnce()
    const interview = await analysisOf(form.id, responseId, (s) => s !== "pending")
    expect(interview.analysisStatus).toBe("completed")
    expect(interview.summary).toBe("Pro\ufffd customer")
    const value = (interview.keyInfo as Array<{ value: string }>)[0]?.value ?? ""
    expect(value).toBe(`${"a".repeat(498)}…`)
  })

  it("leaves the analysis failed, with the built-in one in place, when the model keeps failing", async () => {
    fake.respondWith((body) =>
      schemaName(body) === "interviewer_output"
        ? { content: "not JSON" }
        : { status: 400, body: { error: "bad" } }
    )
    const { form, responseId } = await interviewOnce()
    const interview = await analysisOf(form.id, responseId, (s) => s !== "pending")
    expect(interview.analysisStatus).toBe("failed")
    expect(interview.summary).toContain("your plan: Pro")
    expect(fake.requests.filter((r) => schemaName(r.body) === "interview_analysis")).toHaveLength(5)
  })
})
