// Prometheus figures of the HTTP surface, as Effect metrics (the app's metrics listener formats them):
// requests and their latency by route template, method, status and service, rate-limit refusals,
// the public short link's outcomes and upload bytes. Labels come from fixed sets only (never a slug,
// an id or a user agent), so a scrape stays the same size whatever the traffic.
import type { IncomingMessage, ServerResponse } from "node:http"
import { Context, Effect, Exit, Metric } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"

/**
 * Whether requests are measured (off unless the app's metrics listener is on): off, the request
 * middleware and the fast paths skip all of it (read once, when they are built).
 */
export const HttpMetricsEnabled = Context.Reference<boolean>("@folio/adapters-http/HttpMetricsEnabled", {
  defaultValue: () => false
})

/** Latency buckets in seconds: a warm redirect is well under a millisecond, an export seconds. */
export const SECONDS_BUCKETS: ReadonlyArray<number> = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
]

export type ServiceLabel = "forms" | "sharing" | "console" | "public" | "oauth" | "mcp"

/** The route label of a request no route matched (a 404, or one refused before routing). */
export const UNMATCHED_ROUTE = "unmatched"

/** The route label of a request to an artifact deployment's own origin (its paths are the site's). */
export const ARTIFACT_SITE_ROUTE = "artifact-site"

/** The service a route template (or, unmatched, a path) belongs to: its URL space, as the guards split it. */
export const serviceOf = (path: string): ServiceLabel => {
  if (path === "/forms/mcp" || path === "/share/mcp") return "mcp"
  if (path.startsWith("/share/")) return "sharing"
  if (
    path.startsWith("/s/") ||
    path.startsWith("/u/") ||
    path.startsWith("/f/") ||
    path.startsWith("/blobs/")
  )
    return "public"
  if (path.startsWith("/oauth") || path.startsWith("/.well-known/o")) return "oauth"
  if (
    path.startsWith("/console") ||
    path.startsWith("/sign-in") ||
    path.startsWith("/sign-out") ||
    path.startsWith("/invitations/") ||
    path.startsWith("/reset-password")
  )
    return "console"
  return "forms"
}

/** The method labels: the standard methods as they are, anything else one value (the last). */
const METHOD_LABELS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"] as const

/** A method's label, as its index in METHOD_LABELS. */
const methodIndex = (method: string | undefined): number => {
  const i = method === undefined ? -1 : METHOD_LABELS.indexOf(method as (typeof METHOD_LABELS)[number])
  return i < 0 || i === METHOD_LABELS.length - 1 ? METHOD_LABELS.length - 1 : i
}

/** The path of a URL, without its query (only for the service of an unmatched request). */
const pathOf = (url: string) => {
  const q = url.indexOf("?")
  return q < 0 ? url : url.slice(0, q)
}

/**
 * A counter whose count lives in a plain number, read by the registry when it is scraped
 * (`Metric.registerUnsafe`, Effect's way for figures kept elsewhere): counting costs one addition,
 * not a registry look-up per update. Formatted by Effect as any counter.
 */
const scrapedCounter = (
  context: Context.Context<never>,
  name: string,
  description: string,
  attributes: Record<string, string>
) => {
  const state = { count: 0 }
  Metric.registerUnsafe(Metric.counter(name, { description, attributes, incremental: true }), context, {
    get: () => ({ count: state.count, incremental: true }),
    update: () => {},
    modify: () => {}
  })
  return state
}

/**
 * A latency histogram kept likewise: a bucket's own count (made cumulative when read), the sum,
 * the least and the greatest. An observation costs a scan of the few buckets below it.
 */
class ScrapedHistogram {
  readonly perBucket = new Float64Array(SECONDS_BUCKETS.length)
  count = 0
  sum = 0
  min = Number.POSITIVE_INFINITY
  max = Number.NEGATIVE_INFINITY

  constructor(
    context: Context.Context<never>,
    name: string,
    description: string,
    attributes: Record<string, string>
  ) {
    Metric.registerUnsafe(
      Metric.histogram(name, { description, attributes, boundaries: SECONDS_BUCKETS }),
      context,
      { get: () => this.state(), update: () => {}, modify: () => {} }
    )
  }

  observe(value: number): void {
    let i = 0
    while (i < SECONDS_BUCKETS.length && value > (SECONDS_BUCKETS[i] as number)) i++
    if (i < SECONDS_BUCKETS.length) this.perBucket[i] = (this.perBucket[i] as number) + 1
    this.count++
    this.sum += value
    if (value < this.min) this.min = value
    if (value > this.max) this.max = value
  }

  private state(): Metric.HistogramState {
    let cumulated = 0
    const buckets = SECONDS_BUCKETS.map((boundary, i): [number, number] => {
      cumulated += this.perBucket[i] as number
      return [boundary, cumulated]
    })
    return { buckets, count: this.count, sum: this.sum, min: this.min, max: this.max }
  }
}

