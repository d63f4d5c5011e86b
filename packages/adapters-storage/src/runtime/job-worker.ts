// The queue's workers in this instance: up to `concurrency` jobs at a time, claimed from the shared
// queue, each under a lease renewed while it runs (a lost lease stops the run: another worker has
// the job). Idle workers wake on the bus's `jobs` topic or every `pollMs`. At shutdown no new job is
// claimed; running ones get `shutdownGraceMs` to finish, then are stopped and released to the queue.
import {
  completionOf,
  InvalidationBus,
  JobFailed,
  JobQueue,
  type JobRecord,
  JobRunner,
  JOBS_TOPIC,
  type RetryPolicy
} from "@folio/domain"
import { Clock, Effect, Exit, Fiber, Layer, Queue, Random, Schedule, Scope, type Tracer } from "effect"
import { traceParentOf } from "./trace-context.js"
import { recordJobRun } from "./metrics.js"

export interface JobWorkerOptions {
  /** Names this instance's claims (unique per process). */
  readonly workerId: string
  /** Jobs run at once here; 0 runs none (the instance still queues). */
  readonly concurrency: number
  readonly leaseMs: number
  readonly pollMs: number
  /** How often periodic work (auto-refreshes) is checked for. */
  readonly scheduleEveryMs: number
  readonly shutdownGraceMs: number
  readonly retry: RetryPolicy
}

/** A run's parent: the queuing span from the job's traceparent, or none (a root span). */
const parentOf = (job: JobRecord): { readonly parent: Tracer.AnySpan } | { readonly root: true } => {
  const parent = traceParentOf(job.traceparent)
  return parent === undefined ? { root: true } : { parent }
}

class LeaseLost {
  readonly _tag = "LeaseLost"
}

export const JobWorkerLive = (options: JobWorkerOptions) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      if (options.concurrency <= 0) return
      const queue = yield* JobQueue
      const runner = yield* JobRunner
      const bus = yield* InvalidationBus
      const { workerId, leaseMs } = options
      const wake = yield* Queue.sliding<void>(1)
      const signal = Queue.offer(wake, undefined).pipe(Effect.asVoid)
      const running = new Map<string, Fiber.Fiber<void>>()
      let closing = false

      yield* bus
        .subscribe(JOBS_TOPIC, () => signal)
        .pipe(Effect.catch((e) => Effect.logWarning("job wake-ups unavailable; polling only", e)))

      // The lease is renewed at a third of its length; a renewal that finds it gone ends the run.
      const keepLease = (job: JobRecord) =>
        Effect.flatMap(queue.renew(workerId, [job.id], leaseMs), (lost) =>
          lost.length > 0 ? Effect.fail(new LeaseLost()) : Effect.void
        ).pipe(
          Effect.catchTag("StorageError", (e) => Effect.logWarning("job lease not renewed", e)),
          Effect.repeat(Schedule.spaced(Math.max(50, Math.floor(leaseMs / 3)))),
          Effect.delay(Math.max(50, Math.floor(leaseMs / 3))),
          Effect.andThen(Effect.never)
        )

      // Each run is a span (OpenTelemetry's messaging consumer): a child of the span that queued the
      // job (its stored traceparent: the request's trace goes on into its jobs, each attempt a
      // child), else a trace's root. Its statements and outbound calls are its children; the payload
      // (answers, targets) is never an attribute.
      const attempt = (job: JobRecord) =>
        runner.run(job).pipe(
          Effect.catchDefect((defect) =>
            Effect.andThen(
              Effect.logError("job failed unexpectedly", defect),
              Effect.fail(
                new JobFailed({ code: "internal", message: "the job failed unexpectedly", retryable: true })
              )
            )
          ),
          Effect.withSpan(`job ${job.type}`, {
            kind: "consumer",
            ...parentOf(job),
            attributes: {
              "folio.job.type": job.type,
              "folio.job.id": job.id,
              "folio.job.attempt": job.attempts,
              "folio.workspace.id": job.tenantId
            }
          }),
          Effect.result
        )

      const runOne = (job: JobRecord) =>
        Effect.gen(function* () {
          const started = yield* Clock.currentTimeMillis
          const result = yield* Effect.raceFirst(
            attempt(job),
            keepLease(job) as Effect.Effect<never, LeaseLost>
          ).pipe(Effect.catchTag("LeaseLost", () => Effect.succeed(undefined)))
          if (result === undefined) return yield* Effect.logWarning("job lease lost; left to its new holder")
          const outcome = result._tag === "Success" ? result.success : result.failure
          const completion = completionOf(
            job,
            outcome,
            options.retry,
            yield* Clock.currentTimeMillis,
            yield* Random.next
          )
          yield* recordJobRun(job.type, completion, ((yield* Clock.currentTimeMillis) - started) / 1000)
          // Finishing is not interrupted half way: the run's work is done and must be recorded.
          yield* Effect.uninterruptible(queue.complete(workerId, job.id, completion)).pipe(
            Effect.catch((e) => Effect.logWarning("job outcome not recorded; its lease will lapse", e))
          )
        }).pipe(
          Effect.ensuring(
            Effect.andThen(
              Effect.sync(() => running.delete(job.id)),
              signal
            )
          )
        )

      const scope = yield* Effect.scope
      // Runs live in their own scope, closed by the finalizer below once it has waited for them: in
      // the layer's scope each run's interruption would be registered after that finalizer, so it
      // would run first and cut every job short at shutdown.
      const runs = yield* Scope.make()
      const claimLoop = Effect.gen(function* () {
        while (!closing) {
          const free = options.concurrency - running.size
          // A claim and the forks of its runs are one step: interrupted (at shutdown) between the
          // database's answer and the forks, the claimed jobs would be held by nobody until their
          // leases lapse (and counted an attempt). The runs themselves stay interruptible.
          const claimed: ReadonlyArray<JobRecord> = yield* Effect.uninterruptible(
            Effect.gen(function* () {
              if (free <= 0) return []
              const jobs = yield* queue
                .claim(workerId, free, leaseMs)
                .pipe(Effect.catch((e) => Effect.as(Effect.logWarning("jobs not claimed", e), [])))
              for (const job of jobs) running.set(job.id, yield* Effect.forkIn(runOne(job), runs))
              return jobs
            })
          )
          // A full claim may leave more due: claim again at once while slots are free.
          if (claimed.length > 0 && claimed.length === free) continue
          yield* Effect.raceFirst(Queue.take(wake), Effect.sleep(options.pollMs))
        }
      })
      const claimer = yield* Effect.forkIn(claimLoop, scope)
      const scheduler = yield* Effect.forkIn(
        runner.schedule.pipe(
          Effect.catch((e) => Effect.as(Effect.logWarning("periodic jobs not queued", e), 0)),
          Effect.tap((n) => (n > 0 ? signal : Effect.void)),
          Effect.repeat(Schedule.spaced(options.scheduleEveryMs))
        ),
        scope
      )

      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          closing = true
          yield* Fiber.interrupt(claimer)
          yield* Fiber.interrupt(scheduler)
          const fibers = [...running.values()]
          const finished = yield* Effect.timeoutOption(Fiber.awaitAll(fibers), options.shutdownGraceMs)
          if (finished._tag === "Some") return
          const stopped = [...running.keys()]
          yield* Scope.close(runs, Exit.void)
          yield* queue
            .release(workerId, stopped)
            .pipe(Effect.catch((e) => Effect.logWarning("jobs not released; their leases will lapse", e)))
        })
      )
    })
  )
