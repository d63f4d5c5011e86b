// The composed application: one Layer graph from configuration to a listening HTTP server. Used by
// `main` and by the end-to-end tests, which launch it in-process on port 0.
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server } from "node:http"
import { hostname } from "node:os"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import {
  BlobSigningSecret,
  ClientIpHeader,
  ConnectionCutter,
  CountryHeader,
  FormsErrors,
  HttpSurfaceLive,
  makeFastRedirect,
  OAuthConsentRoutes,
  OAuthServer,
  OAuthServerLive,
  PublicOrigin,
  ReadinessCheck,
  SharingErrors
} from "@folio/adapters-http"
import {
  makeOAuthRequestAuthenticator,
  redactingTracer,
  sharingMcpResource,
  SECRET_QUERY_NAMES
} from "@folio/adapters-http/shared"
import { formsMcpRoute, McpSettings, sharingMcpRoute } from "@folio/adapters-mcp"
import {
  SharpMediaToolsLive,
  YauzlArtifactArchivesLive,
  HttpsWebhookSenderLive,
  makeSafeFetch,
  NotionClientSourceLive,
  openCountryDatabase,
  makeOpenAiCompatibleAnalyst,
  makeOpenAiCompatibleSummariser,
  builtInSummaryFallbackOf,
  makeOpenAiCompatibleInsightModel,
  OpenAiCompatibleInterviewerLive,
  withDeterministicFallback,
  SimpleWebAuthnCeremonyLive,
  SmtpMailerLive
} from "@folio/adapters-integrations"
import {
  AcceleratedFormDefinitionDecoderLive,
  Argon2PasswordHashingLive,
  BlobStoreHealth,
  BufferedRateLimitStoreLive,
  CachedApiKeyRepositoryLive,
  CachedResourceRepositoryLive,
  CachedStoredFormDocumentsLive,
  IdGenLive,
  ScryptPasswordHasherLive,
  StorageHealth,
  SealedIdempotencyStoreLive,
  SuspendedAccountsLive,
  IdempotencyHousekeepingLive,
  PeopleHousekeepingLive,
  ResponseRetentionLive,
  orphanSweep,
  JobWorkerLive,
  UsageBatcherLive,
  ViewBatcherLive,
  VisitBatcherLive
} from "@folio/adapters-storage"
import {
  BuiltInInsightExtractorLive,
  DeterministicInterviewerLive,
  FormsServicesLive,
  InterviewAnalyst,
  InterviewSummariser,
  InsightModel,
  InsightPolicy,
  NotificationLinks,
  LinkCreationPolicy,
  RateLimitPolicy,
  RespondentRateLimitPolicy,
  ArtifactPolicy,
  ArtifactsFeature,
  SharingArtifactsLive,
  SharingUploadRequestsLive,
  SharingBioLive,
  SharingCollectionsLive,
  SharingFilesLive,
  SharingIdempotencyLive,
  SharingJobsLive,
  SharingNotionMirrorsLive,
  SharingAnalyticsLive,
  AnalyticsPolicy,
  SharingWebhooksLive,
  WebhookSettings,
  SharingResourcesLive,
  UploadPolicy,
  DEFAULT_WEBHOOK_POLICY,
  SessionPolicy,
  ConsoleLinks,
  type PasswordHasher,
  type PasswordHashing,
  SHARING_SCOPE_SET
} from "@folio/domain"
import { Duration, Effect, Layer, LogLevel, Option, Redacted, References, Tracer } from "effect"
import { HttpMiddleware, HttpRouter, type HttpServerRequest, UrlParams } from "effect/http"
import { answerClientErrorsWithEnvelope } from "./client-errors.js"
import { installFastPaths } from "./fast-path.js"
import { JobRunnerLive } from "./job-runner.js"
import type { AppConfig } from "./config.js"
import { logLevelOf } from "./logging.js"
import { withMetrics } from "./metrics-server.js"
import { ObserverThreadLive } from "./observer-thread.js"
import { blobSigningSecret, blobStoreLayer, storageLayer } from "./storage.js"
import { otlpTracerLayer, type RequestSampling, requestSampler, requestSampling } from "./telemetry.js"

/** Readiness = the database and the blob store (an S3 bucket) answer. */
const ReadinessLive = Layer.effect(
  ReadinessCheck,
  Effect.zipWith(Effect.service(StorageHealth), Effect.service(BlobStoreHealth), (storage, blobs) =>
    ReadinessCheck.of({ check: Effect.all([storage.check, blobs.check], { concurrency: 2, discard: true }) })
  )
)

