// Prometheus figures of the job queue and the embedded database, as Effect metrics (the app's metrics
// listener formats them): each job run's latency and outcome by type (a webhook delivery's outcome
// besides), and the statements the embedded database is running. Labels are the job types and
// fixed outcome names, never a job, tenant or resource id.
import { type JobCompletion, JobQueue, JobType } from "@folio/domain"
import { type Context, Effect, Metric } from "effect"
import { StorageHealth } from "../health.js"

/** Job run buckets in seconds: a webhook call takes milliseconds, an analysis by a model a minute. */
const JOB_SECONDS_BUCKETS: ReadonlyArray<number> = [
  0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300
]

/** What a run came to: `succeeded`, `skipped`, `retrying` (failed, queued again) or `failed` (for good). */
export type JobRunOutcome = "succeeded" | "skipped" | "retrying" | "failed"

export const jobRunOutcomeOf = (completion: JobCompletion): JobRunOutcome =>
  completion.status === "queued" ? "retrying" : completion.status

interface JobSeries {
  readonly runs: Metric.Counter<number>
  readonly seconds: Metric.Histogram<number>
}

const jobSeries = new Map<string, JobSeries>()
const deliveries = new Map<string, Metric.Counter<number>>()

const seriesOf = (type: JobType, outcome: JobRunOutcome) => {
  const key = `${type} ${outcome}`
  let s = jobSeries.get(key)
  if (s === undefined) {
    s = {
      runs: Metric.counter("folio_job_runs_total", {
        description: "Job runs finished, by job type and outcome (retrying and failed are failures).",
        attributes: { type, outcome },
        incremental: true
      }),
      seconds: Metric.histogram("folio_job_run_duration_seconds", {
        description: "Time a job run took, by job type and outcome, in seconds.",
        attributes: { type, outcome },
        boundaries: JOB_SECONDS_BUCKETS
      })
    }
    jobSeries.set(key, s)
  }
  return s
}

/** A webhook delivery's outcome as operators name it. */
const DELIVERY_OUTCOMES: Record<JobRunOutcome, string> = {
  succeeded: "delivered",
  skipped: "skipped",
  retrying: "retrying",
  failed: "failed"
}

const deliveryCounter = (outcome: JobRunOutcome) => {
  let counter = deliveries.get(outcome)
  if (counter === undefined) {
    counter = Metric.counter("folio_webhook_deliveries_total", {
      description:
        "Webhook delivery attempts by outcome: delivered, retrying (failed, tried again later), failed (given up), skipped.",
      attributes: { outcome: DELIVERY_OUTCOMES[outcome] },
      incremental: true
    })
    deliveries.set(outcome, counter)
  }
  return counter
}

/** Records one finished run of a job of `type`, which took `seconds`. */
export const recordJobRun = (type: JobType, completion: JobCompletion, seconds: number) =>
  Effect.suspend(() => {
    const outcome = jobRunOutcomeOf(completion)
    const s = seriesOf(type, outcome)
    const recorded = Effect.andThen(Metric.update(s.runs, 1), Metric.update(s.seconds, seconds))
    return type === "webhook_delivery"
      ? Effect.andThen(recorded, Metric.update(deliveryCounter(outcome), 1))
      : recorded
  })

/** The queue's depth by type and status, read when metrics are scraped (queued and running jobs). */
const depthGauges = new Map<string, Metric.Gauge<number>>()
export const jobQueueDepthGauge = (type: string, status: string) => {
  const key = `${type} ${status}`
  let gauge = depthGauges.get(key)
  if (gauge === undefined) {
    gauge = Metric.gauge("folio_job_queue_depth", {
      description: "Jobs queued or running, by job type and status (read from the database at each scrape).",
      attributes: { type, status }
    })
    depthGauges.set(key, gauge)
  }
  return gauge
}

/**
 * Sets the depth gauges from one count of the queue (a type and status with no job reads 0, so a
 * drained queue shows as drained). Run at each scrape; a failed count leaves the last values.
 */
export const refreshJobQueueDepth = Effect.gen(function* () {
  const queue = yield* JobQueue
  const rows = yield* queue.depth()
  const counts = new Map(rows.map((row) => [`${row.type} ${row.status}`, row.count]))
  for (const type of JobType.literals)
    for (const status of ["queued", "running"] as const)
      yield* Metric.update(jobQueueDepthGauge(type, status), counts.get(`${type} ${status}`) ?? 0)
}).pipe(Effect.catch((e) => Effect.logWarning("job queue depth not read", e)))

/** pg_stat_activity's states (a bounded set: anything else is counted as `unknown`). */
export const CONNECTION_STATES = [
  "active",
  "idle",
  "idle in transaction",
  "idle in transaction (aborted)",
  "fastpath function call",
  "disabled",
  "unknown"
] as const

const connectionGauges = new Map(
  CONNECTION_STATES.map((state) => [
    state,
    Metric.gauge("folio_db_connections", {
      description:
        "This instance's database connections by state, as PostgreSQL's pg_stat_activity sees them (read at each scrape): the pool's use.",
      attributes: { state }
    })
  ])
)

/** The pool's use, read from the server at a scrape (memory storage: nothing to report). */
export const refreshDatabaseConnections = Effect.gen(function* () {
  const rows = yield* (yield* StorageHealth).connections
  if (rows.length === 0) return
  const counts = new Map<string, number>()
  for (const row of rows) {
    const state = (CONNECTION_STATES as ReadonlyArray<string>).includes(row.state) ? row.state : "unknown"
    counts.set(state, (counts.get(state) ?? 0) + Number(row.count))
  }
  for (const [state, gauge] of connectionGauges) yield* Metric.update(gauge, counts.get(state) ?? 0)
}).pipe(Effect.catch((e) => Effect.logWarning("database connections not read", e)))

/** Statement buckets in seconds: an indexed read is well under a millisecond on the embedded database. */
const STATEMENT_SECONDS_BUCKETS: ReadonlyArray<number> = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5
]

const statementsInFlight = Metric.gauge("folio_db_statements_in_flight", {
  description:
    "Statements sent to the embedded database and not yet answered (waiting for its one session included).",
  attributes: { database: "pglite" }
})
const statementSeconds = Metric.histogram("folio_db_statement_duration_seconds", {
  description: "Time from sending a statement to the embedded database to its answer, in seconds.",
  attributes: { database: "pglite" },
  boundaries: STATEMENT_SECONDS_BUCKETS
})

/**
 * The embedded database's statements, measured where they reach it (its in-process connections), in
 * the metrics of `context`: each one's wait and run, and how many are in flight.
 */
export const observeStatements = (context: Context.Context<never>) => (): (() => void) => {
  const started = performance.now()
  statementsInFlight.modifyUnsafe(1, context)
  return () => {
    statementsInFlight.modifyUnsafe(-1, context)
    statementSeconds.updateUnsafe((performance.now() - started) / 1000, context)
  }
}
