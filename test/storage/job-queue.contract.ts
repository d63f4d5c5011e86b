// Contract of the JobQueue port, run by register-contracts.ts against every storage target: queueing
// and reading jobs, one active job per key (also under concurrent enqueues), claims that hand each
// due job to one claimer, leases only their holder can renew or finish, lapsed leases, release.
import { randomFillSync } from "node:crypto"
import {
  encodeCursor,
  type JobCompletion,
  JobQueue,
  type JobQueueService,
  type JobRecord,
  type JobType,
  type NewJob,
  type TenantRecord,
  uuidV7FromParts
} from "@folio/domain"
import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { uuid } from "./fixtures.js"

export interface JobQueueHarness {
  readonly target: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, JobQueue>) => Promise<A>
  readonly newWorkspace: () => Promise<TenantRecord>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Creation instants one second apart, and UUID v7 ids of those instants: the SQL list orders by
// (created_at, id), the memory one by id, and both agree on these.
let createdMs = Date.parse("2026-05-01T00:00:00.000Z")
const nextCreated = () => {
  createdMs += 1000
  return createdMs
}

/** A due job (its run time a second ago) of `tenantId` on a fresh resource, with its own key. */
export const newJob = (tenantId: string, overrides: Partial<NewJob> = {}): NewJob => {
  const ms = nextCreated()
  const resourceId = overrides.resourceId ?? uuid()
  const type: JobType = overrides.type ?? "optimize_original"
  return {
    id: uuidV7FromParts(ms, randomFillSync(new Uint8Array(16))),
    tenantId,
    type,
    resourceId,
    dedupeKey: `${type}:${resourceId}`,
    payload: { resource: resourceId, n: 1 },
    maxAttempts: 5,
    runAt: new Date(Date.now() - 1000),
    retryOf: null,
    createdAt: new Date(ms),
    ...overrides
  }
}

const done: JobCompletion = { status: "succeeded", result: { ok: true } }