/**
 * On shutdown the server stops accepting at once; requests in flight get `graceMs` to finish before
 * their connections are cut, so a slow client cannot hold the process open.
 */
const gracefulClose = (server: Server, graceMs: number) =>
  Layer.effectDiscard(
    Effect.addFinalizer(() =>
      Effect.sync(() => {
        server.closeIdleConnections()
        const timer = setTimeout(() => server.closeAllConnections(), graceMs)
        timer.unref()
        server.once("close", () => clearTimeout(timer))
      })
    )
  )

/** Node's way to fail a response whose headers are out: destroy it, so no final chunk is written. */
const NodeConnectionCutter = Layer.succeed(ConnectionCutter, {
  cut: (request) => NodeHttpServerRequest.toServerResponse(request).destroy()
})

/**
 * Who holds interviews and analyses finished ones: the configured model (a turn it fails is answered
 * by the built-in interviewer; an analysis it fails is retried by the job; a context summary it
 * fails is the built-in one), else the built-in interviewer and summariser and no analyst (the
 * built-in analysis, `partial`).
 */
const interviewerLayer = (model: AppConfig["interviewer"]) =>
  Option.match(model, {
    onNone: () => DeterministicInterviewerLive,
    onSome: (m) => {
      const options = {
        baseUrl: m.baseUrl,
        model: m.model,
        apiKey: Option.getOrUndefined(Option.map(m.apiKey, Redacted.value)),
        timeoutMs: m.timeoutMs
      }
      return Layer.mergeAll(
        withDeterministicFallback(OpenAiCompatibleInterviewerLive(options)),
        Layer.succeed(InterviewAnalyst, makeOpenAiCompatibleAnalyst(options)),
        // The rolling summary a long interview's bounded context needs (policy.context), a call of its own.
        Layer.succeed(InterviewSummariser, builtInSummaryFallbackOf(makeOpenAiCompatibleSummariser(options))),
        // Classic-form insights from the same model, as `form_insights` jobs (the built-in
        // extractor answers meanwhile and whenever the model fails).
        Layer.succeed(InsightModel, makeOpenAiCompatibleInsightModel(options))
      )
    }
  })

/** The mail transport when SMTP_URL is set; without one the Mailer stays null (no e-mail is sent). */
const mailerLayer = (config: AppConfig) =>
  Option.match(config.smtpUrl, {
    onNone: () => Layer.empty,
    onSome: (url) => SmtpMailerLive({ url: Redacted.value(url), from: config.mailFrom })
  })

/**
 * Client metadata documents are fetched as webhooks are sent: https, public addresses only (the
 * loopback too with WEBHOOK_ALLOW_LOOPBACK, a private CA with WEBHOOK_CA_FILE), the checked address
 * pinned, no redirects; the library caps the body at 5 KiB.
 */
const oauthMetadataFetch = (config: AppConfig) =>
  makeSafeFetch({
    allowLoopback: config.webhookAllowLoopback,
    ca: Option.getOrUndefined(Option.map(config.webhookCaFile, (file) => readFileSync(file, "utf8")))
  })

