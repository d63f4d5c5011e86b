// `responseLocale` over real HTTP on PGlite and PostgreSQL: an interview offered in several locales
// records the one the respondent used (asked for in the start, or by the browser), and the response
// reads say it; a single-locale interview and a classic form (no choice of locale) read null.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { blk } from "../support/builders.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const interview = (supported: ReadonlyArray<string>) => ({
  locales: { default: supported[0], supported },
  fields: [{ id: "role", labelByLocale: { en: "Role", ko: "역할" }, valueType: "short_text" }]
})

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`responseLocale [${target.name}]`, () => {
    let app: RunningApp
    let client: FormsClient
    let close: () => Promise<void> = async () => {}
    beforeAll(async () => {
      const started = await startAppOn(target.name)
      app = started.app
      client = formsClient(app, started.key)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    const publishInterview = async (slug: string, supported: ReadonlyArray<string>) => {
      const created = await client.api("POST", "/forms", {
        kind: "interview",
        title: "Study",
        definition: interview(supported)
      })
      expect(created.status).toBe(201)
      const id = String(created.body.data.id)
      expect((await client.api("PATCH", `/forms/${id}/slug`, { slug })).status).toBe(200)
      expect((await client.api("POST", `/forms/${id}/publish`, { expectedDraftRevision: 1 })).status).toBe(
        200
      )
      return id
    }
    const startInterview = async (slug: string, body: unknown, headers: Record<string, string> = {}) => {
      const r = await fetch(`${app.origin}/f/${slug}/interview`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
      expect(r.status).toBe(201)
      return ((await r.json()) as { data: { responseId: string; locale: string; token: string } }).data
    }
    const localesOf = async (formId: string) => {
      const list = await client.api("GET", `/forms/${formId}/responses?status=partial`)
      expect(list.status).toBe(200)
      return new Map((list.body.data.items ?? []).map((r) => [String(r.id), r.responseLocale]))
    }

    it("an interview held in a locale chosen from several records it; one in its only locale reads null", async () => {
      const formId = await publishInterview("bilingual-study", ["en", "ko"])
      const english = await startInterview("bilingual-study", { locale: "en" })
      const korean = await startInterview("bilingual-study", {}, { "accept-language": "ko-KR,ko;q=0.9" })
      expect([english.locale, korean.locale]).toEqual(["en", "ko"])
      const locales = await localesOf(formId)
      expect(locales.get(english.responseId)).toBe("en")
      expect(locales.get(korean.responseId)).toBe("ko")
      // Answering the one question closes the interview and rewrites its meta; the locale stays.
      const answered = await fetch(
        `${app.origin}/f/bilingual-study/interview/${english.responseId}/messages`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token: english.token, text: "I am an engineer" })
        }
      )
      expect(answered.status).toBe(200)
      expect(((await answered.json()) as { data: { done: boolean } }).data.done).toBe(true)
      const detail = await client.api("GET", `/forms/${formId}/responses/${english.responseId}`)
      expect(detail.body.data).toMatchObject({ status: "completed", responseLocale: "en" })

      const single = await publishInterview("english-only-study", ["en"])
      const only = await startInterview("english-only-study", { locale: "en" })
      expect((await localesOf(single)).get(only.responseId)).toBeNull()
    }, 60_000)

    it("a classic form, presented in its one locale, reads null", async () => {
      const formId = await client.publish(
        "classic-ko",
        { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Name" }] },
        { locale: "ko" }
      )
      const started = await fetch(`${app.origin}/f/classic-ko/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      const { responseId } = ((await started.json()) as { data: { responseId: string } }).data
      expect((await localesOf(formId)).get(responseId)).toBeNull()
    }, 60_000)
  })
}
