// The sharing job routes see sharing's jobs only: a forms job (interview_analysis) of the same
// account is never listed, not even as a gap in a page, and is 404 to GET /jobs/{id} and to retry;
// the `type` filter takes sharing's types alone.
import { randomFillSync } from "node:crypto"
import { JobQueue, type JobType, uuidV7FromParts } from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { sharingSuite } from "../support/sharing-suite.js"

describe("sharing job routes and other contexts' jobs", () => {
  const { app, owner } = sharingSuite({ db: "pglite", blob: "fs" }, { owner: ["read", "write"] })
  const call = (method: string, path: string) =>
    sharingClientOf(app.origin).call(method, path, { key: owner.key })

  /** Queues a job of the owner's account, a second after the previous one, not due for an hour. */
  let createdMs = Date.now()
  const enqueue = (type: JobType) =>
    app.run(
      Effect.flatMap(JobQueue, (queue) => {
        createdMs += 1000
        const resourceId = crypto.randomUUID()
        return queue.enqueue({
          id: uuidV7FromParts(createdMs, randomFillSync(new Uint8Array(16))),
          tenantId: owner.workspaceId,
          type,
          resourceId,
          dedupeKey: `${type}:${resourceId}`,
          payload: {},
          maxAttempts: 5,
          runAt: new Date(Date.now() + 3_600_000),
          retryOf: null,
          createdAt: new Date(createdMs)
        })
      })
    )

  it("never lists a forms job, and answers 404 for it to GET and retry", async () => {
    const sharing = await enqueue("notion_refresh")
    // Newer than the sharing job: a list that dropped them after reading would answer empty pages.
    const forms = [await enqueue("interview_analysis"), await enqueue("interview_analysis")]

    const first = await call("GET", "/jobs?limit=1")
    expect(first.status).toBe(200)
    expect((first.body.items as Array<Json>).map((j) => j.job_id)).toEqual([sharing.id])
    expect(first.body.next_cursor).toBeNull()
    const all = await call("GET", "/jobs?limit=200")
    expect((all.body.items as Array<Json>).map((j) => j.job_id)).toEqual([sharing.id])
    const queued = await call("GET", "/jobs?status=queued")
    expect((queued.body.items as Array<Json>).map((j) => j.job_id)).toEqual([sharing.id])

    for (const job of forms) {
      expect((await call("GET", `/jobs/${job.id}`)).status).toBe(404)
      const retry = await call("POST", `/jobs/${job.id}/retry`)
      expect(retry.status).toBe(404)
      expect(retry.body.error_code).toBe("not_found")
    }
    const visible = await call("GET", `/jobs/${sharing.id}`)
    expect(visible.status).toBe(200)
    expect(visible.body.type).toBe("notion_refresh")

    expect((await call("GET", "/jobs?type=interview_analysis")).status).toBe(400)
    const byType = await call("GET", "/jobs?type=notion_refresh")
    expect((byType.body.items as Array<Json>).map((j) => j.job_id)).toEqual([sharing.id])
  })
})
