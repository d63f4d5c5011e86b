// Storage layers over PostgreSQL: a real server (DATABASE_URL) or embedded PGlite under a data
// directory. Both run the same migrations and the same repository code.
import { hostname } from "node:os"
import { mkdirSync } from "node:fs"
import { resolve } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { MemoryInvalidationBusLive } from "../memory/kernel/invalidation-bus.js"
import { PgInvalidationBusLive } from "./kernel/invalidation-bus.js"
import { pgliteConnections } from "./pglite-stream.js"
import {
  AnalyticsStore,
  ApiKeyRepository,
  ArtifactDeployments,
  AuditLog,
  BioSubmissions,
  BlobReferences,
  FormRepository,
  IdempotencyStore,
  type InvalidationBus,
  RateLimitStore,
  ResourceRepository,
  ResponseRepository,
  StorageError,
  UsageStore,
  TenantRepository,
  UploadRequests,
  JobQueue,
  MembershipRepository,
  NotionMirrors,
  OAuthStore,
  OneTimeTokenRepository,
  PasskeyRepository,
  SessionRepository,
  UserRepository,
  WebhookStore
} from "@folio/domain"
import { Cause, Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { StorageHealth, type StoragePorts } from "../health.js"
import { makeRateLimitStore, makeUsageStore } from "./identity/counters.js"
import { orStorageError } from "./errors.js"
import { makeFormRepository } from "./forms/forms.js"
import { migrations } from "./migrations.js"
import { makeResponseRepository } from "./forms/responses.js"
import { makeApiKeyRepository } from "./identity/api-keys.js"
import { makeArtifactDeployments } from "./sharing/artifact-deployments.js"
import { makeBioSubmissions } from "./sharing/bio-submissions.js"
import { makeUploadRequests } from "./sharing/upload-requests.js"
import { makeJobQueue } from "./kernel/jobs.js"
import { makeNotionMirrors } from "./sharing/notion-mirrors.js"
import { makeAnalyticsStore } from "./sharing/analytics.js"
import { makeWebhookStore } from "./sharing/webhooks.js"
import { makeIdempotencyStore } from "./kernel/idempotency.js"
import { makeResourceRepository } from "./sharing/resources.js"
import { makeTenantRepository } from "./identity/tenants.js"
import { makeUserRepository } from "./identity/users.js"
import { makeMembershipRepository } from "./identity/memberships.js"
import { makeSessionRepository } from "./identity/sessions.js"
import { makePasskeyRepository } from "./identity/passkeys.js"
import { makeOneTimeTokenRepository } from "./identity/one-time-tokens.js"
import { makeAuditLog } from "./identity/audit-log.js"
import { makeOAuthStore } from "./identity/oauth-store.js"
import { makeBlobReferences } from "./kernel/blob-references.js"
import { observeStatements } from "../runtime/metrics.js"
import { SoleWriter } from "./forms/read-cache.js"

/** Every storage port over whatever SqlClient is provided. */
export const SqlRepositoriesLive = Layer.effectContext(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // People's ports apart: a pipe holds at most 20 steps.
    const people = Context.make(UserRepository, yield* makeUserRepository).pipe(
      Context.add(MembershipRepository, yield* makeMembershipRepository),
      Context.add(SessionRepository, yield* makeSessionRepository),
      Context.add(PasskeyRepository, yield* makePasskeyRepository),
      Context.add(OneTimeTokenRepository, yield* makeOneTimeTokenRepository),
      Context.add(AuditLog, yield* makeAuditLog),
      Context.add(OAuthStore, yield* makeOAuthStore),
      Context.add(BlobReferences, yield* makeBlobReferences)
    )
    return Context.make(TenantRepository, yield* makeTenantRepository).pipe(
      Context.add(ApiKeyRepository, yield* makeApiKeyRepository),
      Context.add(FormRepository, yield* makeFormRepository),
      Context.add(ResponseRepository, yield* makeResponseRepository),
      Context.add(RateLimitStore, yield* makeRateLimitStore),
      Context.add(UsageStore, yield* makeUsageStore),
      Context.add(ResourceRepository, yield* makeResourceRepository),
      Context.add(IdempotencyStore, yield* makeIdempotencyStore),
      Context.add(BioSubmissions, yield* makeBioSubmissions),
      Context.add(ArtifactDeployments, yield* makeArtifactDeployments),
      Context.add(UploadRequests, yield* makeUploadRequests),
      Context.add(JobQueue, yield* makeJobQueue),
      Context.add(NotionMirrors, yield* makeNotionMirrors),
      Context.add(AnalyticsStore, yield* makeAnalyticsStore),
      Context.add(WebhookStore, yield* makeWebhookStore),
      Context.add(StorageHealth, {
        check: orStorageError(sql`select 1`.pipe(Effect.asVoid)),
        // The pool's connections are named per process (instanceApplicationName), so the server's
        // own view counts this instance's alone, in every state it knows.
        connections: orStorageError(
          sql<{ state: string; count: number }>`
            select coalesce(state, 'unknown') as state, count(*)::int as count
            from pg_stat_activity
            where application_name = current_setting('application_name')
            group by 1`
        )
      }),
      Context.merge(people)
    )
  })
)

