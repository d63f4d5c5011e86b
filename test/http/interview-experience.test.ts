// The interview definition's `experience` over real HTTP on memory, PGlite and PostgreSQL: unknown
// themes and non-https backgrounds refused on write (value-free issues), a legacy stored theme read as
// the default, the background's origin allowed by the chat page's CSP for that page only, the live
// profile in every turn result (JSON, server-sent events, the page without JavaScript) and absent when
// turned off, and starting over (JSON and form post): refused unless allowed, a new response while
// the old one stays partial and untouched, not refused by a soft_block repeat policy.
import { FormRepository, ResponseRepository } from "@folio/domain"
import { Effect, Option, Result } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"
import { decodeInterviewDefinition } from "@folio/domain"
import { experienceStyle } from "../../packages/adapters-http/src/forms/page/interview-experience.js"

const label = (en: string) => ({ en })

const definition = (experience?: Record<string, unknown>) => ({
  title: "Tools check-in",
  locales: { default: "en", supported: ["en"] },
  greetingByLocale: label("Hello!"),
  fields: [
    {
      id: "plan",
      priority: 90,
      labelByLocale: label("your plan"),
      questionByLocale: label("Which plan are you on?"),
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
    }
  ],
  goals: [],
  policy: { maxExchanges: 20 },
  ...(experience === undefined ? {} : { experience })
})

interface ProfileItem {
  readonly fieldId: string
  readonly label: string
  readonly value: string
}
interface Turn {
  readonly responseId: string
  readonly messages: ReadonlyArray<{ id: string; role: string; text: string }>
  readonly done: boolean
  readonly profile?: ReadonlyArray<ProfileItem>
  readonly token: string
}
type Body = {
  data: Record<string, unknown>
  error: { code: string; message: string; details?: Record<string, unknown> }
}
interface Reply {
  readonly status: number
  readonly body: Body
  readonly text: string
  readonly headers: Headers
}

