// Country dropdowns in summaries and reports over real HTTP on PGlite and PostgreSQL: each answered
// country is counted under its code and named in the form's locale, never lumped into "Other".
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { blk } from "../support/builders.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const definition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "dropdown", label: "Country", options: { choices: [], dataset: "countries" } },
    { id: blk(2), type: "dropdown", label: "Size", options: { choices: [{ id: "s", label: "Small" }] } }
  ]
}

const respond = async (app: RunningApp, slug: string, answers: Record<string, unknown>) => {
  const started = await fetch(`${app.origin}/f/${slug}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}"
  })
  const { responseId, token } = ((await started.json()) as { data: { responseId: string; token: string } })
    .data
  const done = await fetch(`${app.origin}/f/${slug}/responses/${responseId}/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, answers })
  })
  expect(done.status).toBe(200)
}

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`country answers in summaries and reports [${target.name}]`, () => {
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

    const countryQuestion = (data: Record<string, unknown>) =>
      (
        data.questions as Array<{
          blockId: string
          answered: number
          choices: Array<Record<string, unknown>>
        }>
      ).find((q) => q.blockId === blk(1))

    it("counts each country under its code with its name in the form's locale", async () => {
      const formId = await client.publish("countries-ko", definition, { locale: "ko" })
      for (const answers of [{ [blk(1)]: "KR" }, { [blk(1)]: "JP" }, { [blk(1)]: "KR", [blk(2)]: "s" }, {}])
        await respond(app, "countries-ko", answers)

      const summary = await client.api("GET", `/forms/${formId}/responses/summary`)
      expect(summary.status).toBe(200)
      expect(countryQuestion(summary.body.data)).toEqual({
        kind: "choice",
        blockId: blk(1),
        label: "Country",
        answered: 3,
        choices: [
          { id: "KR", label: "대한민국", count: 2, percent: 66.67 },
          { id: "JP", label: "일본", count: 1, percent: 33.33 }
        ]
      })
      const report = await client.api("GET", `/forms/${formId}/reports?q=country`)
      expect(report.status).toBe(200)
      const questions = report.body.data.questions as Array<Record<string, unknown>>
      expect(questions).toHaveLength(1)
      expect(countryQuestion(report.body.data)?.choices).toEqual([
        { id: "KR", label: "대한민국", count: 2, percent: 66.67 },
        { id: "JP", label: "일본", count: 1, percent: 33.33 }
      ])
    }, 60_000)

    it("names countries in English when the form's locale is English", async () => {
      const formId = await client.publish("countries-en", definition)
      await respond(app, "countries-en", { [blk(1)]: "DE" })
      const summary = await client.api("GET", `/forms/${formId}/responses/summary`)
      expect(countryQuestion(summary.body.data)?.choices).toEqual([
        { id: "DE", label: "Germany", count: 1, percent: 100 }
      ])
    }, 60_000)
  })
}
