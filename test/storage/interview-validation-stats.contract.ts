// Contract of ResponseRepository.validationStats: per validation item, the responses it was assigned
// to (an id counted once per response), the replies with a comparable value and those agreeing, from
// meta.interview.runtime.validation; rows without it, malformed ones and other forms do not count.
// Run by register-contracts.ts against every storage target.
import { ResponseRepository } from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { response, storedForms } from "./fixtures.js"

export const registerValidationStatsContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const { insertForm, publish } = storedForms(run)
  const repo = <A, E>(f: (r: ResponseRepository["Service"]) => Effect.Effect<A, E>) =>
    run(ResponseRepository.pipe(Effect.flatMap(f)))

  describe(`ResponseRepository.validationStats [${target}]`, () => {
    it("counts assignments, comparable answers and agreements per item, in field id order", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id)
      const { version } = await publish(f)
      const other = await insertForm(ws.id)
      const { version: otherVersion } = await publish(other)
      const validation = (assigned: unknown, answers: unknown) => ({
        interview: {
          runtime: {
            locale: "en",
            fields: [],
            goals: [],
            validation: { assignmentVersion: "v1", assigned, answers }
          }
        }
      })
      const insert = (meta: Record<string, unknown>, form = f, versionId = version.id) =>
        repo((r) => r.insert(response(form, versionId, { meta })))
      await insert(
        validation(
          ["seats", "plan"],
          [
            { fieldId: "plan", messageId: "m1", agrees: true },
            { fieldId: "seats", messageId: "m2", agrees: false }
          ]
        )
      )
      await insert(validation(["plan"], [{ fieldId: "plan", messageId: "m3", agrees: null }]))
      await insert(validation(["plan", "plan", "renew"], []))
      await insert(validation("not a list", [{ fieldId: "plan", agrees: true }]))
      await insert({ interview: { runtime: { locale: "en", fields: [], goals: [] } } })
      await insert({})
      await insert(
        validation(["plan"], [{ fieldId: "plan", messageId: "m9", agrees: true }]),
        other,
        otherVersion.id
      )
      expect(await repo((r) => r.validationStats(ws.id, f.id))).toEqual([
        { fieldId: "plan", assigned: 3, answered: 1, agreed: 1 },
        { fieldId: "renew", assigned: 1, answered: 0, agreed: 0 },
        { fieldId: "seats", assigned: 1, answered: 1, agreed: 0 }
      ])
      expect(await repo((r) => r.validationStats(ws.id, other.id))).toEqual([
        { fieldId: "plan", assigned: 1, answered: 1, agreed: 1 }
      ])
      const elsewhere = await newWorkspace()
      expect(await repo((r) => r.validationStats(elsewhere.id, f.id))).toEqual([])
    })
  })
}
