// Job queue: two instances' workers (concurrency 4 each) over the configured PostgreSQL (two
// PgStorageLive layers on one temp database: two pools, two LISTEN connections), else over PGlite
// (one storage, two worker pools: PGlite is one process's). The runner does nothing but succeed,
// so the figures are the queue's own cost. Throughput: 2,000 jobs queued through the JobQueue port
// in batches of 100 (each batch announced on the bus), from the first enqueue to the last job's
// completion. Latency: 200 jobs queued one at a time at 50/s while the workers are idle, each
// announced on the bus `jobs` topic as the app does; the time from the job's createdAt to the start
// of its run. BENCH_JOBS_STORAGE=pglite|postgres picks the storage instead.
import { mkdtempSync, rmSync } from "node:fs"
import { randomFillSync } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { JobWorkerLive, PgliteStorageLive, PgStorageLive, type StoragePorts } from "@folio/adapters-storage"
import {
  DEFAULT_RETRY_POLICY,
  InvalidationBus,
  JobQueue,
  type JobRecord,
  JobRunner,
  JOBS_TOPIC,
  jobDedupeKey,
  type NewJob,
  succeeded,
  TenantRepository,
  uuidV7FromParts
} from "@folio/domain"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import { createTempDatabase } from "../test/storage/targets.js"
import { benchDatabaseUrl, printTable, quantile, writeResult } from "./_stats.js"

const JOBS = 2_000
const BATCH = 100
const LATENCY_JOBS = 200
const LATENCY_PER_SECOND = 50
const CONCURRENCY = 4
/** The app's default poll: idle workers rely on the bus to start a job sooner. */
const POLL_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A layer built in its own scope. */
const build = async <A>(layer: Layer.Layer<A, unknown>) => {
  const scope = Effect.runSync(Scope.make())
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    return { context: await Effect.runPromise(Layer.buildWithScope(layer, scope)), close }
  } catch (error) {
    await close()
    throw error
  }
}

interface Storage {
  readonly label: string
  /** The two instances' storage (the same one twice on PGlite). */
  readonly instances: readonly [Context.Context<StoragePorts>, Context.Context<StoragePorts>]
  readonly close: () => Promise<void>
}

const openPostgres = async (): Promise<Storage> => {
  const db = await createTempDatabase(benchDatabaseUrl())
  try {
    const a = await build(PgStorageLive({ url: db.url }))
    const b = await build(PgStorageLive({ url: db.url }))
    return {
      label: "postgres (two instances: two PgStorageLive pools on one database)",
      instances: [a.context, b.context],
      close: async () => {
        await b.close()
        await a.close()
        await db.drop()
      }
    }
  } catch (error) {
    await db.drop()
    throw error
  }
}

