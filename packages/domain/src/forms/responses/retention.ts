// Research retention: responses of a form under researchCompliance are deleted with their files once
// they are older (by their start, createdAt) than its retentionDays, by a periodic sweep.
import { Clock, Effect } from "effect"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import { deleteResponseWithFiles } from "./withdrawal.js"

const DAY_MS = 24 * 60 * 60 * 1000

/** Responses read and deleted per batch, and batches per form and sweep (the rest waits a round). */
export const RETENTION_BATCH = 100
export const RETENTION_BATCHES_PER_FORM = 10

/**
 * One sweep: for every live form whose settings hold researchCompliance, its responses started
 * before now - retentionDays are deleted with their files, each in its own transaction, in bounded
 * batches. Safe to run in several instances at once (a response deleted by another is skipped).
 * Answers how many responses this sweep deleted.
 */
export const purgeExpiredResponses = (batch = RETENTION_BATCH, batchesPerForm = RETENTION_BATCHES_PER_FORM) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const forms = yield* Effect.flatMap(Effect.service(FormRepository), (r) => r.withResearchCompliance())
    const documents = yield* StoredFormDocumentReader
    const responses = yield* ResponseRepository
    let deleted = 0
    for (const form of forms) {
      const days = documents.settings(form.settings)?.researchCompliance?.retentionDays
      if (days === undefined) continue
      const cutoff = new Date(now - days * DAY_MS)
      for (let round = 0; round < batchesPerForm; round++) {
        const ids = yield* responses.startedBefore(form.workspaceId, form.id, cutoff, batch)
        for (const id of ids) if (yield* deleteResponseWithFiles(form.workspaceId, form.id, id)) deleted++
        if (ids.length < batch) break
      }
    }
    return deleted
  })
