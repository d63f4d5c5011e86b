// Server configuration from the environment (effect Config). Every variable has a safe default for
// `npm start`; a bad value fails start-up with one line naming the variable.
import { DEFAULT_COUNTRY_HEADER } from "@folio/adapters-http/shared"
import {
  type ArtifactLimits,
  DEFAULT_WEBHOOK_POLICY,
  artifactLimitsOf,
  DEFAULT_ARTIFACT_LIMITS,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_STORAGE_QUOTA_BYTES,
  EXPORT_MAX_ROWS
} from "@folio/domain"
import { Config, Data, Effect, Option, Redacted } from "effect"

export type BlobStoreKind = "fs" | "s3" | "memory"
/** OTEL_TRACES_SAMPLER's values (the OpenTelemetry SDK environment specification's). */
export type TraceSamplerName =
  | "always_on"
  | "always_off"
  | "traceidratio"
  | "parentbased_always_on"
  | "parentbased_always_off"
  | "parentbased_traceidratio"

export interface TraceSettings {
  /** Where spans are POSTed (OTLP/HTTP): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  readonly url: string
  /** OTEL_SERVICE_NAME (default `folio`). */
  readonly serviceName: string
  readonly sampler: TraceSamplerName
  /** OTEL_TRACES_SAMPLER_ARG: the ratio of the *traceidratio samplers (0..1, default 1). */
  readonly ratio: number
  /** OTEL_EXPORTER_OTLP_HEADERS / _TRACES_HEADERS (`k=v,k2=v2`): a collector's credentials, redacted. */
  readonly headers: Redacted.Redacted<Readonly<Record<string, string>>>
  /** OTEL_BSP_SCHEDULE_DELAY: milliseconds between two exports of the spans ended meanwhile. */
  readonly exportDelayMillis: number
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: the most spans one export carries (a full batch goes at once). */
  readonly exportBatchSize: number
  /**
   * OTEL_EXPORTER_OTLP_TRACES_TIMEOUT / OTEL_EXPORTER_OTLP_TIMEOUT: milliseconds a batch's request
   * may take, answer included, before the export fails (and is retried or backed off).
   */
  readonly exportTimeoutMillis: number
}

export interface MetricsSettings {
  /** METRICS_PORT: the Prometheus listener's own port (never the API's). */
  readonly port: number
  /** METRICS_HOST (default 127.0.0.1, so the figures are never public by accident). */
  readonly host: string
}
export type LogLevelName = "trace" | "debug" | "info" | "warning" | "error" | "none"

export interface S3Settings {
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  readonly forcePathStyle: boolean
}

export interface InterviewerModelSettings {
  /** The API root; `/chat/completions` is appended. */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  /** Per request attempt. */
  readonly timeoutMs: number
}

