// The Prometheus listener (METRICS_PORT, bound to METRICS_HOST): GET /metrics answers this process's
// figures in the text exposition format, the adapters' Effect metrics and prom-client's runtime ones.
import { createServer, type Server } from "node:http"
import { HttpMetricsEnabled } from "@folio/adapters-http/shared"
import { refreshDatabaseConnections, refreshJobQueueDepth, type StorageHealth } from "@folio/adapters-storage"
import type { JobQueue } from "@folio/domain"
import { Context, Effect, Layer, Metric, Option } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { collectDefaultMetrics, Registry } from "prom-client"
import type { MetricsSettings } from "./config.js"

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

const listen = (server: Server, settings: MetricsSettings) =>
  Effect.callback<void, Error>((resume) => {
    const failed = (error: Error) => resume(Effect.fail(error))
    server.once("error", failed)
    server.listen(settings.port, settings.host, () => {
      server.off("error", failed)
      resume(Effect.void)
    })
  })

/** The listener: only `GET /metrics` (and HEAD) answers, anything else is 404; closed at shutdown. */
const listener = (settings: MetricsSettings) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const context = yield* Effect.context<JobQueue | StorageHealth>()
      const run = Effect.runPromiseWith(context)
      // The runtime's figures under their standard names (process_*, nodejs_*), which the usual
      // Node.js dashboards read; a registry of this listener's own, so two apps in a process (tests)
      // do not share one.
      const runtime = new Registry()
      collectDefaultMetrics({ register: runtime })
      // Idle keep-alive connections outlive a scraper's interval (Prometheus: 15 s), so the scraper,
      // not this server, closes them: a server closing first races a scrape already sent (the app
      // server's reason too, app-layer.ts).
      const server = createServer({ keepAliveTimeout: 65_000 }, (request, response) => {
        const path = (request.url ?? "").split("?")[0]
        if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
          response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n")
          return
        }
        run(scrape(runtime)).then(
          (body) => {
            response.writeHead(200, { "content-type": runtime.contentType, "cache-control": "no-store" })
            response.end(request.method === "HEAD" ? undefined : body)
          },
          (error: unknown) => {
            console.error("metrics scrape failed", error)
            response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("scrape failed\n")
          }
        )
      })
      yield* Effect.acquireRelease(
        Effect.mapError(
          listen(server, settings),
          (cause) => new Error(`cannot listen for metrics on ${settings.host}:${settings.port}`, { cause })
        ),
        () =>
          Effect.callback<void>((resume) => {
            server.close(() => resume(Effect.void))
            server.closeAllConnections()
          })
      ).pipe(Effect.orDie)
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
): Layer.Layer<A | JobQueue | StorageHealth, E, R> =>
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