// `<never>`: left to inference the migrations' requirements widen to `unknown`.
const MigrationsLive = PgMigrator.layer<never>({ loader: migrations }).pipe(Layer.provide(NodeServices.layer))

const openError = (cause: unknown): StorageError =>
  cause instanceof StorageError ? cause : new StorageError({ message: "cannot open the database", cause })

/**
 * The repositories and the invalidation bus over `client`, after its migrations. `bus` is
 * LISTEN/NOTIFY on a server several instances share, memory on PGlite (one process only).
 */
const withMigrations = <E, R>(
  client: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E, R>,
  bus: Layer.Layer<InvalidationBus, never, PgClient.PgClient>
): Layer.Layer<StoragePorts, StorageError, R> =>
  Layer.merge(SqlRepositoriesLive.pipe(Layer.provide(MigrationsLive)), bus).pipe(
    Layer.provide(client),
    // Layers have no mapError: the failure is re-raised with its errors mapped (defects and
    // interruptions unchanged).
    Layer.catchCause((cause) =>
      Layer.effectContext<StoragePorts, StorageError, never>(Effect.failCause(Cause.map(cause, openError)))
    )
  )

export interface PgStorageOptions {
  readonly url: string
  /** Pool size (default 10). */
  readonly maxConnections?: number
}

/**
 * `folio <host> <pid>`: names this process's connections on a server several instances share, so
 * `pg_stat_activity` tells them apart (the metrics' pool use, and an operator's own queries).
 */
const instanceApplicationName = () => `folio ${hostname()} ${process.pid}`.slice(0, 63)

/** PostgreSQL server storage; migrations run when the layer is built. */
export const PgStorageLive = (options: PgStorageOptions) =>
  withMigrations(
    PgClient.layer({
      url: Redacted.make(options.url),
      maxConnections: options.maxConnections ?? 10,
      applicationName: instanceApplicationName()
    }),
    PgInvalidationBusLive
  )

/**
 * How Folio starts PGlite (the server, the CLI and backups alike): PGlite's own start parameters
 * with a 16 MB buffer cache instead of PostgreSQL's 128 MB. PGlite zeroes its whole cache at every
 * start (~3 ms a MB: 128 MB was ~0.35 s of a ~0.9 s open, and ~110 MB of a process's RSS), and the
 * operating system's page cache keeps the files' pages anyway. Smaller was also faster warm: point
 * reads at 16 fibers 6,011 -> 6,637 a second, GET /forms/{id} no slower (decision 0029).
 */
export const pgliteOptions = (): { startParams: Array<string> } => ({
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"]
})

export interface PgliteStorageOptions {
  /** Where PGlite keeps its files; created (with parents) when missing. */
  readonly dataDir: string
}

/**
 * Embedded PostgreSQL (PGlite), reached with the same client as a real server over in-process
 * connections (pglite-stream.ts). PGlite is one session, so the pool has exactly one connection: a
 * transaction then owns the database until it ends. A second connection would share that session,
 * and one's rollback would silently undo the other's writes (see docs/decisions/0003-storage.md).
 */
export const PgliteStorageLive = (options: PgliteStorageOptions) =>
  withMigrations(PgliteClientLive(options), MemoryInvalidationBusLive).pipe(
    // DATA_DIR's lock keeps every other process out: the repositories may keep what they read.
    Layer.provide(Layer.succeed(SoleWriter, true))
  )

/** The SQL client of the embedded database alone (no migrations), for storage tests. */
export const PgliteClientLive = (options: PgliteStorageOptions) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = resolve(options.dataDir)
      const db = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            mkdirSync(dataDir, { recursive: true })
            return await PGlite.create(dataDir, pgliteOptions())
          },
          catch: (cause) => new StorageError({ message: "cannot open the embedded database", cause })
        }),
        (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
      )
      return PgClient.layer({
        stream: pgliteConnections(db, observeStatements(yield* Effect.context<never>())),
        database: "postgres",
        username: "postgres",
        maxConnections: 1,
        applicationName: "folio"
      })
    })
  )
export { PgInvalidationBusLive } from "./kernel/invalidation-bus.js"
export { SoleWriter } from "./forms/read-cache.js"
