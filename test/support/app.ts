// Runs the composed application in-process on a free port, with storage chosen by the test.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULT_COUNTRY_HEADER, FastRedirectEnabled } from "@folio/adapters-http"
import { MemoryStorageLive, ScryptPasswordHasher } from "@folio/adapters-storage"
import { type AppConfig, appLayer, type StorageOverride } from "@folio/app"
import { DEFAULT_ARTIFACT_LIMITS, DEFAULT_MAX_UPLOAD_BYTES, DEFAULT_STORAGE_QUOTA_BYTES } from "@folio/domain"
import { Effect, Exit, Layer, Option, Redacted, References, Scope, type Tracer } from "effect"
import { freePort } from "./free-port.js"
import { CheapHashingLive } from "./people.js"

/**
 * The password hashers of an in-process app: the real scrypt and argon2id at test cost (scrypt
 * N=2^10, r=8, p=1 instead of OWASP's ~0.4 s a hash here; argon2id 1 MiB, one pass). With OWASP's,
 * the protected links and sign-ins were a quarter of test/http's CPU (236 s against 178 s); the
 * costs themselves are the adapters' tests' point (test/runtime), and the built server keeps them.
 */
const TEST_PASSWORD_HASHING = Layer.merge(ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }), CheapHashingLive)

export interface RunningApp {
  readonly origin: string
  readonly config: AppConfig
  /** Runs an effect against the app's own services (repositories, blob store, ids). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, AppServices>) => Promise<A>
  readonly close: () => Promise<void>
}

type AppServices = Layer.Success<ReturnType<typeof appLayer>>

export const startApp = async (
  options: {
    readonly storage?: StorageOverride
    readonly config?: Partial<AppConfig>
    /** Turns tracing on, spans going here (through the app's redaction). */
    readonly tracer?: Tracer.Tracer
    /** false: no node:http fast path in front of the routes (every request reaches them). */
    readonly fastRedirect?: boolean
    /** Policies (References) replacing the configured ones, e.g. a small SignInPolicy. */
    readonly policies?: Layer.Layer<never>
  } = {}
): Promise<RunningApp> => {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "folio-test-app-"))
  const config: AppConfig = {
    port,
    host: "127.0.0.1",
    publicOrigin: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: Option.none(),
    blobStore: "memory",
    s3: Option.none(),
    blobSigningSecret: Option.some(Redacted.make("test-signing-secret-0123456789abcdef")),
    logLevel: "none",
    shutdownGraceMs: 1000,
    rateLimitPerKey: 120,
    sharingRequestsPerKey: 100,
    sharingRequestsPerIp: 100_000,
    sharingLinkCreationsPerHour: 60,
    sharingCountryHeader: Option.some(DEFAULT_COUNTRY_HEADER),
    sharingUploadMaxBytes: DEFAULT_MAX_UPLOAD_BYTES,
    sharingStorageQuotaBytes: DEFAULT_STORAGE_QUOTA_BYTES,
    artifactsEnabled: true,
    artifactHost: "localhost",
    artifactLimits: DEFAULT_ARTIFACT_LIMITS,
    authAttemptsPerIp: 600,
    insightsAutoThreshold: 0.3,
    respondentRequestsPerIp: 100_000,
    // Notion mirrors on, against an address where nothing answers: a suite that mirrors pages
    // points NOTION_API_URL at its fake Notion server.
    // The built-in interviewer; a suite that holds interviews with a model points this at its fake
    // chat-completions server.
    interviewer: Option.none(),
    notionToken: Option.some(Redacted.make("secret_test_notion_token")),
    notionApiUrl: "http://127.0.0.1:9",
    // No mail transport: a suite that sends notification e-mail points this at its SMTP server.
    smtpUrl: Option.none(),
    mailFrom: "Folio <forms@folio.test>",
    jobsConcurrency: 2,
    jobsLeaseMs: 30_000,
    jobsPollMs: 200,
    jobsRetryBaseMs: 100,
    analyticsExportMaxRows: 100_000,
    geoipDbPath: Option.none(),
    analyticsIpHeader: Option.none(),
    jobsScheduleMs: 200,
    webhookRetryDelaysMs: [60_000, 300_000],
    webhookDisableAfterFailures: 15,
    webhookAllowLoopback: false,
    webhookCaFile: Option.none(),
    consoleSessionIdleMs: 12 * 3_600_000,
    consoleSessionMaxMs: 7 * 86_400_000,
    traces: Option.none(),
    metrics: Option.none(),
    blobOrphanGraceMs: 86_400_000,
    ...options.config
  }
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(
      appLayer(config, {
        storage: options.storage ?? MemoryStorageLive,
        passwordHashing: TEST_PASSWORD_HASHING,
        ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
        ...(options.policies === undefined ? {} : { policies: options.policies })
      }),
      scope
    ).pipe(
      Effect.provideService(References.MinimumLogLevel, "None"),
      Effect.provideService(FastRedirectEnabled, options.fastRedirect ?? true)
    )
  )
  return {
    origin: config.publicOrigin,
    config,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
