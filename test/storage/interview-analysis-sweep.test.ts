// The sweep of interview analyses whose job died, on memory, PGlite and PostgreSQL: a completed
// interview still `pending` is closed as `failed` (its built-in analysis kept) when its analysis job
// ended (failed, also by a lease that lapsed on the last attempt) or never existed past the grace
// period; a job still queued or running, a fresh response without a job, and settled analyses are
// left alone; a second pass closes nothing.
import { randomFillSync } from "node:crypto"
import {
  closeStuckInterviewAnalyses,
  type FormRecord,
  INTERVIEW_ANALYSIS_NO_JOB_GRACE_MS,
  JobQueue,
  ResponseRepository,
  type ResponseRecord,
  uuidV7FromParts
} from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { withStorage } from "../support/with-storage.js"
import { response, storedForms } from "./fixtures.js"
import { storageTargets } from "./targets.js"

const builtIn = { summary: "your plan: Pro", keyInfo: [], insights: [], extractedFields: { plan: "pro" } }

for (const target of storageTargets) {
  describe.skipIf(target.skip)(`closing interview analyses left pending [${target.name}]`, () => {
    const { run, newWorkspace } = withStorage(target)
    const { insertForm, publish } = storedForms(run)

    const interviewResponse = async (
      f: FormRecord,
      versionId: string,
      analysisStatus: string,
      overrides: Partial<ResponseRecord> = {}
    ) => {
      const r = response(f, versionId, {
        answers: {},
        meta: { interview: { ...builtIn, analysisStatus } },
        ...overrides
      })
      await run(Effect.flatMap(ResponseRepository, (repo) => repo.insert(r)))
      return r
    }
    const analysisJob = (r: ResponseRecord, maxAttempts = 5) => ({
      id: uuidV7FromParts(Date.now(), randomFillSync(new Uint8Array(16))),
      tenantId: r.workspaceId,
      type: "interview_analysis" as const,
      resourceId: r.id,
      dedupeKey: `interview_analysis:${r.id}`,
      payload: { formId: r.formId, responseId: r.id },
      maxAttempts,
      runAt: new Date(Date.now() - 1000),
      retryOf: null,
      createdAt: new Date()
    })
    const enqueue = (r: ResponseRecord, maxAttempts?: number) =>
      run(Effect.flatMap(JobQueue, (q) => q.enqueue(analysisJob(r, maxAttempts))))
    const claim = (limit: number, leaseMs: number) =>
      run(Effect.flatMap(JobQueue, (q) => q.claim("worker-a", limit, leaseMs)))
    const statusOf = async (r: ResponseRecord) => {
      const found = Option.getOrThrow(
        await run(Effect.flatMap(ResponseRepository, (repo) => repo.get(r.workspaceId, r.formId, r.id)))
      )
      return found.meta.interview as Record<string, unknown>
    }

    it("closes rows whose job ended or never came, and leaves the rest", async () => {
      const ws = await newWorkspace()
      const f = await insertForm(ws.id, { kind: "interview" })
      const { version } = await publish(f)

      // A job that failed its last attempt by itself, and one whose worker died on its last attempt:
      // its lease lapses and the next claim fails it (what the queue does after a kill -9).
      const failed = await interviewResponse(f, version.id, "pending")
      await enqueue(failed)
      const [claimed] = await claim(1, 60_000)
      expect(claimed?.resourceId).toBe(failed.id)
      await run(
        Effect.flatMap(JobQueue, (q) =>
          q.complete("worker-a", claimed?.id ?? "", {
            status: "failed",
            error: { code: "analysis_failed", message: "x" }
          })
        )
      )
      const died = await interviewResponse(f, version.id, "pending")
      const diedJob = await enqueue(died, 1)
      expect((await claim(1, 1)).map((j) => j.id)).toEqual([diedJob.id])
      await new Promise((resolve) => setTimeout(resolve, 50))
      await claim(0, 60_000)
      const lapsed = Option.getOrThrow(await run(Effect.flatMap(JobQueue, (q) => q.get(ws.id, diedJob.id))))
      expect([lapsed.status, lapsed.error?.code]).toEqual(["failed", "lease_expired"])

      // No job at all: closed past the grace period, not before.
      const orphan = await interviewResponse(f, version.id, "pending")
      const fresh = await interviewResponse(f, version.id, "pending", {
        completedAt: new Date(),
        updatedAt: new Date()
      })
      // A job still waiting, settled analyses, and an unfinished interview: left alone.
      const waiting = await interviewResponse(f, version.id, "pending")
      await enqueue(waiting)
      const partial = await interviewResponse(f, version.id, "partial")
      await enqueue(partial, 1)
      const unfinished = await interviewResponse(f, version.id, "pending", {
        status: "partial",
        completedAt: null
      })

      const closed = await run(closeStuckInterviewAnalyses())
      expect(closed).toBe(3)
      for (const r of [failed, died, orphan])
        expect(await statusOf(r)).toEqual({ ...builtIn, analysisStatus: "failed" })
      for (const r of [fresh, waiting, unfinished]) expect((await statusOf(r)).analysisStatus).toBe("pending")
      expect((await statusOf(partial)).analysisStatus).toBe("partial")
      // Compare-and-set: the closed rows moved on by one version, and a second pass finds nothing.
      const row = await run(Effect.flatMap(ResponseRepository, (repo) => repo.get(ws.id, f.id, failed.id)))
      expect(Option.getOrThrow(row).version).toBe(2)
      expect(await run(closeStuckInterviewAnalyses())).toBe(0)
      // With no grace, the fresh row without a job is closed too; the waiting one never is.
      expect(await run(closeStuckInterviewAnalyses(0))).toBe(1)
      expect((await statusOf(fresh)).analysisStatus).toBe("failed")
      expect((await statusOf(waiting)).analysisStatus).toBe("pending")
      expect(INTERVIEW_ANALYSIS_NO_JOB_GRACE_MS).toBe(600_000)
    })
  })
}