interface RequestSeries {
  readonly count: { count: number }
  readonly seconds: ScrapedHistogram
}

/**
 * Records one answered request. Each label combination's two series are made once and kept (a few
 * hundred at most: routes × methods × statuses), found by route, then method and status, so a
 * request costs two map lookups and two updates of plain numbers, and builds no key.
 */
const makeRequestRecorder = (context: Context.Context<never>) => {
  const byRoute = new Map<string, Map<number, RequestSeries>>()
  const refusals = new Map<string, { count: number }>()
  const refused = (service: ServiceLabel, kind: string) => {
    const key = `${service} ${kind}`
    let counter = refusals.get(key)
    if (counter === undefined) {
      counter = scrapedCounter(
        context,
        "folio_rate_limit_refusals_total",
        "Requests refused for a spent rate-limit budget (429), by service and budget kind.",
        { service, kind }
      )
      refusals.set(key, counter)
    }
    counter.count++
  }
  const seriesOf = (route: string, service: ServiceLabel, m: string, status: number): RequestSeries => {
    const attributes = { route, method: m, status: String(status), service }
    return {
      count: scrapedCounter(
        context,
        "folio_http_requests_total",
        "HTTP requests answered, by route template, method, status and service.",
        attributes
      ),
      seconds: new ScrapedHistogram(
        context,
        "folio_http_request_duration_seconds",
        "Time to answer an HTTP request (until its response starts), in seconds.",
        attributes
      )
    }
  }
  return (
    route: string,
    service: ServiceLabel,
    method: string | undefined,
    status: number,
    seconds: number,
    keyBudget: boolean
  ): void => {
    const m = methodIndex(method)
    let statuses = byRoute.get(route)
    if (statuses === undefined) {
      statuses = new Map()
      byRoute.set(route, statuses)
    }
    // A status node sends is 100-999, so method and status make one small number; any other (a
    // handler's bug, which node refuses to send) is counted as 500, as node answers it.
    const key = m * 1000 + (status >= 100 && status <= 999 ? status : 500)
    let s = statuses.get(key)
    if (s === undefined) {
      s = seriesOf(route, service, METHOD_LABELS[m] as string, key % 1000)
      statuses.set(key, s)
    }
    s.count.count++
    s.seconds.observe(seconds)
    // A key's spent budget is told by the guard; every other (a page's, the authorization
    // server's registrations) is an address's.
    if (status === 429) refused(service, keyBudget ? "key" : "address")
  }
}

export type RequestRecorder = ReturnType<typeof makeRequestRecorder>

const recorders = new WeakMap<object, RequestRecorder>()

/**
 * The request recorder of a metrics registry: one per registry, shared by the routed requests'
 * middleware and the fast paths (a series registered twice would replace the first's counts, and
 * a route both answer, `/s/:slug`, is one series).
 */
const requestRecorderOf = (context: Context.Context<never>): RequestRecorder => {
  const registry = Context.get(context, Metric.MetricRegistry)
  let recorder = recorders.get(registry)
  if (recorder === undefined) {
    recorder = makeRequestRecorder(context)
    recorders.set(registry, recorder)
  }
  return recorder
}

/** The route template the router matched for the request this fiber is answering, if any. */
const matchedRoute = (context: Context.Context<never>) =>
  Context.getOrUndefined(context as Context.Context<HttpRouter.RouteContext>, HttpRouter.RouteContext)?.route
    .path

/** The route a request was answered on, as far as it got: set by the router's match or the guard. */
export interface RouteSeen {
  route: string | undefined
  /** Set by the guard when it answered a key's spent budget (429 of kind `key`, else `address`). */
  keyBudget?: boolean
}

/**
 * The request middleware's measure, or undefined when metrics are off. `around(request, app, run)`
 * runs `run` (the guard around the routed `app`), timing it and labelling it with the route the
 * router matched: the router leaves the matched route in the fiber's context until the request
 * ends, so it is read right after `app`, before anything restores the context. A request the guard
 * refuses before routing is labelled with the keyed endpoint it named, if any (`seen`).
 */