export interface AppConfig {
  readonly port: number
  /** Console sessions end this long without use (sliding; CONSOLE_SESSION_IDLE_MINUTES). */
  readonly consoleSessionIdleMs: number
  /** Console sessions end this long after sign-in, used or not (CONSOLE_SESSION_MAX_HOURS). */
  readonly consoleSessionMaxMs: number
  readonly host: string
  readonly publicOrigin: string
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly blobStore: BlobStoreKind
  readonly s3: Option.Option<S3Settings>
  readonly blobSigningSecret: Option.Option<Redacted.Redacted<string>>
  readonly logLevel: LogLevelName
  readonly shutdownGraceMs: number
  /** Requests per minute per API key (spec: 120). */
  readonly rateLimitPerKey: number
  /** Authentication attempts per minute per client IP (spec: 600). */
  readonly authAttemptsPerIp: number
  /** Requests per minute per client IP on the public respondent routes. */
  readonly respondentRequestsPerIp: number
  /** Sharing API: requests per minute per key, and per client address (keyed or not). */
  readonly sharingRequestsPerKey: number
  readonly sharingRequestsPerIp: number
  /** Sharing API: links a key may create per hour through POST /resources (spec: 60). */
  readonly sharingLinkCreationsPerHour: number
  /** The header a CDN or proxy names the visitor's country in (lower case); undefined: never known. */
  readonly sharingCountryHeader: Option.Option<string>
  /** Sharing API: the largest upload, in bytes (spec default 50 MiB). */
  readonly sharingUploadMaxBytes: number
  /** Sharing API: the bytes each account may store (uploads, collection copies, bio media). */
  readonly sharingStorageQuotaBytes: number
  /** HTML artifacts served (`features.artifacts_enabled`). */
  readonly artifactsEnabled: boolean
  /** The host each deployment's origin is a subdomain of (`{deployment}.{host}`). */
  readonly artifactHost: string
  /** Artifact limits; each only lowers the spec's default. */
  readonly artifactLimits: ArtifactLimits
  /**
   * The model behind interviews (an OpenAI-compatible chat-completions API: hosted, vLLM, llama.cpp,
   * Ollama): it holds the interviews and analyses finished ones as a job. None: the built-in
   * interviewer, and the built-in analysis (`partial`).
   */
  readonly interviewer: Option.Option<InterviewerModelSettings>
  /** The Notion integration's token; Notion mirrors are off without one (`features.notion_enabled`). */
  readonly notionToken: Option.Option<Redacted.Redacted<string>>
  /**
   * Where notification e-mail goes out (smtp:// or smtps://, credentials in the URL); none: this
   * server sends no mail (`notifications.email: false` in the capabilities).
   */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  /** The From of notification e-mail ("Name <address>" or an address). */
  readonly mailFrom: string
  /** The Notion API's root (a proxy, or a local fake in tests). */
  readonly notionApiUrl: string
  /** Jobs this instance runs at once; 0 runs none here (other instances do). */
  readonly jobsConcurrency: number
  /** How long a claimed job is held without its worker renewing it. */
  readonly jobsLeaseMs: number
  /** How often idle workers look for due jobs (they also wake when one is queued). */
  readonly jobsPollMs: number
  /** The first retry's wait; each later one doubles, up to ten minutes, with jitter. */
  readonly jobsRetryBaseMs: number
  /** How often each instance looks for periodic work (auto-refreshes, due webhook deliveries, expiries). */
  readonly jobsScheduleMs: number
  /** The waits before a webhook delivery's 2nd, 3rd, ... attempt (then it is given up). */
  readonly webhookRetryDelaysMs: ReadonlyArray<number>
  /** Failed webhook attempts in a row after which an endpoint is disabled. */
  readonly webhookDisableAfterFailures: number
  /** Let webhooks reach loopback addresses (only for a local receiver, such as the tests'). */
  readonly webhookAllowLoopback: boolean
  /** A PEM file of extra CA certificates webhook receivers may be signed by. */
  readonly webhookCaFile: Option.Option<string>
  /** Share of scanned responses (0..1) past which an insight candidate is marked `auto`. */
  readonly insightsAutoThreshold: number
  /** Rows an analytics export stops at (the spec's 100,000; may only be lowered). */
  readonly analyticsExportMaxRows: number
  /** A MaxMind country (or city) database: the visitor's country when no country header names it. */
  readonly geoipDbPath: Option.Option<string>
  /** The header a trusted proxy names the client's address in (lower case); none: the socket's. */
  readonly analyticsIpHeader: Option.Option<string>
  /** OpenTelemetry traces; none (no endpoint, or OTEL_SDK_DISABLED=true): tracing off, at no cost. */
  readonly traces: Option.Option<TraceSettings>
  /** Prometheus metrics on their own listener; none (METRICS_PORT unset): no listener. */
  readonly metrics: Option.Option<MetricsSettings>
  /** Blob objects no row names are deleted by the orphan sweep once older than this (BLOB_ORPHAN_GRACE_HOURS). */
  readonly blobOrphanGraceMs: number
}

/** A bad or missing variable, named, with what it must be (never its value: it may be a secret). */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{
  readonly variable: string
  readonly problem: string
}> {}

/** A variable's text; an empty value counts as unset, as env files often write it. */
const text = (name: string): Effect.Effect<Option.Option<string>, ConfigProblem> =>
  Config.option(Config.String(name)).pipe(
    Effect.map((o) => Option.filter(o, (v) => v.trim() !== "")),
    Effect.mapError((e) => new ConfigProblem({ variable: name, problem: `cannot be read (${e.message})` }))
  )