describe("the chat page's background stylesheet", () => {
  it("keeps any https URL inside its CSS string: nothing in it ends the string or the style element", () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true }),
        fc.string(),
        (url, tail) => {
          const decoded = decodeInterviewDefinition({
            schemaVersion: 2,
            fields: [{ id: "f", labelByLocale: { en: "F" }, valueType: "short_text" }],
            experience: { backgroundImageUrl: `${url}${encodeURIComponent(tail)}'"<>\\\n&` }
          })
          fc.pre(Result.isSuccess(decoded))
          if (!Result.isSuccess(decoded)) return
          const style = experienceStyle(decoded.success, "n0nce", false)
          const text = typeof style === "string" ? style : style.text
          const css = text.slice(text.indexOf(">") + 1, text.lastIndexOf("</style>"))
          const inside = /url\("([^"]*)"\)/.exec(css)?.[1] ?? ""
          expect(inside.length).toBeGreaterThan(0)
          expect(inside).toMatch(/^[A-Za-z0-9\-._~:/?#@!$%=+,; \\]*$/)
          expect(css).not.toMatch(/[<>&'\n]/)
          expect(css.match(/"/g)).toHaveLength(2)
        }
      ),
      { numRuns: 30 }
    )
  })
})

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`the interview's experience settings [${target.name}]`, () => {
    let origin: string
    let key: string
    let workspaceId: string
    let app: RunningApp
    let close: () => Promise<void> = async () => {}

    const request = async (
      method: string,
      path: string,
      options: { body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}
    ): Promise<Reply> => {
      const headers: Record<string, string> = { ...options.headers }
      let body: string | undefined
      if (options.body !== undefined) {
        headers["content-type"] = "application/json"
        body = JSON.stringify(options.body)
      } else if (options.form !== undefined) {
        headers["content-type"] = "application/x-www-form-urlencoded"
        body = new URLSearchParams(options.form).toString()
      }
      const response = await fetch(`${origin}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body })
      })
      const text = await response.text()
      const json = (response.headers.get("content-type") ?? "").includes("json") && text !== ""
      return {
        status: response.status,
        body: (json ? JSON.parse(text) : {}) as Body,
        text,
        headers: response.headers
      }
    }
    const api = (method: string, path: string, body?: unknown) =>
      request(method, `/forms/api/v1${path}`, { body, headers: bearer(key) })

    const publish = async (def: unknown, settings?: unknown) => {
      const created = await api("POST", "/forms", {
        kind: "interview",
        title: "Interview",
        definition: def,
        ...(settings === undefined ? {} : { settings })
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const form = created.body.data as { id: string; slug: string }
      expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
      return form
    }
    const start = async (slug: string, cookie?: string, body: Record<string, unknown> = {}) => {
      const r = await request("POST", `/f/${slug}/interview`, {
        body,
        ...(cookie === undefined ? {} : { headers: { cookie } })
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return {
        ...(r.body.data as unknown as Turn),
        cookie: cookie ?? r.headers.get("set-cookie")?.split(";")[0] ?? ""
      }
    }
    const send = async (slug: string, t: { responseId: string; token: string }, text: string) => {
      const r = await request("POST", `/f/${slug}/interview/${t.responseId}/messages`, {
        body: { token: t.token, text }
      })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return r.body.data as unknown as Turn
    }
    const restart = (slug: string, t: { responseId: string; token: string }, cookie?: string) =>
      request("POST", `/f/${slug}/interview/${t.responseId}/restart`, {
        body: { token: t.token },
        ...(cookie === undefined ? {} : { headers: { cookie } })
      })
    const stored = (formId: string, responseId: string) =>
      app.run(
        Effect.flatMap(ResponseRepository, (r) => r.get(workspaceId, formId, responseId)).pipe(
          Effect.map(Option.getOrThrow)
        )
      )

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

    it("refuses an unknown theme and a background that is not https, naming the rule and never the value", async () => {
      const theme = await api("POST", "/forms", {
        kind: "interview",
        title: "Neon",
        definition: definition({ theme: "neon-glow" })
      })
      expect([theme.status, theme.body.error.code]).toEqual([400, "invalid"])
      const issues = theme.body.error.details?.issues as Array<{ path: Array<string>; rule: string }>
      expect(issues).toEqual([
        expect.objectContaining({
          path: expect.arrayContaining(["experience", "theme"]),
          rule: "enum",
          allowed: ["cloud", "ink", "warm", "forest", "dark", "contrast"]
        })
      ])
      expect(JSON.stringify(theme.body)).not.toContain("neon-glow")

      for (const url of [
        "http://images.example/bg.jpg",
        "javascript:alert(1)",
        "https://user:pw@images.example/x"
      ]) {
        const refused = await api("POST", "/forms", {
          kind: "interview",
          title: "Background",
          definition: definition({ backgroundImageUrl: url })
        })
        expect([refused.status, refused.body.error.details?.issues]).toEqual([
          400,
          [
            expect.objectContaining({
              path: expect.arrayContaining(["experience", "backgroundImageUrl"]),
              rule: "httpsUrl"
            })
          ]
        ])
        expect(JSON.stringify(refused.body)).not.toContain(url)
      }

      // A replacement of the draft is refused the same way, and the draft stays as it was.
      const form = await publish(definition({ theme: "dark" }))
      const patched = await api("PATCH", `/forms/${form.id}`, {
        definition: definition({ theme: "Dark" }),
        expectedDraftRevision: 1
      })
      expect([patched.status, patched.body.error.code]).toEqual([400, "invalid"])
      const read = await api("GET", `/forms/${form.id}`)
      expect(
        (read.body.data as { draftDefinition: { experience: { theme: string } } }).draftDefinition.experience
          .theme
      ).toBe("dark")
    })

    it("applies the theme and background on the chat page, the background's origin allowed by that page's CSP only", async () => {
      const form = await publish(
        definition({
          theme: "dark",
          backgroundImageUrl: "https://images.example:8443/a b/bg.jpg?x=1&y='2'",
          backgroundScrim: 0.6
        })
      )
      const info = await request("GET", `/f/${form.slug}/interview`)
      expect(info.body.data.experience).toEqual({
        theme: "dark",
        backgroundImageUrl: "https://images.example:8443/a%20b/bg.jpg?x=1&y=%272%27",
        backgroundScrim: 0.6,
        liveProfile: true,
        allowRestart: false
      })
      const page = await request("GET", `/f/${form.slug}`)
      expect(page.status).toBe(200)
      const csp = page.headers.get("content-security-policy") ?? ""
      expect(csp).toContain("img-src 'self' data: blob: https://images.example:8443;")
      expect(page.text).toContain("--bg:#121318")
      expect(page.text).toContain("rgba(0,0,0,0.6)")
      // The URL is escaped for CSS: nothing in it can end the string or the style element.
      expect(page.text).toContain('url("https://images.example:8443/a%20b/bg.jpg?x=1\\26 y=%272%27")')

      // Another interview's page allows no other image source.
      const plain = await publish(definition())
      const other = await request("GET", `/f/${plain.slug}`)
      expect(other.headers.get("content-security-policy")).toContain("img-src 'self' data: blob:;")
      expect(other.text).not.toContain("--bg:#121318")
    })

    it("reads a stored theme from before the list as the default", async () => {
      const form = await publish(definition())
      // A version stored straight through the port, as data written before the list existed.
      const legacy = {
        ...definition(),
        schemaVersion: 2,
        experience: { theme: "sunset", backgroundImageUrl: "ftp://x/y" }
      }
      await app.run(
        Effect.gen(function* () {
          const repo = yield* FormRepository
          const current = Option.getOrThrow(yield* repo.get(workspaceId, form.id))
          const versionId = crypto.randomUUID()
          const at = new Date()
          yield* repo.save(
            {
              ...current,
              draftDefinition: legacy,
              draftRevision: current.draftRevision + 1,
              currentVersionId: versionId,
              versionCount: current.versionCount + 1,
              rowVersion: current.rowVersion + 1,
              updatedAt: at
            },
            {
              id: versionId,
              formId: form.id,
              workspaceId,
              kind: "interview",
              version: current.versionCount + 1,
              definition: legacy,
              publishedAt: at
            }
          )
        })
      )
      const info = await request("GET", `/f/${form.slug}/interview`)
      expect(info.status).toBe(200)
      expect(info.body.data.experience).toMatchObject({ theme: "cloud", backgroundImageUrl: null })
      const page = await request("GET", `/f/${form.slug}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain("--bg:#ffffff")
      expect(page.headers.get("content-security-policy")).toContain("img-src 'self' data: blob:;")
    })

    it("answers every turn with the live profile, in JSON and in the stream, and leaves it out when turned off", async () => {
      const form = await publish(definition())
      const started = await start(form.slug)
      expect(started.profile).toEqual([])
      const first = await send(form.slug, started, "Pro")
      expect(first.profile).toEqual([{ fieldId: "plan", label: "your plan", value: "Pro" }])
      // A resume after a reload says the same.
      const resumed = await request("POST", `/f/${form.slug}/interview/resume`, {
        headers: { cookie: started.cookie }
      })
      expect((resumed.body.data as unknown as Turn).profile).toEqual(first.profile)
      const events = await fetch(`${origin}/f/${form.slug}/interview/${started.responseId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ token: (resumed.body.data as unknown as Turn).token, text: "Yes, definitely" })
      })
      const done = (await events.text())
        .trim()
        .split("\n\n")
        .map((block) => block.split("\n"))
        .find(([event]) => event === "event: done")
      const turn = (JSON.parse(done?.[1]?.slice(6) ?? "null") as { data: Turn }).data
      expect(turn.profile).toEqual([
        { fieldId: "plan", label: "your plan", value: "Pro" },
        { fieldId: "renew", label: "renewal", value: "yes" }
      ])
      // The resume's fresh token drives the rest; the profile comes with the closing turn too.
      expect(turn.done).toBe(true)

      const off = await publish(definition({ liveProfile: false }))
      const quiet = await start(off.slug)
      expect(quiet).not.toHaveProperty("profile")
      expect(await send(off.slug, quiet, "Pro")).not.toHaveProperty("profile")
      const offPage = await request("GET", `/f/${off.slug}`)
      expect(offPage.text).not.toContain('id="profile"')
    })

    it("shows the profile on the page without JavaScript, updated by each posted message", async () => {
      const form = await publish(definition())
      const begun = await request("POST", `/f/${form.slug}`, { form: { _action: "start", _locale: "en" } })
      expect(begun.status).toBe(200)
      expect(begun.text).toContain('<dl id="profile-list" class="profile-list" aria-live="polite"></dl>')
      const responseId = /name="_response" value="([^"]+)"/.exec(begun.text)?.[1] ?? ""
      const token = /name="_token" value="([^"]+)"/.exec(begun.text)?.[1] ?? ""
      const answered = await request("POST", `/f/${form.slug}`, {
        form: { _action: "message", _response: responseId, _token: token, _locale: "en", text: "Pro" }
      })
      expect(answered.status).toBe(200)
      expect(answered.text).toContain(
        '<div class="profile-item" data-field="plan"><dt>your plan</dt><dd>Pro</dd></div>'
      )
      // No restart is offered where the definition does not allow it.
      expect(answered.text).not.toContain('value="restart"')
    })

    it("refuses a restart the definition does not offer", async () => {
      const form = await publish(definition())
      const started = await start(form.slug)
      const refused = await restart(form.slug, started)
      expect([refused.status, refused.body.error.details?.reason]).toEqual([409, "restart_not_allowed"])
      const page = await request("POST", `/f/${form.slug}`, {
        form: { _action: "restart", _response: started.responseId, _token: started.token, _locale: "en" }
      })
      expect(page.status).toBe(409)
      expect(page.text).toContain("This interview cannot be started over.")
      // Nothing was started: a reload still resumes the interview the refused restart named.
      const resumed = await request("POST", `/f/${form.slug}/interview/resume`, {
        headers: { cookie: started.cookie }
      })
      expect((resumed.body.data as unknown as Turn).responseId).toBe(started.responseId)
    })

    it("starts over as a new response, leaves the old one partial and untouched, and is not refused by soft_block", async () => {
      const form = await publish(definition({ allowRestart: true }), {
        submission: { repeatResponsePolicy: "soft_block" }
      })
      // A first interview taken to the end, so the browser is a repeat respondent.
      const first = await start(form.slug)
      await send(form.slug, first, "Free")
      const ended = await request("POST", `/f/${form.slug}/interview/${first.responseId}/finish`, {
        body: { token: first.token }
      })
      expect(ended.status).toBe(200)
      const again = await request("POST", `/f/${form.slug}/interview`, {
        body: {},
        headers: { cookie: first.cookie }
      })
      expect([again.status, again.body.error.details?.reason]).toEqual([409, "repeat_response"])
      const second = await start(form.slug, first.cookie, { confirmRepeat: true })
      await send(form.slug, second, "Pro")
      const before = await stored(form.id, second.responseId)

      // A finished interview is not started over; a foreign token is refused.
      const late = await restart(form.slug, first, first.cookie)
      expect([late.status, late.body.error.details?.reason]).toEqual([409, "interview_finished"])
      expect((await restart(form.slug, { ...second, token: "A".repeat(32) }, first.cookie)).status).toBe(403)

      const restarted = await restart(form.slug, second, first.cookie)
      expect(restarted.status, JSON.stringify(restarted.body)).toBe(201)
      const fresh = restarted.body.data as unknown as Turn & { repeatWarning: boolean }
      expect(fresh.responseId).not.toBe(second.responseId)
      expect(fresh.messages.map((m) => m.text)).toEqual(["Hello!", expect.stringMatching(/Which plan/)])
      expect(fresh.profile).toEqual([])
      expect(restarted.headers.get("set-cookie")).toContain("folio_rt=")

      // The interview left is exactly as it was: partial, same row version.
      const after = await stored(form.id, second.responseId)
      expect(after).toEqual(before)
      expect(after.status).toBe("partial")
      const replacement = await stored(form.id, fresh.responseId)
      expect(replacement.meta.restartOf).toBe(second.responseId)
      expect(replacement.meta.respondentKey).toBe(before.meta.respondentKey)
      // A reload resumes the new interview, not the one left.
      const resumed = await request("POST", `/f/${form.slug}/interview/resume`, {
        headers: { cookie: first.cookie }
      })
      const current = resumed.body.data as unknown as Turn
      expect(current.responseId).toBe(fresh.responseId)
      await send(form.slug, current, "Pro")

      // Without JavaScript: the restart form posts the interview being left with its token.
      const page = await request("POST", `/f/${form.slug}`, {
        form: { _action: "restart", _response: fresh.responseId, _token: current.token, _locale: "en" },
        headers: { cookie: first.cookie }
      })
      expect(page.status).toBe(200)
      expect(page.text).toContain("A new conversation has started.")
      const newId = /name="_response" value="([^"]+)"/.exec(page.text)?.[1] ?? ""
      expect([fresh.responseId, second.responseId, first.responseId]).not.toContain(newId)
      expect(page.text).toContain('value="restart"')
      expect((await stored(form.id, fresh.responseId)).status).toBe("partial")
      expect((await stored(form.id, newId)).meta.restartOf).toBe(fresh.responseId)
    })
  })
}