/** Names this process's job claims: host, process and a random part (a restarted pid is another worker). */
const jobWorkerId = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`

/** Storage chosen by the caller instead of by configuration (tests, embedding). */
export type StorageOverride = ReturnType<typeof storageLayer>

export interface AppOverrides {
  readonly storage?: StorageOverride
  /**
   * Where spans go (an exporter, a test's recorder): tracing is on only with one, and its spans
   * redact every secret path segment and query value (redactingTracer) before anything reads them.
   */
  readonly tracer?: Tracer.Tracer
  /**
   * Policies (Context References) that replace the configured ones: a test's small sign-in budget
   * or short delays. Merged last, so they win.
   */
  readonly policies?: Layer.Layer<never>
  /**
   * The password hashers (protected links' scrypt, people's argon2id) instead of the ones with
   * OWASP's costs: a test's cheap parameters of the same algorithms. A stored hash names its
   * parameters, so it verifies whichever made it.
   */
  readonly passwordHashing?: Layer.Layer<PasswordHasher | PasswordHashing>
}

/**
 * Which requests are traced, decided at the edge (telemetry.ts `requestSampler`) when the tracer is
 * the configured exporter; none (every request traced) with a test's override tracer or tracing off.
 */
const edgeSampling = (
  tracer: Tracer.Tracer | undefined,
  traces: AppConfig["traces"]
): Option.Option<RequestSampling> =>
  tracer !== undefined
    ? Option.none()
    : Option.map(traces, (t) => requestSampling(requestSampler(t.sampler, t.ratio)))

/**
 * Tracing: the override tracer when given (a test's recorder), else the configured OTLP exporter
 * (sampled, see telemetry.ts), else off (spans would be built on every request and statement only to
 * be dropped). When on, spans are redacted, with the same secret query names for Effect's own URL
 * redaction (`url.full`, `url.query`, a 5xx span's request URL). With the exporter, a request the
 * edge did not sample gets no server span: Effect's server runs it on its one-frame path, as with
 * tracing off, and the few spans its statements begin have no sampled parent, so they are built as
 * non-recording ones (telemetry.ts) and never exported. (A server middleware that turned tracing off
 * for such a request would take every request off that path and copy the request's context for
 * each: measured dearer than those few non-recording spans.)
 */
const tracing = (
  tracer: Tracer.Tracer | undefined,
  traces: AppConfig["traces"],
  sampling: Option.Option<RequestSampling>
) =>
  tracer !== undefined
    ? Layer.mergeAll(
        Layer.succeed(Tracer.Tracer, redactingTracer(tracer)),
        Layer.succeed(UrlParams.CurrentRedactedNames, SECRET_QUERY_NAMES)
      )
    : Option.isSome(traces)
      ? Layer.mergeAll(
          otlpTracerLayer(traces.value),
          Layer.succeed(UrlParams.CurrentRedactedNames, SECRET_QUERY_NAMES),
          Option.match(sampling, {
            onNone: () => Layer.empty,
            onSome: ({ sampled }) =>
              Layer.succeed(
                HttpMiddleware.TracerDisabledWhen,
                (request: HttpServerRequest.HttpServerRequest) => !sampled(request.source as IncomingMessage)
              )
          })
        )
      : Layer.mergeAll(
          Layer.succeed(HttpMiddleware.TracerDisabledWhen, () => true),
          Layer.succeed(References.TracerEnabled, false)
        )

/**
 * The app, measured and with its Prometheus listener when METRICS_PORT is set, over the observer's
 * thread that the listener and the trace exporter share (started only if one of them is on).
 */
export const appLayer = (config: AppConfig, overrides: AppOverrides = {}) =>
  withMetrics(config.metrics, unmeasuredAppLayer(config, overrides)).pipe(Layer.provide(ObserverThreadLive))

const unmeasuredAppLayer = (config: AppConfig, overrides: AppOverrides) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const secret = yield* blobSigningSecret(config)
      const sampling = edgeSampling(overrides.tracer, config.traces)
      // Idle keep-alive connections outlive a client's or proxy's own idle timeout (undici's 4 s,
      // load balancers' 60 s), so the client is the side that closes them: a server closing first
      // races a request already on its way and the client sees ECONNRESET. Shutdown closes idle
      // connections at once, so the long timeout never holds it up.
      const server = answerClientErrorsWithEnvelope(createServer({ keepAliveTimeout: 65_000 }))
      const storage = overrides.storage ?? storageLayer(config)
      // The visitor hash's key is derived from the signing secret (its own prefix: no other
      // signature is ever a visitor hash); a GeoIP database, when configured, is opened once here.
      const visitRecorder = Layer.unwrap(
        Effect.map(
          Option.match(config.geoipDbPath, {
            onNone: () => Effect.succeed(undefined),
            onSome: openCountryDatabase
          }),
          (countryOf) => VisitBatcherLive({ secret: `sharing-analytics:${secret}`, countryOf })
        )
      )
      // Key lookups and rate-limit counting stay off the request path's database round trips (see
      // docs/decisions/0007-rate-limits-and-usage.md); both wrap the configured store and override it in the
      // merge below.
      // The public slug lookup is cached too, dropped on every instance through the storage's
      // invalidation bus (LISTEN/NOTIFY on PostgreSQL).
      // Suspended accounts are held in memory too (every public request asks), told of each change
      // over the same bus.
      // Stored idempotent answers are sealed with a key derived from the signing secret: some hold
      // a secret shown once (an upload request's token).
      const hotPath = Layer.mergeAll(
        BufferedRateLimitStoreLive,
        CachedApiKeyRepositoryLive,
        CachedResourceRepositoryLive,
        SuspendedAccountsLive,
        SealedIdempotencyStoreLive(`idempotent-answers:${secret}`)
      ).pipe(Layer.provide(storage))
      // The authorization server (issue 33) over the configured storage; it fetches client metadata
      // documents through the SSRF-safe fetcher (the webhooks' address rule).
      const oauth = OAuthServerLive({
        publicOrigin: config.publicOrigin,
        secret,
        fetch: oauthMetadataFetch(config),
        accessLog: LogLevel.isLessThanOrEqualTo(logLevelOf(config.logLevel), "Info"),
        registrationsPerHour: 20
      }).pipe(Layer.provide(Layer.merge(storage, hotPath)))
      const infrastructure = Layer.mergeAll(
        storage,
        hotPath,
        blobStoreLayer(config, secret),
        IdGenLive,
        // Links' passwords: scrypt; people's: argon2id; both with OWASP's parameters.
        overrides.passwordHashing ?? Layer.merge(ScryptPasswordHasherLive, Argon2PasswordHashingLive),
        AcceleratedFormDefinitionDecoderLive,
        CachedStoredFormDocumentsLive,
        Layer.succeed(BlobSigningSecret, secret),
        NodeConnectionCutter,
        Layer.succeed(PublicOrigin, config.publicOrigin),
        Layer.succeed(McpSettings, { publicOrigin: config.publicOrigin, serverVersion: "1.0.0" }),
        Layer.succeed(RespondentRateLimitPolicy, { perIpPerMinute: config.respondentRequestsPerIp }),
        Layer.succeed(LinkCreationPolicy, { perKeyPerHour: config.sharingLinkCreationsPerHour }),
        Layer.succeed(CountryHeader, Option.getOrUndefined(config.sharingCountryHeader)),
        Layer.succeed(ClientIpHeader, Option.getOrUndefined(config.analyticsIpHeader)),
        Layer.succeed(AnalyticsPolicy, { exportMaxRows: config.analyticsExportMaxRows }),
        Layer.succeed(UploadPolicy, {
          maxBytes: config.sharingUploadMaxBytes,
          quotaBytes: config.sharingStorageQuotaBytes
        }),
        SharpMediaToolsLive,
        YauzlArtifactArchivesLive,
        HttpsWebhookSenderLive({
          allowLoopback: config.webhookAllowLoopback,
          ca: Option.getOrUndefined(Option.map(config.webhookCaFile, (file) => readFileSync(file, "utf8")))
        }),
        Layer.succeed(WebhookSettings, {
          policy: {
            retryDelaysMs: config.webhookRetryDelaysMs,
            disableAfterFailures: config.webhookDisableAfterFailures,
            timeoutMs: DEFAULT_WEBHOOK_POLICY.timeoutMs,
            holdMs: DEFAULT_WEBHOOK_POLICY.holdMs
          },
          allowLoopback: config.webhookAllowLoopback
        }),
        NotionClientSourceLive({
          token: Option.getOrUndefined(Option.map(config.notionToken, Redacted.value)),
          baseUrl: config.notionApiUrl
        }),
        Layer.succeed(ArtifactsFeature, { enabled: config.artifactsEnabled, host: config.artifactHost }),
        Layer.succeed(ArtifactPolicy, config.artifactLimits),
        BuiltInInsightExtractorLive,
        interviewerLayer(config.interviewer),
        mailerLayer(config),
        Layer.succeed(NotificationLinks, { publicOrigin: config.publicOrigin, withdrawalSecret: secret }),
        // People: console sessions' lifetimes, the links e-mailed and shown, passkeys for this origin.
        Layer.succeed(SessionPolicy, {
          idleMs: config.consoleSessionIdleMs,
          absoluteMs: config.consoleSessionMaxMs,
          // Touched at most once a minute, and often enough that a short idle timeout still slides.
          touchEveryMs: Math.min(60_000, Math.floor(config.consoleSessionIdleMs / 4))
        }),
        Layer.succeed(ConsoleLinks, { publicOrigin: config.publicOrigin }),
        SimpleWebAuthnCeremonyLive({ publicOrigin: config.publicOrigin }),
        Layer.succeed(InsightPolicy, {
          autoThreshold: config.insightsAutoThreshold,
          minResponses: 5,
          scanLimit: 2_000
        }),
        Layer.succeed(RateLimitPolicy, {
          perKeyPerMinute: config.rateLimitPerKey,
          byService: {
            sharing: {
              perKeyPerMinute: config.sharingRequestsPerKey,
              perIpPerMinute: config.sharingRequestsPerIp
            }
          },
          authAttemptsPerIpPerMinute: config.authAttemptsPerIp
        }),
        oauth,
        overrides.policies ?? Layer.empty
      )
      // The access log writes at Info; above that level it would only cost every request work (a
      // log span and annotations) for lines that are dropped, so it is left out.
      const requestLogging = LogLevel.isLessThanOrEqualTo(logLevelOf(config.logLevel), "Info")
      // The MCP endpoints answer in their service's error table, as its REST API does; the sharing
      // one also takes OAuth access tokens issued for it (any bearer that is not a `folio_` key).
      const mcp = Layer.mergeAll(
        formsMcpRoute(FormsErrors),
        sharingMcpRoute(SharingErrors, {
          tokenAuthenticator: makeOAuthRequestAuthenticator(
            sharingMcpResource(config.publicOrigin),
            SHARING_SCOPE_SET
          )
        })
      )
      const http = HttpRouter.serve(Layer.mergeAll(HttpSurfaceLive, mcp, OAuthConsentRoutes), {
        disableLogger: !requestLogging,
        // main logs its own "listening" line, with the public origin.
        disableListenLog: true
      }).pipe(
        // The warm link redirect, answered on plain node:http before the Effect app sees it.
        Layer.merge(
          Layer.effectDiscard(
            Effect.flatMap(
              Effect.zip(makeFastRedirect({ accessLog: requestLogging }), Effect.service(OAuthServer)),
              // The authorization server's endpoints and discovery, likewise answered on node:http.
              ([redirect, oauthServer]) =>
                installFastPaths(server, [redirect, oauthServer.fastPath], sampling)
            )
          )
        ),
        // Shared by the REST and MCP surfaces: one buffer of usage tallies, flushed every second.
        Layer.provide(UsageBatcherLive),
        // Idempotency keys past their 24 hours, deleted hourly.
        Layer.merge(IdempotencyHousekeepingLive),
        // Audit events past 180 days, expired console sessions and spent links, deleted hourly.
        Layer.merge(PeopleHousekeepingLive),
        // Responses past their form's research retention, deleted with their files hourly.
        Layer.merge(ResponseRetentionLive),
        // Blob objects no row names (a crash between a blob write and its row's commit), deleted
        // hourly once older than BLOB_ORPHAN_GRACE_HOURS: younger ones may be a write in flight.
        Layer.merge(orphanSweep(config.blobOrphanGraceMs)),
        // This instance's job workers, running every context's jobs: stopped (running jobs finished
        // or released) before the storage they use is closed.
        Layer.merge(
          JobWorkerLive({
            workerId: jobWorkerId(),
            concurrency: config.jobsConcurrency,
            leaseMs: config.jobsLeaseMs,
            pollMs: config.jobsPollMs,
            scheduleEveryMs: config.jobsScheduleMs,
            shutdownGraceMs: config.shutdownGraceMs,
            retry: { baseDelayMs: config.jobsRetryBaseMs, maxDelayMs: 10 * 60_000 }
          }).pipe(Layer.provide(JobRunnerLive))
        ),
        // Public views, counted in memory and written each second; released after the server, so
        // the views of the last requests are written at shutdown.
        Layer.provideMerge(ViewBatcherLive),
        // Visits for analytics, likewise: recorded in memory, written each second and at shutdown.
        Layer.provideMerge(visitRecorder),
        Layer.provide(ReadinessLive),
        // The forms use cases, built once over the configured ports: the handlers and tools need
        // only these services (and the request's Principal), not the ports themselves.
        Layer.provide(FormsServicesLive),
        // The sharing resource use cases and Idempotency-Key handling, likewise.
        Layer.provide(
          Layer.mergeAll(
            SharingResourcesLive,
            SharingIdempotencyLive,
            SharingFilesLive,
            SharingCollectionsLive,
            SharingBioLive,
            SharingArtifactsLive,
            SharingUploadRequestsLive,
            SharingJobsLive,
            SharingNotionMirrorsLive,
            SharingAnalyticsLive,
            SharingWebhooksLive
          )
        ),
        // Built after the server, so released before it: connections are told to wind down before
        // server.close() starts waiting for them.
        Layer.provideMerge(gracefulClose(server, config.shutdownGraceMs)),
        Layer.provideMerge(
          NodeHttpServer.layer(() => server, {
            port: config.port,
            host: config.host,
            // The platform's own wait for requests in flight: the same grace as ours, not its 20 s.
            gracefulShutdownTimeout: Duration.millis(config.shutdownGraceMs)
          })
        )
      )
      return http.pipe(
        Layer.provideMerge(infrastructure),
        Layer.provide(tracing(overrides.tracer, config.traces, sampling))
      )
    })
  )