/** A variable parsed by `parse` (undefined = bad value), or `fallback` when it is unset. */
const read = <A>(
  name: string,
  fallback: A | (() => Effect.Effect<A, ConfigProblem>),
  problem: string,
  parse: (value: string) => A | undefined
): Effect.Effect<A, ConfigProblem> =>
  Effect.flatMap(text(name), (o) => {
    if (Option.isNone(o))
      return typeof fallback === "function"
        ? (fallback as () => Effect.Effect<A, ConfigProblem>)()
        : Effect.succeed(fallback)
    const value = parse(o.value)
    return value === undefined
      ? Effect.fail(new ConfigProblem({ variable: name, problem }))
      : Effect.succeed(value)
  })

const required = (name: string) => () =>
  Effect.fail(new ConfigProblem({ variable: name, problem: "is required" }))

const asInt = (min: number, max: number) => (value: string) => {
  const n = Number(value)
  return /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined
}
const oneOf =
  <const L extends string>(values: ReadonlyArray<L>) =>
  (value: string): L | undefined =>
    values.find((v) => v === value)

const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")
  } catch {
    return false
  }
}
const ORIGIN = "must be an origin such as https://forms.example.com (scheme, host, optional port; no path)"
const asOrigin = (value: string) => (isOrigin(value) ? value.replace(/\/$/, "") : undefined)

const positive = (name: string, fallback: number) =>
  read(name, fallback, "must be a positive integer", asInt(1, Number.MAX_SAFE_INTEGER))

const s3 = Effect.all({
  endpoint: read("S3_ENDPOINT", required("S3_ENDPOINT"), ORIGIN, asOrigin),
  region: read("S3_REGION", "us-east-1", "must not be empty", (v) => v),
  bucket: read("S3_BUCKET", required("S3_BUCKET"), "must not be empty", (v) => v),
  accessKeyId: read("S3_ACCESS_KEY_ID", required("S3_ACCESS_KEY_ID"), "must not be empty", (v) => v),
  secretAccessKey: read("S3_SECRET_ACCESS_KEY", required("S3_SECRET_ACCESS_KEY"), "must not be empty", (v) =>
    Redacted.make(v)
  ),
  forcePathStyle: read("S3_FORCE_PATH_STYLE", true, "must be true or false", (v) =>
    v === "true" ? true : v === "false" ? false : undefined
  )
})

/** An optional secret-ish variable, redacted once read. */
const optionalRedacted = (name: string, problem: string, validation: (value: string) => boolean) =>
  read(name, Option.none<Redacted.Redacted<string>>(), problem, (v) =>
    validation(v) ? Option.some(Redacted.make(v)) : undefined
  )

const HTTP_URL = "must be an http or https URL"
const asHttpUrl = (v: string) => (/^https?:\/\/[^\s]+$/.test(v) ? v.replace(/\/+$/, "") : undefined)

/** The interviewer model: all of it when INTERVIEWER_BASE_URL is set (the model then required). */
const interviewerModel = Effect.flatMap(
  read("INTERVIEWER_BASE_URL", Option.none<string>(), HTTP_URL, (v) => Option.fromNullishOr(asHttpUrl(v))),
  Option.match({
    onNone: () => Effect.succeed(Option.none<InterviewerModelSettings>()),
    onSome: (baseUrl) =>
      Effect.map(
        Effect.all({
          model: read("INTERVIEWER_MODEL", required("INTERVIEWER_MODEL"), "must not be empty", (v) =>
            v.trim()
          ),
          apiKey: optionalRedacted("INTERVIEWER_API_KEY", "must not be empty", (v) => v.trim() !== ""),
          timeoutMs: read(
            "INTERVIEWER_TIMEOUT_MS",
            20_000,
            "must be an integer from 100 to 300000",
            asInt(100, 300_000)
          )
        }),
        (rest) => Option.some({ baseUrl, ...rest })
      )
  })
)

