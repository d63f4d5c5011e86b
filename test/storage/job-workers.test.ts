// The job workers end to end over real storage: PGlite always, PostgreSQL when TEST_DATABASE_URL is
// set (there, two storage layers on one database are two app instances). Every job is run once
// across instances, a dead worker's job is taken over once its lease lapses, shutdown finishes or
// releases what runs, failures are retried with backoff, a stolen lease stops the run, and a job
// announced on the bus starts without waiting for the next poll.
import { rmSync } from "node:fs"
import { NodeServices } from "@effect/platform-node"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import {
  type JobWorkerOptions,
  JobWorkerLive,
  MemoryInvalidationBusLive,
  PgliteClientLive,
  PgliteStorageLive,
  PgStorageLive,
  SqlRepositoriesLive,
  type StoragePorts
} from "@folio/adapters-storage"
import {
  InvalidationBus,
  JobFailed,
  type JobOutcome,
  JobQueue,
  type JobRecord,
  JobRunner,
  JOBS_TOPIC,
  type NewJob,
  succeeded,
  TenantRepository
} from "@folio/domain"
import { type Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrations } from "../../packages/adapters-storage/src/sql/migrations.js"
import { workspace } from "./fixtures.js"
import { newJob } from "./job-queue.contract.js"
import { createTempDatabase, TEST_DATABASE_URL } from "./targets.js"
import { freshPgliteDir } from "../support/pglite-dir.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const until = async (check: () => boolean | Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(20)
  }
}

