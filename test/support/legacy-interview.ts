// A legacy interview definition (schemaVersion 1 with a key v2 does not know) written straight
// through the storage port as a form's draft and as its newest published version, as data stored
// before v2 existed would be: reads must expose it as InterviewDefinition v2.
import { FormRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { expect } from "vitest"
import type { RunningApp } from "./app.js"

export const LEGACY_INTERVIEW = {
  schemaVersion: 1,
  title: "Onboarding study",
  legacyTurns: 3,
  fields: [{ id: "role", labelByLocale: { en: "Role" }, valueType: "short_text" }]
}

/** Stores LEGACY_INTERVIEW as the form's draft and publishes it as a new version; answers its id. */
export const storeLegacyInterview = (app: RunningApp, workspaceId: string, formId: string) =>
  app.run(
    Effect.gen(function* () {
      const repo = yield* FormRepository
      const stored = Option.getOrThrow(yield* repo.get(workspaceId, formId))
      const versionId = crypto.randomUUID()
      const at = new Date()
      yield* repo.save(
        {
          ...stored,
          draftDefinition: LEGACY_INTERVIEW,
          // A new draft is a new revision: readers may remember a draft by its revision.
          draftRevision: stored.draftRevision + 1,
          status: "published",
          currentVersionId: versionId,
          versionCount: stored.versionCount + 1,
          rowVersion: stored.rowVersion + 1,
          updatedAt: at
        },
        {
          id: versionId,
          formId,
          workspaceId,
          kind: "interview",
          version: stored.versionCount + 1,
          definition: LEGACY_INTERVIEW,
          publishedAt: at
        }
      )
      return versionId
    })
  )

/** What every surface must show for LEGACY_INTERVIEW: v2 with its defaults, content kept, v1 key gone. */
export const expectV2Reading = (definition: unknown) => {
  expect(definition).toMatchObject({
    schemaVersion: 2,
    title: "Onboarding study",
    goal: "",
    fields: [{ id: "role", labelByLocale: { en: "Role" }, valueType: "short_text" }]
  })
  expect(definition).not.toHaveProperty("legacyTurns")
}