export const makeRequestMetrics = Effect.gen(function* () {
  if (!(yield* HttpMetricsEnabled)) return undefined
  const record = requestRecorderOf(yield* Effect.context<never>())
  return <E, R>(
    request: HttpServerRequest.HttpServerRequest,
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E>,
    run: (
      app: Effect.Effect<HttpServerResponse.HttpServerResponse, E>,
      seen: RouteSeen
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>,
    fixedRoute?: string
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R> => {
    const started = performance.now()
    const seen: RouteSeen = { route: fixedRoute }
    const routed =
      fixedRoute !== undefined
        ? app
        : Effect.onExit(app, () =>
            Effect.withFiber((fiber) => {
              seen.route = matchedRoute(fiber.context) ?? seen.route
              return Effect.void
            })
          )
    return Effect.onExit(run(routed, seen), (exit) => {
      // An interrupted request (the client went away) has no status to count.
      if (Exit.isSuccess(exit)) {
        const response = exit.value
        const route = seen.route
        record(
          route ?? UNMATCHED_ROUTE,
          serviceOf(route ?? pathOf(request.url)),
          request.method,
          response.status,
          (performance.now() - started) / 1000,
          seen.keyBudget === true
        )
      }
      return Effect.void
    })
  }
})

export type RequestMetrics = NonNullable<Effect.Success<typeof makeRequestMetrics>>

/**
 * The node:http fast paths' measure, or undefined when metrics are off: a warm redirect is
 * `/s/:slug`, the authorization server's endpoints `/oauth/*`. An answer already ended is counted at
 * once; one still being written (the authorization server's) when its response finishes.
 */
export const makeFastPathMetrics = Effect.gen(function* () {
  if (!(yield* HttpMetricsEnabled)) return undefined
  const record = requestRecorderOf(yield* Effect.context<never>())
  const finished = (request: IncomingMessage, response: ServerResponse, started: number) => {
    const url = request.url ?? ""
    const redirect = url.startsWith("/s/")
    record(
      redirect ? "/s/:slug" : "/oauth/*",
      redirect ? "public" : "oauth",
      request.method,
      response.statusCode,
      (performance.now() - started) / 1000,
      false
    )
  }
  return (request: IncomingMessage, response: ServerResponse, started: number): void => {
    if (response.writableEnded) finished(request, response, started)
    else response.once("finish", () => finished(request, response, started))
  }
})

/**
 * What `GET /s/{slug}` led to: a link's redirect, an artifact's, not found, a password page
 * (gated), an unavailable state page, a link preview, or a resource's own page.
 */
export type ShortLinkOutcome =
  | "redirected"
  | "artifact"
  | "not_found"
  | "gated"
  | "unavailable"
  | "preview"
  | "page"

const SHORT_LINK_METRIC = "folio_redirects_total"
const SHORT_LINK_DESCRIPTION =
  "Short-link (/s/{slug}) requests by outcome, and whether the fast path answered."

const visitOutcomes = new Map<string, Metric.Counter<number>>()

/** The short-link counter of an outcome, answered by the fast path (`fast`) or the app's route (`app`). */
const shortLinkCounter = (outcome: ShortLinkOutcome, path: "fast" | "app") => {
  const key = `${outcome} ${path}`
  let counter = visitOutcomes.get(key)
  if (counter === undefined) {
    counter = Metric.counter(SHORT_LINK_METRIC, {
      description: SHORT_LINK_DESCRIPTION,
      attributes: { outcome, path },
      incremental: true
    })
    visitOutcomes.set(key, counter)
  }
  return counter
}

/** Counts a short link's outcome from a fiber (the app's route); nothing when metrics are off. */
export const countShortLink = (outcome: ShortLinkOutcome) =>
  Effect.gen(function* () {
    if (yield* HttpMetricsEnabled) yield* Metric.update(shortLinkCounter(outcome, "app"), 1)
  })

/**
 * Counts a fast-path redirect, in the metrics of `context` (the fast path's, captured when it was
 * built); undefined when metrics are off, so the redirect does nothing for them.
 */
export const countFastRedirect = (context: Context.Context<never>): (() => void) | undefined => {
  if (!Context.get(context, HttpMetricsEnabled)) return undefined
  const counter = scrapedCounter(context, SHORT_LINK_METRIC, SHORT_LINK_DESCRIPTION, {
    outcome: "redirected",
    path: "fast"
  })
  return () => {
    counter.count++
  }
}

/** The outcome of a public decision's answer. */
export const shortLinkOutcomeOf = (answer: string): ShortLinkOutcome => {
  switch (answer) {
    case "LinkRedirect":
      return "redirected"
    case "ArtifactRedirect":
      return "artifact"
    case "NotFound":
      return "not_found"
    case "PasswordPage":
      return "gated"
    case "StatePage":
      return "unavailable"
    case "LinkPreview":
      return "preview"
    default:
      return "page"
  }
}

const uploadBytes = new Map<string, Metric.Counter<number>>()

/** Counts bytes of uploaded files received and kept, by what took them (`file`, `artifact`, `upload_request`, `form`). */
export const countUploadBytes = (kind: string, bytes: number) => {
  let counter = uploadBytes.get(kind)
  if (counter === undefined) {
    counter = Metric.counter("folio_upload_bytes_total", {
      description: "Bytes of uploaded files received and stored, by what took them.",
      attributes: { kind },
      incremental: true
    })
    uploadBytes.set(kind, counter)
  }
  return Metric.update(counter, bytes)
}