/** A layer built in a scope of its own, over `context` (the storage it needs). */
const build = async <A>(layer: Layer.Layer<A, unknown>) => {
  const scope = Effect.runSync(Scope.make())
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    return { context, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** One app instance's storage. */
interface Instance {
  readonly context: Context.Context<StoragePorts>
  readonly run: <A, E>(effect: Effect.Effect<A, E, StoragePorts>) => Promise<A>
}
const instanceOf = (context: Context.Context<StoragePorts>): Instance => ({
  context,
  run: (effect) => Effect.runPromise(Effect.provide(effect, context))
})

interface Env {
  /** Two instances on one database (the same one twice on PGlite, which one process opens). */
  readonly a: Instance
  readonly b: Instance
  /** SQL straight to the database, beside the ports. */
  readonly sql?: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>
  readonly close: () => Promise<void>
}

/**
 * PGlite's storage as PgliteStorageLive composes it (migrations, repositories, the memory bus), with
 * its SQL client exposed too: the only way to reach the one PGlite session it opens.
 */
const pgliteWithSql = (dataDir: string) =>
  Layer.merge(
    SqlRepositoriesLive.pipe(
      Layer.provide(PgMigrator.layer<never>({ loader: migrations }).pipe(Layer.provide(NodeServices.layer)))
    ),
    MemoryInvalidationBusLive
  ).pipe(Layer.provideMerge(PgliteClientLive({ dataDir })))

const openPglite = async (withSql: boolean): Promise<Env> => {
  // A copy of the run's migrated database: the workers are the point, not a first start.
  const { dir, dataDir } = freshPgliteDir("folio-test-jobs-")
  if (!withSql) {
    const storage = await build(PgliteStorageLive({ dataDir }))
    const one = instanceOf(storage.context)
    return {
      a: one,
      b: one,
      close: async () => {
        await storage.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  const storage = await build(pgliteWithSql(dataDir))
  const one = instanceOf(storage.context)
  return {
    a: one,
    b: one,
    sql: (effect) => Effect.runPromise(Effect.provide(effect, storage.context)),
    close: async () => {
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

const openPostgres = async (): Promise<Env> => {
  const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
  // One after the other: the first runs the migrations.
  const a = await build(PgStorageLive({ url: db.url }))
  const b = await build(PgStorageLive({ url: db.url }))
  const side = await build(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 }))
  return {
    a: instanceOf(a.context),
    b: instanceOf(b.context),
    sql: (effect) => Effect.runPromise(Effect.provide(effect, side.context)),
    close: async () => {
      await side.close()
      await b.close()
      await a.close()
      await db.drop()
    }
  }
}

const WORKER_DEFAULTS: Omit<JobWorkerOptions, "workerId"> = {
  concurrency: 4,
  leaseMs: 5000,
  pollMs: 50,
  scheduleEveryMs: 60_000,
  shutdownGraceMs: 2000,
  retry: { baseDelayMs: 100, maxDelayMs: 1000 }
}

/** A worker pool of `instance` running jobs with `run`; `close` is the instance shutting down. */
const startWorkers = (
  instance: Instance,
  options: Partial<JobWorkerOptions> & { readonly workerId: string },
  run: (job: JobRecord) => Effect.Effect<JobOutcome, JobFailed>
) =>
  build(
    JobWorkerLive({ ...WORKER_DEFAULTS, ...options }).pipe(
      Layer.provide(Layer.succeed(JobRunner, JobRunner.of({ run, schedule: Effect.succeed(0) }))),
      Layer.provide(Layer.succeedContext(instance.context))
    )
  )

/** What a test runner saw: each run's job, its attempt, its worker, and when it started. */
interface Run {
  readonly id: string
  readonly attempt: number
  readonly worker: string | null
  readonly at: number
}
const recorder = () => {
  const runs: Array<Run> = []
  const record = (job: JobRecord) =>
    Effect.sync(() => {
      runs.push({ id: job.id, attempt: job.attempts, worker: job.leaseOwner, at: Date.now() })
    })
  const of = (id: string) => runs.filter((r) => r.id === id)
  return { runs, record, of }
}

const newTenant = async (instance: Instance) => {
  const ws = workspace()
  await instance.run(Effect.flatMap(TenantRepository, (r) => r.create(ws)))
  return ws.id
}

const enqueue = (instance: Instance, jobs: ReadonlyArray<NewJob>) =>
  instance.run(
    Effect.forEach(jobs, (job) => Effect.flatMap(JobQueue, (q) => q.enqueue(job)), { concurrency: 10 })
  )

const jobsOf = (instance: Instance, tenantId: string, ids: ReadonlyArray<string>) =>
  instance.run(
    Effect.forEach(
      ids,
      (id) =>
        Effect.map(
          Effect.flatMap(JobQueue, (q) => q.get(tenantId, id)),
          Option.getOrThrow
        ),
      { concurrency: 10 }
    )
  )

const allFinal = async (instance: Instance, tenantId: string, ids: ReadonlyArray<string>) =>
  (await jobsOf(instance, tenantId, ids)).every((j) => ["succeeded", "failed", "skipped"].includes(j.status))

const done = succeeded({ ok: true })

const targets = [
  { name: "pglite", skip: false, open: () => openPglite(false) },
  { name: "postgres", skip: TEST_DATABASE_URL === undefined, open: openPostgres }
] as const

for (const target of targets) {
  describe.skipIf(target.skip)(`job workers [${target.name}]`, () => {
    let env: Env | undefined
    const opened = () => {
      if (env === undefined) throw new Error("storage not opened")
      return env
    }
    beforeAll(async () => {
      env = await target.open()
    }, 120_000)
    afterAll(async () => {
      await env?.close()
    })

    it("runs 500 jobs exactly once across two instances' workers", async () => {
      const { a, b } = opened()
      const tenantId = await newTenant(a)
      const seen = recorder()
      const run = (job: JobRecord) => Effect.as(seen.record(job), done)
      const pools = [
        await startWorkers(a, { workerId: "a" }, run),
        await startWorkers(b, { workerId: "b" }, run)
      ]
      try {
        const jobs = Array.from({ length: 500 }, () => newJob(tenantId))
        const ids = jobs.map((j) => j.id)
        for (let i = 0; i < jobs.length; i += 50) await enqueue(i % 100 === 0 ? a : b, jobs.slice(i, i + 50))
        await until(() => seen.runs.length >= 500, 20_000, "500 runs")
        await until(() => allFinal(a, tenantId, ids), 5_000, "500 jobs final")

        expect(seen.runs).toHaveLength(500)
        expect(seen.runs.map((r) => r.id).sort()).toEqual([...ids].sort())
        const final = await jobsOf(b, tenantId, ids)
        for (const job of final) expect(job).toMatchObject({ status: "succeeded", attempts: 1, error: null })
        const byWorker = { a: seen.runs.filter((r) => r.worker === "a").length, b: 0 }
        byWorker.b = seen.runs.length - byWorker.a
        expect(byWorker.a).toBeGreaterThan(0)
        expect(byWorker.b).toBeGreaterThan(0)
      } finally {
        for (const pool of pools) await pool.close()
      }
    }, 40_000)

    it("takes over a crashed worker's job once its lease has lapsed", async () => {
      const { a } = opened()
      const tenantId = await newTenant(a)
      const [job] = await enqueue(a, [newJob(tenantId)])
      if (job === undefined) throw new Error("no job")
      const claimedAt = Date.now()
      const claimed = await a.run(Effect.flatMap(JobQueue, (q) => q.claim("dead-worker", 1, 500)))
      expect(claimed.map((j) => j.id)).toEqual([job.id])

      const seen = recorder()
      const pool = await startWorkers(a, { workerId: "alive" }, (j) => Effect.as(seen.record(j), done))
      try {
        await sleep(250)
        expect(seen.runs).toEqual([])
        await until(() => allFinal(a, tenantId, [job.id]), 5_000, "the job to finish")
        expect(seen.runs).toHaveLength(1)
        expect(seen.runs[0]).toMatchObject({ id: job.id, attempt: 2, worker: "alive" })
        expect(seen.runs[0]?.at ?? 0).toBeGreaterThanOrEqual(claimedAt + 500)
        const [final] = await jobsOf(a, tenantId, [job.id])
        expect(final).toMatchObject({ status: "succeeded", attempts: 2, error: null, leaseOwner: null })
      } finally {
        await pool.close()
      }
    })

    it("finishes running jobs within the shutdown grace", async () => {
      const { a } = opened()
      const tenantId = await newTenant(a)
      const seen = recorder()
      const pool = await startWorkers(a, { workerId: "graceful", shutdownGraceMs: 2000 }, (job) =>
        Effect.as(Effect.andThen(seen.record(job), Effect.sleep(300)), done)
      )
      const jobs = await enqueue(
        a,
        Array.from({ length: 4 }, () => newJob(tenantId))
      )
      const ids = jobs.map((j) => j.id)
      try {
        await until(() => seen.runs.length === 4, 5_000, "4 runs to start")
      } finally {
        const t0 = Date.now()
        await pool.close()
        const took = Date.now() - t0
        expect(took).toBeLessThan(2000)
      }
      for (const job of await jobsOf(a, tenantId, ids))
        expect(job).toMatchObject({ status: "succeeded", attempts: 1, leaseOwner: null })
      expect(seen.runs).toHaveLength(4)
    })

    it("releases the jobs still running when the grace runs out, and another pool completes them", async () => {
      const { a } = opened()
      const tenantId = await newTenant(a)
      const seen = recorder()
      let interrupted = 0
      const pool = await startWorkers(a, { workerId: "stuck", shutdownGraceMs: 200 }, (job) =>
        Effect.andThen(
          seen.record(job),
          Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted++)))
        )
      )
      const jobs = await enqueue(
        a,
        Array.from({ length: 4 }, () => newJob(tenantId))
      )
      const ids = jobs.map((j) => j.id)
      try {
        await until(() => seen.runs.length === 4, 5_000, "4 runs to start")
      } finally {
        await pool.close()
      }
      expect(interrupted).toBe(4)
      for (const job of await jobsOf(a, tenantId, ids))
        expect(job).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null, leaseExpiresAt: null })

      const after = recorder()
      const next = await startWorkers(a, { workerId: "next" }, (job) => Effect.as(after.record(job), done))
      try {
        await until(() => allFinal(a, tenantId, ids), 5_000, "the released jobs to finish")
      } finally {
        await next.close()
      }
      for (const job of await jobsOf(a, tenantId, ids))
        expect(job).toMatchObject({ status: "succeeded", attempts: 1 })
      expect(after.runs.map((r) => r.id).sort()).toEqual([...ids].sort())
    })

    it("retries a retryable failure with backoff, and fails for good when it cannot help", async () => {
      const { a } = opened()
      const tenantId = await newTenant(a)
      const [flaky, broken, down] = [
        newJob(tenantId),
        newJob(tenantId),
        newJob(tenantId, { maxAttempts: 3 })
      ] as const
      const seen = recorder()
      const fail = (retryable: boolean, code: string) =>
        Effect.fail(new JobFailed({ code, message: "m", retryable }))
      const pool = await startWorkers(
        a,
        { workerId: "retrier", pollMs: 20, retry: { baseDelayMs: 100, maxDelayMs: 1000 } },
        (job) =>
          Effect.andThen(seen.record(job), () => {
            if (job.id === flaky.id) return job.attempts < 3 ? fail(true, "x") : Effect.succeed(done)
            if (job.id === broken.id) return fail(false, "bad_input")
            return fail(true, "upstream_down")
          })
      )
      try {
        await enqueue(a, [flaky, broken, down])
        await until(() => allFinal(a, tenantId, [flaky.id, broken.id, down.id]), 10_000, "the jobs to end")
      } finally {
        await pool.close()
      }
      const [f, b, d] = await jobsOf(a, tenantId, [flaky.id, broken.id, down.id])
      expect(f).toMatchObject({ status: "succeeded", attempts: 3, error: null, result: { ok: true } })
      expect(b).toMatchObject({ status: "failed", attempts: 1, error: { code: "bad_input", message: "m" } })
      expect(d).toMatchObject({
        status: "failed",
        attempts: 3,
        error: { code: "upstream_down", message: "m" }
      })
      expect(seen.of(broken.id)).toHaveLength(1)
      for (const id of [flaky.id, down.id]) {
        const runs = seen.of(id)
        expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3])
        const [r1, r2, r3] = runs.map((r) => r.at)
        // Equal jitter: at least half the exponential delay (100 ms, then 200 ms).
        expect((r2 ?? 0) - (r1 ?? 0)).toBeGreaterThanOrEqual(50)
        expect((r3 ?? 0) - (r2 ?? 0)).toBeGreaterThanOrEqual(100)
      }
    })

    it("stops a run whose lease another worker took, and leaves the job to it", async () => {
      // A lease is only ever taken over in SQL (a lapsed one, or here a thief's UPDATE); PGlite's
      // session is reachable only through a storage built with its SQL client exposed.
      const own = target.name === "pglite" ? await openPglite(true) : undefined
      const { a, sql } = own ?? opened()
      if (sql === undefined) throw new Error("no SQL client")
      try {
        const tenantId = await newTenant(a)
        const seen = recorder()
        let interruptedAt = 0
        const pool = await startWorkers(a, { workerId: "victim", leaseMs: 900 }, (job) =>
          Effect.andThen(
            seen.record(job),
            Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => (interruptedAt = Date.now()))))
          )
        )
        try {
          const [job] = await enqueue(a, [newJob(tenantId)])
          if (job === undefined) throw new Error("no job")
          await until(() => seen.runs.length === 1, 5_000, "the run to start")
          const stolenAt = Date.now()
          await sql(
            Effect.flatMap(
              SqlClient.SqlClient,
              (s) => s`update jobs set lease_owner = 'thief', lease_expires_at = now() + interval '1 hour'
                       where id = ${job.id}`
            )
          )
          // The next renewal (every leaseMs / 3) finds the lease gone and stops the run.
          await until(() => interruptedAt > 0, 2_000, "the run to stop")
          expect(interruptedAt - stolenAt).toBeLessThan(900)
          await sleep(400)
          const [held] = await jobsOf(a, tenantId, [job.id])
          expect(held).toMatchObject({
            status: "running",
            leaseOwner: "thief",
            attempts: 1,
            finishedAt: null
          })
          expect(seen.runs).toHaveLength(1)
          await pool.close()
          // Shutting down does not release what the worker no longer holds.
          const [after] = await jobsOf(a, tenantId, [job.id])
          expect(after).toMatchObject({ status: "running", leaseOwner: "thief" })
        } finally {
          await pool.close()
        }
      } finally {
        await own?.close()
      }
    })

    it("leaves no job held by a pool shut down while it claims", async () => {
      const { a } = opened()
      const tenantId = await newTenant(a)
      const seen = recorder()
      const run = (job: JobRecord) => Effect.as(seen.record(job), done)
      const jobs = Array.from({ length: 600 }, () => newJob(tenantId))
      const ids = jobs.map((j) => j.id)
      await enqueue(a, jobs)
      // Busy pools (no wait between claims) stopped at random moments: a stop that lands between a
      // claim's answer and the runs' start must not leave the claimed jobs held until the lease lapses.
      for (let round = 0; round < 20; round++) {
        const workerId = `busy-${round}`
        const pool = await startWorkers(a, { workerId, pollMs: 1, leaseMs: 60_000 }, run)
        await sleep(5 + Math.random() * 25)
        await pool.close()
        const held = (await jobsOf(a, tenantId, ids)).filter((j) => j.leaseOwner === workerId)
        expect(held.map((j) => j.status)).toEqual([])
      }
      const last = await startWorkers(a, { workerId: "last" }, run)
      try {
        await until(() => allFinal(a, tenantId, ids), 10_000, "every job to finish")
      } finally {
        await last.close()
      }
      for (const job of await jobsOf(a, tenantId, ids))
        expect(job).toMatchObject({ status: "succeeded", attempts: 1 })
      expect(seen.runs.map((r) => r.id).sort()).toEqual([...ids].sort())
    })

    it("starts a job announced on the bus without waiting for the next poll", async () => {
      const { a, b } = opened()
      const tenantId = await newTenant(a)
      const seen = recorder()
      // On PostgreSQL the workers are another instance's: the wake-up crosses instances.
      const pool = await startWorkers(b, { workerId: "sleepy", pollMs: 5000 }, (job) =>
        Effect.as(seen.record(job), done)
      )
      try {
        // The pool's first claim found nothing; the next poll is 5 s away.
        await sleep(400)
        const [quiet] = await enqueue(a, [newJob(tenantId)])
        await sleep(600)
        expect(seen.runs).toEqual([])

        const [announced] = await enqueue(a, [newJob(tenantId)])
        const t0 = Date.now()
        await a.run(Effect.flatMap(InvalidationBus, (bus) => bus.publish(JOBS_TOPIC, announced?.id ?? "")))
        await until(() => seen.runs.length === 2, 2_000, "both jobs to start")
        for (const run of seen.runs) expect(run.at - t0).toBeLessThan(500)
        expect(seen.runs.map((r) => r.id).sort()).toEqual([quiet?.id, announced?.id].sort())
        await until(() => allFinal(a, tenantId, [quiet?.id ?? "", announced?.id ?? ""]), 2_000, "jobs final")
      } finally {
        await pool.close()
      }
    })
  })
}
