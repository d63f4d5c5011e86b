// Legacy interview definitions over REST on PGlite and PostgreSQL: a v1 row stored through the
// storage port comes back from GET form and GET versions/{id} as InterviewDefinition v2.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { type FormsClient, formsClient } from "../support/forms-client.js"
import { expectV2Reading, storeLegacyInterview } from "../support/legacy-interview.js"
import { startAppOn, storageTargets } from "../support/storage.js"

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`legacy interview definitions on read [${target.name}]`, () => {
    let app: RunningApp
    let workspaceId: string
    let client: FormsClient
    let close: () => Promise<void> = async () => {}
    beforeAll(async () => {
      const started = await startAppOn(target.name)
      ;({ app, workspaceId } = started)
      client = formsClient(app, started.key)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("GET form and GET versions/{id} expose a stored v1 definition as v2", async () => {
      const created = await client.api("POST", "/forms", {
        title: "Study",
        kind: "interview",
        definition: { fields: [{ id: "team", labelByLocale: { en: "Team" }, valueType: "short_text" }] }
      })
      expect(created.status).toBe(201)
      const formId = String(created.body.data.id)
      const versionId = await storeLegacyInterview(app, workspaceId, formId)

      const form = await client.api("GET", `/forms/${formId}`)
      expect(form.status).toBe(200)
      expectV2Reading(form.body.data.draftDefinition)
      const version = await client.api("GET", `/forms/${formId}/versions/${versionId}`)
      expect(version.status).toBe(200)
      expectV2Reading(version.body.data.definition)
      // A v2 definition written through the API goes out as written.
      const fresh = await client.api("POST", "/forms", { title: "New", kind: "interview", definition: {} })
      const read = await client.api("GET", `/forms/${String(fresh.body.data.id)}`)
      expect(read.body.data.draftDefinition).toEqual(fresh.body.data.draftDefinition)
    }, 60_000)
  })
}