export const registerJobQueueContracts = ({ target, run, newWorkspace }: JobQueueHarness) => {
  const q = <A, E>(f: (queue: JobQueueService) => Effect.Effect<A, E>) => run(Effect.flatMap(JobQueue, f))
  const get = async (tenantId: string, id: string) => Option.getOrThrow(await q((s) => s.get(tenantId, id)))
  const enqueueAll = async (jobs: ReadonlyArray<NewJob>) => {
    const out: Array<JobRecord> = []
    for (const job of jobs) out.push(await q((s) => s.enqueue(job)))
    return out
  }
  /**
   * Claims are not per tenant: a test that counts what a claim returns first finishes every due job
   * earlier tests left (and puts lapsed leases back so they are finished too).
   */
  const drain = async () => {
    for (;;) {
      const claimed = await q((s) => s.claim("janitor", 100, 60_000))
      if (claimed.length === 0) return
      for (const job of claimed)
        await q((s) => s.complete("janitor", job.id, { status: "skipped", result: { drained: true } }))
    }
  }
  const listAll = async (tenantId: string, query: Omit<Parameters<JobQueueService["list"]>[1], "cursor">) => {
    const pages: Array<ReadonlyArray<string>> = []
    let cursor: string | undefined
    for (;;) {
      const page = await q((s) => s.list(tenantId, { ...query, cursor }))
      pages.push(page.items.map((j) => j.id))
      if (page.nextCursor === null) return pages
      cursor = page.nextCursor
    }
  }

  describe(`JobQueue [${target}]`, () => {
    it("queues jobs and reads them back: by id, newest first in pages, by status and by type", async () => {
      await drain()
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const types: ReadonlyArray<JobType> = [
        "optimize_original",
        "notion_refresh",
        "optimize_original",
        "notion_refresh",
        "optimize_original"
      ]
      // Run times in creation order, well in the past: a claim takes the oldest first.
      const base = Date.now() - 60_000
      const jobs = await enqueueAll(
        types.map((type, i) => newJob(ws.id, { type, runAt: new Date(base + i * 1000) }))
      )
      const first = jobs[0]
      if (first === undefined) throw new Error("no job")
      expect(first).toMatchObject({
        tenantId: ws.id,
        type: "optimize_original",
        status: "queued",
        attempts: 0,
        maxAttempts: 5,
        leaseOwner: null,
        leaseExpiresAt: null,
        result: null,
        error: null,
        retryOf: null,
        startedAt: null,
        finishedAt: null
      })
      expect(await get(ws.id, first.id)).toEqual(first)
      expect(Option.isNone(await q((s) => s.get(other.id, first.id)))).toBe(true)
      expect(Option.isNone(await q((s) => s.get(ws.id, uuid())))).toBe(true)
      expect(Option.isNone(await q((s) => s.get(ws.id, "not-a-uuid")))).toBe(true)

      // The two oldest are claimed; the first finishes.
      const claimed = await q((s) => s.claim("w1", 2, 60_000))
      expect(claimed.map((j) => j.id)).toEqual(jobs.slice(0, 2).map((j) => j.id))
      expect(await q((s) => s.complete("w1", first.id, done))).toBe(true)

      const ids = jobs.map((j) => j.id)
      const newestFirst = [...ids].reverse()
      const pages = await listAll(ws.id, { limit: 2 })
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1])
      expect(pages.flat()).toEqual(newestFirst)
      // A limit the list fills exactly has no next page.
      const exact = await q((s) => s.list(ws.id, { limit: 5 }))
      expect(exact.items.map((j) => j.id)).toEqual(newestFirst)
      expect(exact.nextCursor).toBeNull()

      expect((await listAll(ws.id, { limit: 2, status: "queued" })).flat()).toEqual(newestFirst.slice(0, 3))
      expect((await listAll(ws.id, { limit: 10, status: "running" })).flat()).toEqual([ids[1]])
      expect((await listAll(ws.id, { limit: 10, status: "succeeded" })).flat()).toEqual([ids[0]])
      expect((await listAll(ws.id, { limit: 10, status: "failed" })).flat()).toEqual([])
      expect((await listAll(ws.id, { limit: 1, type: "notion_refresh" })).flat()).toEqual([ids[3], ids[1]])
      expect(
        (await listAll(ws.id, { limit: 10, type: "optimize_original", status: "queued" })).flat()
      ).toEqual([ids[4], ids[2]])
      expect((await listAll(other.id, { limit: 10 })).flat()).toEqual([])

      for (const cursor of [
        "not-a-cursor",
        encodeCursor([1, 2, 3]),
        encodeCursor(["2026-01-01T00:00:00.000Z", "not-a-uuid"])
      ]) {
        const listed = await run(
          Effect.result(Effect.flatMap(JobQueue, (s) => s.list(ws.id, { limit: 2, cursor })))
        )
        expect(Result.isFailure(listed) && listed.failure._tag).toBe("InvalidCursor")
      }

      // The newest job on a resource of a type, for its tenant only.
      const last = jobs[4]
      if (last === undefined || last.resourceId === null) throw new Error("no job")
      const resourceId = last.resourceId
      expect(Option.getOrThrow(await q((s) => s.latestFor(ws.id, resourceId, "optimize_original"))).id).toBe(
        last.id
      )
      expect(Option.isNone(await q((s) => s.latestFor(ws.id, resourceId, "notion_refresh")))).toBe(true)
      expect(Option.isNone(await q((s) => s.latestFor(other.id, resourceId, "optimize_original")))).toBe(true)
      await drain()
      expect(await q((s) => s.complete("w1", ids[1] ?? "", done))).toBe(true)
    })

    it("lists only the types asked for (a context's own), paging through them alone", async () => {
      const ws = await newWorkspace()
      // Not due for an hour: no other test's claim takes them.
      const later = new Date(Date.now() + 3_600_000)
      const types: ReadonlyArray<JobType> = [
        "interview_analysis",
        "optimize_original",
        "interview_analysis",
        "notion_refresh",
        "interview_analysis",
        "webhook_delivery"
      ]
      const ids = (await enqueueAll(types.map((type) => newJob(ws.id, { type, runAt: later })))).map(
        (j) => j.id
      )
      const sharing: ReadonlyArray<JobType> = ["optimize_original", "notion_refresh", "webhook_delivery"]
      const pages = await listAll(ws.id, { limit: 2, types: sharing })
      expect(pages.map((p) => p.length)).toEqual([2, 1])
      expect(pages.flat()).toEqual([ids[5], ids[3], ids[1]])
      expect((await listAll(ws.id, { limit: 1, types: ["interview_analysis"] })).flat()).toEqual([
        ids[4],
        ids[2],
        ids[0]
      ])
      // With `type` too, both apply.
      expect((await listAll(ws.id, { limit: 10, types: sharing, type: "notion_refresh" })).flat()).toEqual([
        ids[3]
      ])
      expect(
        (await listAll(ws.id, { limit: 10, types: sharing, type: "interview_analysis" })).flat()
      ).toEqual([])
      expect((await listAll(ws.id, { limit: 10, types: [] })).flat()).toEqual([])
      expect((await listAll(ws.id, { limit: 10 })).flat()).toEqual([...ids].reverse())
    })

    it("refuses a second active job with the same key, and takes it again once the first is final", async () => {
      await drain()
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const resourceId = uuid()
      const a = await q((s) => s.enqueue(newJob(ws.id, { resourceId })))
      const refused = await run(
        Effect.result(Effect.flatMap(JobQueue, (s) => s.enqueue(newJob(ws.id, { resourceId }))))
      )
      expect(Result.isFailure(refused) && refused.failure).toMatchObject({
        _tag: "JobAlreadyActive",
        activeJobId: a.id
      })
      // Keys are per tenant; another key of the same tenant is other work.
      await q((s) => s.enqueue(newJob(other.id, { resourceId })))
      await q((s) => s.enqueue(newJob(ws.id, { resourceId, type: "notion_refresh" })))

      // Running is still active.
      const claimed = await q((s) => s.claim("w1", 10, 60_000))
      expect(claimed.map((j) => j.id)).toContain(a.id)
      const whileRunning = await run(
        Effect.result(Effect.flatMap(JobQueue, (s) => s.enqueue(newJob(ws.id, { resourceId }))))
      )
      expect(Result.isFailure(whileRunning) && whileRunning.failure).toMatchObject({
        _tag: "JobAlreadyActive",
        activeJobId: a.id
      })
      expect((await listAll(ws.id, { limit: 10 })).flat()).toHaveLength(2)

      expect(await q((s) => s.complete("w1", a.id, done))).toBe(true)
      const again = await q((s) => s.enqueue(newJob(ws.id, { resourceId })))
      expect(again.status).toBe("queued")
      expect(Option.getOrThrow(await q((s) => s.latestFor(ws.id, resourceId, "optimize_original"))).id).toBe(
        again.id
      )
      expect((await get(ws.id, a.id)).status).toBe("succeeded")
      await drain()
    })

    it("lets exactly one of 20 concurrent enqueues of one key in", async () => {
      const ws = await newWorkspace()
      const resourceId = uuid()
      const attempts = await run(
        Effect.all(
          Array.from({ length: 20 }, () =>
            Effect.result(Effect.flatMap(JobQueue, (s) => s.enqueue(newJob(ws.id, { resourceId }))))
          ),
          { concurrency: "unbounded" }
        )
      )
      const landed = attempts.filter(Result.isSuccess).map((r) => r.success)
      expect(landed).toHaveLength(1)
      const winner = landed[0]
      const refusals = attempts.filter(Result.isFailure).map((r) => r.failure)
      expect(refusals).toHaveLength(19)
      for (const refusal of refusals)
        expect(refusal).toMatchObject({ _tag: "JobAlreadyActive", activeJobId: winner?.id })
      expect((await listAll(ws.id, { limit: 50 })).flat()).toEqual([winner?.id])
      await drain()
    })

    it("gives each due job to exactly one of two concurrent claimers, and none before its time", async () => {
      await drain()
      const ws = await newWorkspace()
      const due = await enqueueAll(Array.from({ length: 50 }, () => newJob(ws.id)))
      const later = await enqueueAll(
        Array.from({ length: 3 }, () => newJob(ws.id, { runAt: new Date(Date.now() + 3_600_000) }))
      )
      expect(await q((s) => s.claim("w0", 0, 60_000))).toEqual([])

      const claimer = (worker: string) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const mine: Array<JobRecord> = []
          for (;;) {
            const got = yield* queue.claim(worker, 7, 60_000)
            if (got.length === 0) return mine
            mine.push(...got)
          }
        })
      const before = Date.now()
      const [a, b] = await run(Effect.all([claimer("a"), claimer("b")], { concurrency: "unbounded" }))
      const aIds = a.map((j) => j.id)
      const bIds = b.map((j) => j.id)
      expect(new Set([...aIds, ...bIds]).size).toBe(aIds.length + bIds.length)
      expect([...aIds, ...bIds].sort()).toEqual(due.map((j) => j.id).sort())
      for (const [worker, jobs] of [
        ["a", a],
        ["b", b]
      ] as const)
        for (const job of jobs) {
          expect(job).toMatchObject({ status: "running", attempts: 1, leaseOwner: worker })
          expect(job.leaseExpiresAt?.getTime()).toBeGreaterThan(before + 30_000)
          expect(job.startedAt).not.toBeNull()
        }
      for (const job of later)
        expect(await get(ws.id, job.id)).toMatchObject({ status: "queued", attempts: 0 })

      for (const [worker, jobs] of [
        ["a", a],
        ["b", b]
      ] as const)
        for (const job of jobs) expect(await q((s) => s.complete(worker, job.id, done))).toBe(true)
      expect((await listAll(ws.id, { limit: 100, status: "succeeded" })).flat()).toHaveLength(50)
    })

    it("lets only the lease holder renew or finish a job", async () => {
      await drain()
      const ws = await newWorkspace()
      const job = await q((s) => s.enqueue(newJob(ws.id)))
      const [claimed] = await q((s) => s.claim("w1", 1, 60_000))
      expect(claimed?.id).toBe(job.id)
      const firstLease = claimed?.leaseExpiresAt?.getTime() ?? 0

      const ghost = uuid()
      expect(await q((s) => s.renew("w2", [job.id], 60_000))).toEqual([job.id])
      expect(await q((s) => s.renew("w1", [], 60_000))).toEqual([])
      expect(await q((s) => s.renew("w1", [job.id, ghost, "not-a-uuid"], 120_000))).toEqual([
        ghost,
        "not-a-uuid"
      ])
      expect((await get(ws.id, job.id)).leaseExpiresAt?.getTime()).toBeGreaterThan(firstLease + 50_000)

      expect(await q((s) => s.complete("w2", job.id, done))).toBe(false)
      await q((s) => s.release("w2", [job.id]))
      expect(await get(ws.id, job.id)).toMatchObject({ status: "running", leaseOwner: "w1", attempts: 1 })

      expect(await q((s) => s.complete("w1", job.id, { status: "succeeded", result: { bytes: 42 } }))).toBe(
        true
      )
      const finished = await get(ws.id, job.id)
      expect(finished).toMatchObject({
        status: "succeeded",
        result: { bytes: 42 },
        error: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: 1
      })
      expect(finished.finishedAt).not.toBeNull()
      // Final: not finished twice, not renewed.
      expect(
        await q((s) => s.complete("w1", job.id, { status: "failed", error: { code: "x", message: "m" } }))
      ).toBe(false)
      expect(await q((s) => s.renew("w1", [job.id], 60_000))).toEqual([job.id])
      expect((await get(ws.id, job.id)).status).toBe("succeeded")
    })

    it("keeps a job waiting for its retry active, and claims it again once its time has come", async () => {
      await drain()
      const ws = await newWorkspace()
      const job = await q((s) => s.enqueue(newJob(ws.id, { maxAttempts: 3 })))
      await q((s) => s.claim("w1", 1, 60_000))
      const runAt = new Date(Date.now() + 400)
      const error = { code: "upstream_down", message: "the source did not answer" }
      expect(await q((s) => s.complete("w1", job.id, { status: "queued", error, runAt }))).toBe(true)
      expect(await get(ws.id, job.id)).toMatchObject({
        status: "queued",
        attempts: 1,
        error,
        runAt,
        leaseOwner: null,
        leaseExpiresAt: null,
        finishedAt: null
      })
      const refused = await run(
        Effect.result(
          Effect.flatMap(JobQueue, (s) => s.enqueue(newJob(ws.id, { resourceId: job.resourceId ?? "" })))
        )
      )
      expect(Result.isFailure(refused) && refused.failure).toMatchObject({
        _tag: "JobAlreadyActive",
        activeJobId: job.id
      })
      // Not before its time; the old holder cannot finish it any more.
      expect(await q((s) => s.claim("w2", 10, 60_000))).toEqual([])
      expect(await q((s) => s.complete("w1", job.id, done))).toBe(false)

      await sleep(500)
      const [again] = await q((s) => s.claim("w2", 10, 60_000))
      expect(again).toMatchObject({ id: job.id, status: "running", attempts: 2, leaseOwner: "w2" })
      const failure = { code: "gone", message: "the source is gone" }
      expect(await q((s) => s.complete("w2", job.id, { status: "failed", error: failure }))).toBe(true)
      const failed = await get(ws.id, job.id)
      expect(failed).toMatchObject({ status: "failed", error: failure, attempts: 2, leaseOwner: null })
      expect(failed.finishedAt).not.toBeNull()
      // Failed is final: the same work can be queued again.
      await q((s) => s.enqueue(newJob(ws.id, { resourceId: job.resourceId ?? "" })))
      await drain()
    })

    it("puts a job whose lease lapsed back in the queue, and fails it when that was its last attempt", async () => {
      await drain()
      const ws = await newWorkspace()
      const job = await q((s) => s.enqueue(newJob(ws.id, { maxAttempts: 2 })))
      const [first] = await q((s) => s.claim("w1", 1, 200))
      expect(first).toMatchObject({ id: job.id, attempts: 1 })
      // Still held: nobody else gets it.
      expect(await q((s) => s.claim("w2", 10, 200))).toEqual([])

      await sleep(400)
      const [second] = await q((s) => s.claim("w2", 10, 200))
      expect(second).toMatchObject({ id: job.id, status: "running", attempts: 2, leaseOwner: "w2" })
      expect(second?.error?.code).toBe("lease_expired")
      // The worker that lost it can neither renew nor finish it.
      expect(await q((s) => s.renew("w1", [job.id], 60_000))).toEqual([job.id])
      expect(await q((s) => s.complete("w1", job.id, done))).toBe(false)

      await sleep(400)
      expect((await q((s) => s.claim("w3", 10, 60_000))).map((j) => j.id)).not.toContain(job.id)
      const failed = await get(ws.id, job.id)
      expect(failed).toMatchObject({
        status: "failed",
        attempts: 2,
        error: { code: "lease_expired" },
        leaseOwner: null,
        leaseExpiresAt: null
      })
      expect(failed.finishedAt).not.toBeNull()
      expect(await q((s) => s.complete("w2", job.id, done))).toBe(false)
      await drain()
    })

    it("gives a released job's attempt back and lets another worker claim it at once", async () => {
      await drain()
      const ws = await newWorkspace()
      const job = await q((s) => s.enqueue(newJob(ws.id, { maxAttempts: 1 })))
      await q((s) => s.claim("w1", 1, 60_000))
      await q((s) => s.release("w2", [job.id]))
      expect(await get(ws.id, job.id)).toMatchObject({ status: "running", leaseOwner: "w1", attempts: 1 })

      await q((s) => s.release("w1", []))
      await q((s) => s.release("w1", [job.id, uuid(), "not-a-uuid"]))
      const released = await get(ws.id, job.id)
      expect(released).toMatchObject({
        status: "queued",
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null
      })
      expect(released.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 5)
      // With one attempt allowed, the released job still gets it.
      const [again] = await q((s) => s.claim("w2", 10, 60_000))
      expect(again).toMatchObject({ id: job.id, attempts: 1, leaseOwner: "w2" })
      expect(await q((s) => s.complete("w2", job.id, done))).toBe(true)
    })

    it("counts queued and running jobs by type and status, over every workspace (the metrics' depth)", async () => {
      await drain()
      const count = async (type: JobType, status: "queued" | "running") =>
        (await q((s) => s.depth())).find((d) => d.type === type && d.status === status)?.count ?? 0
      // Earlier tests may leave jobs waiting for a retry: counted from where it stands.
      const before = {
        insightsQueued: await count("form_insights", "queued"),
        insightsRunning: await count("form_insights", "running"),
        notionQueued: await count("notion_refresh", "queued"),
        notionRunning: await count("notion_refresh", "running")
      }
      const [a, b] = [await newWorkspace(), await newWorkspace()]
      await q((s) => s.enqueue(newJob(a.id, { type: "form_insights" })))
      await q((s) => s.enqueue(newJob(b.id, { type: "form_insights" })))
      await q((s) => s.enqueue(newJob(b.id, { type: "notion_refresh" })))
      expect(await count("form_insights", "queued")).toBe(before.insightsQueued + 2)
      expect(await count("notion_refresh", "queued")).toBe(before.notionQueued + 1)
      const claimed = await q((s) => s.claim("w1", 3, 60_000))
      expect(claimed).toHaveLength(3)
      expect(await count("form_insights", "running")).toBe(before.insightsRunning + 2)
      expect(await count("form_insights", "queued")).toBe(before.insightsQueued)
      expect(await count("notion_refresh", "running")).toBe(before.notionRunning + 1)
      // Finished jobs are not in the depth.
      for (const job of claimed) expect(await q((s) => s.complete("w1", job.id, done))).toBe(true)
      expect(await count("form_insights", "running")).toBe(before.insightsRunning)
      expect(await count("notion_refresh", "running")).toBe(before.notionRunning)
      for (const d of await q((s) => s.depth())) expect(d.count).toBeGreaterThan(0)
    })
  })
}