/** `k=v,k2=v2` (values URL-encoded, as the OpenTelemetry specification writes them). */
const asOtlpHeaders = (v: string): Redacted.Redacted<Readonly<Record<string, string>>> | undefined => {
  const entries: Array<[string, string]> = []
  for (const part of v.split(",")) {
    if (part.trim() === "") continue
    const at = part.indexOf("=")
    const name = part.slice(0, at).trim()
    if (at <= 0 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return undefined
    try {
      entries.push([name.toLowerCase(), decodeURIComponent(part.slice(at + 1).trim())])
    } catch {
      return undefined
    }
  }
  return Redacted.make(Object.fromEntries(entries))
}

const asBoolean = (v: string) => (v === "true" ? true : v === "false" ? false : undefined)

/** Traces when an OTLP endpoint is named and the SDK is not disabled (the standard variables). */
const traceSettings = Effect.gen(function* () {
  const disabled = yield* read("OTEL_SDK_DISABLED", false, "must be true or false", asBoolean)
  const tracesEndpoint = yield* read(
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    Option.none<string>(),
    HTTP_URL,
    (v) => Option.fromNullishOr(asHttpUrl(v))
  )
  const endpoint = yield* read("OTEL_EXPORTER_OTLP_ENDPOINT", Option.none<string>(), HTTP_URL, (v) =>
    Option.fromNullishOr(asHttpUrl(v))
  )
  const serviceName = yield* read("OTEL_SERVICE_NAME", "folio", "must not be empty", (v) => v.trim())
  const sampler = yield* read(
    "OTEL_TRACES_SAMPLER",
    "parentbased_always_on" as TraceSamplerName,
    "must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio",
    oneOf([
      "always_on",
      "always_off",
      "traceidratio",
      "parentbased_always_on",
      "parentbased_always_off",
      "parentbased_traceidratio"
    ])
  )
  const ratio = yield* read("OTEL_TRACES_SAMPLER_ARG", 1, "must be a number from 0 to 1", (v) => {
    const n = Number(v)
    return v.trim() !== "" && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined
  })
  const headers = yield* read(
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    () =>
      read(
        "OTEL_EXPORTER_OTLP_HEADERS",
        Redacted.make<Readonly<Record<string, string>>>({}),
        "must be a list of name=value pairs separated by commas",
        asOtlpHeaders
      ),
    "must be a list of name=value pairs separated by commas",
    asOtlpHeaders
  )
  const exportDelayMillis = yield* read(
    "OTEL_BSP_SCHEDULE_DELAY",
    5000,
    "must be an integer from 1 to 60000 (milliseconds)",
    asInt(1, 60_000)
  )
  const exportBatchSize = yield* read(
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    1000,
    "must be an integer from 1 to 100000 (spans)",
    asInt(1, 100_000)
  )
  const timeoutProblem = "must be an integer from 1 to 600000 (milliseconds)"
  const exportTimeoutMillis = yield* read(
    "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
    () => read("OTEL_EXPORTER_OTLP_TIMEOUT", 10_000, timeoutProblem, asInt(1, 600_000)),
    timeoutProblem,
    asInt(1, 600_000)
  )
  const url = Option.orElse(tracesEndpoint, () => Option.map(endpoint, (base) => `${base}/v1/traces`))
  return disabled
    ? Option.none<TraceSettings>()
    : Option.map(
        url,
        (url): TraceSettings => ({
          url,
          serviceName,
          sampler,
          ratio,
          headers,
          exportDelayMillis,
          exportBatchSize,
          exportTimeoutMillis
        })
      )
})

const metricsSettings = Effect.gen(function* () {
  const port = yield* read("METRICS_PORT", Option.none<number>(), "must be an integer from 0 to 65535", (v) =>
    Option.fromNullishOr(asInt(0, 65535)(v))
  )
  const host = yield* read("METRICS_HOST", "127.0.0.1", "must not be empty", (v) => v.trim())
  return Option.map(port, (port): MetricsSettings => ({ port, host }))
})

/** Reads and validates the configuration; fails naming the first bad variable. */
export const AppConfig: Effect.Effect<AppConfig, ConfigProblem> = Effect.gen(function* () {
  const p = yield* read("PORT", 8080, "must be an integer from 0 to 65535", asInt(0, 65535))
  const host = yield* read("HOST", "127.0.0.1", "must not be empty", (v) => v)
  const publicOrigin = yield* read(
    "PUBLIC_ORIGIN",
    `http://${host === "0.0.0.0" || host === "::" ? "localhost" : host}:${p}`,
    ORIGIN,
    asOrigin
  )
  const blobStore = yield* read(
    "BLOB_STORE",
    "fs" as BlobStoreKind,
    "must be one of fs, s3, memory",
    oneOf(["fs", "s3", "memory"])
  )
  return {
    port: p,
    host,
    publicOrigin,
    dataDir: yield* read("DATA_DIR", "./data", "must not be empty", (v) => v),
    databaseUrl: yield* optionalRedacted("DATABASE_URL", "must be a postgres:// or postgresql:// URL", (u) =>
      /^postgres(ql)?:\/\//.test(u)
    ),
    blobStore,
    s3: blobStore === "s3" ? Option.some(yield* s3) : Option.none(),
    blobSigningSecret: yield* optionalRedacted(
      "BLOB_SIGNING_SECRET",
      "must be at least 32 characters",
      (s) => s.length >= 32
    ),
    logLevel: yield* read(
      "LOG_LEVEL",
      "info" as LogLevelName,
      "must be one of trace, debug, info, warning, error, none",
      oneOf(["trace", "debug", "info", "warning", "error", "none"])
    ),
    rateLimitPerKey: yield* positive("RATE_LIMIT_PER_KEY", 120),
    authAttemptsPerIp: yield* positive("AUTH_ATTEMPTS_PER_IP", 600),
    respondentRequestsPerIp: yield* positive("RESPONDENT_REQUESTS_PER_IP", 300),
    sharingRequestsPerKey: yield* positive("SHARING_REQUESTS_PER_KEY", 100),
    sharingRequestsPerIp: yield* positive("SHARING_REQUESTS_PER_IP", 100),
    sharingLinkCreationsPerHour: yield* positive("SHARING_LINK_CREATIONS_PER_HOUR", 60),
    sharingCountryHeader: yield* read(
      "SHARING_COUNTRY_HEADER",
      Option.some(DEFAULT_COUNTRY_HEADER),
      "must be a header name, or none",
      (v) =>
        v === "none"
          ? Option.none()
          : /^[A-Za-z0-9-]{1,64}$/.test(v)
            ? Option.some(v.toLowerCase())
            : undefined
    ),
    sharingUploadMaxBytes: yield* positive("SHARING_UPLOAD_MAX_BYTES", DEFAULT_MAX_UPLOAD_BYTES),
    sharingStorageQuotaBytes: yield* positive("SHARING_STORAGE_QUOTA_BYTES", DEFAULT_STORAGE_QUOTA_BYTES),
    artifactsEnabled: yield* read("ARTIFACTS_ENABLED", true, "must be true or false", (v) =>
      v === "true" ? true : v === "false" ? false : undefined
    ),
    artifactHost: yield* read(
      "ARTIFACT_HOST",
      "localhost",
      "must be a host name (letters, digits, dots, hyphens)",
      (v) =>
        /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v)
          ? v.toLowerCase()
          : undefined
    ),
    artifactLimits: artifactLimitsOf({
      siteBytes: yield* positive("ARTIFACT_MAX_SITE_BYTES", DEFAULT_ARTIFACT_LIMITS.siteBytes),
      files: yield* positive("ARTIFACT_MAX_FILES", DEFAULT_ARTIFACT_LIMITS.files),
      fileBytes: yield* positive("ARTIFACT_MAX_FILE_BYTES", DEFAULT_ARTIFACT_LIMITS.fileBytes),
      zipBytes: yield* positive("ARTIFACT_MAX_ZIP_BYTES", DEFAULT_ARTIFACT_LIMITS.zipBytes)
    }),
    insightsAutoThreshold: yield* read(
      "INSIGHTS_AUTO_THRESHOLD",
      0.3,
      "must be a number from 0 to 1",
      (v) => {
        const n = Number(v)
        return v.trim() !== "" && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined
      }
    ),
    interviewer: yield* interviewerModel,
    notionToken: yield* optionalRedacted("NOTION_TOKEN", "must not be empty", (v) => v.trim() !== ""),
    notionApiUrl: yield* read("NOTION_API_URL", "https://api.notion.com", HTTP_URL, asHttpUrl),
    smtpUrl: yield* optionalRedacted("SMTP_URL", "must be an smtp:// or smtps:// URL", (v) =>
      /^smtps?:\/\/[^\s]+$/i.test(v)
    ),
    mailFrom: yield* read(
      "MAIL_FROM",
      `Folio <no-reply@${new URL(publicOrigin).hostname}>`,
      "must be an address, or a name and <address>, on one line",
      (v) => (/^[^\r\n<>]*<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/.test(v.trim()) ? v.trim() : undefined)
    ),
    jobsConcurrency: yield* read("JOBS_CONCURRENCY", 2, "must be an integer from 0 to 64", asInt(0, 64)),
    jobsLeaseMs:
      (yield* read("JOBS_LEASE_SECONDS", 30, "must be an integer from 1 to 3600", asInt(1, 3600))) * 1000,
    jobsPollMs: yield* read("JOBS_POLL_MS", 1000, "must be an integer from 10 to 60000", asInt(10, 60000)),
    jobsRetryBaseMs: yield* read(
      "JOBS_RETRY_BASE_MS",
      5000,
      "must be an integer from 0 to 600000",
      asInt(0, 600_000)
    ),
    jobsScheduleMs: yield* read(
      "JOBS_SCHEDULE_MS",
      15_000,
      "must be an integer from 50 to 3600000",
      asInt(50, 3_600_000)
    ),
    webhookRetryDelaysMs: yield* read(
      "WEBHOOK_RETRY_DELAYS_MS",
      DEFAULT_WEBHOOK_POLICY.retryDelaysMs,
      "must be a comma-separated list of 0 to 20 waits in milliseconds",
      (v) => {
        const parts = v.split(",").map((p) => asInt(0, 7 * 86_400_000)(p.trim()))
        return parts.length <= 20 && parts.every((p) => p !== undefined)
          ? (parts as Array<number>)
          : undefined
      }
    ),
    webhookDisableAfterFailures: yield* read(
      "WEBHOOK_DISABLE_AFTER_FAILURES",
      DEFAULT_WEBHOOK_POLICY.disableAfterFailures,
      "must be an integer from 1 to 1000",
      asInt(1, 1000)
    ),
    webhookAllowLoopback: yield* read("WEBHOOK_ALLOW_LOOPBACK", false, "must be true or false", (v) =>
      v === "true" ? true : v === "false" ? false : undefined
    ),
    webhookCaFile: yield* read("WEBHOOK_CA_FILE", Option.none<string>(), "must not be empty", (v) =>
      Option.some(v)
    ),
    analyticsExportMaxRows: yield* read(
      "ANALYTICS_EXPORT_MAX_ROWS",
      EXPORT_MAX_ROWS,
      `must be an integer from 1 to ${EXPORT_MAX_ROWS}`,
      asInt(1, EXPORT_MAX_ROWS)
    ),
    geoipDbPath: yield* read("GEOIP_DB_PATH", Option.none<string>(), "must not be empty", (v) =>
      Option.some(v)
    ),
    analyticsIpHeader: yield* read(
      "ANALYTICS_IP_HEADER",
      Option.none<string>(),
      "must be a header name",
      (v) => (/^[A-Za-z0-9-]{1,64}$/.test(v) ? Option.some(v.toLowerCase()) : undefined)
    ),
    traces: yield* traceSettings,
    metrics: yield* metricsSettings,
    blobOrphanGraceMs:
      (yield* read("BLOB_ORPHAN_GRACE_HOURS", 24, "must be an integer from 1 to 8760", asInt(1, 8760))) *
      3_600_000,
    shutdownGraceMs: yield* read("SHUTDOWN_GRACE_MS", 4000, "must be from 0 to 60000", asInt(0, 60000)),
    consoleSessionIdleMs:
      (yield* read(
        "CONSOLE_SESSION_IDLE_MINUTES",
        720,
        "must be an integer from 1 to 43200",
        asInt(1, 43_200)
      )) * 60_000,
    consoleSessionMaxMs:
      (yield* read("CONSOLE_SESSION_MAX_HOURS", 168, "must be an integer from 1 to 8760", asInt(1, 8760))) *
      3_600_000
  }
})

/** One line naming the variable, for a start-up failure message. */
export const describeConfigError = (error: ConfigProblem): string =>
  `invalid configuration: ${error.variable}: ${error.problem}`

export const isConfigError = (u: unknown): u is ConfigProblem => u instanceof ConfigProblem
