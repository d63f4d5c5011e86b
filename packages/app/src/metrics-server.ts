// The Prometheus listener (METRICS_PORT, bound to METRICS_HOST): GET /metrics answers this process's
// figures in the text exposition format, the adapters' Effect metrics and prom-client's runtime ones.
import { HttpMetricsEnabled } from "@folio/adapters-http/shared"
import { refreshDatabaseConnections, refreshJobQueueDepth, type StorageHealth } from "@folio/adapters-storage"
import type { JobQueue } from "@folio/domain"
import { Context, Effect, Layer, Metric, Option } from "effect"
import { PrometheusMetrics } from "effect/observability"
import type { Registry } from "prom-client"
import type { MetricsSettings } from "./config.js"
import { StartupError } from "./failure.js"
import { ObserverThread } from "./observer-thread.js"

/**
 * One scrape: the queue's depth and the pool's connections read from the database, then the Effect metrics (Effect's own
 * formatter) followed by the runtime's (prom-client's default collectors: CPU, memory, heap, GC,
 * event-loop delay, handles). The two sets share no name, so one document holds both.
 */
const scrape = (runtime: Registry) =>
  Effect.gen(function* () {
    yield* refreshJobQueueDepth
    yield* refreshDatabaseConnections
    const own = yield* PrometheusMetrics.format()
    const node = yield* Effect.promise(() => runtime.metrics())
    return own + node
  })

/**
 * The listener: an HTTP server on the observer's thread (observer-worker.ts says why) that asks
 * this thread for each scrape's figures; only `GET /metrics` (and HEAD) answers, anything else is
 * 404. It stops with the thread, at shutdown, closing its connections.
 */
const listener = (settings: MetricsSettings) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const context = yield* Effect.context<JobQueue | StorageHealth>()
      const thread = yield* ObserverThread
      const run = Effect.runPromiseWith(context)
      // The runtime's figures under their standard names (process_*, nodejs_*), which the usual
      // Node.js dashboards read: collected here, so the heap, the event loop and the GC are the
      // app's (the main thread's); a registry of this listener's own, so two apps in a process
      // (tests) do not share one.
      // prom-client (~65 ms to load) only when metrics are on.
      const { collectDefaultMetrics, Registry } = yield* Effect.promise(() => import("prom-client"))
      const runtime = new Registry()
      collectDefaultMetrics({ register: runtime })
      // One scrape now, before any request, its text thrown away: a process's first scrape changes
      // shapes the request path's compiled code depends on (Effect's metric objects and gauges
      // written for the first time), and code V8 optimized under load before it is deoptimized and
      // recompiled slower; after this one, scrapes change nothing the app's code was built on
      // (decision 0036, "What watching costs").
      yield* Effect.ignore(scrape(runtime))
      yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () =>
            thread.listen(settings.port, settings.host, () =>
              run(scrape(runtime)).catch((error: unknown) => {
                console.error("metrics scrape failed", error)
                throw error
              })
            ),
          catch: (cause) =>
            new StartupError({
              message: `cannot listen for metrics on ${settings.host}:${settings.port}`,
              cause
            })
        }),
        // Stopped before the app's storage closes, so no scrape reads a closed pool at shutdown.
        () => Effect.sync(() => thread.unlisten())
      )
      yield* Effect.logInfo("metrics listening").pipe(
        Effect.annotateLogs({ metrics: `http://${settings.host}:${settings.port}/metrics` })
      )
    })
  )

/**
 * The app with metrics when METRICS_PORT is set: its requests, jobs and statements measured into a
 * registry of its own (two apps in one process keep theirs apart), and the listener over it. Without
 * it, the app as it is: no listener, and the request paths skip measuring altogether.
 */
export const withMetrics = <A, E, R>(
  settings: Option.Option<MetricsSettings>,
  app: Layer.Layer<A | JobQueue | StorageHealth, E, R>
): Layer.Layer<A | JobQueue | StorageHealth, E | StartupError, R | ObserverThread> =>
  Option.match(settings, {
    onNone: () => app,
    onSome: (s) =>
      listener(s).pipe(
        Layer.provideMerge(app),
        Layer.provide(
          Layer.effectContext(
            Effect.sync(() =>
              Context.make(Metric.MetricRegistry, new Map()).pipe(Context.add(HttpMetricsEnabled, true))
            )
          )
        )
      )
  })