const openPglite = async (): Promise<Storage> => {
  const dir = mkdtempSync(join(tmpdir(), "folio-bench-jobs-"))
  const storage = await build(PgliteStorageLive({ dataDir: join(dir, "db") }))
  return {
    label: "pglite (one storage, two worker pools)",
    instances: [storage.context, storage.context],
    close: async () => {
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

const openStorage = async (): Promise<Storage> => {
  const chosen = process.env.BENCH_JOBS_STORAGE
  if (chosen === "pglite") return openPglite()
  if (chosen === "postgres") return openPostgres()
  try {
    return await openPostgres()
  } catch (error) {
    process.stdout.write(
      `postgres unavailable (${error instanceof Error ? error.message : String(error)}): using pglite\n`
    )
    return openPglite()
  }
}

const jobOf = (tenantId: string, n: number): NewJob => {
  const now = new Date()
  const resourceId = crypto.randomUUID()
  return {
    id: uuidV7FromParts(now.getTime(), randomFillSync(new Uint8Array(16))),
    tenantId,
    type: "optimize_original",
    resourceId,
    dedupeKey: jobDedupeKey("optimize_original", resourceId),
    payload: { n },
    maxAttempts: 5,
    runAt: now,
    retryOf: null,
    createdAt: now
  }
}

export async function run(): Promise<void> {
  const storage = await openStorage()
  process.stdout.write(`storage: ${storage.label}\n`)
  const pools: Array<{ close: () => Promise<void> }> = []
  try {
    const [a, b] = storage.instances
    const on = <A, E>(context: Context.Context<StoragePorts>, effect: Effect.Effect<A, E, StoragePorts>) =>
      Effect.runPromise(Effect.provide(effect, context))
    const tenantId = crypto.randomUUID()
    await on(
      a,
      Effect.flatMap(TenantRepository, (r) =>
        r.create({
          id: tenantId,
          name: "bench",
          features: {},
          createdAt: new Date(),
          disabledAt: null,
          memberKeyScopes: {}
        })
      )
    )

    // What the workers report: a run's start (the runner) and a job's completion (the queue's
    // `complete` as the worker calls it, wrapped).
    let onStart = (_job: JobRecord, _worker: string) => {}
    let onComplete = () => {}
    const ranBy = { a: 0, b: 0 }
    for (const [name, context] of [
      ["a", a],
      ["b", b]
    ] as const) {
      const queue = Effect.runSync(Effect.provide(Effect.service(JobQueue), context))
      const counted = JobQueue.of({
        ...queue,
        complete: (worker, id, completion) =>
          Effect.tap(queue.complete(worker, id, completion), (ok) =>
            Effect.sync(() => {
              if (ok) onComplete()
            })
          )
      })
      const runner = JobRunner.of({
        run: (job) =>
          Effect.sync(() => {
            ranBy[name]++
            onStart(job, name)
            return succeeded({})
          }),
        schedule: Effect.succeed(0)
      })
      pools.push(
        await build(
          JobWorkerLive({
            workerId: `bench-${name}`,
            concurrency: CONCURRENCY,
            leaseMs: 30_000,
            pollMs: POLL_MS,
            scheduleEveryMs: 3_600_000,
            shutdownGraceMs: 5_000,
            retry: DEFAULT_RETRY_POLICY
          }).pipe(
            Layer.provide(Layer.succeed(JobRunner, runner)),
            Layer.provide(Layer.succeed(JobQueue, counted)),
            Layer.provide(Layer.succeedContext(context))
          )
        )
      )
    }
    const enqueueOn = (context: Context.Context<StoragePorts>, jobs: ReadonlyArray<NewJob>) =>
      on(
        context,
        Effect.gen(function* () {
          const queue = yield* JobQueue
          yield* Effect.forEach(jobs, (job) => queue.enqueue(job), { concurrency: 16, discard: true })
          const last = jobs[jobs.length - 1]
          if (last !== undefined) yield* (yield* InvalidationBus).publish(JOBS_TOPIC, last.id)
        })
      )

    // Throughput.
    let completed = 0
    let lastCompletion = 0
    const allDone = new Promise<void>((resolve) => {
      onComplete = () => {
        completed++
        if (completed === JOBS) {
          lastCompletion = performance.now()
          resolve()
        }
      }
    })
    const t0 = performance.now()
    for (let i = 0; i < JOBS; i += BATCH)
      await enqueueOn(
        (i / BATCH) % 2 === 0 ? a : b,
        Array.from({ length: Math.min(BATCH, JOBS - i) }, (_, k) => jobOf(tenantId, i + k))
      )
    const enqueued = performance.now()
    await allDone
    const seconds = (lastCompletion - t0) / 1000
    const throughput = {
      jobs: JOBS,
      "enqueue s": (enqueued - t0) / 1000,
      "first enqueue → last done s": seconds,
      "jobs/s": Math.round(JOBS / seconds),
      "run by a": ranBy.a,
      "run by b": ranBy.b
    }

    // Latency, on idle workers.
    await sleep(POLL_MS + 200)
    const latencies: Array<number> = []
    let started = 0
    const allStarted = new Promise<void>((resolve) => {
      onStart = (job) => {
        latencies.push(Date.now() - job.createdAt.getTime())
        started++
        if (started === LATENCY_JOBS) resolve()
      }
    })
    onComplete = () => {}
    const gap = 1000 / LATENCY_PER_SECOND
    const l0 = performance.now()
    for (let i = 0; i < LATENCY_JOBS; i++) {
      const wait = l0 + i * gap - performance.now()
      if (wait > 0) await sleep(wait)
      await enqueueOn(i % 2 === 0 ? a : b, [jobOf(tenantId, JOBS + i)])
    }
    await allStarted
    const sorted = [...latencies].sort((x, y) => x - y)
    const latency = {
      jobs: LATENCY_JOBS,
      "rate /s": LATENCY_PER_SECOND,
      "p50 ms": quantile(sorted, 0.5),
      "p95 ms": quantile(sorted, 0.95),
      "p99 ms": quantile(sorted, 0.99),
      "max ms": sorted[sorted.length - 1] ?? Number.NaN
    }

    process.stdout.write(
      `\nthroughput: ${JOBS} jobs, 2 instances x concurrency ${CONCURRENCY}, poll ${POLL_MS} ms\n`
    )
    printTable([throughput])
    process.stdout.write(
      `\nenqueue -> start latency: ${LATENCY_JOBS} jobs one at a time at ${LATENCY_PER_SECOND}/s, announced on the bus\n`
    )
    printTable([latency])
    process.stdout.write(
      `written ${writeResult("jobs", { at: new Date().toISOString(), storage: storage.label, concurrency: CONCURRENCY, pollMs: POLL_MS, throughput, latency })}\n`
    )
  } finally {
    for (const pool of pools.reverse()) await pool.close()
    await storage.close()
  }
}
