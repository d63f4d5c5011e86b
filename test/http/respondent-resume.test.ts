// Resume after reload, over real HTTP, on memory, PGlite and PostgreSQL: a browser that lost its
// response token gets its partial response back through the continuity cookie, with the answers
// saved so far and a fresh token (the old one stops working); nothing else is resumed (no cookie,
// another browser's, a completed response unless the form allows editing, one started on an older
// version); a resume racing the old token's complete (or edit) never leaves both standing; and
// resumes spend the respondent budget.
import { ResponseRepository, sha256Hex } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"
import { blk } from "../support/builders.js"
import { freshRateWindow } from "../support/rate-window.js"

const TRIALS = 10

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name", required: true },
    { id: blk(2), type: "number", label: "Seats", options: { min: 0, max: 1000 } },
    {
      id: blk(3),
      type: "multiple_choice",
      label: "Pick",
      options: {
        choices: [
          { id: "a", label: "A" },
          { id: "b", label: "B" },
          { id: "c", label: "C" }
        ],
        randomize: { mode: "shuffle" }
      }
    }
  ]
}

type Body = {
  data: Record<string, unknown>
  error: { code: string; details?: Record<string, unknown> }
}
interface Reply {
  readonly status: number
  readonly body: Body
  readonly setCookie: string | null
}

/** A browser: the continuity cookie it was given, sent back on every request. */
class Browser {
  cookie: string | undefined
  constructor(cookie?: string) {
    this.cookie = cookie
  }
}

const cookieOf = (setCookie: string | null) => setCookie?.split(";")[0]

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`resume after reload [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let workspaceId: string
    let close: () => Promise<void> = async () => {}

    const request = async (
      method: string,
      path: string,
      options: { body?: unknown; raw?: string; browser?: Browser; headers?: Record<string, string> } = {}
    ): Promise<Reply> => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.browser?.cookie !== undefined) headers.cookie = options.browser.cookie
      const text = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
      if (text !== undefined) headers["content-type"] = "application/json"
      const response = await fetch(`${app.origin}${path}`, {
        method,
        headers,
        ...(text === undefined ? {} : { body: text })
      })
      const setCookie = response.headers.get("set-cookie")
      if (options.browser !== undefined && setCookie !== null) options.browser.cookie = cookieOf(setCookie)
      const raw = await response.text()
      return { status: response.status, body: (raw === "" ? {} : JSON.parse(raw)) as Body, setCookie }
    }
    const api = (method: string, path: string, body?: unknown) =>
      request(method, `/forms/api/v1${path}`, { body, headers: bearer(key) })

    const publish = async (settings?: unknown) => {
      const created = await api("POST", "/forms", {
        title: "Resume",
        definition,
        ...(settings === undefined ? {} : { settings })
      })
      expect(created.status).toBe(201)
      const form = created.body.data as { id: string; slug: string; settingsSignature: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    const start = async (slug: string, browser: Browser) => {
      const r = await request("POST", `/f/${slug}/responses`, { body: {}, browser })
      expect(r.status).toBe(201)
      return {
        ...(r.body.data as {
          responseId: string
          token: string
          formVersionId: string
          presentation: unknown
          respondent: unknown
        }),
        setCookie: r.setCookie
      }
    }
    const save = (slug: string, responseId: string, token: string, answers: Record<string, unknown>) =>
      request("PATCH", `/f/${slug}/responses/${responseId}`, { body: { token, answers } })
    const complete = (slug: string, responseId: string, token: string, answers?: Record<string, unknown>) =>
      request("POST", `/f/${slug}/responses/${responseId}/complete`, {
        body: { token, ...(answers === undefined ? {} : { answers }) }
      })
    const resume = (slug: string, browser: Browser, body: unknown = {}) =>
      request("POST", `/f/${slug}/responses/resume`, { body, browser })
    const stored = async (formId: string, responseId: string) =>
      Option.getOrThrow(
        await app.run(Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, formId, responseId)))
      )
    const expectNotFound = (reply: Reply) => {
      expect([reply.status, reply.body.error?.code]).toEqual([404, "not_found"])
      expect(reply.setCookie).toBeNull()
    }

    beforeAll(async () => {
      const started = await startAppOn(target.name)
      ;({ app, key, workspaceId } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("gives the browser its partial response back with its answers and a fresh token; the old token stops working", async () => {
      const form = await publish()
      const browser = new Browser()
      const started = await start(form.slug, browser)
      expect(browser.cookie).toMatch(/^folio_rt=[A-Za-z0-9_-]{32}$/)
      const answers = { [blk(1)]: "Ada", [blk(2)]: 3 }
      expect((await save(form.slug, started.responseId, started.token, answers)).status).toBe(200)

      // The reload: no token any more, only the cookie. No body and `{}` are both accepted.
      const first = await resume(form.slug, browser, undefined)
      expect(first.status).toBe(200)
      expect(first.body.data).toEqual({
        responseId: started.responseId,
        formVersionId: started.formVersionId,
        token: expect.any(String),
        presentation: started.presentation,
        respondent: started.respondent,
        repeatWarning: false,
        status: "partial",
        answers
      })
      expect(first.setCookie).toBe(started.setCookie)
      const token = first.body.data.token as string
      expect(token).not.toBe(started.token)

      const again = await resume(form.slug, browser, {})
      expect(again.status).toBe(200)
      expect(again.body.data.responseId).toBe(started.responseId)
      const latest = again.body.data.token as string
      // Each resume rotates: only the newest token writes.
      for (const old of [started.token, token]) {
        const refused = await save(form.slug, started.responseId, old, { [blk(2)]: 4 })
        expect([refused.status, refused.body.error.code]).toEqual([403, "forbidden"])
        expect((await complete(form.slug, started.responseId, old, answers)).status).toBe(403)
      }
      const saved = await save(form.slug, started.responseId, latest, { [blk(2)]: 5 })
      expect([saved.status, saved.body.data.answers]).toEqual([200, { ...answers, [blk(2)]: 5 }])
      const done = await complete(form.slug, started.responseId, latest)
      expect([done.status, done.body.data.status]).toEqual([200, "completed"])
      expect((await stored(form.id, started.responseId)).meta.tokenHash).toBe(sha256Hex(latest))

      // A completed response is not resumable.
      expectNotFound(await resume(form.slug, browser))
      // Any other body is refused.
      const bad = await resume(form.slug, browser, { responseId: started.responseId })
      expect([bad.status, bad.body.error.code]).toEqual([400, "invalid"])
    })

    it("on a form that allows editing, reopens the browser's newest completed response with a fresh token for the edit", async () => {
      const form = await publish({ submission: { acceptingResponses: true, allowResponseEditing: true } })
      const browser = new Browser()
      const started = await start(form.slug, browser)
      const answers = { [blk(1)]: "Ada", [blk(2)]: 3 }
      expect((await complete(form.slug, started.responseId, started.token, answers)).status).toBe(200)
      const completedAt = (await stored(form.id, started.responseId)).completedAt

      const reopened = await resume(form.slug, browser)
      expect(reopened.status).toBe(200)
      expect(reopened.body.data).toMatchObject({
        responseId: started.responseId,
        status: "completed",
        answers
      })
      const token = reopened.body.data.token as string
      // The old token no longer edits; the new one does, and the response stays completed.
      expect((await complete(form.slug, started.responseId, started.token, { [blk(2)]: 4 })).status).toBe(403)
      const edited = await complete(form.slug, started.responseId, token, { [blk(2)]: 5 })
      expect([edited.status, edited.body.data.status]).toEqual([200, "completed"])
      const row = await stored(form.id, started.responseId)
      expect(row).toMatchObject({ status: "completed", answers: { ...answers, [blk(2)]: 5 } })
      expect(row.completedAt).toEqual(completedAt)

      // A newer partial response of the same browser comes first; another browser gets nothing.
      const another = await start(form.slug, browser)
      const next = await resume(form.slug, browser)
      expect([next.body.data.responseId, next.body.data.status]).toEqual([another.responseId, "partial"])
      expectNotFound(await resume(form.slug, new Browser()))
    })

    it("a resume of a completed response racing an edit with the old token never loses or reverts the edit", async () => {
      const form = await publish({ submission: { acceptingResponses: true, allowResponseEditing: true } })
      const original = { [blk(1)]: "Before" }
      const edit = { [blk(1)]: "Edited" }
      const outcomes = await Promise.all(
        Array.from({ length: TRIALS }, async (_, trial) => {
          const browser = new Browser()
          const started = await start(form.slug, browser)
          expect((await complete(form.slug, started.responseId, started.token, original)).status).toBe(200)
          const [resumed, edited] = await Promise.all(
            trial % 2 === 0
              ? [resume(form.slug, browser), complete(form.slug, started.responseId, started.token, edit)]
              : [
                  new Promise<Reply>((r) => setTimeout(() => resume(form.slug, browser).then(r), 1)),
                  complete(form.slug, started.responseId, started.token, edit)
                ]
          )
          return { started, resumed, edited }
        })
      )
      for (const { started, resumed, edited } of outcomes) {
        expect([resumed.status, edited.status]).not.toContain(500)
        // The resume always reopens it (an edit does not end it); the edit lands only before the rotation.
        expect([resumed.status, resumed.body.data.status]).toEqual([200, "completed"])
        const row = await stored(form.id, started.responseId)
        expect(row.status).toBe("completed")
        expect(row.meta.tokenHash).toBe(sha256Hex(resumed.body.data.token as string))
        if (edited.status === 200) expect(row.answers).toEqual(edit)
        else {
          // Refused after the rotation (403), or lost to it mid-write (409, not retried): not written.
          expect([
            [403, "forbidden"],
            [409, "conflict"]
          ]).toContainEqual([edited.status, edited.body.error.code])
          expect(row.answers).toEqual(original)
        }
      }
    }, 120_000)

    it("resumes nothing without a cookie, with another browser's or a malformed one, or on an unknown form", async () => {
      const form = await publish()
      const other = await publish()
      const ada = new Browser()
      const bob = new Browser()
      const adas = await start(form.slug, ada)
      await save(form.slug, adas.responseId, adas.token, { [blk(1)]: "Ada" })
      await start(other.slug, bob)

      expectNotFound(await resume(form.slug, new Browser()))
      // Bob's browser started only on the other form: it has nothing here, and never gets Ada's.
      expectNotFound(await resume(form.slug, bob))
      for (const cookie of ["folio_rt=", "folio_rt=not-a-token", `folio_rt=${"x".repeat(32)}`]) {
        expectNotFound(await resume(form.slug, new Browser(cookie)))
      }
      expectNotFound(await resume("no-such-form", ada))
      // Bob's resume on his own form is his response, with nothing saved yet.
      const bobs = await resume(other.slug, bob)
      expect([bobs.status, bobs.body.data.answers]).toEqual([200, {}])
      // Ada's own cookie still finds hers.
      const adaResumed = await resume(form.slug, ada)
      expect([adaResumed.body.data.responseId, adaResumed.body.data.answers]).toEqual([
        adas.responseId,
        { [blk(1)]: "Ada" }
      ])
    })

    it("resumes the newest partial response, not one started on an older version, and not on a closed form", async () => {
      const form = await publish()
      const browser = new Browser()
      const onV1 = await start(form.slug, browser)
      await save(form.slug, onV1.responseId, onV1.token, { [blk(1)]: "v1" })
      // Republished: the page now renders version 2, so the version 1 partial is not resumed.
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      expectNotFound(await resume(form.slug, browser))
      // It still belongs to its token, which can finish it.
      expect((await save(form.slug, onV1.responseId, onV1.token, { [blk(1)]: "v1 still" })).status).toBe(200)

      const older = await start(form.slug, browser)
      const newer = await start(form.slug, browser)
      expect(newer.formVersionId).not.toBe(onV1.formVersionId)
      expect((await resume(form.slug, browser)).body.data.responseId).toBe(newer.responseId)
      expect((await complete(form.slug, newer.responseId, newer.token, { [blk(1)]: "done" })).status).toBe(
        403
      )
      const latest = await resume(form.slug, browser)
      expect(
        (await complete(form.slug, newer.responseId, latest.body.data.token as string, { [blk(1)]: "done" }))
          .status
      ).toBe(200)
      // With the newest completed, the older partial is next.
      expect((await resume(form.slug, browser)).body.data.responseId).toBe(older.responseId)

      const closing = await api("PATCH", `/forms/${form.id}/settings`, {
        settings: { submission: { acceptingResponses: false } },
        expectedSettingsSignature: form.settingsSignature
      })
      expect(closing.status).toBe(200)
      const closed = await resume(form.slug, browser)
      expect([closed.status, closed.body.error.code, closed.body.error.details]).toEqual([
        410,
        "closed",
        { reason: "not_accepting" }
      ])
    })

    it("a resume racing the old token's complete: exactly one wins, and a rotation never lands on a completed response", async () => {
      const form = await publish()
      const answers = { [blk(1)]: "Raced", [blk(2)]: 7 }
      // Trials run in parallel; each sends one request up to 2 ms after the other (either way round),
      // so both orders and the overlaps between them happen.
      const after = <A>(ms: number, send: () => Promise<A>) =>
        new Promise<A>((resolve, reject) => setTimeout(() => send().then(resolve, reject), ms))
      const outcomes = await Promise.all(
        Array.from({ length: TRIALS }, async (_, trial) => {
          const browser = new Browser()
          const started = await start(form.slug, browser)
          await save(form.slug, started.responseId, started.token, { [blk(1)]: "Draft" })
          const lead = (trial % 5) - 2
          const [resumed, completed] = await Promise.all([
            after(Math.max(0, -lead), () => resume(form.slug, browser)),
            after(Math.max(0, lead), () => complete(form.slug, started.responseId, started.token, answers))
          ])
          return { started, resumed, completed }
        })
      )
      const tally = { completeWon: 0, resumeWon: 0 }
      for (const { started, resumed, completed } of outcomes) {
        expect([resumed.status, completed.status]).not.toContain(500)
        const row = await stored(form.id, started.responseId)
        if (completed.status === 200) {
          tally.completeWon++
          // The completion won: the resume found nothing partial, and the stored token is the old one.
          expectNotFound(resumed)
          expect(row).toMatchObject({ status: "completed", answers })
          expect(row.meta.tokenHash).toBe(sha256Hex(started.token))
        } else {
          tally.resumeWon++
          // The rotation won: the old token's complete is refused, the new token completes.
          expect([completed.status, completed.body.error.code]).toEqual([403, "forbidden"])
          expect(resumed.status).toBe(200)
          expect(row.status).toBe("partial")
          const token = resumed.body.data.token as string
          expect(row.meta.tokenHash).toBe(sha256Hex(token))
          expect((await complete(form.slug, started.responseId, token, answers)).status).toBe(200)
        }
      }
      console.info(
        `[${target.name}] resume vs complete x${TRIALS} in parallel: complete won ${tally.completeWon}, resume won ${tally.resumeWon}`
      )
    }, 120_000)
  })
}

describe("resume and the respondent budget per client address", () => {
  it("counts every resume: over the budget it is 429 before anything is looked up", async () => {
    const limited = await startApp({ config: { respondentRequestsPerIp: 2 } })
    try {
      await freshRateWindow()
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${limited.origin}/f/no-such-form/responses/resume`, { method: "POST" })
        statuses.push(r.status)
        await r.body?.cancel()
      }
      expect(statuses).toEqual([404, 404, 429])
    } finally {
      await limited.close()
    }
  })
})
